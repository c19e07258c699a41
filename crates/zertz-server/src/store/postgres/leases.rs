//! Game leases and the nodes that hold them (several nodes on one PostgreSQL database,
//! docs/server.md "Several nodes"). Times are the database's clock in ms (`NOW_MS`), so that
//! the nodes' own clocks never decide who owns a game.
//!
//! A lease is a row `(game, node, expires_ms)`, and it holds while **either** its own
//! `expires_ms` **or** its node's (`nodes.expires_ms`, pushed forward by the node's heartbeat
//! several times per lease) is in the future. So a node keeps all its games with one `UPDATE`
//! of its own row per round, however many it holds; a game's own expiry only covers the moment
//! it is taken, before the node's next heartbeat (and nodes that never beat, as in the race
//! test, hold a game just that long). Taking a lease is a single upsert that succeeds only when
//! the row is missing, not held, or already the taker's; an append locks the row (`FOR SHARE`)
//! and checks that it is the writer's and held, in the append's own transaction. A node taking
//! over therefore waits for an append in flight to commit, and reads the log after it: an
//! acknowledged move is never lost, and a node whose lease ran out can no longer write.

use std::sync::Arc;

use sqlx::PgPool;

use crate::store::StoreError;
use crate::store::sql::{Statement, args};

/// The database's clock, in ms since the epoch.
pub(crate) const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// Whether the lease row `l` holds now: its own expiry or its node's is in the future.
pub(crate) fn held(l: &str) -> String {
    format!(
        "({l}.expires_ms > {NOW_MS} OR EXISTS (SELECT 1 FROM nodes n \
         WHERE n.id = {l}.node AND n.expires_ms > {NOW_MS}))"
    )
}

/// Who writes: the node whose lease an append must hold, and how long a lease it takes.
#[derive(Clone, Debug)]
pub struct LeaseHolder {
    /// The node's id (unique per process).
    pub node: Arc<str>,
    /// How long a lease lasts unless renewed, in ms.
    pub ttl_ms: i64,
}

/// Checks, inside an append's transaction, that `holder` holds `game`'s lease, and reads the
/// game's last version (0 for none) in the same round trip; the lease row stays locked against
/// a takeover until the transaction ends.
pub(crate) async fn check_in(
    conn: &mut sqlx::PgConnection,
    game: &str,
    holder: &LeaseHolder,
) -> Result<i64, StoreError> {
    // Only the lease row is locked: the node's heartbeat must not wait for appends. The caller
    // has locked the game's row before, so this statement's snapshot sees every append before.
    let (held, last): (Option<bool>, i64) = sqlx::query_as(&format!(
        "SELECT (SELECT l.node = $2 AND {} FROM game_leases l WHERE l.game_id = $1 \
         FOR SHARE OF l), \
         (SELECT COALESCE(MAX(version), 0) FROM game_events WHERE game_id = $1)",
        held("l")
    ))
    .bind(game)
    .bind(holder.node.as_ref())
    .fetch_one(&mut *conn)
    .await?;
    match held {
        Some(true) => Ok(last),
        _ => Err(StoreError::NotOwner(game.to_string())),
    }
}

/// The statement that gives a game created in the same transaction to `holder`.
pub(crate) fn grant(game: &str, holder: &LeaseHolder) -> Statement {
    Statement::new(
        format!("INSERT INTO game_leases (game_id, node, expires_ms) VALUES (?, ?, {NOW_MS} + ?)"),
        args![game, holder.node.as_ref(), holder.ttl_ms],
    )
}

/// Takes (or renews) `game`'s lease for `holder` unless another node holds it unexpired.
/// Returns whether `holder` holds it now.
pub async fn acquire(pool: &PgPool, game: &str, holder: &LeaseHolder) -> Result<bool, StoreError> {
    let got: Option<String> = sqlx::query_scalar(&format!(
        "INSERT INTO game_leases (game_id, node, expires_ms) VALUES ($1, $2, {NOW_MS} + $3) \
         ON CONFLICT (game_id) DO UPDATE SET node = excluded.node, \
         expires_ms = excluded.expires_ms \
         WHERE game_leases.node = excluded.node OR NOT {} \
         RETURNING node",
        held("game_leases")
    ))
    .bind(game)
    .bind(holder.node.as_ref())
    .bind(holder.ttl_ms)
    .fetch_optional(pool)
    .await?;
    Ok(got.is_some())
}

/// The node holding `game`'s unexpired lease, with its address (`None` when nobody does).
pub async fn owner(pool: &PgPool, game: &str) -> Result<Option<(String, String)>, StoreError> {
    let row: Option<(String, String)> = sqlx::query_as(&format!(
        "SELECT l.node, n.addr FROM game_leases l JOIN nodes n ON n.id = l.node \
         WHERE l.game_id = $1 AND {}",
        held("l")
    ))
    .bind(game)
    .fetch_optional(pool)
    .await?;
    Ok(row)
}

