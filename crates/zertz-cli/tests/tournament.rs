//! `zertz tournament`: `pair` reproduces rounds of the shared Swiss tournaments
//! (`../shared/swiss` or `$ZERTZ_SWISS`, when present) through the binary, `simulate` prints
//! a tournament whose every round `pair` pairs again identically, and a malformed file is
//! refused with its line and column.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use zertz_tournament::trf::{Colour, Line, ResultCode, RoundEntry, Trf};

fn zertz() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zertz"))
}

/// Round `k` of a tournament as a file to pair: the first k-1 rounds, the round-k absences
/// known in advance, `XXR` and `XXC`.
fn round_file(full: &Trf, k: usize) -> Trf {
    let rounds = full.players().map(|p| p.rounds.len()).max().unwrap_or(0);
    let initial = full
        .players()
        .filter(|p| matches!(p.rounds.first(), Some(Some(e)) if e.opponent.is_some()))
        .min_by_key(|p| p.start_rank)
        .and_then(|p| p.rounds[0].and_then(|e| e.colour))
        .unwrap_or(Colour::White);
    let mut t = full.clone();
    t.lines
        .retain(|l| !matches!(l, Line::Rounds(_) | Line::InitialColour(_)));
    for p in t.players_mut() {
        let e = p.rounds.get(k - 1).copied().flatten();
        p.rounds.truncate(k - 1);
        let pts: u32 = p
            .rounds
            .iter()
            .flatten()
            .map(|e| e.result.half_points())
            .sum();
        p.points_tenths = Some(pts * 5);
        if let Some(e) = e
            && e.opponent.is_none()
            && matches!(
                e.result,
                ResultCode::HalfBye | ResultCode::ZeroBye | ResultCode::FullBye
            )
        {
            p.rounds.resize(k - 1, None);
            p.rounds.push(Some(e));
        }
    }
    t.lines.push(Line::Rounds(rounds as u32));
    t.lines.push(Line::InitialColour(initial));
    t
}

/// What the program must print for round `k`: the pairs (white, black) and the bye.
fn expected(full: &Trf, k: usize) -> (BTreeSet<(u32, u32)>, Option<u32>) {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for p in full.players() {
        match p.rounds.get(k - 1).copied().flatten() {
            Some(RoundEntry {
                opponent: Some(o),
                colour: Some(Colour::White),
                ..
            }) => {
                pairs.insert((p.start_rank, o));
            }
            Some(RoundEntry {
                opponent: None,
                result: ResultCode::PairingBye,
                ..
            }) => bye = Some(p.start_rank),
            _ => {}
        }
    }
    (pairs, bye)
}

/// Runs `zertz tournament pair` on a file and reads its answer.
fn pair(dir: &Path, name: &str, trf: &Trf) -> (BTreeSet<(u32, u32)>, Option<u32>) {
    let path = dir.join(name);
    std::fs::write(&path, trf.write("\r")).expect("write the round file");
    let out = zertz()
        .args(["tournament", "pair", "--system", "dutch"])
        .arg(&path)
        .output()
        .expect("run zertz");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut lines = text.lines();
    let count: usize = lines
        .next()
        .expect("count")
        .trim()
        .parse()
        .expect("a number");
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    let mut n = 0;
    for l in lines {
        let v: Vec<u32> = l
            .split_whitespace()
            .map(|x| x.parse().expect("number"))
            .collect();
        assert_eq!(v.len(), 2, "{l:?}");
        n += 1;
        if v[1] == 0 {
            bye = Some(v[0]);
        } else {
            pairs.insert((v[0], v[1]));
        }
    }
    assert_eq!(count, n, "the count is the number of lines that follow");
    (pairs, bye)
}

fn shared() -> Option<PathBuf> {
    [
        std::env::var_os("ZERTZ_SWISS").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/swiss")),
        Some(PathBuf::from("/work/shared/swiss")),
    ]
    .into_iter()
    .flatten()
    .find(|d| d.is_dir())
}

#[test]
fn pair_reproduces_rounds_of_the_shared_tournaments() {
    let Some(dir) = shared() else {
        eprintln!(
            "\n!!! NO SWISS TOURNAMENTS at $ZERTZ_SWISS or ../shared/swiss: `zertz tournament pair` NOT checked against them !!!\n"
        );
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    let mut checked = 0;
    // Every 25th file, every round: byes, absences and late rounds included.
    for f in files.iter().step_by(25) {
        let full = Trf::parse(&std::fs::read_to_string(f).expect("read")).expect("parse");
        let rounds = full.players().map(|p| p.rounds.len()).max().unwrap_or(0);
        for k in 1..=rounds {
            let got = pair(tmp.path(), "round.trf", &round_file(&full, k));
            assert_eq!(got, expected(&full, k), "{} round {k}", f.display());
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} rounds checked");
}

#[test]
fn simulate_prints_a_tournament_that_pairs_again_identically() {
    let out = zertz()
        .args([
            "tournament",
            "simulate",
            "--system",
            "dutch",
            "--players",
            "27",
            "--rounds",
            "7",
            "--seed",
            "5",
        ])
        .output()
        .expect("run zertz");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let full = Trf::parse(&text).expect("the output is TRF");
    assert_eq!(full.players().count(), 27);
    assert_eq!(full.total_rounds(), Some(7));
    let tmp = tempfile::tempdir().expect("temp dir");
    for k in 1..=7 {
        let got = pair(tmp.path(), "sim.trf", &round_file(&full, k));
        assert_eq!(got, expected(&full, k), "round {k}");
    }
    // The same seed, the same tournament.
    let again = zertz()
        .args([
            "tournament",
            "simulate",
            "--players",
            "27",
            "--rounds",
            "7",
            "--seed",
            "5",
        ])
        .output()
        .expect("run zertz");
    assert_eq!(String::from_utf8(again.stdout).expect("utf-8"), text);
}

#[test]
fn a_malformed_file_is_refused_with_line_and_column() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join("bad.trf");
    std::fs::write(
        &path,
        "012 Bad\n001    1      A                                 2000                             1.0    1     2 x 1\n",
    )
    .expect("write");
    let out = zertz()
        .args(["tournament", "pair"])
        .arg(&path)
        .output()
        .expect("run zertz");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2, column 97"), "{err}");
}
