//! The aggregate store: every feature's storage trait, implemented by both backends, and how
//! the store a `--db` argument names is opened.

use crate::accounts::store::AccountStore;
use crate::chat::store::ChatStore;
use crate::explorer::store::{ExplorerSources, ExplorerStore};
use crate::lessons::store::LessonStore;
use crate::puzzles::store::PuzzleStore;
use crate::ratings::store::{PlayerStore, RatingStore};
use crate::store::{GameStore, PostgresStore, SqliteStore, StoreError, is_postgres};
use crate::study::reviews::store::ReviewStore;
use crate::study::studies::store::StudyStore;
use crate::tournaments::store::TournamentStore;

/// Everything the service stores: one trait per feature, each implemented by both backends.
pub trait Store:
    ExplorerSources
    + PlayerStore
    + GameStore
    + AccountStore
    + RatingStore
    + ChatStore
    + ReviewStore
    + StudyStore
    + ExplorerStore
    + PuzzleStore
    + LessonStore
    + TournamentStore
    + Send
    + Sync
    + 'static
{
}

impl<T> Store for T where
    T: GameStore
        + AccountStore
        + RatingStore
        + ChatStore
        + ReviewStore
        + StudyStore
        + ExplorerStore
        + PuzzleStore
        + LessonStore
        + TournamentStore
        + Send
        + Sync
        + 'static
{
}

/// Opens the store a `--db` argument names: `postgres://…` or `postgresql://…` for
/// PostgreSQL, `sqlite:PATH` or a plain file path for SQLite (created if missing). Runs the
/// migrations.
pub async fn open(url: &str) -> Result<Box<dyn Store>, StoreError> {
    if is_postgres(url) {
        Ok(Box::new(
            PostgresStore::open(url, crate::ratings::policy::POLICY).await?,
        ))
    } else {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"));
        Ok(Box::new(
            SqliteStore::open(path.unwrap_or(url), crate::ratings::policy::POLICY).await?,
        ))
    }
}
