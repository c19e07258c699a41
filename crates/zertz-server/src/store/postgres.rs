//! The PostgreSQL backend, by URL.
//!
//! Appends lock their game's row (`SELECT … FOR UPDATE`) before they read the last version,
//! so appends to one game take turns and the version check is exact; appends to different
//! games run side by side. The (game, version) primary key stays the last word: a writer that
//! still collides gets a conflict, never a second event with the same version. Reads of a whole
//! game run in one `REPEATABLE READ` transaction, so the row and the events agree.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};

use super::common::{
    check_versions, game_not_found, insert_event_error, insert_game_error, limit as clamp_limit,
    list_games_sql, match_not_found, seat_tokens,
};
use super::{
    Cursor, EventRow, GameRow, GameSummary, MatchRow, MatchStep, RowUpdate, Store, StoreError,
};

/// How long a request waits for a free connection before it gives up.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections in the pool.
const MAX_CONNECTIONS: u32 = 8;

/// Games and matches in a PostgreSQL database.
///
/// Where the trait leaves room, both backends decide alike: `create_game` on a taken id is a
/// `Conflict` on its first version, and its events must start at version 1 without gaps
/// (`Conflict` otherwise); `append` of no events applies the update alone and leaves
/// `updated_ms`; a seat index other than 0 or 1 is refused (`Database(InvalidArgument)`)
/// before anything is written; a `limit` of 0 or less lists nothing.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: PgPool,
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) and
    /// brings its schema up to date. The database must exist; the migrations create the tables.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        Ok(PostgresStore { pool })
    }

    /// Closes every connection, waiting for those in use to come back.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Inserts the events of `game`, mapping a taken version to a conflict.
async fn insert_events(
    conn: &mut sqlx::PgConnection,
    game: &str,
    events: &[EventRow],
) -> Result<(), StoreError> {
    for event in events {
        sqlx::query(
            "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES ($1, $2, $3, $4)",
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

/// Inserts a game row and its first events, inside the caller's transaction.
async fn create_game_in(
    conn: &mut sqlx::PgConnection,
    game: &GameRow,
    events: &[EventRow],
) -> Result<(), StoreError> {
    check_versions(&game.id, 0, events)?;
    sqlx::query(
        "INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, \
         result, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
    .execute(&mut *conn)
    .await
    .map_err(|e| insert_game_error(e, &game.id, events))?;
    insert_events(conn, &game.id, events).await
}

/// Appends events to a game and updates its row, inside the caller's transaction.
async fn append_in(
    conn: &mut sqlx::PgConnection,
    game: &str,
    events: &[EventRow],
    update: &RowUpdate,
) -> Result<(), StoreError> {
    let tokens = seat_tokens(update)?;
    let found = sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(game)
        .fetch_optional(&mut *conn)
        .await?;
    if found.is_none() {
        return Err(game_not_found(game));
    }
    let last: Option<i64> =
        sqlx::query_scalar("SELECT MAX(version) FROM game_events WHERE game_id = $1")
            .bind(game)
            .fetch_one(&mut *conn)
            .await?;
    check_versions(game, last.unwrap_or(0), events)?;
    insert_events(conn, game, events).await?;
    sqlx::query(
        "UPDATE games SET status = COALESCE($1, status), result = COALESCE($2, result), \
         token_one = COALESCE($3, token_one), token_two = COALESCE($4, token_two), \
         updated_ms = COALESCE($5, updated_ms) WHERE id = $6",
    )
    .bind(&update.status)
    .bind(&update.result)
    .bind(tokens[0])
    .bind(tokens[1])
    .bind(events.last().map(|e| e.at_ms))
    .bind(game)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Creates or replaces a match, on `conn`.
async fn save_match_in(conn: &mut sqlx::PgConnection, m: &MatchRow) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO matches (id, created_ms, state, status, updated_ms) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (id) DO UPDATE SET created_ms = excluded.created_ms, \
         state = excluded.state, status = excluded.status, updated_ms = excluded.updated_ms",
    )
    .bind(&m.id)
    .bind(m.created_ms)
    .bind(&m.state)
    .bind(&m.status)
    .bind(m.updated_ms)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// How a query's n-th parameter is written.
const PARAM: fn(usize) -> String = |n| format!("${n}");

fn game_summary(row: &PgRow) -> Result<GameSummary, sqlx::Error> {
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

fn match_row(row: &PgRow) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        id: row.try_get("id")?,
        created_ms: row.try_get("created_ms")?,
        state: row.try_get("state")?,
        status: row.try_get("status")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

#[async_trait]
impl Store for PostgresStore {
    async fn create_game(&self, game: &GameRow, events: &[EventRow]) -> Result<(), StoreError> {
        check_versions(&game.id, 0, events)?;
        let mut tx = self.pool.begin().await?;
        create_game_in(&mut tx, game, events).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
    ) -> Result<(), StoreError> {
        seat_tokens(update)?;
        let mut tx = self.pool.begin().await?;
        append_in(&mut tx, game, events, update).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        // One snapshot for the row and the events.
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .await?;
        let row = sqlx::query(
            "SELECT id, match_id, created_ms, settings, token_one, token_two, status, result, \
             updated_ms FROM games WHERE id = $1",
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
            "SELECT version, at_ms, payload FROM game_events WHERE game_id = $1 ORDER BY version",
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
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let sql = list_games_sql(status.is_some(), before.is_some(), PARAM);
        let mut query = sqlx::query(&sql);
        if let Some(status) = status {
            query = query.bind(status);
        }
        if let Some(c) = before {
            query = query.bind(c.updated_ms).bind(&c.id);
        }
        let rows = query.bind(clamp_limit(limit)).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(game_summary).collect::<Result<_, _>>()?)
    }

    async fn save_match(&self, m: &MatchRow) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        save_match_in(&mut conn, m).await
    }

    async fn advance_match(&self, step: &MatchStep) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some((game, events)) = &step.new_game {
            create_game_in(&mut tx, game, events).await?;
        }
        if let Some(a) = &step.append {
            append_in(&mut tx, &a.game, &a.events, &a.update).await?;
        }
        save_match_in(&mut tx, &step.state).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load_match(&self, id: &str) -> Result<MatchRow, StoreError> {
        let row = sqlx::query(
            "SELECT id, created_ms, state, status, updated_ms FROM matches WHERE id = $1",
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
                     WHERE status = $1 ORDER BY updated_ms DESC, id DESC LIMIT $2",
                )
                .bind(status)
                .bind(clamp_limit(limit))
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(
                    "SELECT id, created_ms, state, status, updated_ms FROM matches \
                     ORDER BY updated_ms DESC, id DESC LIMIT $1",
                )
                .bind(clamp_limit(limit))
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }
}
