//! What ratings and profiles store: each account's rating per pool, the points of its rating
//! graph, and its finished games. A game's end is written with its result (see
//! [`crate::store::RowUpdate::ended`]): the rated update reads both ratings and writes both inside that
//! one transaction, so that a crash never leaves a result without its ratings or the reverse.

use async_trait::async_trait;
use serde::Serialize;

use crate::store::StoreError;
pub use crate::store::game_end::{GameEnd, PlayedGame, RatingRow};

/// A point of a rating graph: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// When.
    pub at_ms: i64,
    /// Which game.
    pub game_id: String,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// Which finished games of an account to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// `win`, `loss` or `draw`.
    pub outcome: Option<String>,
    /// The opponent's account.
    pub opponent: Option<String>,
    /// The board's name.
    pub board: Option<String>,
    /// The pool's key.
    pub pool: Option<String>,
}

/// What a player's pages read: their ratings and finished games, and the games they are
/// playing now.
pub trait PlayerStore: RatingStore + crate::store::GameStore {}

impl<T: RatingStore + crate::store::GameStore + ?Sized> PlayerStore for T {}

/// Ratings and finished games. Every method is one read.
#[async_trait]
pub trait RatingStore: Send + Sync {
    /// The ratings of `account`, in every pool where it has played a rated game.
    async fn ratings_of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError>;

    /// The rating graph of `account` in `pool`: the last `limit` points, oldest first.
    async fn rating_history(
        &self,
        account: &str,
        pool: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError>;

    /// How many finished games of `account` ended each way: (outcome, reason, count).
    async fn results_of(&self, account: &str) -> Result<Vec<(String, String, i64)>, StoreError>;

    /// Finished games of `account` that pass `filter`, the latest first, starting after
    /// `before` (the `(ended_ms, game_id)` of the last game of the page before), at most
    /// `limit`.
    async fn played_games(
        &self,
        account: &str,
        filter: &GameFilter,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<PlayedGame>, StoreError>;

    /// The highest ratings of `pool` among accounts whose last rated game there ended at or
    /// after `active_since_ms` and whose deviation then was at most `max_deviation`, best
    /// first, at most `limit`: (name, rating).
    async fn top_ratings(
        &self,
        pool: &str,
        active_since_ms: i64,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<(String, RatingRow)>, StoreError>;
}
