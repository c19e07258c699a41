//! A position: rings, marbles, supply, both players' captures and the player to move.
//!
//! `Position` is a small `Clone` value (about 100 bytes): play makes a new position and undo
//! goes back to the old one, so nothing needs to be unwound by hand. It holds its board as a
//! [`LayoutRef`]: a `&'static` reference for the official boards, so that cloning a position of
//! one is a plain copy of its bytes, and an `Arc` for a custom board, so that the layout is
//! freed once no position, game or setup holds it any more (cloning such a position adds an
//! atomic increment, and dropping it a decrement). It is not `Copy` for that reason: a copy
//! must say `.clone()`. A loop that plays each move on a copy of one position keeps one buffer
//! and calls `clone_from`, which copies the rest of the position as one block and leaves the
//! layout handle as it is (no reference counted per move); a search thread holds a private copy
//! of a custom layout ([`Position::with_private_layout`]), so that threads do not share a count.
//! (A safe alternative without reference counts, positions that borrow their layout, would put
//! a lifetime on every type that holds a position: games, trees, the engine, the server.)
//!
//! Two derived facts are kept up to date alongside the state because move generation asks for
//! them constantly: which rings are at the edge (could slide out if empty) and whether the
//! rings still form one group. The Zobrist hash is kept up to date incrementally too;
//! [`Position::compute_hash`] recomputes it from scratch, and the tests check that the two agree.

mod movegen;
mod play;
mod text;

pub use movegen::MoveList;
pub use play::{IllegalMove, Played};
pub use text::PositionParseError;

use std::fmt;

use crate::bits::{Bits, Narrow, PlaceSet, bit};
use crate::layout::{Layout, LayoutRef, LayoutWidth, Place};
use crate::marbles::{Colour, Marbles, Player};
use crate::rules::RuleSet;
use crate::zobrist;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player won.
    Win {
        /// Who won.
        winner: Player,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, if there is one.
    pub fn winner(&self) -> Option<Player> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw(_) => None,
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The winner's captures reached a winning set.
    WinningSet,
    /// The loser had to move and had no legal move (no marble to place, or every move
    /// forbidden by the no-repetition rule).
    NoLegalMove,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Time,
    /// The loser left the game (abandoned, disconnected, forfeited).
    Forfeit,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position occurred for the third time.
    Repetition,
    /// The players agreed.
    Agreement,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let how = match reason {
                    WinReason::WinningSet => "with a winning set of captures",
                    WinReason::NoLegalMove => "because the opponent has no legal move",
                    WinReason::Resignation => "by resignation",
                    WinReason::Time => "on time",
                    WinReason::Forfeit => "by forfeit",
                };
                write!(f, "{winner} wins {how}")
            }
            Outcome::Draw(DrawReason::Repetition) => f.write_str("draw by threefold repetition"),
            Outcome::Draw(DrawReason::Agreement) => f.write_str("draw by agreement"),
        }
    }
}

/// The parts of a position, for building one that did not arise from the start: handicaps,
/// puzzles, positions typed in by hand. [`Position::from_setup`] checks them.
///
/// `S` is the type of the sets of places: `u64` (the default) on boards of up to 64 places,
/// [`crate::Wide`] on boards of up to 128, [`crate::Huge`] on larger ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup<S = Narrow> {
    /// The board.
    pub layout: LayoutRef,
    /// Supply at the start and winning sets.
    pub rule_set: RuleSet,
    /// The places that still have a ring.
    pub rings: S,
    /// Marbles on the board by colour (white, grey, black).
    pub marbles: [S; 3],
    /// The supply now.
    pub supply: Marbles,
    /// Each player's captures.
    pub captures: [Marbles; 2],
    /// Whose turn it is.
    pub to_move: Player,
}

impl Setup {
    /// The start of a game: every ring, no marble on the board, the full supply, player one to
    /// move. (On a layout of more than 64 places, use [`Setup::start_in`] with
    /// [`crate::Wide`] or [`crate::Huge`].)
    pub fn start(layout: impl Into<LayoutRef>, rule_set: RuleSet) -> Setup {
        Setup::start_in(layout, rule_set)
    }
}

