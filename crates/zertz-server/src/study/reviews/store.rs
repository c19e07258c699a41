//! What game reviews store: one row per reviewed game (keyed by a hash of its start and
//! moves), waiting in the queue or done with its result.

use async_trait::async_trait;

use crate::store::StoreError;

/// A review as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    /// The hash of the game's start and moves.
    pub id: String,
    /// The server's game it reviews, if any.
    pub game_id: Option<String>,
    /// The game as the project's record text.
    pub record: String,
    /// Who asked first: `account:ID` or `address:IP`.
    pub requester: String,
    /// `queued`, `done` or `failed`.
    pub state: String,
    /// The finished review (JSON).
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was asked for.
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// The reviews' storage. Every method is one transaction.
#[async_trait]
pub trait ReviewStore: Send + Sync {
    /// Stores a new review unless one with its id exists; true if it was added.
    async fn add_review(&self, row: &ReviewRow) -> Result<bool, StoreError>;

    /// The review with this id.
    async fn review(&self, id: &str) -> Result<Option<ReviewRow>, StoreError>;

    /// The latest review of one of the server's games.
    async fn review_of_game(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError>;

    /// Marks a review done (with its result) or failed (with the reason).
    async fn finish_review(
        &self,
        id: &str,
        state: &str,
        result: Option<&str>,
        error: Option<&str>,
        now_ms: i64,
    ) -> Result<(), StoreError>;

    /// The reviews still waiting, oldest first (to queue again after a restart).
    async fn waiting_reviews(&self) -> Result<Vec<ReviewRow>, StoreError>;
}
