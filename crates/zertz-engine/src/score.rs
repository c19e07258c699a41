//! Scores as the engine reports them.

use std::fmt;

/// The score of a won position at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;

/// A score from the point of view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation (about 10 per captured marble, far more near a winning set).
    Value(i32),
    /// A forced win: the winning move is the player's `n`-th turn from now.
    Win(u32),
    /// A forced loss: the opponent wins on their `n`-th turn from now.
    Loss(u32),
}

impl Score {
    /// A number for sorting and comparing: wins above values above losses.
    pub fn rank(self) -> i64 {
        match self {
            Score::Value(v) => v as i64,
            Score::Win(n) => WIN as i64 * 10 - n as i64,
            Score::Loss(n) => -(WIN as i64 * 10) + n as i64,
        }
    }

    /// The protocol's form: `cp 35`, `win 3`, `loss 2`.
    pub fn protocol(self) -> String {
        match self {
            Score::Value(v) => format!("cp {v}"),
            Score::Win(n) => format!("win {n}"),
            Score::Loss(n) => format!("loss {n}"),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Value(v) => write!(f, "{v:+}"),
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}
