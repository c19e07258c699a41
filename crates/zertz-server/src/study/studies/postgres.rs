//! Saved studies in PostgreSQL. A new study locks its owner's account row first, so that two
//! saves at once take turns counting the owner's studies and neither passes the limit.

use async_trait::async_trait;
use sqlx::Row;

use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::postgres::PostgresStore;
use crate::study::studies::store::{ChapterRow, StudyRow, StudyStore, StudySummary};

/// Writes the chapters of study `id` in order (after the old ones were deleted).
async fn insert_chapters(
    tx: &mut sqlx::PgConnection,
    id: &str,
    chapters: &[ChapterRow],
) -> Result<(), StoreError> {
    for (seq, chapter) in chapters.iter().enumerate() {
        sqlx::query(
            "INSERT INTO study_chapters (study_id, seq, name, tree) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(seq as i64)
        .bind(&chapter.name)
        .bind(&chapter.tree)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

#[async_trait]
impl StudyStore for PostgresStore {
    async fn create_study(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
            .bind(&study.owner_id)
            .fetch_optional(&mut *tx)
            .await?;
        let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM studies WHERE owner_id = $1")
            .bind(&study.owner_id)
            .fetch_one(&mut *tx)
            .await?;
        if held >= most {
            return Ok(false);
        }
        let inserted = sqlx::query(
            "INSERT INTO studies (id, owner_id, name, chapters, created_ms, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&study.id)
        .bind(&study.owner_id)
        .bind(&study.name)
        .bind(study.chapters.len() as i64)
        .bind(study.created_ms)
        .bind(study.updated_ms)
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
                return Err(StoreError::Taken(format!("study id {} is taken", study.id)));
            }
            Err(e) => return Err(e.into()),
        }
        insert_chapters(&mut tx, &study.id, &study.chapters).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn study(&self, id: &str) -> Result<Option<StudyRow>, StoreError> {
        // One snapshot for both reads, so that the chapters belong to the study read.
        let mut tx = self.pool().begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        let Some(row) = sqlx::query(
            "SELECT s.id, s.name, s.owner_id, a.name AS owner_name, s.created_ms, s.updated_ms \
             FROM studies s JOIN accounts a ON a.id = s.owner_id WHERE s.id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let chapters =
            sqlx::query("SELECT name, tree FROM study_chapters WHERE study_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|c| {
                    Ok(ChapterRow {
                        name: c.try_get("name")?,
                        tree: c.try_get("tree")?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
        tx.commit().await?;
        Ok(Some(StudyRow {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            owner_id: row.try_get("owner_id")?,
            owner_name: row.try_get("owner_name")?,
            chapters,
            created_ms: row.try_get("created_ms")?,
            updated_ms: row.try_get("updated_ms")?,
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
        let mut tx = self.pool().begin().await?;
        // The row stays locked until the commit: two saves of one study take turns.
        let changed = sqlx::query(
            "UPDATE studies SET name = $1, chapters = $2, updated_ms = $3 \
             WHERE id = $4 AND owner_id = $5",
        )
        .bind(name)
        .bind(chapters.len() as i64)
        .bind(updated_ms)
        .bind(id)
        .bind(owner_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if changed == 0 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM study_chapters WHERE study_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        insert_chapters(&mut tx, id, chapters).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn delete_study(&self, id: &str, owner_id: &str) -> Result<bool, StoreError> {
        // The chapters go with it (ON DELETE CASCADE).
        let deleted = sqlx::query("DELETE FROM studies WHERE id = $1 AND owner_id = $2")
            .bind(id)
            .bind(owner_id)
            .execute(self.pool())
            .await?
            .rows_affected();
        Ok(deleted > 0)
    }

    async fn account_studies(
        &self,
        owner_id: &str,
        limit: i64,
    ) -> Result<Vec<StudySummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, chapters, updated_ms FROM studies WHERE owner_id = $1 \
             ORDER BY updated_ms DESC, id LIMIT $2",
        )
        .bind(owner_id)
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|row| {
                Ok(StudySummary {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
                    chapters: row.try_get("chapters")?,
                    updated_ms: row.try_get("updated_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?)
    }
}
