//! What the opening explorer stores: the games it was built from (with their records, so that
//! an example opens on the analysis board) and, per (position key, source, rating band, move),
//! the counts of the games that played that move there.
//!
//! Writes come in batches of whole games, each batch one transaction: a crash loses at most
//! the batch being written, never half a game, and a game already stored (by its id) is never
//! counted twice.

use async_trait::async_trait;
use serde::Serialize;

use super::StoreError;

/// Most example games kept per row.
pub const MAX_EXAMPLES: usize = 5;

/// A game of the explorer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerGame {
    /// `bs-` + a hash of the BoardSpace record, or `server-` + the server's game id.
    pub id: String,
    /// `boardspace` or `server`.
    pub source: String,
    /// The BoardSpace file name, or the server's game id.
    #[serde(skip)]
    pub name: String,
    /// Player one's and player two's names (player one moves first).
    pub players: [String; 2],
    /// Their ratings, where known.
    pub ratings: [Option<f64>; 2],
    /// `YYYY-MM-DD`, where known.
    pub date: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The game in the project's record format (empty in lists of examples).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub record: String,
    /// Turns played.
    #[serde(skip)]
    pub plies: i64,
}

/// The counts of one move in one position, from one source and rating band.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    /// The position's canonical key (its first 64 bits).
    pub position: i64,
    /// `boardspace` or `server`.
    pub source: String,
    /// The mover's rating in hundreds (rounded down), -1 when not known.
    pub band: i64,
    /// The move in the canonical frame (`zertz::symmetry::move_code`).
    pub mv: String,
    /// Games that played it.
    pub games: i64,
    /// Of those, won by the first player.
    pub first_wins: i64,
    /// Won by the second player.
    pub second_wins: i64,
    /// Drawn.
    pub draws: i64,
    /// The sum of the movers' ratings where known.
    pub rating_sum: f64,
    /// How many ratings the sum holds.
    pub rating_count: i64,
    /// The latest date among those games.
    pub last_date: Option<String>,
    /// A few of those games' ids (at most [`MAX_EXAMPLES`] read back).
    pub examples: Vec<String>,
}

/// What one transaction adds: new games, and the counts their moves add.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExplorerBatch {
    /// The games (none of them stored yet).
    pub games: Vec<ExplorerGame>,
    /// The counts they add, one row per (position, source, band, move).
    pub moves: Vec<MoveRow>,
}

/// The explorer's storage.
#[async_trait]
pub trait ExplorerStore {
    /// Ids of every stored game of `source`.
    async fn explorer_game_ids(&self, source: &str) -> Result<Vec<String>, StoreError>;

    /// Stores a batch in one transaction. If any of its games is already stored, nothing is
    /// written and the answer is [`StoreError::Taken`] naming it (so that the caller can
    /// leave it out and try again): a game is never counted twice.
    async fn add_explorer_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError>;

    /// Every row of `position` (any source, band and move).
    async fn explorer_rows(&self, position: i64) -> Result<Vec<MoveRow>, StoreError>;

    /// A game with its record.
    async fn explorer_game(&self, id: &str) -> Result<Option<ExplorerGame>, StoreError>;

    /// Games without their records, in no particular order (unknown ids left out).
    async fn explorer_games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError>;
}

/// The examples column: ids separated by spaces.
pub(crate) fn join_examples(ids: &[String]) -> String {
    ids.join(" ")
}

/// Reads the examples column back, keeping at most [`MAX_EXAMPLES`].
pub(crate) fn split_examples(text: &str) -> Vec<String> {
    text.split_whitespace()
        .take(MAX_EXAMPLES)
        .map(str::to_string)
        .collect()
}
