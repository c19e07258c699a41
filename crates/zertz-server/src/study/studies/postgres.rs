//! Saved studies in PostgreSQL: a new study locks its owner's account row first, so that two
//! saves at once take turns counting the owner's studies and neither passes the limit. The
//! rest is written once for both databases (`study::studies::sql`).

use async_trait::async_trait;

use crate::store::StoreError;
use crate::store::postgres::PostgresStore;
use crate::store::postgres::sql::run;
use crate::study::studies::sql::{StudyDialect, insert_chapters, insert_study};
use crate::study::studies::store::StudyRow;

#[async_trait]
impl StudyDialect for PostgresStore {
    async fn create_study_within(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError> {
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
        run(&mut tx, insert_study(study)).await?;
        for insert in insert_chapters(&study.id, &study.chapters) {
            run(&mut tx, insert).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}
