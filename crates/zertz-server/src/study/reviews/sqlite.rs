//! Game reviews in SQLite.

use async_trait::async_trait;
use rusqlite::params;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::store::StoreError;
use crate::store::sqlite::{SqliteStore, write_error};
use crate::study::reviews::store::{ReviewRow, ReviewStore};

const COLUMNS: &str =
    "id, game_id, record, requester, state, result, error, created_ms, updated_ms";

fn review(row: &SqliteRow) -> Result<ReviewRow, sqlx::Error> {
    Ok(ReviewRow {
        id: row.try_get("id")?,
        game_id: row.try_get("game_id")?,
        record: row.try_get("record")?,
        requester: row.try_get("requester")?,
        state: row.try_get("state")?,
        result: row.try_get("result")?,
        error: row.try_get("error")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

#[async_trait]
impl ReviewStore for SqliteStore {
    async fn add_review(&self, row: &ReviewRow) -> Result<bool, StoreError> {
        let r = row.clone();
        self.write_with(move |conn| {
            conn.prepare_cached(&format!(
                "INSERT INTO reviews ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (id) DO NOTHING"
            ))
            .and_then(|mut insert| {
                insert.execute(params![
                    r.id,
                    r.game_id,
                    r.record,
                    r.requester,
                    r.state,
                    r.result,
                    r.error,
                    r.created_ms,
                    r.updated_ms
                ])
            })
            .map(|n| n == 1)
            .map_err(write_error)
        })
        .await
    }

    async fn review(&self, id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM reviews WHERE id = ?"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(review).transpose()?)
    }

    async fn review_of_game(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM reviews WHERE game_id = ? ORDER BY created_ms DESC LIMIT 1"
        ))
        .bind(game_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(review).transpose()?)
    }

    async fn finish_review(
        &self,
        id: &str,
        state: &str,
        result: Option<&str>,
        error: Option<&str>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (id, state) = (id.to_string(), state.to_string());
        let (result, error) = (result.map(str::to_string), error.map(str::to_string));
        self.write_with(move |conn| {
            conn.prepare_cached(
                "UPDATE reviews SET state = ?, result = ?, error = ?, updated_ms = ? WHERE id = ?",
            )
            .and_then(|mut update| update.execute(params![state, result, error, now_ms, id]))
            .map(|_| ())
            .map_err(write_error)
        })
        .await
    }

    async fn waiting_reviews(&self) -> Result<Vec<ReviewRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM reviews WHERE state = 'queued' ORDER BY created_ms"
        ))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(review).collect::<Result<_, _>>()?)
    }
}
