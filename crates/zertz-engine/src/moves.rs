//! Compact move codes for the transposition table and the history tables.

use zertz::{Move, Position};

/// A move in 32 bits: enough to find it again among the legal moves of its position.
///
/// Placements are `1 << 30 | colour << 16 | place << 8 | removed place (255 for none)`;
/// captures are `1 << 31` with a 31-bit hash of the start and the jump directions. Zero means
/// "no move".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveCode(pub u32);

impl MoveCode {
    /// No move.
    pub const NONE: MoveCode = MoveCode(0);

    /// The code of a move.
    pub fn of(mv: &Move) -> MoveCode {
        match mv {
            Move::Place(p) => {
                let remove = p.remove.map(|r| r.index() as u32).unwrap_or(255);
                MoveCode(
                    1 << 30 | (p.colour.index() as u32) << 16 | (p.at.index() as u32) << 8 | remove,
                )
            }
            Move::Capture(c) => {
                let mut h: u32 = 0x811c_9dc5 ^ c.from().index() as u32;
                for d in c.directions() {
                    h = (h ^ (d as u32 + 1)).wrapping_mul(0x0100_0193);
                }
                h = (h ^ c.len() as u32).wrapping_mul(0x0100_0193);
                MoveCode(1 << 31 | (h & 0x7fff_ffff))
            }
        }
    }

    /// The legal move of `position` with this code, if any.
    pub fn find(self, position: &Position) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        position
            .legal_moves()
            .into_iter()
            .find(|m| MoveCode::of(m) == self)
    }
}

/// Index of a placement in a history table of `PLACEMENT_SLOTS` entries.
pub const PLACEMENT_SLOTS: usize = 3 * 64 * 65;

/// The history slot of a move: placements by colour, place and removal; captures by start and
/// first direction (after the placements).
pub fn history_slot(mv: &Move) -> usize {
    match mv {
        Move::Place(p) => {
            let remove = p.remove.map(|r| r.index()).unwrap_or(64);
            (p.colour.index() * 64 + p.at.index()) * 65 + remove
        }
        Move::Capture(c) => {
            let first = c.directions().next().map(|d| d as usize).unwrap_or(0);
            PLACEMENT_SLOTS + c.from().index() * 6 + first
        }
    }
}

/// Size of a history table.
pub const HISTORY_SLOTS: usize = PLACEMENT_SLOTS + 64 * 6;
