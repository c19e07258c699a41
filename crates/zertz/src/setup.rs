//! Positions set up by hand (on an analysis board, for a puzzle): the rings, the marbles on
//! them, each player's captures and the player to move, with the supply being whatever of the
//! rule set's marbles is left. [`hand_made`] says whether such a position can be played, and if
//! not, which rule it breaks.
//!
//! [`Position::from_setup`] accepts any consistent position (a position string may give any
//! supply); a hand-made position must also fit in the marbles the rule set has and must not be
//! a finished game.

use crate::layout::LayoutRef;
use crate::marbles::{Colour, Marbles, Player};
use crate::position::{Position, Setup, SetupError};
use crate::rules::RuleSet;

/// Why a hand-made position cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandMadeError {
    /// Not a position at all (a marble without a ring, two marbles on a ring, …).
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// More marbles of a colour on the board and in the captures than the rule set has.
    #[error(
        "too many {colour} marbles: {used} on the board and in the captures, but the {rules} rule set has {has}"
    )]
    TooMany {
        /// The colour.
        colour: Colour,
        /// On the board and captured together.
        used: u32,
        /// What the rule set starts with.
        has: u8,
        /// The rule set's name.
        rules: String,
    },
    /// The position is a finished game: nothing can be played from it.
    #[error("the game is already finished: {0}")]
    Finished(String),
}

/// The position with these rings, marbles (white, grey, black places), captures and player to
/// move, the supply being the rule set's marbles less those on the board and captured.
pub fn hand_made(
    layout: impl Into<LayoutRef>,
    rule_set: RuleSet,
    rings: u64,
    marbles: [u64; 3],
    captures: [Marbles; 2],
    to_move: Player,
) -> Result<Position, HandMadeError> {
    let mut supply = Marbles::NONE;
    for colour in Colour::ALL {
        let used = marbles[colour.index()].count_ones()
            + u32::from(captures[0].get(colour))
            + u32::from(captures[1].get(colour));
        let has = rule_set.supply.get(colour);
        if used > u32::from(has) {
            return Err(HandMadeError::TooMany {
                colour,
                used,
                has,
                rules: rule_set.name(),
            });
        }
        supply.set(colour, has - used as u8);
    }
    let position = Position::from_setup(Setup {
        layout: layout.into(),
        rule_set,
        rings,
        marbles,
        supply,
        captures,
        to_move,
    })?;
    if let Some(outcome) = position.outcome() {
        return Err(HandMadeError::Finished(outcome.to_string()));
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(layout: &crate::Layout, name: &str) -> u64 {
        layout.parse_place(name).unwrap().bit()
    }

    #[test]
    fn the_supply_is_what_the_rule_set_has_left() {
        let l = crate::Layout::standard();
        let p = hand_made(
            l,
            RuleSet::STANDARD,
            l.all(),
            [place(l, "d4"), 0, place(l, "a1")],
            [Marbles::new(1, 0, 0), Marbles::NONE],
            Player::Two,
        )
        .unwrap();
        assert_eq!(p.supply(), Marbles::new(4, 8, 9));
        assert_eq!(p.to_move(), Player::Two);
    }

    #[test]
    fn each_broken_rule_is_named() {
        let l = crate::Layout::standard();
        let seven_whites = ["a1", "a2", "a3", "a4", "b1", "b2", "b3"]
            .iter()
            .fold(0, |m, n| m | place(l, n));
        let e = hand_made(
            l,
            RuleSet::STANDARD,
            l.all(),
            [seven_whites, 0, 0],
            [Marbles::NONE; 2],
            Player::One,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "too many white marbles: 7 on the board and in the captures, but the standard rule set has 6"
        );
        let e = hand_made(
            l,
            RuleSet::STANDARD,
            l.all() & !place(l, "d4"),
            [place(l, "d4"), 0, 0],
            [Marbles::NONE; 2],
            Player::One,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "a marble at d4 has no ring under it");
        let e = hand_made(
            l,
            RuleSet::STANDARD,
            l.all(),
            [0; 3],
            [Marbles::new(0, 0, 6), Marbles::NONE],
            Player::Two,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the game is already finished: player 1 wins"),
            "{e}"
        );
    }
}
