//! Checking a solver's move against a puzzle's solution tree. The trainer keeps no state
//! between moves: the page sends the line so far (its moves and the server's replies) with
//! each move, and the line is followed down the tree first, so that a line the solution does
//! not contain is refused by name.
//!
//! At the attacker's turns the solution's move is right; so is any move that wins at once (at
//! the last turn that is what the puzzle asks; earlier it is a quicker win). Every other move
//! is wrong, and the caller looks for its refutation (`refute`).

use thiserror::Error;
use zertz::notation::official;
use zertz::{Move, Position};
use zertz_engine::puzzles::Attack;

use crate::puzzles::set::{Loaded, wins};

/// Why a line or a move was refused (nothing is recorded for it).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// A move of the line is not readable or not legal where it stands.
    #[error("move {index} of the line: {reason}")]
    Unreadable {
        /// Its place in the line, from 1.
        index: usize,
        /// Why.
        reason: String,
    },
    /// The solver's move of the line is not the solution's.
    #[error(
        "move {index} of the line, `{played}`, is not the solution's move (the line must follow the puzzle's solution)"
    )]
    NotTheSolution {
        /// Its place in the line, from 1.
        index: usize,
        /// The move.
        played: String,
    },
    /// The reply of the line is not a defence the solution answers.
    #[error("move {index} of the line, `{played}`, is not a reply of the puzzle's solution")]
    NotADefence {
        /// Its place in the line, from 1.
        index: usize,
        /// The move.
        played: String,
    },
    /// The line goes on after the puzzle is solved.
    #[error("the line goes on after the puzzle is solved (at move {index})")]
    PastTheEnd {
        /// Its place in the line, from 1.
        index: usize,
    },
    /// The line ends with the solver's move: the next move is the server's reply.
    #[error("the line ends with your move: send the line up to the last reply")]
    EndsOnYourMove,
    /// The move is not readable.
    #[error("move: {0}")]
    BadMove(String),
    /// The move is not legal: the rules' reason.
    #[error("{0}")]
    Illegal(String),
}

/// The verdict on a move.
#[derive(Clone, Debug, PartialEq)]
pub enum Judged {
    /// The solution's move, and the puzzle goes on: the defence the server plays.
    Right {
        /// The move, as the rules write it.
        mv: String,
        /// The position after it.
        after_move: Position,
        /// The defence played (the first of the first group).
        reply: String,
        /// The position after the defence.
        after_reply: Position,
    },
    /// The puzzle is solved by this move.
    Solved {
        /// The move, as the rules write it.
        mv: String,
        /// The position after it.
        after_move: Position,
    },
    /// Not the solution: a refutation is to be found.
    Wrong {
        /// The position the move was played in.
        position: Position,
        /// The move.
        played: Move,
        /// The move, as the rules write it.
        mv: String,
        /// The position after it.
        after_move: Position,
        /// The attacker's turns that were left, this one included.
        turns_left: u32,
        /// The solution's move there.
        solution: String,
    },
}

