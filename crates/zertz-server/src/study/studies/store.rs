//! What saved studies store: a study (its id, name, owner and times) and its chapters, each a
//! name and a tree of variations as JSON text. The store keeps what it is given: the service
//! (`study::studies`) checks the trees and the limits before anything reaches it, except the
//! number of studies an account holds, which is counted inside the write so that two saves at
//! once cannot both pass it.

use async_trait::async_trait;

use crate::store::StoreError;

/// A chapter as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapterRow {
    /// Its name.
    pub name: String,
    /// Its tree of variations, as JSON text.
    pub tree: String,
}

/// A whole study.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudyRow {
    /// Its unguessable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The owner's account id.
    pub owner_id: String,
    /// The owner's name (filled in by reads; ignored by writes).
    pub owner_name: String,
    /// The chapters, in order.
    pub chapters: Vec<ChapterRow>,
    /// When it was made.
    pub created_ms: i64,
    /// When it was last saved.
    pub updated_ms: i64,
}

/// A study as listed on its owner's profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudySummary {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// How many chapters it has.
    pub chapters: i64,
    /// When it was last saved.
    pub updated_ms: i64,
}

/// The studies' storage. Every method is one transaction.
#[async_trait]
pub trait StudyStore: Send + Sync {
    /// Stores a new study, unless its owner already has `most` studies: `Ok(false)` then, and
    /// nothing is written. (`owner_name` is ignored.) A taken id is `StoreError::Taken`.
    async fn create_study(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError>;

    /// The study with this id, with its owner's name and its chapters.
    async fn study(&self, id: &str) -> Result<Option<StudyRow>, StoreError>;

    /// Replaces the name and chapters of study `id` if `owner_id` owns it, and sets its
    /// `updated_ms`; `Ok(false)` when no such study of that owner exists.
    async fn update_study(
        &self,
        id: &str,
        owner_id: &str,
        name: &str,
        chapters: &[ChapterRow],
        updated_ms: i64,
    ) -> Result<bool, StoreError>;

    /// Deletes study `id` if `owner_id` owns it; `Ok(false)` when no such study of that owner
    /// exists.
    async fn delete_study(&self, id: &str, owner_id: &str) -> Result<bool, StoreError>;

    /// The studies of an account, the last saved first, at most `limit`.
    async fn account_studies(
        &self,
        owner_id: &str,
        limit: i64,
    ) -> Result<Vec<StudySummary>, StoreError>;
}
