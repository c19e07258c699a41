//! `zertz play`, driven through the real binary: a whole game against the engine in a
//! pseudo-terminal (rexpect), and bad input, saving and loading, two players, bribes and the
//! end of the input through pipes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use rexpect::ReadUntil;
use rexpect::process::WaitStatus;
use rexpect::session::spawn_command;
use zertz::notation::official;
use zertz::record::Record;
use zertz::{Game, Move, Player, Position};

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

/// Runs `zertz play ARGS` with `input` on a pipe; gives stdout, stderr and the exit code.
fn piped(args: &[&str], input: &str) -> (String, String, i32) {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start zertz play");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the input");
    let out = child.wait_with_output().expect("wait for zertz play");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The answers to `position` commands, in order (the lines that are position strings).
fn positions_printed(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| l.rsplit("> ").next().unwrap_or(l).trim())
        .filter(|l| l.parse::<Position>().is_ok() && l.split(' ').count() == 7)
        .map(str::to_string)
        .collect()
}

/// A unique scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zertz-play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The test's own choice: a winning move, else the move that captures the most, else the first.
fn greedy(game: &Game) -> Move {
    let position = game.position();
    let me = position.to_move();
    let moves = game.legal_moves();
    let mut best = moves[0];
    let mut best_value = i32::MIN;
    for mv in &moves {
        let next = position.play(mv).expect("a legal move plays");
        let value = if next.winner_by_captures() == Some(me) {
            i32::MAX
        } else {
            next.captures(me).total() as i32
        };
        if value > best_value {
            best_value = value;
            best = *mv;
        }
    }
    best
}

/// Plays a whole game against the level 1 engine in a pseudo-terminal, keeping a `Game` of
/// its own in sync from the engine's announced moves.
fn whole_game_in_a_pty(side: &str, human: Player) {
    let mut command = Command::new(BIN);
    command.args([
        "play",
        "--level",
        "1",
        "--seed",
        "11",
        "--seat",
        side,
        "--colour",
        "never",
        "--time-per-move",
        "300",
        "--name",
        "Tess",
    ]);
    let mut session = spawn_command(command, Some(30_000)).expect("spawn in a pty");
    let mut game = Game::standard();
    let mut turns = 0;
    let last;
    loop {
        let (before, matched) = session
            .exp_any(vec![
                ReadUntil::String("your move> ".into()),
                ReadUntil::String("game over> ".into()),
            ])
            .expect("a prompt");
        for line in before.lines() {
            if let Some(at) = line.find("engine plays ") {
                let text = line[at + "engine plays ".len()..].trim();
                assert_ne!(
                    game.to_move(),
                    human,
                    "the engine moved out of turn: {text}"
                );
                let mv = official::parse(game.position(), text)
                    .unwrap_or_else(|e| panic!("the engine's move `{text}`: {e}"));
                game.play(&mv).expect("the engine's move is legal");
                turns += 1;
            }
        }
        if matched == "game over> " {
            last = before;
            break;
        }
        assert!(
            !game.is_over(),
            "the game is over but zertz asks for a move:\n{before}"
        );
        assert_eq!(
            game.to_move(),
            human,
            "asked for a move out of turn:\n{before}"
        );
        let mv = greedy(&game);
        let text = official::move_text(game.position(), &mv);
        game.play(&mv).expect("our move is legal");
        turns += 1;
        session.send_line(&text).expect("send a move");
        assert!(turns < 200, "the game does not end");
    }
    let outcome = game.outcome().expect("the test's game is over too");
    eprintln!("{side}: {turns} turns, {outcome}");
    assert!(turns >= 7, "a winning set takes several turns, not {turns}");
    // The sentence the web page says for the same end.
    let mut names = ["The engine", "The engine"];
    names[human.index()] = "Tess";
    let said = zertz::sentences::outcome(&outcome, names, game.position());
    assert!(
        last.contains(&format!("Game over: {said}")),
        "announced result differs from {said}:\n{last}"
    );
    if outcome.winner() == Some(human) {
        assert!(last.contains("You win!"), "{last}");
    }
    // The position the program ends with is the test's.
    session.send_line("position").expect("send");
    let after = session.exp_string("game over> ").expect("the prompt again");
    assert!(
        after.contains(&game.position().to_string()),
        "position differs from {}:\n{after}",
        game.position()
    );
    session.send_line("").expect("send");
    session.exp_eof().expect("zertz leaves");
    match session.process().wait().expect("exit status") {
        WaitStatus::Exited(_, code) => assert_eq!(code, 0),
        other => panic!("zertz play ended with {other:?}"),
    }
}

