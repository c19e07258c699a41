//! Tournaments in SQLite: writes on the writer thread (one at a time, so a check and the
//! write after it are one step), reads on the pool.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::store::sqlite::{SqliteStore, write_error};
use crate::store::{EventRow, GameRow, StoreError};
use crate::tournaments::model::{
    EntryRow, Joined, PairingRow, Stored, TournamentRow, Withdrawn, status,
};
use crate::tournaments::store::TournamentStore;

const TOURNAMENT_COLUMNS: &str = "id, name, format, settings, starts_ms, max_players, \
     organiser, organiser_name, status, round, created_ms, updated_ms";

fn tournament_row(r: &SqliteRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        format: r.try_get("format")?,
        settings: r.try_get("settings")?,
        starts_ms: r.try_get("starts_ms")?,
        max_players: r.try_get("max_players")?,
        organiser: r.try_get("organiser")?,
        organiser_name: r.try_get("organiser_name")?,
        status: r.try_get("status")?,
        round: r.try_get("round")?,
        created_ms: r.try_get("created_ms")?,
        updated_ms: r.try_get("updated_ms")?,
    })
}

fn entry_row(r: &SqliteRow) -> Result<EntryRow, sqlx::Error> {
    Ok(EntryRow {
        account_id: r.try_get("account_id")?,
        name: r.try_get("name")?,
        rating: r.try_get("rating")?,
        number: r.try_get("number")?,
        withdrawn: r.try_get("withdrawn")?,
        joined_ms: r.try_get("joined_ms")?,
    })
}

fn pairing_row(r: &SqliteRow) -> Result<PairingRow, sqlx::Error> {
    Ok(PairingRow {
        round: r.try_get("round")?,
        board: r.try_get("board")?,
        white: r.try_get("white")?,
        black: r.try_get("black")?,
        game_id: r.try_get("game_id")?,
        result: r.try_get("result")?,
    })
}

/// The status of event `id` (read on the writer's connection), if it exists.
fn status_of(conn: &rusqlite::Connection, id: &str) -> Result<Option<String>, StoreError> {
    conn.query_row("SELECT status FROM tournaments WHERE id = ?", [id], |r| {
        r.get(0)
    })
    .optional()
    .map_err(write_error)
}

