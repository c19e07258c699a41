//! Puzzles cut from real games: a position where the player to move wins by force with exactly
//! one first move, the solution tree that answers every defence, where it came from and what it
//! teaches.
//!
//! A puzzle set is data of the project (`data/puzzles.json`), written by `zertz puzzles
//! generate` and read by the server's puzzle trainer. This module holds its shape and the JSON
//! that carries it; the format is described in `docs/learning.md`.

pub mod generate;
pub mod solution;
pub mod themes;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The version written in a puzzle set's JSON; a reader refuses any other.
pub const FORMAT_VERSION: u32 = 1;

/// A set of puzzles, as stored in `data/puzzles.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PuzzleSet {
    /// The format's version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// The puzzles, in a stable order.
    pub puzzles: Vec<Puzzle>,
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A stable name: unchanged when the set is generated again from the same games.
    pub id: String,
    /// The position to solve, as a position string (board and rule set included).
    pub position: String,
    /// The attacker's turns the win takes (the puzzle's length): 1 is a move that wins at once.
    pub turns: u32,
    /// The solution: the one winning first move and the answer to every defence.
    pub solution: Attack,
    /// What the solution teaches, computed from it (`isolation`, `chain-capture`, …).
    pub themes: Vec<String>,
    /// The game the position comes from.
    pub source: Source,
}

/// The attacker's move at one of its turns, and what follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attack {
    /// The move, in official notation (`Wd4,a1`, `x d1Gd3`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The defender's replies grouped by the attacker's answer; empty when the move wins at
    /// once (or leaves the defender without a legal move). Every legal reply appears in
    /// exactly one group. The first reply of the first group is the main line's defence, the
    /// one the trainer plays.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Defences>,
}

/// Replies of the defender that the same attacking move answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Defences {
    /// The replies, in official notation.
    pub defences: Vec<String>,
    /// The attacker's answer to each of them.
    pub next: Attack,
}

/// Where a puzzle comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// `boardspace` for the BoardSpace archive, `server` for a game of this server.
    pub archive: String,
    /// The game: the record's file name in the archive (`Zertz-…​.sgf`), or the server's game id.
    pub game: String,
    /// The move number of the position in the game (1 is the first move of the game).
    pub move_number: u32,
    /// The move the game's player chose there, in official notation.
    pub played: String,
    /// True when the player found the win (played the solution's first move), false when they
    /// missed it.
    pub found: bool,
}

/// Why a puzzle set could not be read.
#[derive(Debug, Error)]
pub enum PuzzleSetError {
    /// Not JSON of the expected shape.
    #[error("puzzle set: {0}")]
    Json(#[from] serde_json::Error),
    /// Written in a format this version cannot read.
    #[error("puzzle set: format version {found}, this program reads version {FORMAT_VERSION}")]
    Version {
        /// The version the file declares.
        found: u32,
    },
}

impl PuzzleSet {
    /// Reads a set from its JSON.
    pub fn from_json(text: &str) -> Result<PuzzleSet, PuzzleSetError> {
        let set: PuzzleSet = serde_json::from_str(text)?;
        if set.version != FORMAT_VERSION {
            return Err(PuzzleSetError::Version { found: set.version });
        }
        Ok(set)
    }

    /// The set as JSON, one puzzle per line so that a change shows as a small diff.
    pub fn to_json(&self) -> String {
        let mut out = format!("{{\"version\":{},\"puzzles\":[\n", self.version);
        for (i, p) in self.puzzles.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
            }
            out.push_str(&serde_json::to_string(p).expect("a puzzle always serialises"));
        }
        out.push_str("\n]}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PuzzleSet {
        PuzzleSet {
            version: FORMAT_VERSION,
            puzzles: vec![Puzzle {
                id: "p1".into(),
                position:
                    "37 standard -.../...../....../...W.../....../...../.... 5/8/10 0/0/0 0/0/0 2"
                        .into(),
                turns: 2,
                solution: Attack {
                    mv: "Wd4,a1".into(),
                    then: vec![Defences {
                        defences: vec!["x d4Wd2".into()],
                        next: Attack {
                            mv: "x c3Gc5".into(),
                            then: vec![],
                        },
                    }],
                },
                themes: vec!["forced-sacrifice".into()],
                source: Source {
                    archive: "boardspace".into(),
                    game: "Zertz-a-b-2009-01-01-0000.sgf".into(),
                    move_number: 12,
                    played: "Wd4,a1".into(),
                    found: false,
                },
            }],
        }
    }

    #[test]
    fn a_set_round_trips_through_its_json() {
        let set = sample();
        let json = set.to_json();
        assert!(json.contains("\"move\":\"Wd4,a1\""), "{json}");
        assert_eq!(PuzzleSet::from_json(&json).unwrap(), set);
    }

    #[test]
    fn another_version_is_refused_by_name() {
        let json = sample()
            .to_json()
            .replacen("\"version\":1", "\"version\":7", 1);
        let err = PuzzleSet::from_json(&json).unwrap_err().to_string();
        assert!(err.contains("format version 7"), "{err}");
        let err = PuzzleSet::from_json("{\"version\":1}")
            .unwrap_err()
            .to_string();
        assert!(err.contains("puzzles"), "{err}");
    }
}
