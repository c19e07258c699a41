//! The game room's chat in SQLite: lines numbered by the writer thread inside its transaction.

use async_trait::async_trait;
use rusqlite::params;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::chat::store::{ChatLine, ChatStore, Report};
use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::sqlite::{SqliteStore, write_error};

const LINE_COLUMNS: &str =
    "room, seq, at_ms, kind, seat, account_id, name, guest, text, played, turn";

fn line(row: &SqliteRow) -> Result<ChatLine, sqlx::Error> {
    Ok(ChatLine {
        room: row.try_get("room")?,
        seq: row.try_get("seq")?,
        at_ms: row.try_get("at_ms")?,
        kind: row.try_get("kind")?,
        seat: row.try_get("seat")?,
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        guest: row.try_get::<i64, _>("guest")? != 0,
        text: row.try_get("text")?,
        played: row.try_get("played")?,
        turn: row.try_get("turn")?,
    })
}

#[async_trait]
impl ChatStore for SqliteStore {
    async fn add_chat_line(&self, new: &ChatLine) -> Result<ChatLine, StoreError> {
        let new = new.clone();
        self.write_with(move |conn| {
            let seq: i64 = conn
                .prepare_cached("SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_lines WHERE room = ?")
                .and_then(|mut select| select.query_row([&new.room], |row| row.get(0)))
                .map_err(write_error)?;
            conn.prepare_cached(&format!(
                "INSERT INTO chat_lines ({LINE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ))
            .and_then(|mut insert| {
                insert.execute(params![
                    new.room,
                    seq,
                    new.at_ms,
                    new.kind,
                    new.seat,
                    new.account_id,
                    new.name,
                    i64::from(new.guest),
                    new.text,
                    new.played,
                    new.turn
                ])
            })
            .map_err(write_error)?;
            Ok(ChatLine { seq, ..new.clone() })
        })
        .await
    }

    async fn chat_lines(&self, room: &str, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {LINE_COLUMNS} FROM chat_lines WHERE room = ? ORDER BY seq DESC LIMIT ?"
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
            "SELECT {LINE_COLUMNS} FROM chat_lines WHERE room = ? AND seq = ?"
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
        let (room, account, by) = (
            room.to_string(),
            account.to_string(),
            by.map(str::to_string),
        );
        self.write_with(move |conn| {
            let done = if muted {
                conn.prepare_cached(
                    "INSERT INTO chat_mutes (room, account_id, by_account, at_ms) \
                     VALUES (?, ?, ?, ?) ON CONFLICT (room, account_id) DO NOTHING",
                )
                .and_then(|mut insert| insert.execute(params![room, account, by, at_ms]))
            } else {
                conn.prepare_cached("DELETE FROM chat_mutes WHERE room = ? AND account_id = ?")
                    .and_then(|mut delete| delete.execute(params![room, account]))
            };
            done.map(|_| ()).map_err(write_error)
        })
        .await
    }

    async fn mutes(&self, room: &str) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT account_id FROM chat_mutes WHERE room = ?")
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
        let (room, reporter) = (room.to_string(), reporter.to_string());
        self.write_with(move |conn| {
            conn.prepare_cached(
                "INSERT INTO chat_reports (room, seq, reporter, at_ms) VALUES (?, ?, ?, ?) \
                 ON CONFLICT (room, seq, reporter) DO NOTHING",
            )
            .and_then(|mut insert| insert.execute(params![room, seq, reporter, at_ms]))
            .map(|_| ())
            .map_err(write_error)
        })
        .await
    }

    async fn reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(
            "SELECT l.room, l.seq, l.at_ms, l.kind, l.seat, l.account_id, l.name, l.guest, \
             l.text, l.played, l.turn, r.at_ms AS reported_ms, \
             COALESCE(a.name, 'guest ' || substr(r.reporter, 7)) AS reporter \
             FROM chat_reports r JOIN chat_lines l ON l.room = r.room AND l.seq = r.seq \
             LEFT JOIN accounts a ON a.id = r.reporter \
             ORDER BY r.at_ms DESC LIMIT ?",
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