#[test]
fn whole_game_against_the_engine_in_a_pty_moving_first() {
    whole_game_in_a_pty("first", Player::One);
}

#[test]
fn whole_game_against_the_engine_in_a_pty_moving_second() {
    whole_game_in_a_pty("second", Player::Two);
}

#[test]
fn in_a_pty_your_move_is_drawn_and_resigning_asks_first() {
    let mut command = Command::new(BIN);
    command.args([
        "play",
        "--level",
        "1",
        "--seed",
        "6",
        "--colour",
        "never",
        "--time-per-move",
        "300",
    ]);
    let mut session = spawn_command(command, Some(30_000)).expect("spawn in a pty");
    session.exp_string("your move> ").expect("the first prompt");
    session.send_line("Wd4,a1").expect("send");
    // The board after your move, before the engine answers.
    let (before, _) = session
        .exp_regex("engine plays [^\r\n]+")
        .expect("the engine's reply");
    assert!(
        before.contains("Last move: player 1 (you) Wd4,a1"),
        "{before}"
    );
    session.exp_string("your move> ").expect("the prompt again");
    session.send_line("resign").expect("send");
    session
        .exp_string("Resign this game? (yes/no)> ")
        .expect("a question first");
    session.send_line("n").expect("send");
    session
        .exp_string("Not resigned: the game goes on.")
        .expect("no resignation");
    session.exp_string("your move> ").expect("the game goes on");
    session.send_line("resign").expect("send");
    session
        .exp_string("Resign this game? (yes/no)> ")
        .expect("a question first");
    session.send_line("yes").expect("send");
    session
        .exp_string("Game over: The engine wins: ")
        .expect("the result");
    session
        .exp_string(" resigned.")
        .expect("the result, in words");
    session.exp_string("game over> ").expect("the last prompt");
    session.send_line("").expect("send");
    session.exp_eof().expect("zertz leaves");
}

#[test]
fn bad_input_is_explained_and_changes_nothing() {
    // Two players, so that the position after the first two moves is known: player 1 then
    // has a compulsory capture.
    let mut game = Game::standard();
    for text in ["Wd4,a1", "Be3,g1"] {
        let mv = official::parse(game.position(), text).unwrap();
        game.play(&mv).unwrap();
    }
    let compulsory = official::parse(game.position(), "Gc3,b1").unwrap_err();
    assert!(
        compulsory
            .to_string()
            .contains("a capture is compulsory: x")
    );
    let input = "position\nhlep\nflurb\nWd4,d5\nwd4,d5\nWd4\nQd5,a2\nx d1Gd3\nundo\n\nposition\n\
                 Wd4,a1\nBe3,g1\nGc3,b1\nWd4,a1\nposition\n";
    let (out, err, code) = piped(&["--two-players", "--colour", "never"], input);
    assert_eq!(code, 0, "{err}");
    for expected in [
        "Unknown command `hlep` (did you mean `help`?)",
        "Unknown command `flurb`",
        "Not played: `Wd4,d5` is not legal here: ring d5 is not free.",
        "Not played: `Wd4` is not legal here: a free ring must be removed: a1 is free.",
        "Not played: `Qd5,a2`: expected a colour W, G or B",
        "Not played: `x d1Gd3` is not legal here: there is no marble at d1 to jump with.",
        "There is no move to undo: the game has just started.",
        "Type a move such as Wd4,a1, or `help`.",
        &format!("Not played: {compulsory}."),
        "Not played: `Wd4,a1` is not legal here: a capture is compulsory",
        "The input has ended: the game was not finished",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in:\n{out}");
    }
    let start = Position::standard().to_string();
    assert_eq!(
        positions_printed(&out),
        vec![start.clone(), start, game.position().to_string()],
        "{out}"
    );
    assert_eq!(out.matches("player 1 plays").count(), 1, "{out}");
    assert_eq!(out.matches("player 2 plays").count(), 1, "{out}");
}

