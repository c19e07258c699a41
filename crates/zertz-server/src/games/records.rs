//! Game records in and out of the server (the project's format, docs/formats.md).
//!
//! In: a record or a BoardSpace SGF is read, and its turns are replayed under the rules of a
//! new game, so that the game goes on with its whole history. The history matters: under the
//! no-repetition house rule a move may not recreate any earlier position, and under the
//! official rule the third occurrence of a position draws, earlier positions of the record
//! included.
//!
//! Out: the turns of a game in official notation (`export` writes whole records).

use zertz::notation::official;
use zertz::record::Record;
use zertz::{Game, Rules, Turn};

/// A game read from a text, with the headers it came with.
pub struct ReadGame {
    /// The game, under the rules the text states.
    pub game: Game,
    /// Headers (`Player1`, `Date`, …) as the text gives them.
    pub headers: Vec<(String, String)>,
}

/// Reads a record in the project's format, or a BoardSpace SGF (a text starting with `(`).
/// The error names the format and where the text went wrong.
pub fn read(text: &str) -> Result<ReadGame, String> {
    let text = text.trim_start();
    if text.starts_with('(') {
        let imported = zertz::boardspace::import(text).map_err(|e| format!("SGF: {e}"))?;
        // The reader fills in what a BoardSpace file leaves out, so `(;)` reads as a game of
        // nothing: refused, rather than shown as a game of 0 moves.
        if imported.game.turns().is_empty() && imported.players.iter().all(String::is_empty) {
            return Err("SGF: no ZÈRTZ game in it (no players and no moves)".into());
        }
        let headers = vec![
            (
                "Player1".to_string(),
                imported.players[imported.first].clone(),
            ),
            (
                "Player2".to_string(),
                imported.players[1 - imported.first].clone(),
            ),
        ];
        Ok(ReadGame {
            game: imported.game,
            headers,
        })
    } else {
        let record = Record::parse(text).map_err(|e| format!("record: {e}"))?;
        Ok(ReadGame {
            game: record.game,
            headers: record.headers,
        })
    }
}

/// `game` played again from its start under `rules`: every bribe proposed (and its answer)
/// and every turn, in order, each checked by the rules library. A bribe still waiting for its
/// answer is left out. The error names the turn (from 1) and why it is not allowed.
pub fn replay_under(game: &Game, rules: Rules) -> Result<Game, String> {
    let mut again = Game::from_position(game.start().clone(), rules);
    let texts = move_texts(game);
    let mut bribes = game.bribes().iter().peekable();
    let at = |i: usize, e: &dyn std::fmt::Display| format!("turn {} (`{}`): {e}", i + 1, texts[i]);
    for (i, turn) in game.turns().iter().enumerate() {
        let mut passed = false;
        while let Some(b) = bribes.next_if(|b| b.at_turn == i) {
            let Some(accepted) = b.accepted else { continue };
            let fail = |e: zertz::GameError| at(i, &format!("the bribe of {}: {e}", b.bribe));
            again.propose_bribe(b.bribe).map_err(fail)?;
            again.answer_bribe(accepted).map_err(fail)?;
            passed |= accepted;
        }
        match turn {
            Turn::Move(mv) => {
                if passed {
                    return Err(at(i, &"a move where the record has a pass"));
                }
                again.play(mv).map_err(|e| at(i, &e))?;
            }
            Turn::Pass { .. } if !passed => {
                return Err(at(i, &"a pass without an accepted bribe"));
            }
            Turn::Pass { .. } => {}
        }
    }
    // Bribes proposed and rejected after the last turn.
    for b in bribes {
        if b.accepted == Some(false) {
            let fail = |e: zertz::GameError| format!("the bribe after the last turn: {e}");
            again.propose_bribe(b.bribe).map_err(fail)?;
            again.answer_bribe(false).map_err(fail)?;
        }
    }
    Ok(again)
}

/// The text that stores a history: the record of `game`, which reads back to the same turns,
/// bribes and rules.
pub fn history_text(game: &Game) -> String {
    Record::new(game.clone(), &[]).to_string()
}

/// The turns of `game` in official notation (`-` for a bribed pass).
pub fn move_texts(game: &Game) -> Vec<String> {
    game.turns()
        .iter()
        .zip(game.positions())
        .map(|(turn, position)| official::turn_text(position, turn))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::Repetition;

    fn record_game(text: &str) -> Game {
        read(text).unwrap().game
    }

    #[test]
    fn a_record_replays_under_other_rules_with_its_bribes() {
        let text = "[Bribes \"on\"]\n\n1. Wa2,g1 (bribe 0/0/0 rejected) Gg3,a1 \
                    2. (bribe 0/0/0 accepted) - Bd4,a4 *\n";
        let game = record_game(text);
        assert_eq!(game.turns().len(), 4);
        let forbidden = Rules {
            repetition: Repetition::Forbidden,
            ..game.rules()
        };
        let again = replay_under(&game, forbidden).unwrap();
        assert_eq!(again.positions(), game.positions());
        assert_eq!(again.bribes(), game.bribes());
        assert_eq!(again.rules().repetition, Repetition::Forbidden);
        // Stored as a record, it reads back the same.
        let back = record_game(&history_text(&again));
        assert_eq!(back.positions(), again.positions());
        assert_eq!(back.bribes(), again.bribes());
        assert_eq!(back.rules(), again.rules());
        // Without bribes the pass cannot be replayed: the turn and the reason are named.
        let off = Rules {
            bribes: false,
            ..game.rules()
        };
        let e = replay_under(&game, off).unwrap_err();
        assert!(
            e.starts_with("turn 2 (`Gg3,a1`): the bribe of 0/0/0"),
            "{e}"
        );
        assert!(e.contains("bribes are not allowed"), "{e}");
    }

    #[test]
    fn bad_texts_are_named() {
        let e = read("1. Qz9 *").err().unwrap();
        assert!(e.starts_with("record:"), "{e}");
        let e = read("(;junk").err().unwrap();
        assert!(e.starts_with("SGF:"), "{e}");
    }
}
