//! Tournaments in PostgreSQL. A change to an event locks its row first (`FOR UPDATE`), so
//! that joins, withdrawals and the start of one event take turns, on one node or several; a
//! round is stored once, by the key (event, round) of `tournament_rounds`.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::store::postgres::PostgresStore;
use crate::store::{EventRow, GameRow, StoreError};
use crate::tournaments::model::{
    EntryRow, Joined, PairingRow, Stored, TournamentRow, Withdrawn, status,
};
use crate::tournaments::store::TournamentStore;

const TOURNAMENT_COLUMNS: &str = "id, name, format, settings, starts_ms, max_players, \
     organiser, organiser_name, status, round, created_ms, updated_ms";

fn tournament_row(r: &PgRow) -> Result<TournamentRow, sqlx::Error> {
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

fn entry_row(r: &PgRow) -> Result<EntryRow, sqlx::Error> {
    Ok(EntryRow {
        account_id: r.try_get("account_id")?,
        name: r.try_get("name")?,
        rating: r.try_get("rating")?,
        number: r.try_get("number")?,
        withdrawn: r.try_get("withdrawn")?,
        joined_ms: r.try_get("joined_ms")?,
    })
}

fn pairing_row(r: &PgRow) -> Result<PairingRow, sqlx::Error> {
    Ok(PairingRow {
        round: r.try_get("round")?,
        board: r.try_get("board")?,
        white: r.try_get("white")?,
        black: r.try_get("black")?,
        game_id: r.try_get("game_id")?,
        result: r.try_get("result")?,
    })
}

/// Locks event `id`'s row until the transaction ends; its status, if it exists.
async fn lock(conn: &mut sqlx::PgConnection, id: &str) -> Result<Option<String>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(conn)
            .await?,
    )
}

