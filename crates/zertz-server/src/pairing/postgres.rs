//! The quick-pairing queue shared by the nodes (docs/server.md, "Several nodes"): one row per
//! request waiting, kept alive by the node holding its client (`expires_ms`, the database's
//! clock). A pairing round locks the waiting rows it can (`FOR UPDATE SKIP LOCKED`: two nodes
//! pairing at once never lock one row both), makes each pair's game and writes it into both
//! rows in one transaction, so a request is in at most one game. Its `NOTIFY` tells the nodes
//! of the rows (delivered on commit, never for a round rolled back).

use sqlx::postgres::PgRow;
use sqlx::{FromRow, PgPool, Postgres, Row, Transaction};

use crate::store::postgres::LeaseHolder;
use crate::store::postgres::leases::NOW_MS;
use crate::store::{EventRow, GameRow, StoreError};

/// A request in the queue.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueRow {
    /// Its id (given by the database).
    pub id: i64,
    /// The node holding the client's socket.
    pub node: String,
    /// The pool's key.
    pub pool: String,
    /// A rated game.
    pub rated: bool,
    /// The guests' queue.
    pub guests: bool,
    /// The player's rating in the pool (`None`: a guest).
    pub rating: Option<f64>,
    /// The player's account, if any.
    pub account: Option<String>,
    /// The name shown.
    pub name: String,
    /// When the request came (the database's clock, ms).
    pub since_ms: i64,
}

/// A paired request, for its node to tell its client.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedRow {
    /// The request.
    pub id: i64,
    /// The game made.
    pub game: String,
    /// The request's seat (1 or 2).
    pub seat: i16,
    /// Its seat token.
    pub token: String,
}

impl FromRow<'_, PgRow> for QueueRow {
    fn from_row(row: &PgRow) -> Result<Self, sqlx::Error> {
        Ok(QueueRow {
            id: row.try_get("id")?,
            node: row.try_get("node")?,
            pool: row.try_get("pool")?,
            rated: row.try_get("rated")?,
            guests: row.try_get("guests")?,
            rating: row.try_get("rating")?,
            account: row.try_get("account")?,
            name: row.try_get("name")?,
            since_ms: row.try_get("since_ms")?,
        })
    }
}

impl FromRow<'_, PgRow> for PairedRow {
    fn from_row(row: &PgRow) -> Result<Self, sqlx::Error> {
        Ok(PairedRow {
            id: row.try_get("id")?,
            game: row.try_get("game")?,
            seat: row.try_get("seat")?,
            token: row.try_get("token")?,
        })
    }
}

/// Puts `request` in the queue (its `id` and `since_ms` are given by the database) for
/// `ttl_ms` unless renewed. Returns its id and since when it waits, or `None` when its
/// account already waits in that queue (a request of a node that stopped no longer counts).
pub async fn enqueue(
    pool: &PgPool,
    request: &QueueRow,
    ttl_ms: i64,
) -> Result<Option<(i64, i64)>, StoreError> {
    let mut tx = pool.begin().await?;
    if let Some(account) = &request.account {
        sqlx::query(&format!(
            "DELETE FROM pairing_queue WHERE account = $1 AND expires_ms <= {NOW_MS}"
        ))
        .bind(account)
        .execute(&mut *tx)
        .await?;
    }
    let row: Option<(i64, i64)> = sqlx::query_as(&format!(
        "INSERT INTO pairing_queue (node, pool, rated, guests, rating, account, name, since_ms, \
         expires_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, {NOW_MS}, {NOW_MS} + $8) \
         ON CONFLICT DO NOTHING RETURNING id, since_ms"
    ))
    .bind(&request.node)
    .bind(&request.pool)
    .bind(request.rated)
    .bind(request.guests)
    .bind(request.rating)
    .bind(&request.account)
    .bind(&request.name)
    .bind(ttl_ms)
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(row)
}

/// Renews `node`'s requests `ids` for `ttl_ms`; returns those still in the queue.
pub async fn keep(
    pool: &PgPool,
    node: &str,
    ids: &[i64],
    ttl_ms: i64,
) -> Result<Vec<i64>, StoreError> {
    let kept = sqlx::query_scalar(&format!(
        "UPDATE pairing_queue SET expires_ms = {NOW_MS} + $3 \
         WHERE node = $1 AND id = ANY($2) RETURNING id"
    ))
    .bind(node)
    .bind(ids)
    .bind(ttl_ms)
    .fetch_all(pool)
    .await?;
    Ok(kept)
}

