//! Game reviews in PostgreSQL.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::store::StoreError;
use crate::store::postgres::PostgresStore;
use crate::study::reviews::store::{ReviewRow, ReviewStore};

const COLUMNS: &str =
    "id, game_id, record, requester, state, result, error, created_ms, updated_ms";

fn review(row: &PgRow) -> Result<ReviewRow, sqlx::Error> {
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
impl ReviewStore for PostgresStore {
    async fn add_review(&self, r: &ReviewRow) -> Result<bool, StoreError> {
        let done = sqlx::query(&format!(
            "INSERT INTO reviews ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (id) DO NOTHING"
        ))
        .bind(&r.id)
        .bind(&r.game_id)
        .bind(&r.record)
        .bind(&r.requester)
        .bind(&r.state)
        .bind(&r.result)
        .bind(&r.error)
        .bind(r.created_ms)
        .bind(r.updated_ms)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn review(&self, id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM reviews WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(review).transpose()?)
    }

    async fn review_of_game(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM reviews WHERE game_id = $1 ORDER BY created_ms DESC LIMIT 1"
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
        sqlx::query(
            "UPDATE reviews SET state = $1, result = $2, error = $3, updated_ms = $4 WHERE id = $5",
        )
        .bind(state)
        .bind(result)
        .bind(error)
        .bind(now_ms)
        .bind(id)
        .execute(self.pool())
        .await?;
        Ok(())
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
