//! The SQLite backend: one file, written in WAL mode.
//!
//! Every commit is in the write-ahead log before it returns (`synchronous=NORMAL` in WAL mode):
//! a committed transaction survives a killed or crashed process (the log is in the operating
//! system's hands); the log is flushed to the disk at each checkpoint, so a power cut can lose
//! the last commits before it. `synchronous=FULL` would flush every commit and survive a power
//! cut too, at the price of one disk flush per move (about 300 moves a second in all on this
//! machine instead of thousands; see docs/server.md). Writing transactions take turns on an
//! in-process lock (SQLite has a single writer; waiting here is cheaper than SQLite's busy
//! loop) and start with `BEGIN IMMEDIATE`, so two writers never both read the same last
//! version, even from two processes.

use std::time::Duration;

use async_trait::async_trait;
use sqlx::Row;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};

use super::common::{
    check_versions, game_not_found, insert_event_error, insert_game_error, limit as clamp_limit,
    match_not_found, seat_tokens,
};
use super::{EventRow, GameRow, GameSummary, MatchRow, RowUpdate, Store, StoreError};

/// How long a statement waits for another connection's lock before it gives up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections in the pool: readers run side by side (WAL), writers take turns.
const MAX_CONNECTIONS: u32 = 8;

/// Games and matches in one SQLite file.
///
/// Where the trait leaves room, both backends decide alike: `create_game` on a taken id is a
/// `Conflict` on its first version, and its events must start at version 1 without gaps
/// (`Conflict` otherwise); `append` of no events applies the update alone and leaves
/// `updated_ms`; a seat index other than 0 or 1 is refused (`Database(InvalidArgument)`)
/// before anything is written; a `limit` of 0 or less lists nothing.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl SqliteStore {
    /// Opens (creating it if missing) the database file at `path` and brings its schema up to
    /// date. WAL journal, `synchronous=NORMAL`, foreign keys on, a 10 s busy timeout.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(SqliteStore {
            pool,
            writer: Default::default(),
        })
    }

    /// Closes every connection, waiting for those in use to come back.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Inserts the events of `game`, mapping a taken version to a conflict.
async fn insert_events(
    conn: &mut sqlx::SqliteConnection,
    game: &str,
    events: &[EventRow],
) -> Result<(), StoreError> {
    for event in events {
        sqlx::query(
            "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES (?, ?, ?, ?)",
        )
        .bind(game)
        .bind(event.version)
        .bind(event.at_ms)
        .bind(&event.payload)
        .execute(&mut *conn)
        .await
        .map_err(|e| insert_event_error(e, game, event.version))?;
    }
    Ok(())
}

fn game_summary(row: &SqliteRow) -> Result<GameSummary, sqlx::Error> {
    Ok(GameSummary {
        id: row.try_get("id")?,
        match_id: row.try_get("match_id")?,
        settings: row.try_get("settings")?,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

fn match_row(row: &SqliteRow) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        id: row.try_get("id")?,
        created_ms: row.try_get("created_ms")?,
        state: row.try_get("state")?,
        status: row.try_get("status")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

#[async_trait]
impl Store for SqliteStore {
    async fn create_game(&self, game: &GameRow, events: &[EventRow]) -> Result<(), StoreError> {
        check_versions(&game.id, 0, events)?;
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, \
             result, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&game.id)
        .bind(&game.match_id)
        .bind(game.created_ms)
        .bind(&game.settings)
        .bind(&game.tokens[0])
        .bind(&game.tokens[1])
        .bind(&game.status)
        .bind(&game.result)
        .bind(game.updated_ms)
        .execute(&mut *tx)
        .await
        .map_err(|e| insert_game_error(e, &game.id, events))?;
        insert_events(&mut tx, &game.id, events).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
    ) -> Result<(), StoreError> {
        let tokens = seat_tokens(update)?;
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let last: Option<Option<i64>> = sqlx::query_scalar(
            "SELECT (SELECT MAX(version) FROM game_events WHERE game_id = games.id) \
             FROM games WHERE id = ?",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(last) = last else {
            return Err(game_not_found(game));
        };
        check_versions(game, last.unwrap_or(0), events)?;
        insert_events(&mut tx, game, events).await?;
        sqlx::query(
            "UPDATE games SET status = COALESCE(?, status), result = COALESCE(?, result), \
             token_one = COALESCE(?, token_one), token_two = COALESCE(?, token_two), \
             updated_ms = COALESCE(?, updated_ms) WHERE id = ?",
        )
        .bind(&update.status)
        .bind(&update.result)
        .bind(tokens[0])
        .bind(tokens[1])
        .bind(events.last().map(|e| e.at_ms))
        .bind(game)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        // One read transaction: the row and the events come from the same snapshot.
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "SELECT id, match_id, created_ms, settings, token_one, token_two, status, result, \
             updated_ms FROM games WHERE id = ?",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| game_not_found(game))?;
        let game_row = GameRow {
            id: row.try_get("id")?,
            match_id: row.try_get("match_id")?,
            created_ms: row.try_get("created_ms")?,
            settings: row.try_get("settings")?,
            tokens: [row.try_get("token_one")?, row.try_get("token_two")?],
            status: row.try_get("status")?,
            result: row.try_get("result")?,
            updated_ms: row.try_get("updated_ms")?,
        };
        let events = sqlx::query(
            "SELECT version, at_ms, payload FROM game_events WHERE game_id = ? ORDER BY version",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|row| {
            Ok(EventRow {
                version: row.try_get("version")?,
                at_ms: row.try_get("at_ms")?,
                payload: row.try_get("payload")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        tx.commit().await?;
        Ok((game_row, events))
    }

    async fn list_games(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = match status {
            Some(status) => {
                sqlx::query(
                    "SELECT id, match_id, settings, status, result, created_ms, updated_ms \
                     FROM games WHERE status = ? ORDER BY updated_ms DESC, id DESC LIMIT ?",
                )
                .bind(status)
                .bind(clamp_limit(limit))
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(
                    "SELECT id, match_id, settings, status, result, created_ms, updated_ms \
                     FROM games ORDER BY updated_ms DESC, id DESC LIMIT ?",
                )
                .bind(clamp_limit(limit))
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.iter().map(game_summary).collect::<Result<_, _>>()?)
    }

    async fn save_match(&self, m: &MatchRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO matches (id, created_ms, state, status, updated_ms) \
             VALUES (?, ?, ?, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET created_ms = excluded.created_ms, \
             state = excluded.state, status = excluded.status, updated_ms = excluded.updated_ms",
        )
        .bind(&m.id)
        .bind(m.created_ms)
        .bind(&m.state)
        .bind(&m.status)
        .bind(m.updated_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn load_match(&self, id: &str) -> Result<MatchRow, StoreError> {
        let row = sqlx::query(
            "SELECT id, created_ms, state, status, updated_ms FROM matches WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| match_not_found(id))?;
        Ok(match_row(&row)?)
    }

    async fn list_matches(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        let rows = match status {
            Some(status) => {
                sqlx::query(
                    "SELECT id, created_ms, state, status, updated_ms FROM matches \
                     WHERE status = ? ORDER BY updated_ms DESC, id DESC LIMIT ?",
                )
                .bind(status)
                .bind(clamp_limit(limit))
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(
                    "SELECT id, created_ms, state, status, updated_ms FROM matches \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?",
                )
                .bind(clamp_limit(limit))
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }
}
