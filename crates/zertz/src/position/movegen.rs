//! Legal move generation and bulk move counting.

use super::Position;
use crate::bits::Bits;
use crate::layout::{Direction, LayoutWidth, Place};
use crate::marbles::Colour;
use crate::moves::{Capture, Move, Placement};

/// A list of moves.
pub type MoveList = Vec<Move>;

impl<S: LayoutWidth> Position<S> {
    /// True when some marble can jump: a capture is then compulsory.
    #[inline]
    pub fn has_capture(&self) -> bool {
        let occupied = self.occupied();
        let empty = self.state.rings & !occupied;
        for from in Bits(occupied) {
            for jump in self.layout.jumps(from).iter().flatten() {
                if occupied.has(jump.over) && empty.has(jump.to) {
                    return true;
                }
            }
        }
        false
    }

    /// True when the player to move has at least one legal move (ignoring history).
    pub fn has_any_move(&self) -> bool {
        if self.winner_by_captures().is_some() {
            return false;
        }
        self.has_capture() || (self.empty().any() && !self.placement_source().is_empty())
    }

    /// Every legal move. Empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Every legal move, appended to `moves` (which is cleared first).
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        if self.winner_by_captures().is_some() {
            return;
        }
        if self.has_capture() {
            self.for_each_capture(|c| moves.push(Move::Capture(*c)));
        } else {
            self.placements_into(moves);
        }
    }

    /// The captures available (empty when none is).
    pub fn captures_available(&self) -> Vec<Capture> {
        let mut out = Vec::new();
        if self.winner_by_captures().is_none() {
            self.for_each_capture(|c| out.push(*c));
        }
        out
    }

    fn placements_into(&self, moves: &mut MoveList) {
        let empty = self.empty();
        let free = self.free_rings();
        for colour in self.placement_source().colours() {
            for at in Bits(empty) {
                let others = free & !S::bit(at);
                if others.none() {
                    moves.push(Move::Place(Placement {
                        colour,
                        at: Place(at),
                        remove: None,
                    }));
                } else {
                    for r in Bits(others) {
                        moves.push(Move::Place(Placement {
                            colour,
                            at: Place(at),
                            remove: Some(Place(r)),
                        }));
                    }
                }
            }
        }
    }

    /// Calls `f` with every complete capture chain, each once.
    pub fn for_each_capture(&self, mut f: impl FnMut(&Capture)) {
        let occupied = self.occupied();
        for from in Bits(occupied) {
            let mut chain = Capture::start(Place(from));
            self.extend_chain(from, occupied, &mut chain, &mut f);
        }
    }

    /// Depth-first search over the jumps of the marble now on `at`; `occupied` is the board as
    /// it stands mid-chain (captured marbles gone, the jumper on `at`).
    fn extend_chain(&self, at: u8, occupied: S, chain: &mut Capture, f: &mut impl FnMut(&Capture)) {
        let empty = self.state.rings & !occupied;
        let mut jumped = false;
        for (d, jump) in self.layout.jumps(at).iter().enumerate() {
            let Some(jump) = jump else { continue };
            if !occupied.has(jump.over) || !empty.has(jump.to) {
                continue;
            }
            jumped = true;
            if !chain.push(Direction::ALL[d]) {
                // Cannot happen on a board of up to 64 places (see MAX_JUMPS). On a larger
                // board it needs 50 marbles on the board at once (the standard game has 24);
                // such a chain is dropped rather than recorded wrongly (docs/rules.md).
                continue;
            }
            let after = occupied & !S::bit(at) & !S::bit(jump.over) | S::bit(jump.to);
            self.extend_chain(jump.to, after, chain, f);
            chain.pop();
        }
        if !jumped && !chain.is_empty() {
            f(chain);
        }
    }

    /// The number of legal moves, counted without generating placements one by one (the count
    /// follows from the numbers of colours, empty rings and free rings).
    pub fn count_moves(&self) -> u64 {
        if self.winner_by_captures().is_some() {
            return 0;
        }
        if self.has_capture() {
            let mut n = 0;
            self.for_each_capture(|_| n += 1);
            return n;
        }
        let colours = self.placement_source().colours().count() as u64;
        let empty = self.empty().count() as u64;
        let free = self.free_rings().count() as u64;
        // A marble on a free ring leaves free - 1 rings to remove; elsewhere, free rings.
        // With no ring left to remove the placement is one move with no removal.
        let per_colour = match free {
            0 | 1 => empty,
            _ => free * (free - 1) + (empty - free) * free,
        };
        colours * per_colour
    }

    /// The colours of marbles that can be placed now, for a placement's source.
    pub fn placeable_colours(&self) -> impl Iterator<Item = Colour> {
        self.placement_source().colours()
    }
}