#[async_trait]
impl TournamentStore for SqliteStore {
    async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        let t = t.clone();
        self.write_with(move |conn| {
            conn.execute(
                &format!(
                    "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                params![
                    t.id,
                    t.name,
                    t.format,
                    t.settings,
                    t.starts_ms,
                    t.max_players,
                    t.organiser,
                    t.organiser_name,
                    t.status,
                    t.round,
                    t.created_ms,
                    t.updated_ms
                ],
            )
            .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn tournament(&self, id: &str) -> Result<Option<Stored>, StoreError> {
        // One read transaction: one snapshot of the three tables.
        let mut tx = self.pool().begin().await?;
        let Some(row) = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let row = tournament_row(&row)?;
        let entries = sqlx::query(
            "SELECT account_id, name, rating, number, withdrawn, joined_ms \
             FROM tournament_entries WHERE tournament_id = ? ORDER BY joined_ms, account_id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(entry_row)
        .collect::<Result<_, _>>()?;
        let pairings = sqlx::query(
            "SELECT round, board, white, black, game_id, result FROM tournament_pairings \
             WHERE tournament_id = ? ORDER BY round, board",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(pairing_row)
        .collect::<Result<_, _>>()?;
        tx.rollback().await?;
        Ok(Some(Stored {
            row,
            entries,
            pairings,
        }))
    }

    async fn list_tournaments(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<(TournamentRow, i64)>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS}, (SELECT COUNT(*) FROM tournament_entries e \
             WHERE e.tournament_id = t.id AND NOT e.withdrawn) AS players \
             FROM tournaments t WHERE (? IS NULL OR status = ?) \
             ORDER BY created_ms DESC, id LIMIT ?"
        ))
        .bind(status)
        .bind(status)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((tournament_row(r)?, r.try_get("players")?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }

    async fn join_tournament(&self, id: &str, entry: &EntryRow) -> Result<Joined, StoreError> {
        let id = id.to_string();
        let e = entry.clone();
        self.write_with(move |conn| {
            let Some(now) = status_of(conn, &id)? else {
                return Ok(Joined::NotFound);
            };
            if now != status::REGISTERING {
                return Ok(Joined::Closed);
            }
            let withdrawn: Option<bool> = conn
                .query_row(
                    "SELECT withdrawn FROM tournament_entries \
                     WHERE tournament_id = ? AND account_id = ?",
                    params![id, e.account_id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(write_error)?;
            if withdrawn == Some(false) {
                return Ok(Joined::Already);
            }
            let (players, max): (i64, i64) = conn
                .query_row(
                    "SELECT (SELECT COUNT(*) FROM tournament_entries \
                     WHERE tournament_id = ?1 AND NOT withdrawn), max_players \
                     FROM tournaments WHERE id = ?1",
                    [&id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .map_err(write_error)?;
            if players >= max {
                return Ok(Joined::Full);
            }
            conn.execute(
                "INSERT INTO tournament_entries (tournament_id, account_id, name, rating, \
                 number, withdrawn, joined_ms) VALUES (?, ?, ?, ?, NULL, 0, ?) \
                 ON CONFLICT (tournament_id, account_id) DO UPDATE SET withdrawn = 0, \
                 rating = excluded.rating, joined_ms = excluded.joined_ms",
                params![id, e.account_id, e.name, e.rating, e.joined_ms],
            )
            .map_err(write_error)?;
            conn.execute(
                "UPDATE tournaments SET updated_ms = ? WHERE id = ?",
                params![e.joined_ms, id],
            )
            .map_err(write_error)?;
            Ok(Joined::Joined)
        })
        .await
    }

    async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<Withdrawn, StoreError> {
        let id = id.to_string();
        let account = account.to_string();
        self.write_with(move |conn| {
            let Some(now) = status_of(conn, &id)? else {
                return Ok(Withdrawn::NotFound);
            };
            if now != status::REGISTERING {
                return Ok(Withdrawn::Closed);
            }
            let changed = conn
                .execute(
                    "UPDATE tournament_entries SET withdrawn = 1 \
                     WHERE tournament_id = ? AND account_id = ? AND NOT withdrawn",
                    params![id, account],
                )
                .map_err(write_error)?;
            if changed == 0 {
                return Ok(Withdrawn::NotEntered);
            }
            conn.execute(
                "UPDATE tournaments SET updated_ms = ? WHERE id = ?",
                params![now_ms, id],
            )
            .map_err(write_error)?;
            Ok(Withdrawn::Withdrawn)
        })
        .await
    }

    async fn start_tournament(
        &self,
        id: &str,
        ratings: &[(String, f64)],
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let id = id.to_string();
        let ratings = ratings.to_vec();
        self.write_with(move |conn| {
            if status_of(conn, &id)?.as_deref() != Some(status::REGISTERING) {
                return Ok(false);
            }
            for (account, rating) in &ratings {
                conn.execute(
                    "UPDATE tournament_entries SET rating = ? \
                     WHERE tournament_id = ? AND account_id = ?",
                    params![rating, id, account],
                )
                .map_err(write_error)?;
            }
            let order: Vec<String> = {
                let mut read = conn
                    .prepare(
                        "SELECT account_id FROM tournament_entries \
                         WHERE tournament_id = ? AND NOT withdrawn \
                         ORDER BY rating DESC, name, account_id",
                    )
                    .map_err(write_error)?;
                read.query_map([&id], |r| r.get(0))
                    .map_err(write_error)?
                    .collect::<Result<_, _>>()
                    .map_err(write_error)?
            };
            for (i, account) in order.iter().enumerate() {
                conn.execute(
                    "UPDATE tournament_entries SET number = ? \
                     WHERE tournament_id = ? AND account_id = ?",
                    params![i as i64 + 1, id, account],
                )
                .map_err(write_error)?;
            }
            conn.execute(
                "UPDATE tournaments SET status = ?, updated_ms = ? WHERE id = ?",
                params![status::RUNNING, now_ms, id],
            )
            .map_err(write_error)?;
            Ok(true)
        })
        .await
    }

    async fn store_round(
        &self,
        id: &str,
        round: i64,
        pairings: &[PairingRow],
        games: &[(GameRow, Vec<EventRow>)],
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let id = id.to_string();
        let pairings = pairings.to_vec();
        let games = games.to_vec();
        self.write_with(move |conn| {
            // The writer runs one write at a time: the check and the rows after it are one
            // step, and the key refuses a second copy from another process all the same.
            let taken: Option<i64> = conn
                .query_row(
                    "SELECT round FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
                    params![id, round],
                    |r| r.get(0),
                )
                .optional()
                .map_err(write_error)?;
            if taken.is_some() {
                return Ok(false);
            }
            conn.execute(
                "INSERT INTO tournament_rounds (tournament_id, round, paired_ms) VALUES (?, ?, ?)",
                params![id, round, now_ms],
            )
            .map_err(write_error)?;
            for (game, events) in &games {
                crate::store::sqlite::games::create_game(conn, game, events)?;
            }
            for p in &pairings {
                conn.execute(
                    "INSERT INTO tournament_pairings (tournament_id, round, board, white, black, \
                     game_id, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    params![id, p.round, p.board, p.white, p.black, p.game_id, p.result],
                )
                .map_err(write_error)?;
            }
            conn.execute(
                "UPDATE tournaments SET round = ?, updated_ms = ? WHERE id = ?",
                params![round, now_ms, id],
            )
            .map_err(write_error)?;
            Ok(true)
        })
        .await
    }

    async fn record_result(&self, game: &str, result: &str) -> Result<Option<String>, StoreError> {
        let game = game.to_string();
        let result = result.to_string();
        self.write_with(move |conn| {
            let event: Option<String> = conn
                .query_row(
                    "SELECT tournament_id FROM tournament_pairings \
                     WHERE game_id = ? AND result IS NULL",
                    [&game],
                    |r| r.get(0),
                )
                .optional()
                .map_err(write_error)?;
            if event.is_some() {
                conn.execute(
                    "UPDATE tournament_pairings SET result = ? WHERE game_id = ?",
                    params![result, game],
                )
                .map_err(write_error)?;
            }
            Ok(event)
        })
        .await
    }

    async fn tournament_of_game(&self, game: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT tournament_id FROM tournament_pairings WHERE game_id = ?")
                .bind(game)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    async fn finish_tournament(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write_with(move |conn| {
            let changed = conn
                .execute(
                    "UPDATE tournaments SET status = ?, updated_ms = ? \
                     WHERE id = ? AND status <> ?",
                    params![status::FINISHED, now_ms, id, status::FINISHED],
                )
                .map_err(write_error)?;
            Ok(changed > 0)
        })
        .await
    }

    async fn tournaments_to_run(&self, now_ms: i64) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, status FROM tournaments WHERE status = ? \
             OR (status = ? AND starts_ms IS NOT NULL AND starts_ms <= ?) ORDER BY id",
        )
        .bind(status::RUNNING)
        .bind(status::REGISTERING)
        .bind(now_ms)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("status")?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }
}
