//! Saved studies in SQLite: writes on the writer thread (whose transactions run one at a time,
//! so counting an owner's studies and adding one cannot interleave with another save), reads
//! on the pool.

use async_trait::async_trait;
use rusqlite::params;
use sqlx::Row;

use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::sqlite::{SqliteStore, is_unique_violation, write_error};
use crate::study::studies::store::{ChapterRow, StudyRow, StudyStore, StudySummary};

/// Writes the chapters of study `id` in order (after the old ones were deleted).
fn insert_chapters(
    conn: &rusqlite::Connection,
    id: &str,
    chapters: &[ChapterRow],
) -> Result<(), StoreError> {
    let mut insert = conn
        .prepare_cached(
            "INSERT INTO study_chapters (study_id, seq, name, tree) VALUES (?, ?, ?, ?)",
        )
        .map_err(write_error)?;
    for (seq, chapter) in chapters.iter().enumerate() {
        insert
            .execute(params![id, seq as i64, chapter.name, chapter.tree])
            .map_err(write_error)?;
    }
    Ok(())
}

#[async_trait]
impl StudyStore for SqliteStore {
    async fn create_study(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError> {
        let s = study.clone();
        self.write_with(move |conn| {
            let held: i64 = conn
                .prepare_cached("SELECT COUNT(*) FROM studies WHERE owner_id = ?")
                .and_then(|mut count| count.query_row([&s.owner_id], |row| row.get(0)))
                .map_err(write_error)?;
            if held >= most {
                return Ok(false);
            }
            conn.prepare_cached(
                "INSERT INTO studies (id, owner_id, name, chapters, created_ms, updated_ms) \
                 VALUES (?, ?, ?, ?, ?, ?)",
            )
            .and_then(|mut insert| {
                insert.execute(params![
                    s.id,
                    s.owner_id,
                    s.name,
                    s.chapters.len() as i64,
                    s.created_ms,
                    s.updated_ms
                ])
            })
            .map_err(|e| {
                if is_unique_violation(&e) {
                    StoreError::Taken(format!("study id {} is taken", s.id))
                } else {
                    write_error(e)
                }
            })?;
            insert_chapters(conn, &s.id, &s.chapters)?;
            Ok(true)
        })
        .await
    }

    async fn study(&self, id: &str) -> Result<Option<StudyRow>, StoreError> {
        // Both reads in one transaction, so that the chapters belong to the study read.
        let mut tx = self.pool().begin().await?;
        let Some(row) = sqlx::query(
            "SELECT s.id, s.name, s.owner_id, a.name AS owner_name, s.created_ms, s.updated_ms \
             FROM studies s JOIN accounts a ON a.id = s.owner_id WHERE s.id = ?",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let chapters =
            sqlx::query("SELECT name, tree FROM study_chapters WHERE study_id = ? ORDER BY seq")
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
        let (id, owner_id, name, chapters) = (
            id.to_string(),
            owner_id.to_string(),
            name.to_string(),
            chapters.to_vec(),
        );
        self.write_with(move |conn| {
            let changed = conn
                .prepare_cached(
                    "UPDATE studies SET name = ?, chapters = ?, updated_ms = ? \
                     WHERE id = ? AND owner_id = ?",
                )
                .and_then(|mut update| {
                    update.execute(params![
                        name,
                        chapters.len() as i64,
                        updated_ms,
                        id,
                        owner_id
                    ])
                })
                .map_err(write_error)?;
            if changed == 0 {
                return Ok(false);
            }
            conn.prepare_cached("DELETE FROM study_chapters WHERE study_id = ?")
                .and_then(|mut delete| delete.execute([&id]))
                .map_err(write_error)?;
            insert_chapters(conn, &id, &chapters)?;
            Ok(true)
        })
        .await
    }

    async fn delete_study(&self, id: &str, owner_id: &str) -> Result<bool, StoreError> {
        let (id, owner_id) = (id.to_string(), owner_id.to_string());
        self.write_with(move |conn| {
            // The chapters go with it (ON DELETE CASCADE).
            let deleted = conn
                .prepare_cached("DELETE FROM studies WHERE id = ? AND owner_id = ?")
                .and_then(|mut delete| delete.execute([&id, &owner_id]))
                .map_err(write_error)?;
            Ok(deleted > 0)
        })
        .await
    }

    async fn account_studies(
        &self,
        owner_id: &str,
        limit: i64,
    ) -> Result<Vec<StudySummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, chapters, updated_ms FROM studies WHERE owner_id = ? \
             ORDER BY updated_ms DESC, id LIMIT ?",
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