#[test]
fn host_notation_and_help() {
    let input = "help\nW D4 G4\nbe3,g1\ncoords\nposition\nmoves\n";
    let (out, err, code) = piped(&["--two-players", "--colour", "never"], input);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("HOW TO WRITE A MOVE"), "{out}");
    assert!(out.contains("COMMANDS"), "{out}");
    // On the full 37 board, host D4 is d4 and G4 is a1.
    assert!(out.contains("player 1 plays Wd4,a1"), "{out}");
    // A colour in lower case is understood.
    assert!(out.contains("player 2 plays Be3,g1"), "{out}");
    assert!(out.contains("The board shows host coordinates"), "{out}");
    assert!(out.contains("(host notation)"), "{out}");
    let mut game = Game::standard();
    for text in ["Wd4,a1", "Be3,g1"] {
        game.play(&official::parse(game.position(), text).unwrap())
            .unwrap();
    }
    assert_eq!(positions_printed(&out), vec![game.position().to_string()]);
    assert!(
        out.contains("captures (host notation); capturing is compulsory:"),
        "{out}"
    );
}

#[test]
fn save_then_load_round_trip() {
    let dir = scratch("save");
    let file = dir.join("game.txt");
    let file_text = file.to_str().unwrap();
    let moves = ["Wd4,a1", "Be3,g1", "x e3Wc4", "Gd3,b1"];
    let mut input: String = moves.iter().map(|m| format!("{m}\n")).collect();
    input += &format!("position\nsave {file_text}\nquit\n");
    let (out, err, code) = piped(&["--two-players", "--colour", "never"], &input);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains("Saved 4 turns to"), "{out}");
    assert!(
        out.contains("Bye."),
        "quit after saving leaves at once:\n{out}"
    );
    let saved = positions_printed(&out);
    assert_eq!(saved.len(), 1);

    // The file is a record the library reads, with the headers of the game.
    let record = Record::parse(&std::fs::read_to_string(&file).unwrap()).expect("a record");
    assert_eq!(record.game.turns().len(), 4);
    assert_eq!(record.game.position().to_string(), saved[0]);
    assert_eq!(record.header("Player1"), Some("player 1"));
    assert_eq!(record.header("Player2"), Some("player 2"));
    assert_eq!(record.header("Event"), Some("zertz play"));
    assert!(record.header("Date").is_some_and(|d| d.len() == 10));

    // --load continues it; so does the `load` command in the middle of another game.
    let (out, err, code) = piped(
        &["--two-players", "--load", file_text, "--colour", "never"],
        "position\nWa2,a3\nload nonexistent.txt\nposition\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Loaded"), "{out}");
    assert!(
        out.contains("Not loaded: cannot read nonexistent.txt"),
        "{out}"
    );
    let printed = positions_printed(&out);
    assert_eq!(printed[0], saved[0]);
    let mut game = record.game.clone();
    game.play(&official::parse(game.position(), "Wa2,a3").unwrap())
        .unwrap();
    assert_eq!(printed[1], game.position().to_string());

    // Over a game with unsaved moves, `load` asks first: no keeps the game, yes replaces it.
    let input = format!(
        "Wd4,a1\nload {file_text}\nno\nposition\nload {file_text}\nmaybe\nyes\nposition\nundo\nposition\n"
    );
    let (out, err, code) = piped(&["--two-players", "--colour", "never"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.matches("This game has moves that are not saved")
            .count(),
        2,
        "{out}"
    );
    assert!(
        out.contains(&format!("Replace it with {file_text}? (yes/no)> ")),
        "{out}"
    );
    assert!(out.contains("Not loaded: the game goes on."), "{out}");
    assert!(out.contains("Please answer yes or no."), "{out}");
    let printed = positions_printed(&out);
    let mut one_move = Game::standard();
    one_move
        .play(&official::parse(one_move.position(), "Wd4,a1").unwrap())
        .unwrap();
    assert_eq!(printed[0], one_move.position().to_string());
    assert_eq!(printed[1], saved[0]);
    // Undo in two-player mode takes back one turn.
    assert_eq!(printed[2], record.game.positions()[3].to_string());
    assert!(out.contains("Taken back: Gd3,b1 (player 2)."), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_board_is_drawn_after_your_move_and_after_the_reply() {
    let (out, err, code) = piped(
        &["--level", "1", "--seed", "3", "--colour", "never"],
        "Wd4,a1\n",
    );
    assert_eq!(code, 0, "{err}");
    let yours = out.find("You play Wd4,a1").expect("your move");
    let reply = out.find("engine plays ").expect("the reply");
    // Between the two: the board after your move, saying so, and whose turn it is.
    let between = &out[yours..reply];
    assert!(
        between.contains("Last move: player 1 (you) Wd4,a1"),
        "{between}"
    );
    assert!(
        between.contains("The engine's turn (player 2)."),
        "{between}"
    );
    // After the reply: the board again, with the engine's move.
    assert!(
        out[reply..].contains("Last move: player 2 (the engine) "),
        "{out}"
    );
    assert!(out[reply..].contains("Your turn (player 1)."), "{out}");
}

#[test]
fn undo_against_the_engine_takes_back_a_round() {
    let (out, err, code) = piped(
        &["--level", "1", "--seed", "3", "--colour", "never"],
        "Wd4,a1\nundo\nposition\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("engine plays "), "{out}");
    assert!(out.contains("Taken back: Wd4,a1 (you), "), "{out}");
    assert_eq!(
        positions_printed(&out),
        vec![Position::standard().to_string()]
    );
}

#[test]
fn the_engine_moves_first_when_you_are_second_and_hints_help() {
    let (out, err, code) = piped(
        &[
            "--level",
            "2",
            "--seat",
            "second",
            "--seed",
            "5",
            "--time-per-move",
            "200",
            "--colour",
            "never",
        ],
        "hint\nundo\n",
    );
    assert_eq!(code, 0, "{err}");
    let engine = out.find("engine plays ").expect("the engine moves first");
    let prompt = out.find("your move> ").expect("then asks");
    assert!(engine < prompt, "{out}");
    let line = out
        .lines()
        .find_map(|l| l.split("hint: ").nth(1))
        .expect("a hint");
    assert!(line.contains(", score "), "{line}");
    // The suggested move is legal after the engine's first move.
    let first = out[engine..].lines().next().unwrap()["engine plays ".len()..].trim();
    let mut game = Game::standard();
    game.play(&official::parse(game.position(), first).unwrap())
        .unwrap();
    let suggested = line.split(", score").next().unwrap();
    official::parse(game.position(), suggested).expect("the hint is a legal move");
    // The engine's own move is not the human's to undo.
    assert!(out.contains("There is no move of yours to undo"), "{out}");
}

#[test]
fn the_input_ending_mid_game_exits_cleanly() {
    let (out, err, code) = piped(
        &["--level", "1", "--seed", "9", "--colour", "never"],
        "Wd4,a1\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        out.trim_end()
            .ends_with("The input has ended: the game was not finished, and it was not saved."),
        "{out}"
    );
    // Nothing at all on the input.
    let (out, _, code) = piped(&["--two-players"], "");
    assert_eq!(code, 0);
    assert!(out.contains("the game was not finished"), "{out}");
}

#[test]
fn quitting_asks_first_when_moves_are_not_saved() {
    let (out, _, code) = piped(
        &["--two-players"],
        "Wd4,a1\nquit\nno\nposition\nquit\nyes\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("Leave without saving? (yes/no)> "), "{out}");
    assert!(out.contains("Back to the game."), "{out}");
    assert!(
        out.contains("Game left unfinished and not saved. Bye."),
        "{out}"
    );
    assert_eq!(positions_printed(&out).len(), 1);
    // Nothing played: quit leaves at once.
    let (out, _, code) = piped(&["--two-players"], "quit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("Bye.") && !out.contains("Leave without saving"),
        "{out}"
    );
}

#[test]
fn resigning_ends_the_game_and_offers_to_save() {
    let dir = scratch("resign");
    let file = dir.join("resigned.txt");
    // The first `resign` is not confirmed; the second is.
    let input = format!(
        "Wd4,a1\nresign\nperhaps\nno\nposition\nresign\ny\nundo\nsave {}\n\n",
        file.display()
    );
    let (out, err, code) = piped(&["--level", "1", "--seed", "4"], &input);
    assert_eq!(code, 0, "{err}");
    // Asked again after an answer that is neither yes nor no.
    assert_eq!(
        out.matches("Resign this game? (yes/no)> ").count(),
        3,
        "{out}"
    );
    assert!(out.contains("Please answer yes or no."), "{out}");
    assert!(out.contains("Not resigned: the game goes on."), "{out}");
    assert_eq!(positions_printed(&out).len(), 1, "{out}");
    assert_eq!(out.matches("player 1 resigns.").count(), 1, "{out}");
    // The same sentence as the web page's for the same end.
    assert!(out.contains("Game over: The engine wins: "), "{out}");
    assert!(out.contains(" resigned.\n"), "{out}");
    assert!(out.contains("Type `save` to keep a record"), "{out}");
    assert!(
        out.contains("The game is over: type `save` to keep it"),
        "{out}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[Result \"0-1\"]\n[Termination \"resignation\"]"),
        "{text}"
    );
    let record = Record::parse(&text).unwrap();
    assert_eq!(
        record.game.outcome().map(|o| o.to_string()).as_deref(),
        Some("player 2 wins by resignation")
    );
    assert_eq!(record.header("Player2"), Some("zertz level 1"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record whose players both hold a white marble, with bribes allowed.
fn bribe_record(dir: &std::path::Path) -> PathBuf {
    let file = dir.join("bribes.txt");
    std::fs::write(
        &file,
        "[Bribes \"on\"]\n\
         [Start \"37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1\"]\n\n*\n",
    )
    .unwrap();
    file
}

#[test]
fn bribes_between_two_players() {
    let dir = scratch("bribes2");
    let file = bribe_record(&dir);
    let (out, err, code) = piped(
        &["--two-players", "--load", file.to_str().unwrap()],
        "bribe 2/0/0\nbribe 1/0/0\nWd4,a1\nreject\nbribe 1/0/0\naccept\nposition\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Bribe refused: a bribe must be held by both players"),
        "{out}"
    );
    assert!(out.contains("player 1 offers player 2 1/0/0"), "{out}");
    assert!(
        out.contains("player 2: player 1 offers you 1/0/0 to pass. accept or reject?> "),
        "{out}"
    );
    assert!(
        out.contains("a bribe of 1/0/0 is waiting for an answer"),
        "a move while a bribe waits is refused:\n{out}"
    );
    assert!(out.contains("player 2 rejects the bribe"), "{out}");
    assert!(
        out.contains("player 2 accepts 1/0/0 from player 1"),
        "{out}"
    );
    assert_eq!(
        positions_printed(&out),
        vec!["37 standard ..../...../....../......./....../...../.... 4/8/10 0/0/0 2/0/0 2"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bribes_against_the_engine() {
    let dir = scratch("bribes1");
    let file = bribe_record(&dir);
    let (out, err, code) = piped(
        &[
            "--level",
            "1",
            "--seed",
            "2",
            "--time-per-move",
            "200",
            "--load",
            file.to_str().unwrap(),
        ],
        "help\nbribe 1/0/0\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("The engine accepts when the bribe"), "{out}");
    assert!(
        out.contains("The engine accepts your bribe of 1/0/0")
            || out.contains("The engine rejects your bribe of 1/0/0"),
        "{out}"
    );
    // Without --bribes (and no record saying otherwise), a bribe is refused with the reason.
    let (out, _, _) = piped(&["--two-players"], "bribe 1/0/0\n");
    assert!(
        out.contains("Bribes are not allowed in this game (start it with --bribes"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_refused() {
    for args in [
        vec!["--level", "11"],
        vec!["--board", "99"],
        vec!["--rules", "fast"],
        vec!["--load", "/nonexistent/game.txt"],
    ] {
        let (_, err, code) = piped(&args, "");
        assert_ne!(code, 0, "{args:?} accepted");
        assert!(!err.is_empty(), "{args:?}: no message");
    }
    // Other boards and rule sets start.
    let (out, _, code) = piped(
        &["--two-players", "--board", "61", "--rules", "blitz"],
        "position\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("Win by capturing 3 white, or 4 grey, or 5 black, or 2 of each"),
        "{out}"
    );
    assert!(positions_printed(&out)[0].starts_with("61 blitz"), "{out}");
}
