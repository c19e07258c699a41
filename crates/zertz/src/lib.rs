//! # zertz
//!
//! The rules of ZÈRTZ (Kris Burm, GIPF project): every official board (37, 40, 43, 44, 48 and
//! 61 rings) and custom layouts, the Standard, Blitz and custom rule sets, official and host
//! notation, the project's game records and BoardSpace SGF, and exact move counts (perft).
//!
//! The rules implemented are those of the project's `rules.md`: compulsory captures with full
//! chains, placement with removal of a free ring, isolation captures (the whole board included),
//! placement from one's own captures once the supply is empty, the player with no marble losing,
//! threefold repetition or the no-repetition house rule, and the bribe-to-pass house rule.
//!
//! ```
//! use zertz::{Position, notation};
//!
//! let start = Position::standard();
//! assert_eq!(start.legal_moves().len(), 1944);
//! let mv = notation::official::parse(&start, "Wd4,a1").unwrap();
//! let next = start.play(&mv).unwrap();
//! assert_eq!(next.supply().to_string(), "5/8/10");
//! assert_eq!(
//!     next.to_string(),
//!     "37 standard -.../...../....../...W.../....../...../.... 5/8/10 0/0/0 0/0/0 2"
//! );
//! ```
//!
//! No I/O, no async, no panics on input: every parser returns an error that names the
//! offending token and where it is.

#![deny(missing_docs)]

mod bits;
pub mod boardspace;
pub mod diagram;
pub mod game;
pub mod layout;
mod layout_ref;
pub mod marbles;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod rules;
pub mod sentences;
pub mod setup;
pub mod symmetry;
pub mod tree;
mod zobrist;

pub use bits::{Bits, Huge, Narrow, PlaceSet, Wide};
pub use game::{BribeProposal, Game, GameError, Turn};
pub use layout::{BoardKind, Coord, Direction, Layout, LayoutRef, Place, Symmetry, Width};
pub use marbles::{Colour, Marbles, Player};
pub use moves::{Capture, Move, Placement};
pub use position::{DrawReason, IllegalMove, Outcome, Position, Setup, WinReason};
pub use rules::{Repetition, RuleSet, Rules};
