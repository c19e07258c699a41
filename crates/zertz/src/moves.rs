//! Moves: a placement (colour, ring, removed ring or none) or a capture chain.
//!
//! A move names places of a layout, so it only means something together with a position on that
//! layout. Notation (official, host, BoardSpace) lives in [`crate::notation`] and
//! [`crate::boardspace`], apart from the move itself.

use crate::layout::{Direction, Layout, Place};
use crate::marbles::Colour;

/// The longest chain a board of 64 places allows (and the longest a move can hold on any board:
/// a longer one, possible only on a larger board with at least 50 marbles on it, is not
/// generated; docs/rules.md).
///
/// Every landing of a chain lies on one quarter of the grid (an even number of steps from the
/// start) and every jumped marble on a ring between two such places, one per jump. With `v`
/// landing places and `e` jumped places, `v + e <= 64` and `e <= 3v`, so `e <= 48`.
pub const MAX_JUMPS: usize = 48;

/// A placement turn: put a marble of `colour` on the empty ring `at`, then remove the free ring
/// `remove` (or none, when no ring is free after the placement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// The colour of the marble placed.
    pub colour: Colour,
    /// The ring it goes on.
    pub at: Place,
    /// The free ring removed afterwards, if any ring was free.
    pub remove: Option<Place>,
}

/// A capture turn: one marble jumps from `from`, then again and again while it can.
///
/// Stored as the starting place and the direction of each jump (four bits each), so a move is
/// small and `Copy`; the places follow from the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Capture {
    from: Place,
    len: u8,
    dirs: [u8; MAX_JUMPS / 2],
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Capture(from {}, ", self.from.index())?;
        f.debug_list().entries(self.directions()).finish()?;
        f.write_str(")")
    }
}

impl Capture {
    /// A chain of no jumps yet, starting at `from`.
    pub fn start(from: Place) -> Capture {
        Capture {
            from,
            len: 0,
            dirs: [0; MAX_JUMPS / 2],
        }
    }

    /// The place the jumping marble starts from.
    pub fn from(&self) -> Place {
        self.from
    }

    /// The number of jumps (marbles captured).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True for a chain of no jumps (never a legal move).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a jump. Returns false (and changes nothing) if the chain is already at
    /// [`MAX_JUMPS`].
    pub fn push(&mut self, d: Direction) -> bool {
        let i = self.len as usize;
        if i >= MAX_JUMPS {
            return false;
        }
        let shift = (i % 2) * 4;
        self.dirs[i / 2] |= (d as u8) << shift;
        self.len += 1;
        true
    }

    /// Removes the last jump.
    pub fn pop(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            let i = self.len as usize;
            let shift = (i % 2) * 4;
            self.dirs[i / 2] &= !(0xf << shift);
        }
    }

    /// The direction of each jump, in order.
    pub fn directions(&self) -> impl Iterator<Item = Direction> + '_ {
        (0..self.len as usize).map(|i| {
            let nibble = (self.dirs[i / 2] >> ((i % 2) * 4)) & 0xf;
            Direction::from_index(nibble as usize).unwrap_or(Direction::North)
        })
    }

    /// The jumps as `(jumped place, landing place)` pairs, or `None` if a jump leaves the layout.
    pub fn steps(&self, layout: &Layout) -> Option<Vec<(Place, Place)>> {
        let mut at = self.from;
        let mut out = Vec::with_capacity(self.len());
        for d in self.directions() {
            let over = layout.neighbour(at, d)?;
            let to = layout.neighbour(over, d)?;
            out.push((over, to));
            at = to;
        }
        Some(out)
    }

    /// The landing place of the last jump (the start for an empty chain), if on the layout.
    pub fn end(&self, layout: &Layout) -> Option<Place> {
        match self.steps(layout)?.last() {
            Some(&(_, to)) => Some(to),
            None => Some(self.from),
        }
    }

    /// Builds a chain from its start and landing places. `None` if two consecutive places are
    /// not two steps apart in a straight line on `layout`.
    pub fn from_landings(layout: &Layout, from: Place, landings: &[Place]) -> Option<Capture> {
        let mut chain = Capture::start(from);
        let mut at = from;
        for &to in landings {
            let d = Direction::ALL.into_iter().find(|&d| {
                layout
                    .neighbour(at, d)
                    .and_then(|over| layout.neighbour(over, d))
                    == Some(to)
            })?;
            if !chain.push(d) {
                return None;
            }
            at = to;
        }
        Some(chain)
    }
}

/// One turn of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a marble and remove a free ring (or none).
    Place(Placement),
    /// Jump with one marble, as far as the chain goes.
    Capture(Capture),
}

impl Move {
    /// A placement move.
    pub fn place(colour: Colour, at: Place, remove: Option<Place>) -> Move {
        Move::Place(Placement { colour, at, remove })
    }

    /// True for a capture.
    pub fn is_capture(&self) -> bool {
        matches!(self, Move::Capture(_))
    }
}