impl<S: LayoutWidth> Setup<S> {
    /// The start of a game with sets of places of type `S`.
    pub fn start_in(layout: impl Into<LayoutRef>, rule_set: RuleSet) -> Setup<S> {
        let layout = layout.into();
        Setup {
            rings: layout.all_in(),
            layout,
            rule_set,
            marbles: [S::EMPTY; 3],
            supply: rule_set.supply,
            captures: [Marbles::NONE; 2],
            to_move: Player::One,
        }
    }
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A ring set or marble set names places the layout does not have.
    #[error("the {what} name places that are not on the board")]
    OffBoard {
        /// "rings" or "white marbles", …
        what: &'static str,
    },
    /// A marble sits where there is no ring.
    #[error("a marble at {0} has no ring under it")]
    MarbleWithoutRing(String),
    /// Two colours on one ring.
    #[error("ring {0} holds two marbles")]
    TwoMarbles(String),
    /// More than 255 marbles of one colour in the game.
    #[error("too many {0} marbles: supply, board and captures together must stay within 255")]
    TooMany(Colour),
    /// Both players hold a winning set: the game would have ended before.
    #[error("both players hold a winning set of captures")]
    BothWon,
    /// The layout has more places than the position's sets of places hold.
    #[error(
        "the board has {places} places, more than the {capacity} this position type holds (use Wide for boards of up to 128 places, Huge for more)"
    )]
    TooLarge {
        /// The layout's places.
        places: usize,
        /// The most the set type holds.
        capacity: usize,
    },
}

/// A ZÈRTZ position.
///
/// `S` is the type of its sets of places: `u64` (the default, and as fast as a position can be)
/// on boards of up to 64 places, [`crate::Wide`] on boards of up to 128, [`crate::Huge`] on
/// larger ones.
pub struct Position<S = Narrow> {
    layout: LayoutRef,
    /// Everything else, `Copy`: a clone copies it as one block (a derived `Clone` of the fields
    /// one by one was measurably slower in perft).
    state: State<S>,
}

#[derive(Clone, Copy)]
struct State<S> {
    rule_set: RuleSet,
    rings: S,
    marbles: [S; 3],
    supply: Marbles,
    captures: [Marbles; 2],
    to_move: Player,
    /// Rings with two neighbouring directions in a row free of rings (derived from `rings`).
    edge: S,
    /// True when the rings form more than one group (derived from `rings`).
    split: bool,
    hash: u64,
}

impl<S: Copy> Clone for Position<S> {
    #[inline]
    fn clone(&self) -> Position<S> {
        Position {
            layout: self.layout.clone(),
            state: self.state,
        }
    }

    /// Copies `source` into this position, keeping its layout handle when it is the same
    /// layout: a loop that plays each move on one buffer (`child.clone_from(position)`) counts
    /// no reference per move on a custom board, and copies the state as one block.
    #[inline]
    fn clone_from(&mut self, source: &Position<S>) {
        self.layout.clone_from(&source.layout);
        self.state = source.state;
    }
}

impl<S: PlaceSet> PartialEq for Position<S> {
    fn eq(&self, other: &Position<S>) -> bool {
        self.state.hash == other.state.hash
            && self.layout.id() == other.layout.id()
            && self.state.rule_set == other.state.rule_set
            && self.state.rings == other.state.rings
            && self.state.marbles == other.state.marbles
            && self.state.supply == other.state.supply
            && self.state.captures == other.state.captures
            && self.state.to_move == other.state.to_move
    }
}

impl<S: PlaceSet> Eq for Position<S> {}

impl<S: PlaceSet> std::hash::Hash for Position<S> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.state.hash);
    }
}

impl<S: LayoutWidth> fmt::Debug for Position<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Position {
    /// The start position of a game on `layout` under `rule_set`. Panics on a layout of more
    /// than 64 places (built by [`Layout::custom_wide`]): use [`Position::new_in`] with
    /// [`crate::Wide`] or [`crate::Huge`] for those.
    pub fn new(layout: impl Into<LayoutRef>, rule_set: RuleSet) -> Position {
        Position::new_in(layout, rule_set).expect("the start position of a narrow board is valid")
    }

    /// The standard game on the 37-ring board.
    pub fn standard() -> Position {
        Position::new(Layout::standard(), RuleSet::STANDARD)
    }
}

