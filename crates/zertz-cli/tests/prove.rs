//! `zertz prove`, run as the real binary: a proven win with its moves and main line (replayed
//! here with the rules library), a proven "no win", an unknown, a finished position and a bad
//! position refused, each with its exit status.

use std::process::Command;

use zertz::Position;
use zertz::notation::official;

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

/// Player 2 wins in 2, the second turn a chain capture (`zertz_engine::prove`'s tests).
const CHAIN_IN_2: &str =
    "37 standard --BW/.--.-/-..B.-/--..G.W/---.--/--WB-/---- 0/3/1 1/2/3 2/2/3 2";

fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("prove")
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("run zertz prove");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn a_win_is_printed_with_its_moves_and_a_legal_main_line() {
    let (out, err, code) = run(&[CHAIN_IN_2, "--turns", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "player 2 wins in 2", "{out}");
    let p: Position = CHAIN_IN_2.parse().unwrap();
    // Every winning move printed is legal and is not a win at once.
    let moves = lines[1].split_once("): ").unwrap().1;
    assert!(lines[1].contains("every legal move checked"), "{out}");
    for m in moves.split(", ") {
        let mv = official::parse(&p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert!(p.play(&mv).unwrap().winner_by_captures().is_none());
    }
    // The main line replays and ends with player 2 holding a winning set.
    let line = lines[2].strip_prefix("main line: ").unwrap();
    let mut q = p;
    let mut tokens = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        if word.ends_with('.') && word[..word.len() - 1].chars().all(|c| c.is_ascii_digit()) {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
            continue;
        }
        if let Some(reply) = word.strip_prefix('(') {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
            current.push_str(reply);
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        if current.ends_with(')') {
            current.pop();
            tokens.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    assert_eq!(tokens.len(), 3, "{tokens:?}");
    for t in &tokens {
        let mv = official::parse(&q, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        q = q.play(&mv).unwrap();
    }
    assert_eq!(q.winner_by_captures(), Some(zertz::Player::Two));
    assert!(out.contains("replayed and checked"), "{out}");
}

#[test]
fn no_win_and_unknown_have_their_own_exit_status() {
    let start = Position::standard().to_string();
    let (out, _, code) = run(&[&start, "--turns", "1"]);
    assert_eq!(code, 3, "{out}");
    assert!(out.starts_with("player 1: no win within 1 turn\n"), "{out}");
    let (out, _, code) = run(&[&start, "--turns", "3", "--nodes", "50"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.starts_with("player 1: unknown within 50 nodes"),
        "{out}"
    );
}

#[test]
fn a_finished_or_unreadable_position_is_refused() {
    let over = "37 standard W.../-----/------/-------/------/-----/---- 2/8/10 4/0/0 0/0/0 2";
    let (out, err, code) = run(&[over]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("the game is over"), "{err}");
    let bad = "37 standard W.X./-----/------/-------/------/-----/---- 2/8/10 3/0/0 0/0/0 2";
    let (_, err, code) = run(&[bad]);
    assert_eq!(code, 1);
    assert!(err.contains("`X`") && err.contains("places"), "{err}");
    let (_, err, code) = run(&[CHAIN_IN_2, "--turns", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("--turns"), "{err}");
}
