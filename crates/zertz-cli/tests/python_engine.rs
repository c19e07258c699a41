//! The protocol from outside Rust: `examples/random_engine.py` (Python 3, standard library
//! only, random legal moves from the runner's `legalmoves`) plays a short match against this
//! binary's `zertz engine` through `zertz match`. Checked: the result, the players labelled by
//! the names they announce with `id`, the Python engine's standard error in its log beside the
//! records, and the time and nodes per move of each side in the summary.
//!
//! Without `python3` on the PATH the test prints a NOT RUN line and passes.

use std::path::PathBuf;
use std::process::Command;

use zertz::record::Record;
use zertz::{Game, Turn};

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

fn python() -> Option<&'static str> {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    found.then_some("python3")
}

/// The records of an `--out` file.
fn records(text: &str) -> Vec<Record> {
    let mut chunks: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Board ") || chunks.is_empty() {
            chunks.push(String::new());
        }
        let chunk = chunks.last_mut().expect("a chunk");
        chunk.push_str(line);
        chunk.push('\n');
    }
    chunks
        .iter()
        .map(|c| Record::parse(c).unwrap_or_else(|e| panic!("{e}:\n{c}")))
        .collect()
}

/// The figures of a side's line: moves, mean and longest time in ms, and nodes per move.
fn side(out: &str, prefix: &str) -> (usize, f64, f64, Option<u64>) {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}` in:\n{out}"));
    let after = |word: &str| -> &str {
        let at = line
            .find(word)
            .unwrap_or_else(|| panic!("`{word}` not in `{line}`"));
        line[at + word.len()..]
            .split([' ', ','])
            .next()
            .unwrap_or("")
    };
    let moves = line[prefix.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("moves in `{line}`"));
    let mean: f64 = after("time per move mean ").parse().expect("mean");
    let max: f64 = after(", max ").parse().expect("max");
    let nodes = if line.ends_with("nodes not reported") {
        None
    } else {
        Some(after("nodes per move ").parse().expect("nodes"))
    };
    (moves, mean, max, nodes)
}

#[test]
fn the_python_random_engine_plays_a_match() {
    let Some(python) = python() else {
        eprintln!("NOT RUN: python3 is not on the PATH (the Python engine's match)");
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/random_engine.py");
    let dir = std::env::temp_dir().join(format!("zertz-python-engine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let out_file = dir.join("games.zertz");
    let ours = format!("cmd:'{BIN}' engine");
    let theirs = format!("cmd:{python} '{}' --seed 3", script.display());
    let output = Command::new(BIN)
        .args(["match", "--a", &ours, "--b", &theirs])
        .args(["--openings", "2", "--movetime", "20", "--seed", "4"])
        .arg("--out")
        .arg(&out_file)
        .output()
        .expect("run zertz match");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}\n{out}");

    // Labelled by the names announced with `id`, not by the command lines.
    let a = format!("zertz-engine {}", env!("CARGO_PKG_VERSION"));
    let b = "random_engine.py 1.0";
    let head = out.lines().next().expect("a first line");
    assert!(
        head.starts_with(&format!("{a} vs {b}: 4 games in ")),
        "{out}"
    );
    // The engine beats a random mover in every game, none of them forfeited.
    assert!(out.contains("wins 4  draws 0  losses 0"), "{out}");
    let text = std::fs::read_to_string(&out_file).expect("the records");
    let records = records(&text);
    assert_eq!(records.len(), 4);
    let (mut a_moves, mut b_moves) = (0, 0);
    for r in &records {
        let ending = r.header("Ending").expect("an Ending");
        assert!(
            !ending.contains("failed") && !ending.contains("illegal"),
            "{ending}"
        );
        let names = [r.header("Player1"), r.header("Player2")];
        assert!(
            names == [Some(a.as_str()), Some(b)] || names == [Some(b), Some(a.as_str())],
            "{names:?}"
        );
        // Every move legal, and counted for the side that made it (after the two opening
        // plies, which nobody chose).
        let mut game = Game::from_position(r.game.start().clone(), r.game.rules());
        for (i, turn) in r.game.turns().iter().enumerate() {
            let Turn::Move(mv) = turn else {
                panic!("no pass in a match")
            };
            if i >= 2 {
                let mover = names[game.to_move().index()];
                if mover == Some(a.as_str()) {
                    a_moves += 1;
                } else {
                    b_moves += 1;
                }
            }
            game.play(mv).expect("a legal move");
        }
        assert!(game.is_over());
    }

    // Per side: the moves of the records, times that hold together, nodes where reported.
    let (moves, mean, max, nodes) = side(&out, &format!("  A {a}: "));
    assert_eq!(moves, a_moves, "{out}");
    assert!(mean > 0.0 && mean <= max, "{out}");
    // Our engine writes an `info … nodes N` line before its `bestmove`.
    assert!(nodes.is_some_and(|n| n > 0), "{out}");
    let (moves, mean, max, nodes) = side(&out, &format!("  B {b}: "));
    assert_eq!(moves, b_moves, "{out}");
    assert!(mean > 0.0 && mean <= max, "{out}");
    assert_eq!(nodes, None, "{out}");
    assert!(out.contains("(limits: time 20)"), "{out}");

    // The Python engine's standard error, beside the records: one process per game.
    let log_path = dir.join("games.b-stderr.log");
    assert!(
        out.contains(&format!("standard error: {}", log_path.display())),
        "{out}"
    );
    let log = std::fs::read_to_string(&log_path).expect("the Python engine's log");
    for n in 1..=4 {
        assert!(
            log.contains(&format!("[{n}] random_engine.py: started, seed 3")),
            "process {n}:\n{log}"
        );
        assert!(
            log.contains(&format!("[{n}] random_engine.py: quit")),
            "{log}"
        );
    }
    let chose = log
        .lines()
        .filter(|l| l.contains("random_engine.py: chose "))
        .count();
    assert_eq!(chose, b_moves, "{log}");
    assert!(dir.join("games.a-stderr.log").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
