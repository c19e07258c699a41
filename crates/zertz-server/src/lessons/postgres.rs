//! Lesson progress in PostgreSQL.

use async_trait::async_trait;
use sqlx::Row;

use crate::lessons::store::LessonStore;
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;

#[async_trait]
impl LessonStore for PostgresStore {
    async fn lessons_done(&self, account_id: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT lesson, done_ms FROM lesson_progress WHERE account_id = $1 \
             ORDER BY done_ms, lesson",
        )
        .bind(account_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((r.try_get("lesson")?, r.try_get("done_ms")?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }

    async fn mark_lessons_done(
        &self,
        account_id: &str,
        lessons: &[String],
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        let mut tx = self.pool().begin().await?;
        let mut added = 0;
        for lesson in lessons {
            added += sqlx::query(
                "INSERT INTO lesson_progress (account_id, lesson, done_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (account_id, lesson) DO NOTHING",
            )
            .bind(account_id)
            .bind(lesson)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }
}