impl<S: LayoutWidth> Position<S> {
    /// The start position of a game on `layout` under `rule_set`, with sets of places of type
    /// `S`; refused when the layout has more places than `S` holds.
    pub fn new_in(
        layout: impl Into<LayoutRef>,
        rule_set: RuleSet,
    ) -> Result<Position<S>, SetupError> {
        let layout = layout.into();
        if layout.len() > S::CAPACITY {
            return Err(SetupError::TooLarge {
                places: layout.len(),
                capacity: S::CAPACITY,
            });
        }
        Position::from_setup(Setup::start_in(layout, rule_set))
    }

    /// Checks a setup and makes it a position.
    pub fn from_setup(s: Setup<S>) -> Result<Position<S>, SetupError> {
        if s.layout.len() > S::CAPACITY {
            return Err(SetupError::TooLarge {
                places: s.layout.len(),
                capacity: S::CAPACITY,
            });
        }
        let all: S = s.layout.all_in();
        if (s.rings & !all).any() {
            return Err(SetupError::OffBoard { what: "rings" });
        }
        let names = ["white marbles", "grey marbles", "black marbles"];
        for (c, &m) in s.marbles.iter().enumerate() {
            if (m & !all).any() {
                return Err(SetupError::OffBoard { what: names[c] });
            }
            if let Some(i) = Bits(m & !s.rings).next() {
                return Err(SetupError::MarbleWithoutRing(
                    s.layout.coord(Place(i)).to_string(),
                ));
            }
        }
        let [w, g, b] = s.marbles;
        if let Some(i) = Bits((w & g) | (w & b) | (g & b)).next() {
            return Err(SetupError::TwoMarbles(s.layout.coord(Place(i)).to_string()));
        }
        for c in Colour::ALL {
            let total = s.supply.get(c) as u32
                + s.marbles[c.index()].count()
                + s.captures[0].get(c) as u32
                + s.captures[1].get(c) as u32;
            if total > 255 {
                return Err(SetupError::TooMany(c));
            }
        }
        if s.rule_set.is_win(s.captures[0]) && s.rule_set.is_win(s.captures[1]) {
            return Err(SetupError::BothWon);
        }
        let mut p = Position {
            layout: s.layout.clone(),
            state: State {
                rule_set: s.rule_set,
                rings: s.rings,
                marbles: s.marbles,
                supply: s.supply,
                captures: s.captures,
                to_move: s.to_move,
                edge: S::EMPTY,
                split: false,
                hash: 0,
            },
        };
        p.state.edge = p.compute_edge();
        p.state.split = p.compute_split();
        p.state.hash = p.compute_hash();
        Ok(p)
    }

    /// The parts of this position.
    pub fn setup(&self) -> Setup<S> {
        Setup {
            layout: self.layout.clone(),
            rule_set: self.state.rule_set,
            rings: self.state.rings,
            marbles: self.state.marbles,
            supply: self.state.supply,
            captures: self.state.captures,
            to_move: self.state.to_move,
        }
    }

    /// The board (a [`LayoutRef`] derefs to the [`Layout`]; clone it to keep it).
    #[inline]
    pub fn layout(&self) -> &LayoutRef {
        &self.layout
    }

    /// The same position holding a private copy of its layout ([`LayoutRef::private_copy`]):
    /// for a search thread, so that the positions it clones at every node count references to
    /// a layout of its own, not to one that other threads count too. The same position
    /// otherwise (equal to this one); on an official board, this one.
    pub fn with_private_layout(&self) -> Position<S> {
        Position {
            layout: self.layout.private_copy(),
            state: self.state,
        }
    }

    /// Supply at the start and winning sets.
    #[inline]
    pub fn rule_set(&self) -> RuleSet {
        self.state.rule_set
    }

    /// The places that still have a ring.
    #[inline]
    pub fn rings(&self) -> S {
        self.state.rings
    }

    /// The places holding a marble of `colour`.
    #[inline]
    pub fn marbles(&self, colour: Colour) -> S {
        self.state.marbles[colour.index()]
    }

    /// The places holding a marble of any colour.
    #[inline]
    pub fn occupied(&self) -> S {
        self.state.marbles[0] | self.state.marbles[1] | self.state.marbles[2]
    }

    /// The rings without a marble.
    #[inline]
    pub fn empty(&self) -> S {
        self.state.rings & !self.occupied()
    }

