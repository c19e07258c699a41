//! What the lessons store: for each account, the lessons it has completed and when.

use async_trait::async_trait;

use crate::store::StoreError;

/// The lessons' storage. Every method is one transaction.
#[async_trait]
pub trait LessonStore: Send + Sync {
    /// The lessons `account_id` has completed, with when each was first completed, oldest
    /// first.
    async fn lessons_done(&self, account_id: &str) -> Result<Vec<(String, i64)>, StoreError>;

    /// Records `lessons` as completed by `account_id` at `now_ms`; a lesson already recorded
    /// keeps its first time. Returns how many were new.
    async fn mark_lessons_done(
        &self,
        account_id: &str,
        lessons: &[String],
        now_ms: i64,
    ) -> Result<u64, StoreError>;
}
