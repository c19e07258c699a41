//! `zertz match`, run as the real binary: the printed score and Elo against the games it wrote
//! with `--out` (replayed by the rules library, each opening twice with the players swapped,
//! the right names as Player1 and Player2), an external engine driven through the protocol
//! (the same binary as `zertz engine`), an SPRT that stops early, and refused arguments.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use zertz::record::Record;
use zertz::{Game, Player, Turn};

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

/// Runs `zertz match ARGS`; gives stdout, stderr and the exit code.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("run zertz match");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A unique scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zertz-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The records of an `--out` file, each replayed by the rules library.
fn records(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).expect("read the records");
    let mut chunks: Vec<String> = Vec::new();
    for line in text.lines() {
        // Every record starts with its Board header.
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

/// Replays a record's turns one by one on a fresh game from its start: every move legal, the
/// same end.
fn replay(record: &Record) -> Game {
    let mut game = Game::from_position(record.game.start().clone(), record.game.rules());
    for turn in record.game.turns() {
        let Turn::Move(mv) = turn else {
            panic!("a match has no passes")
        };
        game.play(mv).expect("every move of a record is legal");
    }
    assert_eq!(game.position(), record.game.position());
    game
}

/// The numbers of the summary: wins, draws, losses, the score in percent and the Elo text.
struct Summary {
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    score: String,
    elo: String,
}

fn summary(out: &str, a: &str, b: &str) -> Summary {
    let mut lines = out.lines();
    let head = lines.next().expect("a first line");
    let games = head
        .strip_prefix(&format!("{a} vs {b}: "))
        .and_then(|rest| rest.split(" games").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("first line: {head}"));
    let tally = lines.next().expect("the tally line");
    let words: Vec<&str> = tally.split_whitespace().collect();
    assert_eq!(
        [words[0], words[2], words[4], words[6]],
        ["wins", "draws", "losses", "score"],
        "{tally}"
    );
    let elo = lines.next().expect("the Elo line");
    Summary {
        games,
        wins: words[1].parse().expect("wins"),
        draws: words[3].parse().expect("draws"),
        losses: words[5].parse().expect("losses"),
        score: words[7].to_string(),
        elo: elo
            .strip_prefix("  Elo difference ")
            .unwrap_or_else(|| panic!("Elo line: {elo}"))
            .to_string(),
    }
}

/// The name `zertz engine` announces with `id`.
fn engine_name() -> String {
    format!("zertz-engine {}", env!("CARGO_PKG_VERSION"))
}

/// The Elo difference of a score, as the summary writes it.
fn elo_text(score: f64) -> String {
    if score >= 1.0 {
        "+inf".into()
    } else if score <= 0.0 {
        "-inf".into()
    } else {
        format!("{:+.0}", -400.0 * (1.0 / score - 1.0).log10())
    }
}

fn elo_value(text: &str) -> f64 {
    match text {
        "+inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        t => t.parse().unwrap_or_else(|_| panic!("an Elo number: {t}")),
    }
}

#[test]
fn a_small_match_reports_and_records_every_game() {
    let dir = scratch("small");
    let out_file = dir.join("games.zertz");
    // Three opening plies: after them player 2 is to move, so the player who moves first from
    // the opening is player 2 in the record.
    let (out, err, code) = run(&[
        "--a",
        "level10",
        "--b",
        "random",
        "--openings",
        "3",
        "--opening-plies",
        "3",
        "--nodes",
        "2000",
        "--seed",
        "3",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let s = summary(&out, "level10", "random");
    assert_eq!(s.games, 6, "{out}");
    assert_eq!(s.wins + s.draws + s.losses, 6, "{out}");
    let score = (s.wins as f64 + s.draws as f64 / 2.0) / 6.0;
    assert_eq!(s.score, format!("{:.1}%", 100.0 * score), "{out}");
    // `+NNN (95%: LOW to HIGH)`, the centre from the score, inside its interval.
    let (centre, interval) = s.elo.split_once(" (95%: ").expect("an interval");
    assert_eq!(centre, elo_text(score), "{out}");
    let (low, high) = interval
        .trim_end_matches(')')
        .split_once(" to ")
        .expect("LOW to HIGH");
    let (low, high, centre) = (elo_value(low), elo_value(high), elo_value(centre));
    assert!(low <= centre && centre <= high && low < high, "{out}");
    assert!(out.contains("average game length "), "{out}");
    // Not a terminal: plain progress lines on stderr, the last with every game.
    assert!(err.contains("6/6 games  +"), "{err}");

    let records = records(&out_file);
    assert_eq!(records.len(), 6);
    // The tally of the records, by the names they give, is the tally printed.
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut by_opening: BTreeMap<String, Vec<&Record>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let game = replay(r);
        assert!(game.is_over(), "record {i} is unfinished");
        assert_eq!(r.header("Round"), Some((i + 1).to_string().as_str()));
        let names = [r.header("Player1"), r.header("Player2")];
        assert!(
            names == [Some("level10"), Some("random")]
                || names == [Some("random"), Some("level10")],
            "{names:?}"
        );
        match game.outcome().and_then(|o| o.winner()) {
            None => draws += 1,
            Some(w) => {
                let winner = names[w.index()].unwrap();
                if winner == "level10" {
                    wins += 1;
                } else {
                    losses += 1;
                }
            }
        }
        by_opening
            .entry(r.header("Event").expect("an Event").to_string())
            .or_default()
            .push(r);
    }
    assert_eq!((wins, draws, losses), (s.wins, s.draws, s.losses), "{out}");
    assert_eq!(by_opening.len(), 3, "{:?}", by_opening.keys());
    for (event, pair) in &by_opening {
        assert_eq!(pair.len(), 2, "{event}");
        let (first, second) = (&pair[0].game, &pair[1].game);
        // The same three opening plies, then the players swapped.
        assert_eq!(first.turns()[..3], second.turns()[..3], "{event}");
        assert_eq!(first.positions()[3].to_move(), Player::Two);
        assert_eq!(pair[0].header("Player1"), pair[1].header("Player2"));
        // The first game of an opening is the one where A moves first from it: as player 2.
        assert_eq!(pair[0].header("Player2"), Some("level10"), "{event}");
        // With the players swapped the games go differently after the opening.
        assert_ne!(first.turns(), second.turns(), "{event}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_external_engine_is_given_each_game_once_then_its_moves() {
    let dir = scratch("external");
    let log = dir.join("commands.log");
    let out_file = dir.join("games.zertz");
    // The external engine is this binary's `zertz engine`, behind `tee` so that the test
    // sees every command the match sends it.
    let spec = format!("cmd:tee -a '{}' | '{BIN}' engine", log.display());
    let (out, err, code) = run(&[
        "--a",
        &spec,
        "--b",
        "level1",
        "--openings",
        "1",
        "--nodes",
        "1500",
        "--no-repetition",
        "--seed",
        "8",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // Labelled by the name it announces with `id`, not by its command line.
    let name = engine_name();
    let s = summary(&out, &name, "level1");
    assert_eq!(s.games, 2, "{out}");
    let records = records(&out_file);
    assert_eq!(records.len(), 2);
    let mut engine_moves = 0;
    // Moves the engine is told with `play`: in each game, those between its first move (when
    // it gets the game with `newgame`) and its last.
    let mut told = 0;
    for r in &records {
        let game = replay(r);
        assert!(game.is_over());
        assert_eq!(game.rules().repetition, zertz::Repetition::Forbidden);
        let ending = r.header("Ending").unwrap_or("");
        assert!(
            !ending.contains("failed") && !ending.contains("illegal"),
            "{ending}"
        );
        let side = if r.header("Player1") == Some(name.as_str()) {
            Player::One
        } else {
            assert_eq!(r.header("Player2"), Some(name.as_str()));
            Player::Two
        };
        // The external engine's moves after the two opening plies.
        let turns: Vec<usize> = (2..game.turns().len())
            .filter(|&i| game.positions()[i].to_move() == side)
            .collect();
        engine_moves += turns.len();
        told += turns.last().unwrap() - turns.first().unwrap();
    }
    let log = std::fs::read_to_string(&log).expect("the log of commands");
    let count = |prefix: &str| log.lines().filter(|l| l.starts_with(prefix)).count();
    // One engine per game: each is told the rule, given its game once, then only moves.
    assert_eq!(count("info"), 2, "{log}");
    assert_eq!(count("options set repetition forbidden"), 2, "{log}");
    assert_eq!(count("options set hash 32"), 2, "{log}");
    assert_eq!(count("newgame "), 2, "{log}");
    assert_eq!(count("bestmove nodes 1500"), engine_moves, "{log}");
    assert_eq!(count("bestmove"), engine_moves, "{log}");
    assert_eq!(count("play "), told, "{log}");
    assert_eq!(count("quit"), 2, "{log}");

    // A time per move is sent as the protocol's `time`.
    let log = dir.join("timed.log");
    let spec = format!("cmd:tee -a '{}' | '{BIN}' engine", log.display());
    let (_, err, code) = run(&[
        "--a",
        &spec,
        "--b",
        "random",
        "--openings",
        "1",
        "--movetime",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(&log).expect("the log of commands");
    let bestmoves: Vec<&str> = log.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert!(!bestmoves.is_empty());
    assert!(bestmoves.iter().all(|l| *l == "bestmove time 20"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_stops_the_match_when_it_is_decided() {
    // Level 10 against random: a few straight wins decide a gain of 200 Elo (H1) long before
    // the 100 games are played; the other way round, a loss of 200 (H0).
    for (a, b, verdict) in [
        ("level10", "random", "H1 accepted"),
        ("random", "level10", "H0 accepted"),
    ] {
        let (out, err, code) = run(&[
            "--a",
            a,
            "--b",
            b,
            "--openings",
            "50",
            "--nodes",
            "1000",
            "--sprt",
            "0,200",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
        assert_eq!(v["sprt"]["verdict"], verdict, "{out}");
        let games = v["games"].as_u64().expect("games");
        assert!((2..100).contains(&games), "{out}");
        let llr = v["sprt"]["llr"].as_f64().expect("llr");
        let bound = if verdict == "H1 accepted" {
            v["sprt"]["upper"].as_f64().unwrap()
        } else {
            -v["sprt"]["lower"].as_f64().unwrap()
        };
        assert!(llr.abs() >= bound, "{out}");
        let (wins, losses) = (v["wins"].as_u64().unwrap(), v["losses"].as_u64().unwrap());
        assert_eq!(wins + losses + v["draws"].as_u64().unwrap(), games);
    }
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let base = ["--a", "random", "--b", "random", "--openings", "1"];
    let cases: &[(&[&str], &str)] = &[
        (&["--openings", "0"], "--openings must be at least 1"),
        (&["--a", "nobody"], "unknown player `nobody`"),
        (&["--b", "level11"], "a level is 1 to 10"),
        (&["--sprt", "5"], "--sprt is ELO0,ELO1"),
        (&["--sprt", "10,0"], "ELO0 must be below ELO1"),
        (&["--sprt", "0,10", "--sprt-error", "0.7"], "--sprt-error"),
        (&["--board", "99"], "bad --board"),
        (&["--rules", "fast"], "bad --rules"),
        (&["--a-set", "nonsense=1"], "unknown search parameter"),
        (&["--a-set", "nonsense"], "NAME=VALUE"),
        (
            &["--clock", "sandglass 5"],
            "--clock: unknown clock `sandglass`",
        ),
        (
            &["--clock", "fischer 0 5"],
            "--clock: clock fischer remaining",
        ),
        (&["--movetime", "0"], "--movetime must be at least 1"),
        (&["--movetime-b", "0"], "--movetime-b must be at least 1"),
        (&["--depth", "31"], "--depth must be from 1 to 30"),
        (&["--hash", "0"], "--hash must be from 1 to 4096"),
        (&["--threads", "0"], "--threads must be from 1 to 64"),
        (&["--a-weights", "/nonexistent/weights.txt"], "cannot read"),
        (&["--a", "cmd:"], "an external engine is `cmd:PROGRAM ARGS`"),
        (
            &["--a", "cmd:/nonexistent/engine"],
            "exited without answering `info`",
        ),
        // Every one-ply opening on two rings ends the game: refused, not an endless search.
        (
            &["--board", "a1-2", "--opening-plies", "1"],
            "cannot make 1 openings of 1 random plies",
        ),
    ];
    for (args, message) in cases {
        // The base arguments that the case does not give itself.
        let mut all: Vec<&str> = args.to_vec();
        for pair in base.chunks(2) {
            if !args.contains(&pair[0]) {
                all.extend_from_slice(pair);
            }
        }
        let (out, err, code) = run(&all);
        assert_ne!(code, 0, "{args:?} accepted:\n{out}");
        assert!(
            err.contains(message),
            "{args:?}: `{message}` not in:\n{err}"
        );
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// `zertz engine` behind `tee` (the commands it is sent go to `log`) and a `sed` that rewrites
/// its answers with `script`.
fn filtered_engine(log: &Path, script: &str) -> String {
    format!(
        "cmd:tee -a '{}' | '{BIN}' engine | sed -u {script}",
        log.display()
    )
}

#[test]
fn positions_are_compared_by_meaning_not_by_text() {
    let dir = scratch("meaning");
    // The same positions written otherwise: every space of a position line doubled, and every
    // line ended by `\r\n`. Nothing is forfeited, and each game is sent once: the runner took
    // the answers to `play` as agreeing, or it would have sent the game again with `newgame`.
    let log = dir.join("spaced.log");
    let spaced = filtered_engine(&log, r"-e '/^[0-9]/s/ /  /g' -e 's/$/\r/'");
    let out_file = dir.join("spaced.zertz");
    let (out, err, code) = run(&[
        "--a",
        &spaced,
        "--b",
        "level1",
        "--openings",
        "1",
        "--nodes",
        "500",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let name = engine_name();
    assert!(
        out.starts_with(&format!("{name} vs level1: 2 games")),
        "{out}"
    );
    for r in records(&out_file) {
        let ending = r.header("Ending").unwrap_or("");
        assert!(!ending.contains("failed"), "{ending}");
        assert!(replay(&r).is_over());
    }
    let sent = std::fs::read_to_string(&log).expect("the log of commands");
    let count = |prefix: &str| sent.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("newgame "), 2, "{sent}");
    assert!(count("play ") > 4, "{sent}");

    // Another position: the player to move swapped in every position line. Each game is
    // forfeited at the engine's first move, and the reason gives both positions and the field.
    let log = dir.join("swapped.log");
    let swapped = filtered_engine(
        &log,
        "-e '/^[0-9]/s/ 1$/ X/' -e '/^[0-9]/s/ 2$/ 1/' -e '/^[0-9]/s/ X$/ 2/'",
    );
    let out_file = dir.join("swapped.zertz");
    let (out, err, code) = run(&[
        "--a",
        &swapped,
        "--b",
        "level1",
        "--openings",
        "1",
        "--nodes",
        "500",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wins 0  draws 0  losses 2"), "{out}");
    for r in records(&out_file) {
        let ending = r.header("Ending").expect("an Ending");
        let ours = r.game.position().to_string();
        let to_move = r.game.position().to_move().number();
        let theirs = format!("{} {}", &ours[..ours.len() - 2], 3 - to_move);
        for part in [
            format!(
                "{name} failed: after `newgame`, the engine holds `{theirs}`, the match `{ours}`"
            ),
            format!("to move: the match {to_move}, the engine {}", 3 - to_move),
        ] {
            assert!(ending.contains(&part), "`{part}` not in `{ending}`");
        }
        // Forfeited at the engine's first move: after the two opening plies and, when the
        // other player moved first from the opening, its one move.
        let engine_side = if r.header("Player1") == Some(name.as_str()) {
            Player::One
        } else {
            Player::Two
        };
        assert_eq!(r.game.position().to_move(), engine_side, "{ending}");
        assert!((2..=3).contains(&r.game.turns().len()), "{ending}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The milliseconds of `time` in every `bestmove` a log of commands holds.
fn bestmove_times(log: &Path) -> Vec<String> {
    let sent = std::fs::read_to_string(log).expect("the log of commands");
    sent.lines()
        .filter(|l| l.starts_with("bestmove"))
        .map(|l| l.to_string())
        .collect()
}

/// The mean time per move on the summary's line of a side.
fn mean_ms(out: &str, prefix: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in {out}"));
    let at = line.find("mean ").expect("a mean") + 5;
    line[at..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a mean in `{line}`"))
}

/// Tests that hold the engine to the machine's own clock. CI skips every test under a
/// `wall_clock` module while the suites, Chromium and the lint share its two cores, and runs
/// them alone afterwards (`.ci/run`): a process starved of a core overruns any deadline.
mod wall_clock {
    use super::*;

    // In this module for its last check: the mean time of a side given 10 ms a move below
    // that of one given 60 (beside Chromium and the lint, the 10 ms side's mean came to 105 ms).
    #[test]
    fn time_odds_give_each_side_its_own_time_per_move() {
        let dir = scratch("odds");
        let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
        let a = format!("cmd:tee -a '{}' | '{BIN}' engine", log_a.display());
        let b = format!("cmd:tee -a '{}' | '{BIN}' engine", log_b.display());
        // `--movetime` for B, A's own for A.
        let (out, err, code) = run(&[
            "--a",
            &a,
            "--b",
            &b,
            "--openings",
            "1",
            "--movetime",
            "60",
            "--movetime-a",
            "10",
        ]);
        assert_eq!(code, 0, "{err}");
        let (ta, tb) = (bestmove_times(&log_a), bestmove_times(&log_b));
        assert!(!ta.is_empty() && !tb.is_empty());
        assert!(ta.iter().all(|l| l == "bestmove time 10"), "{ta:?}");
        assert!(tb.iter().all(|l| l == "bestmove time 60"), "{tb:?}");
        // The same name announced by both: told apart in the summary.
        let name = engine_name();
        let (pa, pb) = (format!("  A {name} (A): "), format!("  B {name} (B): "));
        assert!(
            out.starts_with(&format!("{name} (A) vs {name} (B): 2 games")),
            "{out}"
        );
        assert!(
            out.contains(&format!("{pa}{} moves (limits: time 10)", ta.len())),
            "{out}"
        );
        assert!(
            out.contains(&format!("{pb}{} moves (limits: time 60)", tb.len())),
            "{out}"
        );
        // Six times the time per move shows in the time each took.
        assert!(mean_ms(&out, &pa) < mean_ms(&out, &pb), "{out}");

        // `--movetime-b` alone: A has the shared one (none here: a node limit instead).
        let _ = std::fs::remove_file(&log_a);
        let _ = std::fs::remove_file(&log_b);
        let (_, err, code) = run(&[
            "--a",
            &a,
            "--b",
            &b,
            "--openings",
            "1",
            "--nodes",
            "800",
            "--movetime-b",
            "15",
        ]);
        assert_eq!(code, 0, "{err}");
        let (ta, tb) = (bestmove_times(&log_a), bestmove_times(&log_b));
        assert!(ta.iter().all(|l| l == "bestmove nodes 800"), "{ta:?}");
        assert!(
            tb.iter().all(|l| l == "bestmove time 15 nodes 800"),
            "{tb:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_clock_is_sent_with_what_is_left_on_it() {
        let dir = scratch("clock");
        let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
        let a = format!("cmd:tee -a '{}' | '{BIN}' engine", log_a.display());
        let b = format!("cmd:tee -a '{}' | '{BIN}' engine", log_b.display());
        let records = dir.join("games.zertz");
        let (out, err, code) = run(&[
            "--a",
            &a,
            "--b",
            &b,
            "--openings",
            "1",
            "--clock",
            "fischer 3000 20",
            "--out",
            records.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        for log in [&log_a, &log_b] {
            // Each engine process plays one game and the log gathers both: split at `newgame`.
            let text = std::fs::read_to_string(log).expect("the log of commands");
            let mut games: Vec<Vec<u64>> = Vec::new();
            for line in text.lines() {
                if line.starts_with("newgame") {
                    games.push(Vec::new());
                } else if line.starts_with("bestmove") {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    assert_eq!(words[..3], ["bestmove", "clock", "fischer"], "{line}");
                    assert_eq!(words[4], "20", "{line}");
                    games
                        .last_mut()
                        .expect("a game")
                        .push(words[3].parse().unwrap());
                }
            }
            assert_eq!(games.len(), 2, "{text}");
            for left in &games {
                // The first move has the whole clock; every later one the time left: what the
                // moves before took is charged and the increment added, so it changes from move
                // to move and never grows by more than the increment.
                assert_eq!(left[0], 3_000, "{left:?}");
                for w in left.windows(2) {
                    assert!(w[1] <= w[0] + 20, "{left:?}");
                }
                assert!(left.windows(2).any(|w| w[1] != w[0]), "{left:?}");
            }
        }
        assert!(out.contains("(limits: clock fischer 3000 20)"), "{out}");
        let games = std::fs::read_to_string(&records).unwrap();
        assert!(!games.contains("lost on time"), "{games}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
