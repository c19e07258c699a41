//! `zertz analyse`, run as the real binary: a position (its iterations, evaluation, best line
//! and top moves, every move checked by the rules library), a forced win, a whole game where
//! one side throws away a win, the same verdicts as the review module, the time given bounding the whole analysis, and bad input.

use std::process::Command;
use std::time::{Duration, Instant};

use zertz::notation::official;
use zertz::{Game, Position};

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

/// A position from a real game on 48 rings, player 2 to move, no capture pending.
const MIDGAME: &str =
    "48 standard ..-../....../......./-.B..W../-....../.....-/-.-../.--. 2/7/7 1/1/2 2/0/0 2";

/// Player 1 holds three white marbles; capturing the white one on d2 (`x d1Wd3`) completes
/// the four of the white set, capturing the grey one on f2 does not.
const WIN_IN_ONE: &str =
    "37 standard ..../...../....../WW...../....../GG.../.... 1/6/10 3/0/0 0/0/0 1";

/// Runs `zertz analyse ARGS`; gives stdout, stderr and the exit code.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("analyse")
        .args(args)
        .output()
        .expect("run zertz analyse");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The columns of a table line: runs of text separated by two spaces or more (a move may
/// contain single spaces, `Wh1,g2 x Wh1`).
fn columns(line: &str) -> Vec<&str> {
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// True for a score as the command writes it: `+12`, `-3`, `wins in 2` and `loses in 1`
/// (proven by the prover), `search: win in 2, unproven`, `search: loss in 1, unproven`.
fn is_score(text: &str) -> bool {
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let unproven = text
        .strip_prefix("search: ")
        .and_then(|t| t.strip_suffix(", unproven"));
    if let Some(t) = unproven {
        return t
            .strip_prefix("win in ")
            .or(t.strip_prefix("loss in "))
            .is_some_and(number);
    }
    match text
        .strip_prefix("wins in ")
        .or(text.strip_prefix("loses in "))
    {
        Some(n) => number(n),
        None => text
            .strip_prefix('+')
            .or(text.strip_prefix('-'))
            .is_some_and(number),
    }
}

/// Plays a line of moves written as the command writes them (moves separated by single
/// spaces, themselves containing spaces) on `position`: every move must be legal.
fn play_line(position: &Position, text: &str) -> usize {
    let tokens: Vec<&str> = text.split(' ').collect();
    let mut p = position.clone();
    let mut played = 0;
    let mut i = 0;
    while i < tokens.len() {
        // The longest run of tokens from here that reads as a legal move (a capture is `x`
        // and its path; a placement may carry an isolation suffix `x Wa1`).
        let found = (i + 1..=tokens.len().min(i + 6)).rev().find_map(|j| {
            official::parse(&p, &tokens[i..j].join(" "))
                .ok()
                .map(|m| (j, m))
        });
        let (j, mv) = found.unwrap_or_else(|| panic!("`{}` in `{text}` is not legal", tokens[i]));
        p = p.play(&mv).expect("parsed moves are legal");
        played += 1;
        i = j;
    }
    played
}

#[test]
fn a_position_gets_an_evaluation_a_best_line_and_scored_top_moves() {
    let (out, err, code) = run(&[MIDGAME, "--nodes", "30000", "--top", "3"]);
    assert_eq!(code, 0, "{err}");
    let position: Position = MIDGAME.parse().unwrap();
    // One line per iteration, from depth 1.
    assert!(out.starts_with("depth  1  score "), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let eval = lines
        .iter()
        .find_map(|l| l.strip_prefix("player 2 to move; evaluation "))
        .unwrap_or_else(|| panic!("no evaluation:\n{out}"));
    let (score, depth) = eval.split_once(" (depth ").expect("score and depth");
    assert!(is_score(score), "{eval}");
    assert!(depth.trim_end_matches(')').parse::<u32>().unwrap() >= 1);
    let best = lines
        .iter()
        .find_map(|l| l.strip_prefix("best line: "))
        .unwrap_or_else(|| panic!("no best line:\n{out}"));
    assert!(play_line(&position, best) >= 1, "{best}");
    let at = lines
        .iter()
        .position(|l| *l == "top moves:")
        .expect("top moves");
    let top: Vec<Vec<&str>> = lines[at + 1..].iter().map(|l| columns(l)).collect();
    assert_eq!(top.len(), 3, "{out}");
    let mut moves = Vec::new();
    for row in &top {
        assert_eq!(row.len(), 3, "move, score, line: {row:?}");
        let mv = official::parse(&position, row[0])
            .unwrap_or_else(|e| panic!("top move `{}`: {e}", row[0]));
        assert!(is_score(row[1]), "{row:?}");
        // Each move's line starts with the move.
        assert!(row[2].starts_with(row[0]), "{row:?}");
        assert!(play_line(&position, row[2]) >= 1);
        moves.push(mv);
    }
    moves.dedup();
    assert_eq!(moves.len(), 3, "three different moves: {top:?}");
}

#[test]
fn a_forced_win_is_announced_as_a_win_in_n() {
    let (out, err, code) = run(&[WIN_IN_ONE, "--time", "500"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("player 1 to move; evaluation wins in 1 (depth "),
        "{out}"
    );
    assert!(out.contains("best line: x d1Wd3"), "{out}");
    let at = out.find("top moves:").expect("top moves");
    let rows: Vec<Vec<&str>> = out[at..].lines().skip(1).map(columns).collect();
    assert_eq!(rows.len(), 2, "both captures: {out}");
    assert_eq!(rows[0][..2], ["x d1Wd3", "wins in 1"]);
    assert_eq!(rows[1][0], "x f1Gf3");
    assert!(!rows[1][1].starts_with("win"), "{out}");
    // The rules library agrees that the first wins.
    let position: Position = WIN_IN_ONE.parse().unwrap();
    let mv = official::parse(&position, "x d1Wd3").unwrap();
    assert_eq!(
        position.play(&mv).unwrap().winner_by_captures(),
        Some(zertz::Player::One)
    );
}

#[test]
fn a_game_review_marks_a_dropped_win() {
    let dir = std::env::temp_dir().join(format!("zertz-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dropped.txt");
    // Player 1 takes the grey marble instead of the winning white one; player 2 then has a
    // single capture.
    let record = format!("[Start \"{WIN_IN_ONE}\"]\n\n1. x f1Gf3 x d1Wd3 *\n");
    let parsed = zertz::record::Record::parse(&record).expect("a legal record");
    assert_eq!(parsed.game.turns().len(), 2);
    assert_eq!(
        Game::from_position(WIN_IN_ONE.parse().unwrap(), parsed.game.rules())
            .legal_moves()
            .len(),
        2
    );
    std::fs::write(&file, record).unwrap();
    let (out, err, code) = run(&[file.to_str().unwrap(), "--time", "300"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = out.lines().skip(1).take(2).map(columns).collect();
    // A forced win given up for a position still far ahead: a mistake at least (a blunder
    // when what is left is worth much less; see docs/study.md).
    assert_eq!(rows[0][..2], ["1", "P1"], "{out}");
    assert!(["x f1Gf3?", "x f1Gf3??"].contains(&rows[0][2]), "{out}");
    assert!(
        is_score(rows[0][3]) && !rows[0][3].starts_with("win"),
        "{out}"
    );
    assert_eq!(rows[0][4..6], ["x d1Wd3", "wins in 1"], "{out}");
    assert!(["mistake", "blunder"].contains(&rows[0][6]), "{out}");
    // The only move there was is never a mistake.
    assert_eq!(rows[1][..3], ["2", "P2", "x d1Wd3"], "{out}");
    assert_eq!(rows[1][4], "=", "{out}");
    assert_eq!(rows[1][6], "only", "{out}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("player 1:"))
        .unwrap_or("");
    let accuracy: f64 = summary
        .strip_prefix("player 1: 1 moves, accuracy ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(accuracy < 80.0, "{out}");
    assert!(
        summary.ends_with(", 0 inaccuracies (?!), 1 mistakes (?), 0 blunders (??)")
            || summary.ends_with(", 0 inaccuracies (?!), 0 mistakes (?), 1 blunders (??)"),
        "{out}"
    );
    assert!(
        out.contains(
            "player 2: 1 moves, accuracy -, 0 inaccuracies (?!), 0 mistakes (?), 0 blunders (??)"
        ),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_time_given_bounds_the_whole_analysis() {
    // A 61-ring position whose top moves each took a full-depth search of their own after the
    // second the main search was given: over 40 s of CPU before the time was shared out.
    let position = "61 standard -...-/....../......./....G.../...B..G--/.W..B..-/...B.../....../....- 5/6/7 0/0/0 0/0/0 1";
    let started = Instant::now();
    let (out, err, code) = run(&[position, "--time", "1000", "--top", "5"]);
    let took = started.elapsed();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("top moves:"), "{out}");
    // Generous: a loaded machine, the process starting; far below what it took before.
    assert!(took < Duration::from_secs(8), "took {took:?}:\n{out}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["/nonexistent/game.txt"],
            "neither a file nor a position string",
        ),
        (
            &["37 standard nonsense"],
            "neither a file nor a position string",
        ),
        (&[MIDGAME, "--time", "0"], "at least 1"),
        (&[MIDGAME, "--depth", "31"], "--depth must be from 1 to 30"),
        (
            &[MIDGAME, "--set", "nonsense=1"],
            "unknown search parameter",
        ),
        (&[MIDGAME, "--hash", "0"], "--hash from 1 to 4096"),
    ];
    for (args, message) in cases {
        let (out, err, code) = run(args);
        assert_ne!(code, 0, "{args:?} accepted:\n{out}");
        assert!(
            err.contains(message),
            "{args:?}: `{message}` not in:\n{err}"
        );
    }
}

/// `zertz analyse` on a record, without options, gives exactly the verdicts of
/// `zertz_engine::review` at its defaults: the one implementation the server's review uses.
#[test]
fn the_command_gives_the_verdicts_of_the_review_module() {
    use std::sync::atomic::AtomicBool;
    use zertz_engine::review;

    let dir = std::env::temp_dir().join(format!("zertz-analyse-same-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    let record = "1. Bf1,g1 Wd4,f5 2. Gb1,a1 Wf4,a2 *\n";
    let parsed = zertz::record::Record::parse(record).expect("a legal record");
    std::fs::write(&file, record).unwrap();
    let (out, err, code) = run(&[file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let never = AtomicBool::new(false);
    let expected = review::review(
        &review::engine(),
        &parsed.game,
        &review::default_limits(),
        &never,
        &mut |_| {},
    );
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .take(expected.len())
        .map(columns)
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    for (row, r) in rows.iter().zip(&expected) {
        assert_eq!(row.last().copied(), Some(r.mark.name()), "{out}");
        assert_eq!(row[3], r.played_score.to_string(), "{out}");
        assert_eq!(row[5], r.best_score.to_string(), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