    /// The free rings: empty rings that can slide out (two neighbouring places in a row have no
    /// ring).
    #[inline]
    pub fn free_rings(&self) -> S {
        self.state.edge & !self.occupied()
    }

    /// True when the rings no longer form one group.
    #[inline]
    pub fn is_split(&self) -> bool {
        self.state.split
    }

    /// The marbles in the supply.
    #[inline]
    pub fn supply(&self) -> Marbles {
        self.state.supply
    }

    /// The marbles `player` has captured.
    #[inline]
    pub fn captures(&self, player: Player) -> Marbles {
        self.state.captures[player.index()]
    }

    /// Whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.state.to_move
    }

    /// The Zobrist hash, kept up to date as moves are played.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.state.hash
    }

    /// True when `place` still has a ring.
    #[inline]
    pub fn has_ring(&self, place: Place) -> bool {
        (self.state.rings & place.bit_in()).any()
    }

    /// The colour of the marble on `place`, if any.
    #[inline]
    pub fn colour_at(&self, place: Place) -> Option<Colour> {
        let b: S = place.bit_in();
        Colour::ALL
            .into_iter()
            .find(|c| (self.state.marbles[c.index()] & b).any())
    }

    /// Where the player to move takes a marble from when placing: the supply, or their own
    /// captures once the supply is empty.
    #[inline]
    pub fn placement_source(&self) -> Marbles {
        if self.state.supply.is_empty() {
            self.state.captures[self.state.to_move.index()]
        } else {
            self.state.supply
        }
    }

    /// The player who holds a winning set, if any.
    #[inline]
    pub fn winner_by_captures(&self) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| self.state.rule_set.is_win(self.state.captures[p.index()]))
    }

    /// How the game stands: `None` while it goes on, otherwise a win by captures or a loss for a
    /// player to move who has no legal move. (Repetition needs the game's history: see
    /// [`crate::Game`].)
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner_by_captures() {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::WinningSet,
            });
        }
        if !self.has_any_move() {
            return Some(Outcome::Win {
                winner: self.state.to_move.other(),
                reason: WinReason::NoLegalMove,
            });
        }
        None
    }

    /// True when the game is over (by captures or for want of a legal move).
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The hash computed from nothing but the state (the incremental one must equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for i in Bits(self.state.rings) {
            h ^= zobrist::RING[i as usize];
        }
        for c in 0..3 {
            for i in Bits(self.state.marbles[c]) {
                h ^= zobrist::MARBLE[c][i as usize];
            }
            h ^= zobrist::count(c, self.state.supply.0[c]);
            h ^= zobrist::count(3 + c, self.state.captures[0].0[c]);
            h ^= zobrist::count(6 + c, self.state.captures[1].0[c]);
        }
        if self.state.to_move == Player::Two {
            h ^= zobrist::SIDE;
        }
        h
    }

    fn compute_edge(&self) -> S {
        Bits(self.state.rings)
            .filter(|&i| self.layout.is_edge(Place(i), self.state.rings))
            .fold(S::EMPTY, |acc, i| acc | bit(i))
    }

    fn compute_split(&self) -> bool {
        self.state.rings.any()
            && self
                .layout
                .flood(bit(self.state.rings.lowest() as u8), self.state.rings)
                != self.state.rings
    }

    /// Checks that the derived facts (edge rings, split flag, hash) match the state. For tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.state.edge != self.compute_edge() {
            return Err(format!(
                "edge rings {:#x} but recomputed {:#x}",
                self.state.edge,
                self.compute_edge()
            ));
        }
        if self.state.split != self.compute_split() {
            return Err(format!("split flag {} but recomputed", self.state.split));
        }
        if self.state.hash != self.compute_hash() {
            return Err("incremental hash differs from the hash computed from scratch".into());
        }
        Ok(())
    }

    /// The position with every place moved by a symmetry of the layout.
    pub fn transformed(&self, sym: &crate::layout::Symmetry) -> Position<S> {
        let mut s = self.setup();
        s.rings = sym.apply_set(s.rings);
        for m in &mut s.marbles {
            *m = sym.apply_set(*m);
        }
        Position::from_setup(s).expect("a symmetry maps a valid position to a valid one")
    }
}
