//! Lesson progress in SQLite.

use async_trait::async_trait;
use rusqlite::params;
use sqlx::Row;

use crate::lessons::store::LessonStore;
use crate::store::StoreError;
use crate::store::sqlite::{SqliteStore, write_error};

#[async_trait]
impl LessonStore for SqliteStore {
    async fn lessons_done(&self, account_id: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT lesson, done_ms FROM lesson_progress WHERE account_id = ? \
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
        let account = account_id.to_string();
        let lessons = lessons.to_vec();
        self.write_with(move |conn| {
            let mut insert = conn
                .prepare_cached(
                    "INSERT INTO lesson_progress (account_id, lesson, done_ms) VALUES (?, ?, ?) \
                     ON CONFLICT (account_id, lesson) DO NOTHING",
                )
                .map_err(write_error)?;
            let mut added = 0;
            for lesson in &lessons {
                added += insert
                    .execute(params![account, lesson, now_ms])
                    .map_err(write_error)? as u64;
            }
            Ok(added)
        })
        .await
    }
}
