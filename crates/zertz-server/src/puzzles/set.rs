//! The puzzle set the trainer serves: read from JSON (`data/puzzles.json`, compiled in, or the
//! file `zertz serve --puzzles PATH` names), each puzzle checked once at start (its position
//! reads, every move of its solution tree is legal where it stands and each line ends in a win
//! for the attacker within the puzzle's turns), so that answering a move never meets a broken
//! tree.

use std::collections::HashMap;

use thiserror::Error;
use zertz::notation::official;
use zertz::{Player, Position};
use zertz_engine::puzzles::{Attack, Puzzle, PuzzleSet, PuzzleSetError};

/// The set compiled into the server (the repository's `data/puzzles.json`).
pub const EMBEDDED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/puzzles.json"
));

/// The themes a puzzle may have (learning contract): a `theme` asked for must be one of them.
/// The engine names them when it makes a puzzle; the list is its.
pub use zertz_engine::puzzles::themes::THEMES;

/// Why a puzzle set was refused.
#[derive(Debug, Error)]
pub enum SetError {
    /// Not a puzzle set (its JSON's error says the line and column).
    #[error("{0}")]
    Set(#[from] PuzzleSetError),
    /// One puzzle is broken.
    #[error("puzzle set: puzzle {index} (`{id}`): {reason}")]
    Puzzle {
        /// Its place in the file, from 1.
        index: usize,
        /// Its id.
        id: String,
        /// What is wrong.
        reason: String,
    },
}

/// A puzzle as the trainer holds it: the puzzle and its position, read.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The puzzle as in the set.
    pub puzzle: Puzzle,
    /// Its position.
    pub start: Position,
}

impl Loaded {
    /// The player who must win.
    pub fn attacker(&self) -> Player {
        self.start.to_move()
    }
}

/// The puzzles, by id.
#[derive(Debug, Default)]
pub struct Book {
    puzzles: Vec<Loaded>,
    by_id: HashMap<String, usize>,
}

impl Book {
    /// Reads and checks a set.
    pub fn from_json(text: &str) -> Result<Book, SetError> {
        let set = PuzzleSet::from_json(text)?;
        let mut book = Book::default();
        for (i, puzzle) in set.puzzles.into_iter().enumerate() {
            let broken = |reason: String| SetError::Puzzle {
                index: i + 1,
                id: puzzle.id.clone(),
                reason,
            };
            if book.by_id.contains_key(&puzzle.id) {
                return Err(broken("the id is used twice".into()));
            }
            let start: Position = puzzle
                .position
                .parse()
                .map_err(|e| broken(format!("position: {e}")))?;
            if start.is_over() {
                return Err(broken("the position is already decided".into()));
            }
            if puzzle.turns == 0 {
                return Err(broken("a puzzle takes at least 1 turn".into()));
            }
            check_tree(&start, &puzzle.solution, puzzle.turns, start.to_move()).map_err(broken)?;
            book.by_id.insert(puzzle.id.clone(), book.puzzles.len());
            book.puzzles.push(Loaded { puzzle, start });
        }
        Ok(book)
    }

    /// The set compiled into the server.
    pub fn embedded() -> Result<Book, SetError> {
        Book::from_json(EMBEDDED)
    }

    /// Every puzzle, in the set's order.
    pub fn all(&self) -> &[Loaded] {
        &self.puzzles
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Loaded> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    /// How many puzzles have each theme (every known theme listed, with 0 if none).
    pub fn theme_counts(&self) -> Vec<(&'static str, usize)> {
        THEMES
            .iter()
            .map(|t| {
                let n = self
                    .puzzles
                    .iter()
                    .filter(|p| p.puzzle.themes.iter().any(|x| x == t))
                    .count();
                (*t, n)
            })
            .collect()
    }
}

/// Checks a solution tree from `position` (the attacker to move) with `turns` left.
fn check_tree(
    position: &Position,
    attack: &Attack,
    turns: u32,
    attacker: Player,
) -> Result<(), String> {
    if turns == 0 {
        return Err(format!(
            "the solution goes on past the puzzle's turns at `{}`",
            attack.mv
        ));
    }
    let mv = official::parse(position, &attack.mv)
        .map_err(|e| format!("solution move in `{position}`: {e}"))?;
    let after = position.play(&mv).map_err(|e| e.to_string())?;
    if attack.then.is_empty() {
        return if wins(&after, attacker) {
            Ok(())
        } else {
            Err(format!(
                "`{}` ends a line of the solution without winning",
                attack.mv
            ))
        };
    }
    if after.is_over() {
        return Err(format!(
            "the game is over after `{}`, yet the solution goes on",
            attack.mv
        ));
    }
    for group in &attack.then {
        if group.defences.is_empty() {
            return Err(format!("an empty group of defences after `{}`", attack.mv));
        }
        for text in &group.defences {
            let reply = official::parse(&after, text)
                .map_err(|e| format!("defence after `{}`: {e}", attack.mv))?;
            let next = after.play(&reply).map_err(|e| e.to_string())?;
            check_tree(&next, &group.next, turns - 1, attacker)?;
        }
    }
    Ok(())
}

/// The attacker has won in `position`: a winning set, or the defender to move without a move.
pub fn wins(position: &Position, attacker: Player) -> bool {
    match position.winner_by_captures() {
        Some(w) => w == attacker,
        None => position.to_move() != attacker && !position.has_any_move(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column `a` alone: a1 G, a2 W, a3 and a4 empty; player 1 holds 3 white, so the compulsory
    /// jump from a1 over a2 takes the fourth white (the prover's own example).
    const CAPTURE_IN_1: &str =
        "37 standard GW../-----/------/-------/------/-----/---- 2/7/10 3/0/0 0/0/0 1";

    fn set(position: &str, mv: &str) -> String {
        format!(
            "{{\"version\":1,\"puzzles\":[\n{{\"id\":\"a\",\"position\":\"{position}\",\"turns\":1,\
             \"solution\":{{\"move\":\"{mv}\"}},\"themes\":[\"win-by-colour\"],\"source\":\
             {{\"archive\":\"server\",\"game\":\"g1\",\"move_number\":3,\"played\":\"{mv}\",\
             \"found\":true}}}}\n]}}"
        )
    }

    #[test]
    fn a_good_set_is_read_and_a_broken_one_named() {
        let book = Book::from_json(&set(CAPTURE_IN_1, "x a1Wa3")).unwrap();
        assert_eq!(book.all().len(), 1);
        assert_eq!(book.get("a").unwrap().attacker(), Player::One);
        assert!(book.get("b").is_none());
        let counts = book.theme_counts();
        assert!(counts.contains(&("win-by-colour", 1)) && counts.contains(&("isolation", 0)));

        let err = Book::from_json(&set(CAPTURE_IN_1, "Wa3,a4"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("puzzle 1 (`a`)") && err.contains("Wa3,a4"),
            "{err}"
        );
        let err = Book::from_json("{\"version\":1,\n\"puzzles\":[{]}")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn the_embedded_set_reads() {
        Book::embedded().expect("data/puzzles.json is a valid set");
    }
}
