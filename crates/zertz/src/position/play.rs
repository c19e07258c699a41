//! Playing moves: the checked and unchecked paths, isolation, and why an illegal move is illegal.

use super::Position;
use crate::bits::{Bits, Narrow, PlaceSet, bit};
use crate::layout::{LayoutWidth, NONE, Place};
use crate::marbles::{Colour, Marbles, Player};
use crate::moves::{Capture, Move, Placement};
use crate::notation;
use crate::zobrist;

/// Number of runs of set bits in a 6-bit ring of neighbour directions (cyclic).
const fn runs_table() -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut pattern = 0;
    while pattern < 64 {
        let mut runs = 0;
        let mut d = 0;
        while d < 6 {
            let here = pattern >> d & 1;
            let before = pattern >> ((d + 5) % 6) & 1;
            if here == 1 && before == 0 {
                runs += 1;
            }
            d += 1;
        }
        if pattern == 63 {
            runs = 1;
        }
        table[pattern] = runs;
        pattern += 1;
    }
    table
}

static RUNS: [u8; 64] = runs_table();

/// What a move did besides the move itself: the marbles taken by isolation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played<S = Narrow> {
    /// Places whose marble (and ring) was taken by isolation, by colour.
    pub isolated: [S; 3],
}

impl<S: PlaceSet> Played<S> {
    /// All places taken by isolation.
    pub fn isolated_places(&self) -> S {
        self.isolated[0] | self.isolated[1] | self.isolated[2]
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is already over.
    #[error("the game is over: no move can be played")]
    GameOver,
    /// A placement while a capture is available.
    #[error("a capture is compulsory: {available} is available")]
    CaptureCompulsory {
        /// One available capture, in official notation.
        available: String,
    },
    /// The colour is not in the supply.
    #[error("there is no {0} marble in the supply")]
    NotInSupply(Colour),
    /// The supply is empty and the player holds none of that colour.
    #[error("the supply is empty and you hold no {0} marble to place")]
    NotInCaptures(Colour),
    /// The target place has no ring.
    #[error("there is no ring at {0}")]
    NoRing(String),
    /// The target ring holds a marble.
    #[error("ring {0} already holds a marble")]
    Occupied(String),
    /// The removed ring cannot slide out.
    #[error("ring {0} is not free")]
    NotFree(String),
    /// The removed ring is the one just played on.
    #[error("ring {0} now holds the marble just placed and cannot be removed")]
    RemovesPlacedRing(String),
    /// No ring removed although one is free.
    #[error("a free ring must be removed: {example} is free")]
    MustRemove {
        /// A free ring that could be removed.
        example: String,
    },
    /// A capture starting where there is no marble.
    #[error("there is no marble at {0} to jump with")]
    NoJumper(String),
    /// A capture with no jump at all.
    #[error("a capture needs at least one jump")]
    EmptyChain,
    /// One jump of a chain is impossible.
    #[error("jump {step} of the chain, from {from}: {why}")]
    BadJump {
        /// Which jump (from 1).
        step: usize,
        /// Where the jumping marble was.
        from: String,
        /// What is wrong.
        why: String,
    },
    /// The chain stops while the marble can still jump.
    #[error("the chain must go on: the marble on {0} can still jump")]
    ChainIncomplete(String),
    /// A capture was proposed but no capture exists (should not happen with valid steps).
    #[error("that capture is not available")]
    NotAvailable,
    /// A bribe neither or only one of the players can pay.
    #[error("a bribe must be held by both players: {0}")]
    BadBribe(String),
}

impl<S: LayoutWidth> Position<S> {
    /// Checks a move and plays it, giving the new position.
    pub fn play(&self, mv: &Move) -> Result<Position<S>, IllegalMove> {
        self.check(mv)?;
        let mut next = self.clone();
        next.play_unchecked(mv);
        Ok(next)
    }

