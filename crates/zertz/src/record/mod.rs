//! The project's game record format: headers, then the moves in official notation.
//!
//! ```text
//! [Board "37"]
//! [Rules "standard"]
//! [Player1 "Ann"]
//! [Player2 "Ben"]
//! [Date "2026-11-21"]
//! [Result "1-0"]
//! [Termination "winning set"]
//!
//! 1. Wd4,a1 Gc3,g4 2. x d4Gb2 Bd5,a2 3. ... 1-0
//! ```
//!
//! - Headers are `[Name "value"]`, one per line, values with `\"` and `\\` escapes. Known
//!   headers: `Board` (default `37`; a board name or custom layout as [`Layout::from_spec`]
//!   reads), `Rules` (default `standard`), `Repetition` (`threefold` or `forbidden`), `Bribes`
//!   (`on`/`off`), `Start` (a position string, for handicaps and set-ups; overrides `Board` and
//!   `Rules`), `Result` (`1-0`, `0-1`, `1/2-1/2`, `*`) and `Termination` (why it ended). Any
//!   other header (players, date, event, time control…) is kept as it is.
//! - The moves: official notation (see [`crate::notation::official`]), with optional move
//!   numbers `1.`; a pass after an accepted bribe is `-`. Bribe proposals are written as events
//!   in parentheses before the turn: `(bribe 1/0/0 rejected)`, or `(bribe 1/0/0 accepted) -`.
//!   Comments are `{…}`. The result ends the moves.
//!
//! Reading replays every move; an illegal move is an error naming the move and its position in
//! the text.

mod read;
mod write;

use std::fmt;

use crate::game::Game;
use crate::marbles::Player;
use crate::position::{DrawReason, Outcome, WinReason};
use crate::tree::GameTree;

pub use read::MAX_NESTING;
pub(crate) use read::{read, settle, start_and_rules};
pub(crate) use write::{header_lines, moves};

/// A game with its headers.
#[derive(Clone, Debug)]
pub struct Record {
    /// Every header in order, the known ones included (as written or as derived from the game).
    pub headers: Vec<(String, String)>,
    /// The game, replayed.
    pub game: Game,
}

/// Why a record was refused: where, which token, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("record line {line}, column {column} (`{token}`): {message}")]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The offending token.
    pub token: String,
    /// What is wrong.
    pub message: String,
}

/// The result token of a finished (or unfinished) game: `1-0`, `0-1`, `1/2-1/2`, `*`.
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win {
            winner: Player::One,
            ..
        }) => "1-0",
        Some(Outcome::Win {
            winner: Player::Two,
            ..
        }) => "0-1",
        Some(Outcome::Draw(_)) => "1/2-1/2",
        None => "*",
    }
}

/// The words of the `Termination` header for an outcome.
pub fn termination_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::WinningSet => "winning set",
            WinReason::NoLegalMove => "no legal move",
            WinReason::Resignation => "resignation",
            WinReason::Time => "time",
            WinReason::Forfeit => "forfeit",
        },
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::Agreement) => "agreement",
    }
}

pub(crate) fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Record {
    /// A record of `game` with the given extra headers (players, date, …).
    pub fn new(game: Game, extra: &[(&str, &str)]) -> Record {
        let mut headers: Vec<(String, String)> = extra
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        headers.retain(|(k, _)| !is_derived(k));
        Record { headers, game }
    }

    /// The value of a header, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a header (replacing one of the same name).
    pub fn set_header(&mut self, name: &str, value: &str) {
        match self
            .headers
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value.to_string(),
            None => self.headers.push((name.to_string(), value.to_string())),
        }
    }

    /// Reads a record, replaying every move. Variations are read (and checked) but only the
    /// main line is kept: [`GameTree::from_record_text`] keeps them all.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let read = read::read(text)?;
        Ok(Record {
            headers: read.headers,
            game: read.game,
        })
    }
}

/// Headers written from the game itself rather than kept as given.
pub(crate) fn is_derived(name: &str) -> bool {
    [
        "Board",
        "Rules",
        "Repetition",
        "Bribes",
        "Start",
        "Result",
        "Termination",
    ]
    .iter()
    .any(|d| d.eq_ignore_ascii_case(name))
}

