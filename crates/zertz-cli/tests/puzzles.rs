//! `zertz puzzles generate`, run as the real binary: puzzles from real games (the BoardSpace
//! archive kept outside the repository, `../shared/boardspace` or `$ZERTZ_BOARDSPACE`), each
//! replayed here with the rules library; sets merged; bad input refused with a clear error.

use std::path::{Path, PathBuf};
use std::process::Command;

use zertz::Position;
use zertz_engine::puzzles::PuzzleSet;
use zertz_engine::puzzles::solution::verify;

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("puzzles")
        .arg("generate")
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("run zertz puzzles generate");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn archive() -> Option<PathBuf> {
    let dir = match std::env::var_os("ZERTZ_BOARDSPACE") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boardspace"),
    };
    let zip = dir.join("archive-2025/games-Apr-22-2025.zip");
    zip.exists().then_some(zip)
}

#[test]
fn puzzles_from_real_games_replay_and_sets_merge() {
    let Some(zip) = archive() else {
        eprintln!("no BoardSpace archive at ../shared/boardspace or $ZERTZ_BOARDSPACE: skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.json");
    let (stdout, err, code) = run(&[
        "--from",
        zip.to_str().unwrap(),
        "--limit",
        "25",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("25 games scanned"), "{stdout}");
    let set = PuzzleSet::from_json(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(!set.puzzles.is_empty(), "{stdout}");
    for p in &set.puzzles {
        let position: Position = p.position.parse().unwrap();
        verify(&position, &p.solution, p.turns).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert_eq!(p.source.archive, "boardspace");
        assert!(p.source.game.ends_with(".sgf"), "{}", p.source.game);
    }
    assert!(
        stdout.contains("after merging symmetric copies"),
        "{stdout}"
    );
    // The set given back as input is merged in as it is: the same puzzles come out.
    let again = dir.path().join("again.json");
    let (stdout, err, code) = run(&[
        "--from",
        out.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert_eq!(
        std::fs::read_to_string(&again).unwrap(),
        std::fs::read_to_string(&out).unwrap()
    );
}

#[test]
fn bad_input_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.json");
    let (_, err, code) = run(&["--out", out.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("nothing to scan"), "{err}");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"version\":1,\"puzzles\":[\n{\"id\":3}\n]}\n").unwrap();
    let (_, err, code) = run(&[
        "--from",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("bad.json") && err.contains("line 2"), "{err}");
    let (_, err, code) = run(&["--from", "/no/such/dir", "--out", out.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("/no/such/dir"), "{err}");
}