/// Follows `line` down `puzzle`'s tree and judges `mv` at its end.
pub fn judge(puzzle: &Loaded, line: &[String], mv: &str) -> Result<Judged, LineError> {
    let mut position = puzzle.start.clone();
    let mut node: &Attack = &puzzle.puzzle.solution;
    for (i, text) in line.iter().enumerate() {
        let index = i + 1;
        let played = official::parse(&position, text).map_err(|e| LineError::Unreadable {
            index,
            reason: e.to_string(),
        })?;
        if i % 2 == 0 {
            let expected = official::parse(&position, &node.mv).ok();
            if expected != Some(played) {
                return Err(LineError::NotTheSolution {
                    index,
                    played: text.clone(),
                });
            }
            if node.then.is_empty() {
                return Err(LineError::PastTheEnd { index: index + 1 });
            }
        } else {
            let group = node.then.iter().find(|g| {
                g.defences
                    .iter()
                    .any(|d| official::parse(&position, d).ok() == Some(played))
            });
            let Some(group) = group else {
                return Err(LineError::NotADefence {
                    index,
                    played: text.clone(),
                });
            };
            node = &group.next;
        }
        position.play_unchecked(&played);
    }
    if line.len() % 2 == 1 {
        return Err(LineError::EndsOnYourMove);
    }
    let played = match official::parse(&position, mv) {
        Ok(m) => m,
        Err(e @ zertz::notation::MoveParseError::Illegal { .. }) => {
            return Err(LineError::Illegal(e.to_string()));
        }
        Err(e) => return Err(LineError::BadMove(e.to_string())),
    };
    let text = official::move_text(&position, &played);
    let mut after = position.clone();
    after.play_unchecked(&played);
    let attacker = puzzle.attacker();
    let solution = official::parse(&position, &node.mv).ok();
    if solution == Some(played) {
        let Some(first) = node.then.first() else {
            return Ok(Judged::Solved {
                mv: text,
                after_move: after,
            });
        };
        let reply = &first.defences[0];
        let reply_move = official::parse(&after, reply).map_err(|e| LineError::Unreadable {
            index: line.len() + 2,
            reason: e.to_string(),
        })?;
        let mut after_reply = after.clone();
        after_reply.play_unchecked(&reply_move);
        return Ok(Judged::Right {
            mv: text,
            after_move: after.clone(),
            reply: official::move_text(&after, &reply_move),
            after_reply,
        });
    }
    if wins(&after, attacker) {
        return Ok(Judged::Solved {
            mv: text,
            after_move: after,
        });
    }
    Ok(Judged::Wrong {
        position,
        played,
        mv: text,
        after_move: after,
        turns_left: puzzle.puzzle.turns - (line.len() / 2) as u32,
        solution: node.mv.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::set::Book;

    /// Column `a` alone, a1 W: placing anywhere and removing a ring that cuts a1 off takes the
    /// fourth white (a win in 1 with several winning moves).
    const ISOLATION: &str =
        "37 standard W.../-----/------/-------/------/-----/---- 2/8/10 3/0/0 0/0/0 1";

    fn puzzle() -> Loaded {
        let json = format!(
            "{{\"version\":1,\"puzzles\":[{{\"id\":\"a\",\"position\":\"{ISOLATION}\",\"turns\":1,\
             \"solution\":{{\"move\":\"Wa3,a2\"}},\"themes\":[],\"source\":{{\"archive\":\"server\",\
             \"game\":\"g\",\"move_number\":1,\"played\":\"Wa3,a2\",\"found\":true}}}}]}}"
        );
        Book::from_json(&json).unwrap().get("a").unwrap().clone()
    }

    #[test]
    fn the_solution_and_any_win_at_once_are_right_and_the_rest_wrong() {
        let p = puzzle();
        let solved = judge(&p, &[], "Wa3,a2").unwrap();
        assert!(
            matches!(solved, Judged::Solved { ref mv, .. } if mv == "Wa3,a2 x Wa1"),
            "{solved:?}"
        );
        // Another placement that cuts a1 off wins at once too.
        assert!(matches!(
            judge(&p, &[], "Ga4,a2").unwrap(),
            Judged::Solved { .. }
        ));
        // Grey on a4, a3 removed: only the grey is taken.
        match judge(&p, &[], "Ga4,a3").unwrap() {
            Judged::Wrong {
                turns_left,
                solution,
                mv,
                ..
            } => {
                assert_eq!((turns_left, solution.as_str()), (1, "Wa3,a2"));
                assert_eq!(mv, "Ga4,a3 x Ga4");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_lines_and_moves_are_named() {
        let p = puzzle();
        assert!(matches!(
            judge(&p, &[], "Wq9,a1"),
            Err(LineError::BadMove(_))
        ));
        assert!(matches!(
            judge(&p, &[], "Wa1,a2"),
            Err(LineError::Illegal(_))
        ));
        let e = judge(&p, &["Wa4,a2".into()], "x").unwrap_err();
        assert_eq!(
            e,
            LineError::NotTheSolution {
                index: 1,
                played: "Wa4,a2".into()
            }
        );
        let e = judge(&p, &["Wa3,a2".into(), "Ba4".into()], "x").unwrap_err();
        assert_eq!(e, LineError::PastTheEnd { index: 2 });
        let e = judge(&p, &["nonsense".into()], "x").unwrap_err();
        assert!(e.to_string().starts_with("move 1 of the line: "), "{e}");
    }
}
