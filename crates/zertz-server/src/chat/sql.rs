//! The chat's storage written once for both databases (see `store::sql`); the numbering of a
//! new line differs and is in `sqlite.rs` and `postgres.rs`.

use async_trait::async_trait;

use crate::chat::store::{ChatLine, ChatStore, Report};
use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::sql::{Row, Sql, Statement, args, map_rows};

/// The columns of a [`ChatLine`].
pub(crate) const LINE_COLUMNS: &str =
    "room, seq, at_ms, kind, seat, account_id, name, guest, text, played, turn";

/// What the databases do differently for the chat.
#[async_trait]
pub(crate) trait ChatDialect {
    /// Adds `line` with the next number of its room; returns the number.
    async fn add_numbered_line(&self, line: &ChatLine) -> Result<i64, StoreError>;
}

fn line(row: &impl Row) -> Result<ChatLine, sqlx::Error> {
    Ok(ChatLine {
        room: row.get("room")?,
        seq: row.get("seq")?,
        at_ms: row.get("at_ms")?,
        kind: row.get("kind")?,
        seat: row.get("seat")?,
        account_id: row.get("account_id")?,
        name: row.get("name")?,
        guest: row.get("guest")?,
        text: row.get("text")?,
        played: row.get("played")?,
        turn: row.get("turn")?,
    })
}

#[async_trait]
impl<S: Sql + ChatDialect> ChatStore for S {
    async fn add_chat_line(&self, new: &ChatLine) -> Result<ChatLine, StoreError> {
        let seq = self.add_numbered_line(new).await?;
        Ok(ChatLine { seq, ..new.clone() })
    }

    async fn chat_lines(&self, room: &str, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        let sql = format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines WHERE room = ? ORDER BY seq DESC LIMIT ?"
        );
        let rows = self
            .fetch_all(&sql, args![room, clamp_limit(limit)])
            .await?;
        let mut lines = map_rows(&rows, line)?;
        lines.reverse();
        Ok(lines)
    }

    async fn chat_line(&self, room: &str, seq: i64) -> Result<Option<ChatLine>, StoreError> {
        let sql = format!("SELECT {LINE_COLUMNS} FROM chat_lines WHERE room = ? AND seq = ?");
        let row = self.fetch_optional(&sql, args![room, seq]).await?;
        Ok(row.as_ref().map(line).transpose()?)
    }

    async fn set_mute(
        &self,
        room: &str,
        account: &str,
        by: Option<&str>,
        muted: bool,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let statement = if muted {
            Statement::new(
                "INSERT INTO chat_mutes (room, account_id, by_account, at_ms) \
                 VALUES (?, ?, ?, ?) ON CONFLICT (room, account_id) DO NOTHING",
                args![room, account, by, at_ms],
            )
        } else {
            Statement::new(
                "DELETE FROM chat_mutes WHERE room = ? AND account_id = ?",
                args![room, account],
            )
        };
        self.write(vec![statement]).await?;
        Ok(())
    }

    async fn mutes(&self, room: &str) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT account_id FROM chat_mutes WHERE room = ?";
        let rows = self.fetch_all(sql, args![room]).await?;
        map_rows(&rows, |row| row.get("account_id"))
    }

    async fn add_report(
        &self,
        room: &str,
        seq: i64,
        reporter: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO chat_reports (room, seq, reporter, at_ms) VALUES (?, ?, ?, ?) \
             ON CONFLICT (room, seq, reporter) DO NOTHING",
            args![room, seq, reporter, at_ms],
        )
        .await?;
        Ok(())
    }

    async fn reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT l.room, l.seq, l.at_ms, l.kind, l.seat, l.account_id, l.name, l.guest, \
                 l.text, l.played, l.turn, r.at_ms AS reported_ms, \
                 COALESCE(a.name, 'guest ' || substr(r.reporter, 7)) AS reporter \
                 FROM chat_reports r JOIN chat_lines l ON l.room = r.room AND l.seq = r.seq \
                 LEFT JOIN accounts a ON a.id = r.reporter \
                 ORDER BY r.at_ms DESC LIMIT ?",
                args![clamp_limit(limit)],
            )
            .await?;
        map_rows(&rows, |row| {
            Ok(Report {
                line: line(row)?,
                reporter: row.get("reporter")?,
                at_ms: row.get("reported_ms")?,
            })
        })
    }
}
