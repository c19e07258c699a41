//! The game room's chat in SQLite: lines numbered by the writer thread inside its transaction.
//! The rest is written once for both databases (`chat::sql`).

use async_trait::async_trait;

use crate::chat::sql::{ChatDialect, LINE_COLUMNS};
use crate::chat::store::ChatLine;
use crate::store::StoreError;
use crate::store::sql::args;
use crate::store::sqlite::{SqliteStore, write_error};

#[async_trait]
impl ChatDialect for SqliteStore {
    async fn add_numbered_line(&self, new: &ChatLine) -> Result<i64, StoreError> {
        let new = new.clone();
        // The writer is alone: the next number is the largest plus one.
        self.write_with(move |conn| {
            let seq: i64 = conn
                .prepare_cached("SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_lines WHERE room = ?")
                .and_then(|mut select| select.query_row([&new.room], |row| row.get(0)))
                .map_err(write_error)?;
            let values = args![
                &new.room,
                seq,
                new.at_ms,
                &new.kind,
                new.seat,
                &new.account_id,
                &new.name,
                new.guest,
                &new.text,
                &new.played,
                new.turn
            ];
            conn.prepare_cached(&format!(
                "INSERT INTO chat_lines ({LINE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ))
            .and_then(|mut insert| insert.execute(rusqlite::params_from_iter(values)))
            .map_err(write_error)?;
            Ok(seq)
        })
        .await
    }
}
