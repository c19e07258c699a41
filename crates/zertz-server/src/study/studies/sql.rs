//! Saved studies, written once for both databases (see `store::sql`); a new study, counted
//! against its owner's limit, differs and is in `sqlite.rs` and `postgres.rs`.

use async_trait::async_trait;

use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::sql::{Row, Sql, Statement, args, map_rows};
use crate::study::studies::store::{ChapterRow, StudyRow, StudyStore, StudySummary};

/// What the databases do differently for studies.
#[async_trait]
pub(crate) trait StudyDialect {
    /// Stores `study` with its chapters unless its owner holds `most` studies already (then
    /// false); a taken id is `StoreError::Taken`.
    async fn create_study_within(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError>;
}

/// The insert of a new study's row (a taken id is `StoreError::Taken`).
pub(crate) fn insert_study(study: &StudyRow) -> Statement {
    Statement::new(
        "INSERT INTO studies (id, owner_id, name, chapters, created_ms, updated_ms) \
         VALUES (?, ?, ?, ?, ?, ?)",
        args![
            &study.id,
            &study.owner_id,
            &study.name,
            study.chapters.len() as i64,
            study.created_ms,
            study.updated_ms
        ],
    )
    .taken(format!("study id {} is taken", study.id))
}

/// The inserts of the chapters of study `id`, in order (after the old ones were deleted).
pub(crate) fn insert_chapters(id: &str, chapters: &[ChapterRow]) -> Vec<Statement> {
    chapters
        .iter()
        .enumerate()
        .map(|(seq, chapter)| {
            Statement::new(
                "INSERT INTO study_chapters (study_id, seq, name, tree) VALUES (?, ?, ?, ?)",
                args![id, seq as i64, &chapter.name, &chapter.tree],
            )
        })
        .collect()
}

#[async_trait]
impl<S: Sql + StudyDialect> StudyStore for S {
    async fn create_study(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError> {
        self.create_study_within(study, most).await
    }

    async fn study(&self, id: &str) -> Result<Option<StudyRow>, StoreError> {
        // One snapshot for both reads, so that the chapters belong to the study read.
        let mut read = self
            .fetch_together(vec![
                (
                    "SELECT s.id, s.name, s.owner_id, a.name AS owner_name, s.created_ms, \
                     s.updated_ms FROM studies s JOIN accounts a ON a.id = s.owner_id \
                     WHERE s.id = ?",
                    args![id],
                ),
                (
                    "SELECT name, tree FROM study_chapters WHERE study_id = ? ORDER BY seq",
                    args![id],
                ),
            ])
            .await?
            .into_iter();
        let (Some(studies), Some(chapters)) = (read.next(), read.next()) else {
            return Ok(None);
        };
        let Some(row) = studies.first() else {
            return Ok(None);
        };
        let chapters = map_rows(&chapters, |c| {
            Ok(ChapterRow {
                name: c.get("name")?,
                tree: c.get("tree")?,
            })
        })?;
        Ok(Some(StudyRow {
            id: row.get("id")?,
            name: row.get("name")?,
            owner_id: row.get("owner_id")?,
            owner_name: row.get("owner_name")?,
            chapters,
            created_ms: row.get("created_ms")?,
            updated_ms: row.get("updated_ms")?,
        }))
    }

    async fn update_study(
        &self,
        id: &str,
        owner_id: &str,
        name: &str,
        chapters: &[ChapterRow],
        updated_ms: i64,
    ) -> Result<bool, StoreError> {
        // On PostgreSQL the row stays locked until the commit: two saves of one study take
        // turns (SQLite's writer runs one write at a time).
        let mut writes = vec![
            Statement::new(
                "UPDATE studies SET name = ?, chapters = ?, updated_ms = ? \
                 WHERE id = ? AND owner_id = ?",
                args![name, chapters.len() as i64, updated_ms, id, owner_id],
            )
            .must_change(format!("study {id} of {owner_id}")),
            Statement::new("DELETE FROM study_chapters WHERE study_id = ?", args![id]),
        ];
        writes.extend(insert_chapters(id, chapters));
        match self.write(writes).await {
            Ok(_) => Ok(true),
            // Not there, or not the owner's: nothing was written.
            Err(StoreError::NotFound(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    async fn delete_study(&self, id: &str, owner_id: &str) -> Result<bool, StoreError> {
        // The chapters go with it (ON DELETE CASCADE).
        let deleted = self
            .execute(
                "DELETE FROM studies WHERE id = ? AND owner_id = ?",
                args![id, owner_id],
            )
            .await?;
        Ok(deleted > 0)
    }

    async fn account_studies(
        &self,
        owner_id: &str,
        limit: i64,
    ) -> Result<Vec<StudySummary>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT id, name, chapters, updated_ms FROM studies WHERE owner_id = ? \
                 ORDER BY updated_ms DESC, id LIMIT ?",
                args![owner_id, clamp_limit(limit)],
            )
            .await?;
        map_rows(&rows, |row| {
            Ok(StudySummary {
                id: row.get("id")?,
                name: row.get("name")?,
                chapters: row.get("chapters")?,
                updated_ms: row.get("updated_ms")?,
            })
        })
    }
}
