//! What a puzzle teaches, computed from its solution's main line (the attacker's moves and the
//! main defence at each turn). The definitions are those of `docs/learning.md`, section
//! "Puzzles":
//!
//! - `isolation`: a placement of the attacker on the main line takes marbles by isolation;
//! - `chain-capture`: a capture of the attacker on the main line jumps at least twice;
//! - `forced-sacrifice`: a placement of the attacker before the last move leaves the defender
//!   with only captures to play (captures are compulsory: the marbles are given away to force
//!   the reply);
//! - `supply-exhaustion`: on the main line a player must place a marble from their own
//!   captures (the supply is empty);
//! - `win-by-colour`: the winning captures hold a complete single-colour set (4 white, 5 grey
//!   or 6 black in the standard rules; the rule set's numbers otherwise);
//! - `win-by-each`: the winning captures hold the every-colour set (3 of each in the standard
//!   rules);
//! - `no-moves`: the main line ends with the defender to move and no legal move;
//! - `capture-choice`: at one of the attacker's turns on the main line the attacker must capture
//!   and has more than one capture to choose from.

use zertz::{Move, Position};

use super::Attack;
use super::solution::main_line;

/// Every theme name, in the order they are listed in a puzzle.
pub const THEMES: [&str; 8] = [
    "isolation",
    "chain-capture",
    "forced-sacrifice",
    "supply-exhaustion",
    "win-by-colour",
    "win-by-each",
    "no-moves",
    "capture-choice",
];

/// The themes of a solution from `position` (empty when its main line cannot be replayed).
pub fn themes(position: &Position, solution: &Attack) -> Vec<String> {
    let Some((line, end)) = main_line(position, solution) else {
        return Vec::new();
    };
    let attacker = position.to_move();
    let mut has = [false; 8];
    let last_attack = line
        .iter()
        .rposition(|(p, _)| p.to_move() == attacker)
        .unwrap_or(0);
    for (i, (before, mv)) in line.iter().enumerate() {
        if before.supply().is_empty() && !mv.is_capture() {
            has[3] = true;
        }
        if before.to_move() != attacker {
            continue;
        }
        let mut after = before.clone();
        let played = after.play_unchecked(mv);
        match mv {
            Move::Place(_) => {
                if played.isolated_places() != 0 {
                    has[0] = true;
                }
                let moves = after.legal_moves();
                if i < last_attack && !moves.is_empty() && moves.iter().all(Move::is_capture) {
                    has[2] = true;
                }
            }
            Move::Capture(c) => {
                if c.len() >= 2 {
                    has[1] = true;
                }
                if before.legal_moves().len() > 1 {
                    has[7] = true;
                }
            }
        }
    }
    let rules = end.rule_set();
    let won = end.captures(attacker);
    if end.winner_by_captures() == Some(attacker) {
        if (0..3).any(|c| won.0[c] >= rules.single.0[c]) {
            has[4] = true;
        }
        if won.0.iter().all(|&n| n >= rules.each) {
            has[5] = true;
        }
    } else if end.to_move() != attacker && !end.has_any_move() {
        has[6] = true;
    }
    THEMES
        .iter()
        .zip(has)
        .filter(|(_, h)| *h)
        .map(|(t, _)| t.to_string())
        .collect()
}
