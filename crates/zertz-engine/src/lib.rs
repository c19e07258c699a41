//! # zertz-engine
//!
//! A ZÈRTZ engine built on the `zertz` rules library: an alpha-beta search that counts depth in
//! placement turns and plays out every capture before evaluating, an evaluation that knows the
//! winning sets of both players, levels for people, built-in opponents for measuring it, and the
//! text protocol that `zertz engine` speaks.

#![deny(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod eval;
pub mod isolation;
pub mod limits;
pub mod moves;
pub mod players;
pub mod protocol;
pub mod prove;
pub mod puzzles;
pub mod review;
pub mod score;
pub mod search;
pub mod tt;
pub mod tuning;
pub mod verdicts;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use zertz::Game;

pub use eval::Weights;
pub use limits::{Budget, Clock, Limits};
pub use players::{Kind, Player, Rng, Think};
pub use score::Score;
pub use search::{Info, SearchOptions, SearchResult};
pub use tt::TranspositionTable;

/// An engine: search options and a transposition table kept from move to move.
pub struct Engine {
    /// Evaluation weights, threads, and the rest.
    pub options: SearchOptions,
    tt: Arc<TranspositionTable>,
}

impl Engine {
    /// An engine with a table of `hash_mb` megabytes.
    pub fn new(options: SearchOptions, hash_mb: usize) -> Engine {
        Engine {
            options,
            tt: Arc::new(TranspositionTable::new(hash_mb)),
        }
    }

    /// Changes the table size (and empties it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(hash_mb));
    }

    /// The table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    /// Forgets what earlier searches learned (for a new game).
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Searches the game's position. `stop`, set from another thread, ends the search early;
    /// `report` hears each completed iteration.
    pub fn search(
        &self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        search::search(game, limits, &self.options, &self.tt, stop, report)
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(SearchOptions::default(), 64)
    }
}