impl Record {
    /// The record as text (what `to_string` gives), written in one buffer.
    pub fn text(&self) -> String {
        let game = &self.game;
        // About 20 bytes a turn and 300 of headers.
        let mut out = String::with_capacity(300 + 20 * game.turns().len());
        write::write_header_lines(
            &mut out,
            self.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            game,
        );
        out.push('\n');
        let result = result_token(game.outcome());
        if write::write_plain_moves(&mut out, game, result) {
            return out;
        }
        // A bribe still waiting for its answer has no step in a tree: written after the rest.
        let pending: Vec<String> = game
            .pending_bribe()
            .map(|b| format!("(bribe {} pending)", b.bribe))
            .into_iter()
            .collect();
        let tree = GameTree::from_game(game);
        out.push_str(&write::moves(&tree, &pending, result));
        out
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::marbles::Marbles;
    use crate::moves::Move;
    use crate::position::Position;
    use crate::rules::Rules;

    fn play_some(game: &mut Game, n: usize) {
        for i in 0..n {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv: Move = moves[(i * 7919) % moves.len()];
            game.play(&mv).unwrap();
        }
    }

    #[test]
    fn plain_games_are_written_as_their_tree_would_be() {
        // Every length from none to a finished game, on a small board and the largest, with
        // the players' turns falling on either side of the 80-column wrap.
        for layout in [
            Layout::standard(),
            Layout::official(crate::BoardKind::Rings61),
        ] {
            for n in [0, 1, 2, 3, 17, 40, 200] {
                let mut game = Game::new(layout, Rules::default());
                play_some(&mut game, n);
                let result = result_token(game.outcome());
                let plain = write::plain_moves(&game, result).expect("a game without bribes");
                let tree = write::moves(&GameTree::from_game(&game), &[], result);
                assert_eq!(plain, tree, "{n} turns on {}", layout.spec());
            }
        }
    }

    #[test]
    fn round_trip() {
        let mut game = Game::standard();
        play_some(&mut game, 40);
        let record = Record::new(
            game,
            &[
                ("Player1", "Ann \"A\""),
                ("Player2", "Ben"),
                ("Date", "2026-11-21"),
            ],
        );
        let text = record.to_string();
        let back = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.positions(), record.game.positions());
        assert_eq!(back.header("Player1"), Some("Ann \"A\""));
        assert_eq!(back.to_string(), text);
    }

    #[test]
    fn resignation_and_bribes() {
        let rules = Rules {
            bribes: true,
            ..Rules::default()
        };
        let mut game = Game::new(Layout::standard(), rules);
        play_some(&mut game, 6);
        game.resign(Player::Two).unwrap();
        let text = Record::new(game, &[]).to_string();
        assert!(
            text.contains("[Result \"1-0\"]") && text.contains("[Termination \"resignation\"]"),
            "{text}"
        );
        let back = Record::parse(&text).unwrap();
        assert_eq!(
            back.game.outcome().map(|o| o.winner()),
            Some(Some(Player::One))
        );
    }

    #[test]
    fn bribe_events_round_trip() {
        // Both players hold one white: a bribe of one white is possible for either.
        let start: Position =
            "37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1"
                .parse()
                .unwrap();
        let rules = Rules {
            bribes: true,
            ..Rules::default()
        };
        let mut game = Game::from_position(start, rules);
        game.propose_bribe(Marbles::new(1, 0, 0)).unwrap();
        game.answer_bribe(false).unwrap();
        play_some(&mut game, 1);
        game.propose_bribe(Marbles::new(1, 0, 0)).unwrap();
        game.answer_bribe(true).unwrap();
        play_some(&mut game, 1);
        let text = Record::new(game.clone(), &[]).to_string();
        assert!(
            text.contains("(bribe 1/0/0 rejected) W")
                || text.contains("(bribe 1/0/0 rejected) G")
                || text.contains("(bribe 1/0/0 rejected) B"),
            "{text}"
        );
        assert!(text.contains("(bribe 1/0/0 accepted) -"), "{text}");
        let back = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.positions(), game.positions());
        assert_eq!(back.game.bribes(), game.bribes());
        // Player two proposed the accepted bribe: player one now holds both whites.
        assert_eq!(
            back.game.position().captures(Player::One),
            Marbles::new(2, 0, 0)
        );
        assert_eq!(
            back.game.position().captures(Player::Two),
            Marbles::new(0, 0, 0)
        );
    }

    #[test]
    fn errors_say_where() {
        let e = Record::parse("[Board \"37\"]\n\n1. Wd4,a1 Qd5,a2").unwrap_err();
        assert_eq!((e.line, e.column, e.token.as_str()), (3, 11, "Qd5,a2"));
        let e = Record::parse("[Board \"99\"]\n1. Wd4,a1").unwrap_err();
        assert_eq!(e.token, "Board");
        let e = Record::parse("1. Wd4,a1 Wd4,a2").unwrap_err();
        assert!(e.message.contains("already holds a marble"), "{e}");
        let e = Record::parse("1. Wd4,a1 1-0 Wc3").unwrap_err();
        assert!(e.message.contains("nothing may follow"), "{e}");
        assert!(Record::parse("[Board \"37\"").is_err());
        assert!(Record::parse("{ never closed").is_err());
        assert!(Record::parse("1. - ").is_err());
    }
}
