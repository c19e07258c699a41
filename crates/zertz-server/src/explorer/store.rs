//! What the opening explorer stores: the games it was built from (with their records, so that
//! an example opens on the analysis board) and, per (position key, source, rating band, move),
//! the counts of the games that played that move there.
//!
//! Writes come in batches of whole games, each batch one transaction: a crash loses at most
//! the batch being written, never half a game, and a game already stored (by its id) is never
//! counted twice.
//!
//! **Leaves.** Nearly every position of an archive is reached by one game only (97 % of the
//! (position, move) rows of BoardSpace's archive held a single game). Such a position is kept
//! as a *leaf*: its key, the game (by number), who moved and the move, and nothing else; its
//! figures are the game's own (result, date, the mover's rating), read at query time. A
//! position holds at most one leaf: a game reaching a position that already has one is
//! counted in an ordinary row instead, and the answer for a position sums its rows and its
//! leaf. Leaves are stored packed by bucket (`store::leaf_buckets`), so most of an import is
//! a few thousand rows of bytes, and no position ever has more than one leaf to read.

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;

use crate::store::StoreError;

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

/// A position reached by one game of a batch only: that game's move there.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// The position's canonical key (its first 64 bits).
    pub position: i64,
    /// The game, as its index in the batch's games.
    pub game: u32,
    /// Who moved: 0 for player one, 1 for player two.
    pub mover: u8,
    /// The move in the canonical frame (`zertz::symmetry::move_code`), shared by the leaves
    /// of the batch that hold the same move.
    pub mv: Arc<str>,
}

/// What one transaction adds: new games, and the counts their moves add.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExplorerBatch {
    /// The games (none of them stored yet).
    pub games: Vec<ExplorerGame>,
    /// The counts they add, one row per (position, source, band, move), for the positions
    /// more than one game of the batch reached.
    pub moves: Vec<MoveRow>,
    /// The positions one game of the batch reached, in key order: each is stored as a leaf,
    /// or as a row ([`leaf_row`]) where the position already has a leaf.
    pub leaves: Vec<Leaf>,
}

/// The rating band of a mover: the hundreds of the rating, -1 when not known.
pub fn band(rating: Option<f64>) -> i64 {
    match rating {
        Some(r) if r.is_finite() && r >= 0.0 => (r / 100.0).floor() as i64,
        _ => -1,
    }
}

/// The row a leaf stands for: one game's move, with the game's figures (`game` needs its id,
/// source, ratings, result and date).
pub fn leaf_row(position: i64, mover: u8, mv: &str, game: &ExplorerGame) -> MoveRow {
    let rating = game.ratings[usize::from(mover.min(1))];
    let (first_wins, second_wins, draws) = match game.result.as_str() {
        "1-0" => (1, 0, 0),
        "0-1" => (0, 1, 0),
        "1/2-1/2" => (0, 0, 1),
        _ => (0, 0, 0),
    };
    MoveRow {
        position,
        source: game.source.clone(),
        band: band(rating),
        mv: mv.to_string(),
        games: 1,
        first_wins,
        second_wins,
        draws,
        rating_sum: rating.unwrap_or(0.0),
        rating_count: i64::from(rating.is_some()),
        last_date: game.date.clone(),
        examples: vec![game.id.clone()],
    }
}

/// What the explorer reads besides its own rows to add this server's finished games: the
/// games' logs (`catch_up`) and the players' ratings (`add_finished`).
pub trait ExplorerSources:
    ExplorerStore + crate::store::GameStore + crate::ratings::store::RatingStore
{
}

impl<T> ExplorerSources for T where
    T: ExplorerStore + crate::store::GameStore + crate::ratings::store::RatingStore + ?Sized
{
}

/// The explorer's storage.
#[async_trait]
pub trait ExplorerStore: Send + Sync {
    /// Ids of every stored game of `source`.
    async fn explorer_game_ids(&self, source: &str) -> Result<Vec<String>, StoreError>;

    /// Stores a batch in one transaction. If any of its games is already stored, nothing is
    /// written and the answer is [`StoreError::Taken`] naming it (so that the caller can
    /// leave it out and try again): a game is never counted twice.
    async fn add_explorer_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError>;

    /// Every row of `position` (any source, band and move), its leaf (if any) among them as
    /// [`leaf_row`] makes it.
    async fn explorer_rows(&self, position: i64) -> Result<Vec<MoveRow>, StoreError>;

    /// A game with its record.
    async fn explorer_game(&self, id: &str) -> Result<Option<ExplorerGame>, StoreError>;

    /// A game with its record found by its source (`boardspace`, `server`) and name (the
    /// BoardSpace file name, or the server's game id); the first by id when several share it.
    async fn explorer_game_named(
        &self,
        source: &str,
        name: &str,
    ) -> Result<Option<ExplorerGame>, StoreError>;

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
