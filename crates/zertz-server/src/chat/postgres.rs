//! The game room's chat in PostgreSQL. A line takes the next number of its room; two lines
//! numbered at once in the same room collide on the key, and the later one tries again.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::chat::store::{ChatLine, ChatStore, Report};
use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::postgres::PostgresStore;

const LINE_COLUMNS: &str =
    "room, seq, at_ms, kind, seat, account_id, name, guest, text, played, turn";

fn line(row: &PgRow) -> Result<ChatLine, sqlx::Error> {
    Ok(ChatLine {
        room: row.try_get("room")?,
        seq: row.try_get("seq")?,
        at_ms: row.try_get("at_ms")?,
        kind: row.try_get("kind")?,
        seat: row.try_get("seat")?,
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        guest: row.try_get("guest")?,
        text: row.try_get("text")?,
        played: row.try_get("played")?,
        turn: row.try_get("turn")?,
    })
}

#[async_trait]
impl ChatStore for PostgresStore {
    async fn add_chat_line(&self, new: &ChatLine) -> Result<ChatLine, StoreError> {
        for _ in 0..10 {
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
                Ok(seq) => return Ok(ChatLine { seq, ..new.clone() }),
                Err(sqlx::Error::Database(db)) if db.is_unique_violation() => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Write(format!(
            "room {}: no free line number after 10 tries",
            new.room
        )))
    }

    async fn chat_lines(&self, room: &str, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines WHERE room = $1 ORDER BY seq DESC LIMIT $2"
        ))
        .bind(room)
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        let mut lines = rows.iter().map(line).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    async fn chat_line(&self, room: &str, seq: i64) -> Result<Option<ChatLine>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines WHERE room = $1 AND seq = $2"
        ))
        .bind(room)
        .bind(seq)
        .fetch_optional(self.pool())
        .await?;
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
        if muted {
            sqlx::query(
                "INSERT INTO chat_mutes (room, account_id, by_account, at_ms) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (room, account_id) DO NOTHING",
            )
            .bind(room)
            .bind(account)
            .bind(by)
            .bind(at_ms)
            .execute(self.pool())
            .await?;
        } else {
            sqlx::query("DELETE FROM chat_mutes WHERE room = $1 AND account_id = $2")
                .bind(room)
                .bind(account)
                .execute(self.pool())
                .await?;
        }
        Ok(())
    }

    async fn mutes(&self, room: &str) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT account_id FROM chat_mutes WHERE room = $1")
                .bind(room)
                .fetch_all(self.pool())
                .await?,
        )
    }

    async fn add_report(
        &self,
        room: &str,
        seq: i64,
        reporter: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat_reports (room, seq, reporter, at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (room, seq, reporter) DO NOTHING",
        )
        .bind(room)
        .bind(seq)
        .bind(reporter)
        .bind(at_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(
            "SELECT l.room, l.seq, l.at_ms, l.kind, l.seat, l.account_id, l.name, l.guest, \
             l.text, l.played, l.turn, r.at_ms AS reported_ms, \
             COALESCE(a.name, 'guest ' || substr(r.reporter, 7)) AS reporter \
             FROM chat_reports r JOIN chat_lines l ON l.room = r.room AND l.seq = r.seq \
             LEFT JOIN accounts a ON a.id = r.reporter \
             ORDER BY r.at_ms DESC LIMIT $1",
        )
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|row| {
                Ok(Report {
                    line: line(row)?,
                    reporter: row.try_get("reporter")?,
                    at_ms: row.try_get("reported_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?)
    }
}
