//! Durable storage behind one trait per feature, with two real backends: SQLite (a file, the
//! default) and PostgreSQL (by URL), each a folder with a file per feature. A game is its
//! settings plus an append-only list of events; a match is its settings plus a small state
//! document. Everything the service needs to rebuild a game after a crash is here.

pub(crate) mod common;
mod games;
pub(crate) mod postgres;
pub(crate) mod sqlite;

pub use crate::accounts::store::{AccountRow, AccountStore, SessionRow};
pub use crate::app::store::{Store, open};
pub use crate::chat::store::{ChatLine, ChatStore, Report};
pub use crate::explorer::store::{ExplorerBatch, ExplorerGame, ExplorerStore, Leaf, MoveRow};
pub use crate::lessons::store::LessonStore;
pub use crate::puzzles::store::{
    AttemptInput, AttemptOutcome, PuzzleRatingRow, PuzzleStore, SolverRow, Tried,
};
pub use crate::ratings::store::{
    GameEnd, GameFilter, PlayedGame, RatingPoint, RatingRow, RatingStore,
};
pub use crate::study::reviews::store::{ReviewRow, ReviewStore};
pub use crate::study::studies::store::{ChapterRow, StudyRow, StudyStore, StudySummary};
pub use games::{
    Cursor, EventRow, GameAppend, GameQuery, GameRow, GameStore, GameSummary, MatchRow, MatchStep,
    RowUpdate,
};

pub use postgres::{LeaseHolder, PostgresStore};
pub(crate) use postgres::{acquire, drop_finished, heartbeat, orphans, owner, still_held};
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
