//! `zertz loadtest` at a tiny scale: it starts its own server, plays, and reports what it
//! measured. (The figures at full scale are in docs/performance.md; speed is not tested here.)

use std::process::Command;

#[test]
fn a_small_loadtest_plays_and_reports() {
    let out = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["loadtest", "--games", "4", "--think-ms", "50"])
        .args(["--warmup", "1", "--seconds", "2"])
        .output()
        .expect("running zertz loadtest");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(" s (after 1 s of warm-up)"), "{stdout}");
    // Four games moving about every 50 ms for two seconds: far more than ten moves.
    let moves: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves acknowledged "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no move count in\n{stdout}"));
    assert!(moves > 10, "{stdout}");
    assert!(stdout.contains("refused moves 0   errors 0"), "{stdout}");
    assert!(stdout.contains("ack latency ms    p50 "), "{stdout}");
    // The bytes a move costs: events of a few hundred bytes to each of two players (the
    // whole state was ~18 KB), and a few dozen bytes for the move sent.
    let per_move: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bytes per move  "))
        .and_then(|rest| rest.trim().parse().ok())
        .unwrap_or_else(|| panic!("no bytes per move in\n{stdout}"));
    assert!((200..2 * 1024).contains(&per_move), "{stdout}");
}