#[async_trait]
impl TournamentStore for PostgresStore {
    async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
        ))
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.format)
        .bind(&t.settings)
        .bind(t.starts_ms)
        .bind(t.max_players)
        .bind(&t.organiser)
        .bind(&t.organiser_name)
        .bind(&t.status)
        .bind(t.round)
        .bind(t.created_ms)
        .bind(t.updated_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn tournament(&self, id: &str) -> Result<Option<Stored>, StoreError> {
        // One snapshot of the three tables.
        let mut tx = self.pool().begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .execute(&mut *tx)
            .await?;
        let Some(row) = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"
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
             FROM tournament_entries WHERE tournament_id = $1 ORDER BY joined_ms, account_id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(entry_row)
        .collect::<Result<_, _>>()?;
        let pairings = sqlx::query(
            "SELECT round, board, white, black, game_id, result FROM tournament_pairings \
             WHERE tournament_id = $1 ORDER BY round, board",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(pairing_row)
        .collect::<Result<_, _>>()?;
        tx.commit().await?;
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
             FROM tournaments t WHERE ($1::TEXT IS NULL OR status = $1) \
             ORDER BY created_ms DESC, id LIMIT $2"
        ))
        .bind(status)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((tournament_row(r)?, r.try_get("players")?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }

    async fn join_tournament(&self, id: &str, e: &EntryRow) -> Result<Joined, StoreError> {
        let mut tx = self.pool().begin().await?;
        let Some(now) = lock(&mut tx, id).await? else {
            return Ok(Joined::NotFound);
        };
        if now != status::REGISTERING {
            return Ok(Joined::Closed);
        }
        let withdrawn: Option<bool> = sqlx::query_scalar(
            "SELECT withdrawn FROM tournament_entries \
             WHERE tournament_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(&e.account_id)
        .fetch_optional(&mut *tx)
        .await?;
        if withdrawn == Some(false) {
            return Ok(Joined::Already);
        }
        let (players, max): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM tournament_entries \
             WHERE tournament_id = $1 AND NOT withdrawn), max_players \
             FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        if players >= max {
            return Ok(Joined::Full);
        }
        sqlx::query(
            "INSERT INTO tournament_entries (tournament_id, account_id, name, rating, number, \
             withdrawn, joined_ms) VALUES ($1, $2, $3, $4, NULL, FALSE, $5) \
             ON CONFLICT (tournament_id, account_id) DO UPDATE SET withdrawn = FALSE, \
             rating = excluded.rating, joined_ms = excluded.joined_ms",
        )
        .bind(id)
        .bind(&e.account_id)
        .bind(&e.name)
        .bind(e.rating)
        .bind(e.joined_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE tournaments SET updated_ms = $1 WHERE id = $2")
            .bind(e.joined_ms)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Joined::Joined)
    }

    async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<Withdrawn, StoreError> {
        let mut tx = self.pool().begin().await?;
        let Some(now) = lock(&mut tx, id).await? else {
            return Ok(Withdrawn::NotFound);
        };
        if now != status::REGISTERING {
            return Ok(Withdrawn::Closed);
        }
        let changed = sqlx::query(
            "UPDATE tournament_entries SET withdrawn = TRUE \
             WHERE tournament_id = $1 AND account_id = $2 AND NOT withdrawn",
        )
        .bind(id)
        .bind(account)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if changed == 0 {
            return Ok(Withdrawn::NotEntered);
        }
        sqlx::query("UPDATE tournaments SET updated_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Withdrawn::Withdrawn)
    }

    async fn start_tournament(
        &self,
        id: &str,
        ratings: &[(String, f64)],
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        if lock(&mut tx, id).await?.as_deref() != Some(status::REGISTERING) {
            return Ok(false);
        }
        for (account, rating) in ratings {
            sqlx::query(
                "UPDATE tournament_entries SET rating = $1 \
                 WHERE tournament_id = $2 AND account_id = $3",
            )
            .bind(rating)
            .bind(id)
            .bind(account)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE tournament_entries e SET number = n.number FROM ( \
             SELECT account_id, ROW_NUMBER() OVER (ORDER BY rating DESC, name, account_id) \
             AS number FROM tournament_entries WHERE tournament_id = $1 AND NOT withdrawn) n \
             WHERE e.tournament_id = $1 AND e.account_id = n.account_id",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE tournaments SET status = $1, updated_ms = $2 WHERE id = $3")
            .bind(status::RUNNING)
            .bind(now_ms)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn store_round(
        &self,
        id: &str,
        round: i64,
        pairings: &[PairingRow],
        games: &[(GameRow, Vec<EventRow>)],
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        // A second try waits here for the first to end, then inserts nothing: the round is
        // stored once, and the rollback drops the loser's games with it.
        let inserted = sqlx::query(
            "INSERT INTO tournament_rounds (tournament_id, round, paired_ms) \
             VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(round)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for (game, events) in games {
            crate::store::postgres::games::create_game_in(
                &mut tx,
                game,
                events,
                self.lease_holder(),
            )
            .await?;
        }
        for p in pairings {
            sqlx::query(
                "INSERT INTO tournament_pairings (tournament_id, round, board, white, black, \
                 game_id, result) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(p.round)
            .bind(p.board)
            .bind(&p.white)
            .bind(&p.black)
            .bind(&p.game_id)
            .bind(&p.result)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE tournaments SET round = $1, updated_ms = $2 WHERE id = $3")
            .bind(round)
            .bind(now_ms)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn record_result(&self, game: &str, result: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "UPDATE tournament_pairings SET result = $2 WHERE game_id = $1 AND result IS NULL \
             RETURNING tournament_id",
        )
        .bind(game)
        .bind(result)
        .fetch_optional(self.pool())
        .await?)
    }

    async fn tournament_of_game(&self, game: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT tournament_id FROM tournament_pairings WHERE game_id = $1")
                .bind(game)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    async fn finish_tournament(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let changed = sqlx::query(
            "UPDATE tournaments SET status = $1, updated_ms = $2 WHERE id = $3 AND status <> $1",
        )
        .bind(status::FINISHED)
        .bind(now_ms)
        .bind(id)
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok(changed > 0)
    }

    async fn tournaments_to_run(&self, now_ms: i64) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, status FROM tournaments WHERE status = $1 \
             OR (status = $2 AND starts_ms IS NOT NULL AND starts_ms <= $3) ORDER BY id",
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
