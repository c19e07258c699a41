//! Durable storage behind one trait per feature, with two real backends: SQLite (a file, the
//! default) and PostgreSQL (by URL), each a folder with a file per feature. A game is its
//! settings plus an append-only list of events; a match is its settings plus a small state
//! document. Everything the service needs to rebuild a game after a crash is here.

pub mod accounts;
pub mod chat;
mod common;
pub mod explorer;
mod games;
pub mod leaf_buckets;
pub mod lessons;
mod postgres;
pub mod puzzles;
pub mod ratings;
pub mod reviews;
mod sqlite;
pub mod studies;

pub use accounts::{AccountRow, AccountStore, SessionRow};
pub use chat::{ChatLine, ChatStore, Report};
pub use explorer::{ExplorerBatch, ExplorerGame, ExplorerStore, Leaf, MoveRow};
pub use games::{
    Cursor, EventRow, GameAppend, GameQuery, GameRow, GameStore, GameSummary, MatchRow, MatchStep,
    RowUpdate,
};
pub use lessons::LessonStore;
pub use puzzles::{AttemptInput, AttemptOutcome, PuzzleRatingRow, PuzzleStore, SolverRow, Tried};
pub use ratings::{GameEnd, GameFilter, PlayedGame, RatingPoint, RatingRow, RatingStore};
pub use reviews::{ReviewRow, ReviewStore};
pub use studies::{ChapterRow, StudyRow, StudyStore, StudySummary};

pub use postgres::{LeaseHolder, PostgresStore};
pub(crate) use postgres::{
    acquire, drop_finished, heartbeat, orphans, owner, pairing as pairing_queue, still_held,
};
pub use sqlite::SqliteStore;

/// `url` names a PostgreSQL database (else a SQLite file).
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An event with this version already exists (another writer got there first).
    #[error("version {version} of game {game} already exists")]
    Conflict {
        /// The game.
        game: String,
        /// The version that was taken.
        version: i64,
    },
    /// No such game or match.
    #[error("{0} not found")]
    NotFound(String),
    /// A unique value (an account's name) is taken.
    #[error("{0}")]
    Taken(String),
    /// The database said no.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// Migrations failed.
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The SQLite writer said no (or is gone).
    #[error("database: {0}")]
    Write(String),
    /// This node does not hold the game's lease (several nodes on PostgreSQL): another node
    /// plays it, and nothing was written.
    #[error("game {0} is held by another node")]
    NotOwner(String),
}

/// Everything the service stores: one trait per feature, each implemented by both backends.
pub trait Store:
    GameStore
    + AccountStore
    + RatingStore
    + ChatStore
    + ReviewStore
    + StudyStore
    + ExplorerStore
    + PuzzleStore
    + LessonStore
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
        Ok(Box::new(PostgresStore::open(url).await?))
    } else {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"));
        Ok(Box::new(SqliteStore::open(path.unwrap_or(url)).await?))
    }
}
