//! Storage machinery, under every feature: the event log of games and matches (`GameStore`: a
//! game is its settings plus an append-only list of events, a match its settings plus a small
//! state document), the end of a game written with its result (`game_end`), and the two
//! backends: SQLite (a file, the default: the writer thread, its pace, recent events, readers)
//! and PostgreSQL (by URL: the pool, leases). Each feature keeps its own storage trait and its
//! SQLite and PostgreSQL code in its folder, on the connections these give it.

pub(crate) mod common;
pub mod game_end;
pub(crate) mod game_sql;
mod games;
pub mod holds;
pub mod migrations;
pub(crate) mod pace;
pub(crate) mod postgres;
pub mod scratch;
pub(crate) mod sql;
pub(crate) mod sqlite;

pub use game_end::{GameEnd, PlayedGame, RatingPolicy, RatingRow};
pub use games::{
    Cursor, EventRow, GameAppend, GameQuery, GameRow, GameStore, GameSummary, MatchRow, MatchStep,
    RowUpdate,
};

pub use postgres::{LeaseHolder, PostgresStore};
pub(crate) use postgres::{
    acquire, heartbeat, orphans, owner, still_held, sweep_leases, sweep_nodes,
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

/// A SQLite store for the unit tests, on a fresh file in a temporary directory that lasts as
/// long as the directory returned with it; it rates nobody.
#[cfg(test)]
pub(crate) async fn temporary_sqlite() -> (tempfile::TempDir, SqliteStore) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z.db");
    let store = SqliteStore::open(path.to_str().unwrap(), |_, _| Default::default())
        .await
        .unwrap();
    (dir, store)
}