/// Which of `games` (the unfinished games `holder` has in memory) are still leased to it: a
/// read, asked only after the node's heartbeat lapsed (see [`heartbeat`]), since no other
/// node can take a game while its holder beats.
pub async fn still_held(
    pool: &PgPool,
    holder: &LeaseHolder,
    games: &[String],
) -> Result<Vec<String>, StoreError> {
    let held: Vec<String> =
        sqlx::query_scalar("SELECT game_id FROM game_leases WHERE node = $1 AND game_id = ANY($2)")
            .bind(holder.node.as_ref())
            .bind(games)
            .fetch_all(pool)
            .await?;
    Ok(held)
}

/// Deletes the lease rows of games finished more than `after_ms` ago that are `holder`'s or
/// that nobody holds (their node died, and would otherwise keep them until it came back).
/// Not at the end itself: a match's next step still appends to the game that ended, under its
/// lease. A row nobody holds can go at any time: taking a lease treats a missing row and a
/// lapsed one alike, and an append needs a held row either way.
pub async fn sweep_leases(
    pool: &PgPool,
    holder: &LeaseHolder,
    after_ms: i64,
) -> Result<u64, StoreError> {
    let done = sqlx::query(&format!(
        "DELETE FROM game_leases l USING games g WHERE g.id = l.game_id \
         AND g.status = 'finished' AND g.updated_ms < {NOW_MS} - $2 \
         AND (l.node = $1 OR NOT {})",
        held("l")
    ))
    .bind(holder.node.as_ref())
    .bind(after_ms)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// Deletes the nodes unheard of for a hundred of `holder`'s leases that hold no lease row.
pub async fn sweep_nodes(pool: &PgPool, holder: &LeaseHolder) -> Result<u64, StoreError> {
    let done = sqlx::query(&format!(
        "DELETE FROM nodes WHERE seen_ms < {NOW_MS} - 100 * $1 \
         AND NOT EXISTS (SELECT 1 FROM game_leases l WHERE l.node = nodes.id)"
    ))
    .bind(holder.ttl_ms)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// Says that node `holder` lives and is reached at `addr` (`host:port`), and holds every lease
/// it has for another lease's time: one statement, on the node's own connection
/// (`Cluster::beat_pool`), never queued behind the moves. Returns whether it had **lapsed** before this beat (its
/// leases no longer held, or it never beat): then another node may have taken some of its
/// games, and [`still_held`] says which are left.
pub async fn heartbeat(
    pool: &PgPool,
    holder: &LeaseHolder,
    addr: &str,
) -> Result<bool, StoreError> {
    // The old expiry is read in the same statement; only this node writes its row.
    let was_held: Option<bool> = sqlx::query_scalar(&format!(
        "WITH old AS (SELECT expires_ms FROM nodes WHERE id = $1) \
         INSERT INTO nodes (id, addr, seen_ms, expires_ms) \
         VALUES ($1, $2, {NOW_MS}, {NOW_MS} + $3) \
         ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen_ms = excluded.seen_ms, \
         expires_ms = excluded.expires_ms \
         RETURNING (SELECT expires_ms FROM old) > seen_ms"
    ))
    .bind(holder.node.as_ref())
    .bind(addr)
    .bind(holder.ttl_ms)
    .fetch_one(pool)
    .await?;
    Ok(was_held != Some(true))
}

/// Games being played whose lease nobody holds (their node died): at most
/// `limit` of them, for a node to take.
///
/// The same test as [`held`], written as joins: the nodes alive are joined once, rather than
/// looked up for each game being played, and the clock is read once, not once per row. With
/// [`held`] in the condition PostgreSQL ran its subquery for every live game: with 2,995 games
/// being played and every lease held (the usual answer, none), `EXPLAIN ANALYZE` took 16–24 ms,
/// now 3.6–4.4 ms; each node asks every third of a lease, and in the overload run of
/// docs/server.md these queries took 8% of PostgreSQL's time (39 ms on average).
pub async fn orphans(pool: &PgPool, limit: i64) -> Result<Vec<String>, StoreError> {
    let ids: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id \
         LEFT JOIN nodes n ON n.id = l.node AND n.expires_ms > (SELECT {NOW_MS}) \
         WHERE g.status = 'live' \
         AND (l.game_id IS NULL OR (l.expires_ms <= (SELECT {NOW_MS}) AND n.id IS NULL)) \
         ORDER BY g.updated_ms LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(ids)
}