/// Takes request `id` out of the queue (its client left).
pub async fn withdraw(pool: &PgPool, id: i64) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM pairing_queue WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Deletes the requests nobody renewed (their node stopped); returns how many.
pub async fn sweep(pool: &PgPool) -> Result<u64, StoreError> {
    let done = sqlx::query(&format!(
        "DELETE FROM pairing_queue WHERE expires_ms <= {NOW_MS}"
    ))
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// How many wait in each queue that has anyone: (pool, rated, guests, count).
pub async fn counts(pool: &PgPool) -> Result<Vec<(String, bool, bool, i64)>, StoreError> {
    let rows = sqlx::query_as(&format!(
        "SELECT pool, rated, guests, COUNT(*) FROM pairing_queue \
         WHERE game IS NULL AND expires_ms > {NOW_MS} \
         GROUP BY pool, rated, guests ORDER BY pool, rated, guests"
    ))
    .fetch_all(pool)
    .await?;
    Ok(rows)
}

/// Takes out of the queue `node`'s requests among `ids` that were paired, for the node to
/// tell their clients.
pub async fn take_paired(
    pool: &PgPool,
    node: &str,
    ids: &[i64],
) -> Result<Vec<PairedRow>, StoreError> {
    let rows = sqlx::query_as(
        "DELETE FROM pairing_queue WHERE node = $1 AND id = ANY($2) AND game IS NOT NULL \
         RETURNING id, game, seat, token",
    )
    .bind(node)
    .bind(ids)
    .fetch_all(pool)
    .await?;
    Ok(rows)
}

/// A pairing round: the waiting requests it locked, in one transaction until
/// [`Round::commit`] (dropped, it rolls back and pairs nobody).
pub struct Round {
    tx: Transaction<'static, Postgres>,
    lease: LeaseHolder,
    /// The database's clock when the round began (ms).
    pub now_ms: i64,
    /// The requests this round may pair (locked by it), longest waiting first.
    pub waiting: Vec<QueueRow>,
    /// The nodes whose requests it paired.
    told: std::collections::BTreeSet<String>,
}

/// Begins a round for the node `lease` names: locks the unexpired unpaired requests no other
/// round holds.
pub async fn round(pool: &PgPool, lease: &LeaseHolder) -> Result<Round, StoreError> {
    let mut tx = pool.begin().await?;
    let now_ms: i64 = sqlx::query_scalar(&format!("SELECT {NOW_MS}"))
        .fetch_one(&mut *tx)
        .await?;
    let waiting = sqlx::query_as(
        "SELECT id, node, pool, rated, guests, rating, account, name, since_ms \
         FROM pairing_queue WHERE game IS NULL AND expires_ms > $1 \
         ORDER BY since_ms, id FOR UPDATE SKIP LOCKED",
    )
    .bind(now_ms)
    .fetch_all(&mut *tx)
    .await?;
    Ok(Round {
        tx,
        lease: lease.clone(),
        now_ms,
        waiting,
        told: Default::default(),
    })
}

impl Round {
    /// Stores the game of a pair (`game` and its first events, leased to this node) and writes
    /// it into both requests: `seats[0]` is the request in seat 1, `seats[1]` in seat 2.
    pub async fn pair(
        &mut self,
        game: &GameRow,
        events: &[EventRow],
        seats: [i64; 2],
    ) -> Result<(), StoreError> {
        crate::store::postgres::games::create_game_in(
            &mut self.tx,
            game,
            events,
            Some(&self.lease),
        )
        .await?;
        for (i, id) in seats.into_iter().enumerate() {
            let node: Option<String> = sqlx::query_scalar(
                "UPDATE pairing_queue SET game = $2, seat = $3, token = $4 \
                 WHERE id = $1 AND game IS NULL RETURNING node",
            )
            .bind(id)
            .bind(&game.id)
            .bind(i as i16 + 1)
            .bind(game.tokens[i].as_deref().unwrap_or_default())
            .fetch_optional(&mut *self.tx)
            .await?;
            // Locked by this round, the row cannot have gone; if it did, nothing is kept.
            let node = node.ok_or_else(|| {
                StoreError::NotFound(format!("pairing request {id} (paired elsewhere?)"))
            })?;
            self.told.insert(node);
        }
        Ok(())
    }

    /// Commits the round; the nodes of the requests paired are told on `channel` (their
    /// node's id as payload), except this one, which tells its own clients at once.
    pub async fn commit(mut self, channel: &str) -> Result<(), StoreError> {
        for node in self.told.iter().filter(|n| **n != *self.lease.node) {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(node)
                .execute(&mut *self.tx)
                .await?;
        }
        self.tx.commit().await?;
        Ok(())
    }
}