    /// True when `mv` is legal here.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Explains why `mv` is illegal here, or `Ok(())` when it is legal.
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.winner_by_captures().is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Place(p) => self.check_placement(p),
            Move::Capture(c) => self.check_capture(c),
        }
    }

    fn name(&self, place: Place) -> String {
        if place.index() < self.layout.len() {
            self.layout.coord(place).to_string()
        } else {
            format!("place #{}", place.index())
        }
    }

    fn check_placement(&self, p: &Placement) -> Result<(), IllegalMove> {
        if self.has_capture() {
            let mut first = None;
            self.for_each_capture(|c| {
                if first.is_none() {
                    first = Some(*c);
                }
            });
            let available = first
                .map(|c| notation::official::capture_text(self, &c))
                .unwrap_or_default();
            return Err(IllegalMove::CaptureCompulsory { available });
        }
        if self.state.supply.is_empty() {
            if self.captures(self.state.to_move).get(p.colour) == 0 {
                return Err(IllegalMove::NotInCaptures(p.colour));
            }
        } else if self.state.supply.get(p.colour) == 0 {
            return Err(IllegalMove::NotInSupply(p.colour));
        }
        if p.at.index() >= self.layout.len() || !self.has_ring(p.at) {
            return Err(IllegalMove::NoRing(self.name(p.at)));
        }
        if (self.occupied() & p.at.bit_in()).any() {
            return Err(IllegalMove::Occupied(self.name(p.at)));
        }
        let free = self.free_rings() & !p.at.bit_in::<S>();
        match p.remove {
            Some(r) if r == p.at => Err(IllegalMove::RemovesPlacedRing(self.name(r))),
            Some(r) if r.index() >= self.layout.len() || !self.has_ring(r) => {
                Err(IllegalMove::NoRing(self.name(r)))
            }
            Some(r) if (free & r.bit_in()).none() => Err(IllegalMove::NotFree(self.name(r))),
            Some(_) => Ok(()),
            None => match Bits(free).next() {
                Some(i) => Err(IllegalMove::MustRemove {
                    example: self.name(Place(i)),
                }),
                None => Ok(()),
            },
        }
    }

    fn check_capture(&self, c: &Capture) -> Result<(), IllegalMove> {
        let from = c.from();
        if from.index() >= self.layout.len() || (self.occupied() & from.bit_in()).none() {
            return Err(IllegalMove::NoJumper(self.name(from)));
        }
        if c.is_empty() {
            return Err(IllegalMove::EmptyChain);
        }
        let mut occupied = self.occupied();
        let mut at = from;
        for (i, d) in c.directions().enumerate() {
            let bad = |why: String| IllegalMove::BadJump {
                step: i + 1,
                from: self.name(at),
                why,
            };
            let over = self.layout.neighbour(at, d);
            let to = over.and_then(|o| self.layout.neighbour(o, d));
            let (Some(over), Some(to)) = (over, to) else {
                return Err(bad("the jump leaves the board".into()));
            };
            if (occupied & over.bit_in()).none() {
                return Err(bad(format!(
                    "no marble at {} to jump over",
                    self.name(over)
                )));
            }
            if !self.has_ring(to) {
                return Err(bad(format!("no ring at {} to land on", self.name(to))));
            }
            if (occupied & to.bit_in()).any() {
                return Err(bad(format!(
                    "the landing ring {} is not empty",
                    self.name(to)
                )));
            }
            occupied = occupied & !at.bit_in::<S>() & !over.bit_in::<S>() | to.bit_in::<S>();
            at = to;
        }
        let empty = self.state.rings & !occupied;
        let can_go_on = self
            .layout
            .jumps(at.0)
            .iter()
            .flatten()
            .any(|j| occupied.has(j.over) && empty.has(j.to));
        if can_go_on {
            return Err(IllegalMove::ChainIncomplete(self.name(at)));
        }
        Ok(())
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`] or checked with
    /// [`Position::check`]). On an illegal move the result is unspecified but memory-safe.
    pub fn play_unchecked(&mut self, mv: &Move) -> Played<S> {
        let played = match mv {
            Move::Place(p) => self.place(p),
            Move::Capture(c) => {
                self.capture(c);
                Played::default()
            }
        };
        self.state.to_move = self.state.to_move.other();
        self.state.hash ^= zobrist::SIDE;
        played
    }

    #[inline]
    fn set_supply(&mut self, colour: usize, n: u8) {
        self.state.hash ^=
            zobrist::count(colour, self.state.supply.0[colour]) ^ zobrist::count(colour, n);
        self.state.supply.0[colour] = n;
    }

    #[inline]
    fn set_captures(&mut self, player: Player, colour: usize, n: u8) {
        let slot = 3 + 3 * player.index() + colour;
        let old = self.state.captures[player.index()].0[colour];
        self.state.hash ^= zobrist::count(slot, old) ^ zobrist::count(slot, n);
        self.state.captures[player.index()].0[colour] = n;
    }

    fn place(&mut self, p: &Placement) -> Played<S> {
        let me = self.state.to_move;
        let c = p.colour.index();
        if self.state.supply.is_empty() {
            let n = self.state.captures[me.index()].0[c].saturating_sub(1);
            self.set_captures(me, c, n);
        } else {
            let n = self.state.supply.0[c].saturating_sub(1);
            self.set_supply(c, n);
        }
        self.state.marbles[c] |= p.at.bit_in();
        self.state.hash ^= zobrist::MARBLE[c][p.at.index()];

        let mut may_split = false;
        if let Some(r) = p.remove {
            let r = r.0;
            self.state.rings &= !S::bit(r);
            self.state.edge &= !S::bit(r);
            self.state.hash ^= zobrist::RING[r as usize];
            // Only the removed ring's neighbours can have become edge rings, and the board can
            // only have split if those neighbours are now in separate runs around it.
            let mut pattern = 0usize;
            for d in 0..6 {
                let n = self.layout.neighbour_raw(r, d);
                if n != NONE && self.state.rings.has(n) {
                    pattern |= 1 << d;
                    if self.layout.is_edge(Place(n), self.state.rings) {
                        self.state.edge |= bit(n);
                    }
                }
            }
            may_split = RUNS[pattern] >= 2;
        }

        let mut played = Played::default();
        let empty = self.state.rings & !self.occupied();
        if self.state.split || may_split || empty.none() {
            // Every group without an empty ring is taken by the player who moved.
            let open = self.layout.flood(empty, self.state.rings);
            let full = self.state.rings & !open;
            if full.any() {
                for colour in 0..3 {
                    let taken = self.state.marbles[colour] & full;
                    played.isolated[colour] = taken;
                    if taken.none() {
                        continue;
                    }
                    for i in Bits(taken) {
                        self.state.hash ^= zobrist::MARBLE[colour][i as usize];
                    }
                    self.state.marbles[colour] &= !taken;
                    let n = self.state.captures[me.index()].0[colour]
                        .saturating_add(taken.count() as u8);
                    self.set_captures(me, colour, n);
                }
                for i in Bits(full) {
                    self.state.hash ^= zobrist::RING[i as usize];
                }
                // A full group touches no other ring, so no edge status changes elsewhere.
                self.state.rings &= !full;
                self.state.edge &= !full;
            }
            self.state.split = self.compute_split();
        }
        played
    }

    fn capture(&mut self, c: &Capture) {
        let me = self.state.to_move;
        let mut at = c.from().0;
        let Some(colour) = self.colour_at(Place(at)) else {
            return;
        };
        let jumper = colour.index();
        for d in c.directions() {
            let Some(jump) = self.layout.jumps(at)[d as usize] else {
                break;
            };
            if let Some(taken) = self.colour_at(Place(jump.over)) {
                let t = taken.index();
                self.state.marbles[t] &= !S::bit(jump.over);
                self.state.hash ^= zobrist::MARBLE[t][jump.over as usize];
                let n = self.state.captures[me.index()].0[t].saturating_add(1);
                self.set_captures(me, t, n);
            }
            self.state.marbles[jumper] ^= S::bit(at) | S::bit(jump.to);
            self.state.hash ^=
                zobrist::MARBLE[jumper][at as usize] ^ zobrist::MARBLE[jumper][jump.to as usize];
            at = jump.to;
        }
    }

    /// The bribe-to-pass of rules.md 7.3, accepted: the player to move hands `bribe` to the
    /// opponent and the turn passes. Both players must hold the bribe among their captures.
    pub fn pass_with_bribe(&self, bribe: Marbles) -> Result<Position<S>, IllegalMove> {
        if self.winner_by_captures().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let me = self.state.to_move;
        let them = me.other();
        if !bribe.fits_in(self.captures(me)) || !bribe.fits_in(self.captures(them)) {
            return Err(IllegalMove::BadBribe(format!(
                "{} offered, {me} holds {}, {them} holds {}",
                bribe,
                self.captures(me),
                self.captures(them)
            )));
        }
        let mut next = self.clone();
        for c in 0..3 {
            let give = bribe.0[c];
            next.set_captures(me, c, self.state.captures[me.index()].0[c] - give);
            next.set_captures(
                them,
                c,
                self.state.captures[them.index()].0[c].saturating_add(give),
            );
        }
        next.state.to_move = them;
        next.state.hash ^= zobrist::SIDE;
        Ok(next)
    }
}
