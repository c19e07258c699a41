//! Saved studies in SQLite: a new study is counted and added on the writer thread, whose
//! transactions run one at a time, so counting an owner's studies and adding one cannot
//! interleave with another save. The rest is written once for both databases
//! (`study::studies::sql`).

use async_trait::async_trait;

use crate::store::StoreError;
use crate::store::sqlite::sql::run;
use crate::store::sqlite::{SqliteStore, write_error};
use crate::study::studies::sql::{StudyDialect, insert_chapters, insert_study};
use crate::study::studies::store::StudyRow;

#[async_trait]
impl StudyDialect for SqliteStore {
    async fn create_study_within(&self, study: &StudyRow, most: i64) -> Result<bool, StoreError> {
        let s = study.clone();
        self.write_with(move |conn| {
            let held: i64 = conn
                .prepare_cached("SELECT COUNT(*) FROM studies WHERE owner_id = ?")
                .and_then(|mut count| count.query_row([&s.owner_id], |row| row.get(0)))
                .map_err(write_error)?;
            if held >= most {
                return Ok(false);
            }
            run(conn, &insert_study(&s))?;
            for insert in insert_chapters(&s.id, &s.chapters) {
                run(conn, &insert)?;
            }
            Ok(true)
        })
        .await
    }
}
