//! Lesson progress, written once for both databases (see `store::sql`).

use async_trait::async_trait;

use crate::lessons::store::LessonStore;
use crate::store::StoreError;
use crate::store::sql::{Row, Sql, Statement, args, map_rows};

#[async_trait]
impl<S: Sql> LessonStore for S {
    async fn lessons_done(&self, account_id: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT lesson, done_ms FROM lesson_progress WHERE account_id = ? \
                 ORDER BY done_ms, lesson",
                args![account_id],
            )
            .await?;
        map_rows(&rows, |r| Ok((r.get("lesson")?, r.get("done_ms")?)))
    }

    async fn mark_lessons_done(
        &self,
        account_id: &str,
        lessons: &[String],
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        let inserts = lessons
            .iter()
            .map(|lesson| {
                Statement::new(
                    "INSERT INTO lesson_progress (account_id, lesson, done_ms) VALUES (?, ?, ?) \
                     ON CONFLICT (account_id, lesson) DO NOTHING",
                    args![account_id, lesson, now_ms],
                )
            })
            .collect();
        Ok(self.write(inserts).await?.into_iter().sum())
    }
}
