//! Game reviews, written once for both databases (see `store::sql`).

use async_trait::async_trait;

use crate::store::StoreError;
use crate::store::sql::{Row, Sql, args, map_rows};
use crate::study::reviews::store::{ReviewRow, ReviewStore};

const COLUMNS: &str =
    "id, game_id, record, requester, state, result, error, created_ms, updated_ms";

fn review(row: &impl Row) -> Result<ReviewRow, sqlx::Error> {
    Ok(ReviewRow {
        id: row.get("id")?,
        game_id: row.get("game_id")?,
        record: row.get("record")?,
        requester: row.get("requester")?,
        state: row.get("state")?,
        result: row.get("result")?,
        error: row.get("error")?,
        created_ms: row.get("created_ms")?,
        updated_ms: row.get("updated_ms")?,
    })
}

#[async_trait]
impl<S: Sql> ReviewStore for S {
    async fn add_review(&self, r: &ReviewRow) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT INTO reviews ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (id) DO NOTHING"
        );
        let values = args![
            &r.id,
            &r.game_id,
            &r.record,
            &r.requester,
            &r.state,
            &r.result,
            &r.error,
            r.created_ms,
            r.updated_ms
        ];
        Ok(self.execute(&sql, values).await? == 1)
    }

    async fn review(&self, id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM reviews WHERE id = ?");
        let row = self.fetch_optional(&sql, args![id]).await?;
        Ok(row.as_ref().map(review).transpose()?)
    }

    async fn review_of_game(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM reviews WHERE game_id = ? ORDER BY created_ms DESC LIMIT 1"
        );
        let row = self.fetch_optional(&sql, args![game_id]).await?;
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
        self.execute(
            "UPDATE reviews SET state = ?, result = ?, error = ?, updated_ms = ? WHERE id = ?",
            args![state, result, error, now_ms, id],
        )
        .await?;
        Ok(())
    }

    async fn waiting_reviews(&self) -> Result<Vec<ReviewRow>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM reviews WHERE state = 'queued' ORDER BY created_ms");
        let rows = self.fetch_all(&sql, Vec::new()).await?;
        map_rows(&rows, review)
    }
}
