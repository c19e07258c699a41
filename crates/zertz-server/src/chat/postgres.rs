//! The game room's chat in PostgreSQL. A line takes the next number of its room; two lines
//! numbered at once in the same room collide on the key, and the later one tries again. The
//! rest is written once for both databases (`chat::sql`).

use async_trait::async_trait;

use crate::chat::sql::{ChatDialect, LINE_COLUMNS};
use crate::chat::store::ChatLine;
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;

#[async_trait]
impl ChatDialect for PostgresStore {
    async fn add_numbered_line(&self, new: &ChatLine) -> Result<i64, StoreError> {
        for _ in 0..10 {
            // The number taken in the statement itself, and returned.
            let inserted = sqlx::query_scalar::<_, i64>(&format!(
                "INSERT INTO chat_lines ({LINE_COLUMNS}) VALUES ($1, \
                 (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_lines WHERE room = $1), \
                 $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq"
            ))
            .bind(&new.room)
            .bind(new.at_ms)
            .bind(&new.kind)
            .bind(new.seat)
            .bind(&new.account_id)
            .bind(&new.name)
            .bind(new.guest)
            .bind(&new.text)
            .bind(&new.played)
            .bind(new.turn)
            .fetch_one(self.pool())
            .await;
            match inserted {
                Ok(seq) => return Ok(seq),
                Err(sqlx::Error::Database(db)) if db.is_unique_violation() => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Write(format!(
            "room {}: no free line number after 10 tries",
            new.room
        )))
    }
}
