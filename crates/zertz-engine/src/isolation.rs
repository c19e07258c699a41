//! Finding placements that isolate: which rings, if removed (or filled), cut off a group whose
//! rings are then all occupied.
//!
//! These are the "captures" of placement turns. The search tries them first, quiescence
//! follows them, and the evaluation counts what the side to move could take this way.

use zertz::{Bits, Position};

/// One way to isolate with the next placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// The free ring to remove, or `None` when the group is already cut off.
    pub remove: Option<u8>,
    /// The place the marble must go on (the group's last empty ring), or `None` when the group
    /// is full already once the ring is removed (then the marble may go anywhere else).
    pub fill: Option<u8>,
    /// The rings of the group taken.
    pub group: u64,
}

/// Number of separate runs of rings among the six neighbours of a place, in cyclic order.
fn runs(pattern: u8) -> u32 {
    if pattern == 0x3f {
        return 1;
    }
    (0..6)
        .filter(|d| pattern >> d & 1 == 1 && pattern >> ((d + 5) % 6) & 1 == 0)
        .count() as u32
}

/// Every way the side to move can isolate a group with one placement (at most a few dozen).
pub fn isolations(position: &Position) -> Vec<Isolation> {
    let layout = position.layout();
    let rings = position.rings();
    let empty = position.empty();
    let mut out = Vec::new();
    if empty == 0 {
        return out;
    }
    let split = position.is_split();
    // Groups (the whole board when it is in one piece) with one empty ring left: fill it.
    let mut left = rings;
    while left != 0 {
        let group = if split {
            layout.flood(left & left.wrapping_neg(), rings)
        } else {
            rings
        };
        left &= !group;
        let holes = group & empty;
        if holes.count_ones() == 1 {
            out.push(Isolation {
                remove: None,
                fill: Some(holes.trailing_zeros() as u8),
                group,
            });
        }
    }
    // Free rings whose removal leaves a group with at most one empty ring.
    for r in Bits(position.free_rings()) {
        let Some(place) = layout.place_at_index(r as usize) else {
            continue;
        };
        let rest = rings & !(1u64 << r);
        let mut pattern = 0u8;
        for d in zertz::Direction::ALL {
            if layout
                .neighbour(place, d)
                .is_some_and(|n| rest & n.bit() != 0)
            {
                pattern |= 1 << d as u8;
            }
        }
        if !split && runs(pattern) < 2 {
            // The board stays in one piece: only the whole board can be taken.
            let holes = rest & empty;
            if rest != 0 && holes.count_ones() <= 1 {
                out.push(Isolation {
                    remove: Some(r),
                    fill: (holes != 0).then(|| holes.trailing_zeros() as u8),
                    group: rest,
                });
            }
            continue;
        }
        let mut seen = 0u64;
        for n in Bits(layout.neighbour_mask(place) & rest) {
            if seen & (1 << n) != 0 {
                continue;
            }
            let part = layout.flood(1 << n, rest);
            seen |= part;
            let holes = part & empty;
            if holes.count_ones() <= 1 {
                out.push(Isolation {
                    remove: Some(r),
                    fill: (holes != 0).then(|| holes.trailing_zeros() as u8),
                    group: part,
                });
            }
        }
    }
    out
}

/// True when placing a marble on `at` and removing `remove` leaves the opponent a capture, in a
/// position with no capture pending.
pub fn gives_capture(position: &Position, at: zertz::Place, remove: Option<zertz::Place>) -> bool {
    let removed = remove.map(|r| r.bit()).unwrap_or(0);
    capture_landings(position, at) & !removed != 0
}

/// The rings a capture could land on after a marble is placed on `at` (before any ring is
/// removed), in a position with no capture pending. Any new jump must involve the new marble,
/// as the jumper or the jumped, and land on an empty ring.
pub fn capture_landings(position: &Position, at: zertz::Place) -> u64 {
    let layout = position.layout();
    let occupied = position.occupied() | at.bit();
    let empty = position.rings() & !occupied;
    let mut landings = 0;
    for d in zertz::Direction::ALL {
        let Some(n) = layout.neighbour(at, d) else {
            continue;
        };
        if occupied & n.bit() == 0 {
            continue;
        }
        // The new marble jumps over `n`...
        if let Some(beyond) = layout.neighbour(n, d) {
            landings |= empty & beyond.bit();
        }
        // ...or the marble on `n` jumps over the new one.
        let back = zertz::Direction::ALL[(d as usize + 3) % 6];
        if let Some(beyond) = layout.neighbour(at, back) {
            landings |= empty & beyond.bit();
        }
    }
    landings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::Rng;
    use zertz::Move;

    /// `gives_capture` agrees with playing the placement and asking the rules library, on every
    /// placement of positions along random games (only positions with no capture pending).
    #[test]
    fn gives_capture_agrees_with_the_rules() {
        let mut rng = Rng::new(5);
        let mut checked = 0;
        for _ in 0..20 {
            let mut position = Position::standard();
            while position.winner_by_captures().is_none() {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !position.has_capture() {
                    for mv in &moves {
                        let Move::Place(p) = mv else { continue };
                        let mut after = position.clone();
                        after.play_unchecked(mv);
                        assert_eq!(
                            gives_capture(&position, p.at, p.remove),
                            after.has_capture(),
                            "{position} {mv:?}"
                        );
                        checked += 1;
                    }
                }
                position.play_unchecked(&moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 10_000, "only {checked} placements checked");
    }
}
