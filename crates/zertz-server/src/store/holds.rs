//! The places clients hold under their quotas, and the games they aborted, kept in the
//! database (tables `quota_holds` and `quota_aborts`) so that every node of a cluster counts
//! the same and a restart forgets nothing (issue 39, item 8; the policy is
//! `games::quota`). Written once for both databases.

use async_trait::async_trait;

use crate::store::StoreError;
use crate::store::sql::{Dialect, Row, Sql, Statement, args, placeholders};

/// While a game or match held under a quota still counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountsWhile {
    /// Until it is finished (a game against the engine).
    NotFinished,
    /// While it is open, nobody having taken it (a seek, an invitation).
    Open,
}

impl CountsWhile {
    /// How it is stored (`quota_holds.counts`).
    fn word(self) -> &'static str {
        match self {
            CountsWhile::NotFinished => "unfinished",
            CountsWhile::Open => "open",
        }
    }
}

/// The rows of `quota_holds` that no longer count at the time bound to the one placeholder: a
/// request past its time, a game or match gone or no longer in the state it counts in.
const GONE: &str = "NOT ( \
     (kind = 'request' AND until_ms > ?) \
     OR (kind = 'game' AND EXISTS (SELECT 1 FROM games g WHERE g.id = quota_holds.hold \
         AND (g.status = 'open' OR (quota_holds.counts = 'unfinished' \
              AND g.status <> 'finished')))) \
     OR (kind = 'match' AND EXISTS (SELECT 1 FROM matches m WHERE m.id = quota_holds.hold \
         AND (m.status = 'open' OR (quota_holds.counts = 'unfinished' \
              AND m.status <> 'finished')))))";

/// What holds a place from now on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder<'a> {
    /// A game, by id.
    Game(&'a str),
    /// A match, by id.
    Match(&'a str),
}

/// A place that a client, or its address, has no room for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Full {
    /// The key that is full.
    pub key: String,
    /// How many places it holds.
    pub held: i64,
}

/// The quotas' storage.
#[async_trait]
pub trait HoldStore: Send + Sync {
    /// Takes a place named `request` under each of `places` (a key and its limit) if every one
    /// has room, all or none, as every node on this database sees it: the places whose game or
    /// match no longer counts (`counts`) and requests past their `until_ms` are let go first.
    /// The request's places count until `until_ms` unless [`HoldStore::keep_hold`] names what
    /// holds them. `Ok(Err(full))` names the first key without room.
    async fn take_hold(
        &self,
        places: &[(String, i64)],
        request: &str,
        counts: CountsWhile,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Result<(), Full>, StoreError>;

    /// The places of `request` under `keys` are held by `holder` from now on.
    async fn keep_hold(
        &self,
        keys: &[String],
        request: &str,
        holder: Holder<'_>,
    ) -> Result<(), StoreError>;

    /// The places of `request` under `keys` count until `until_ms` now.
    async fn renew_hold(
        &self,
        keys: &[String],
        request: &str,
        until_ms: i64,
    ) -> Result<(), StoreError>;

    /// Gives the places of `request` under `keys` back.
    async fn drop_hold(&self, keys: &[String], request: &str) -> Result<(), StoreError>;

    /// Records an abort at `at_ms` under each of `keys`, and forgets those before `since_ms`
    /// (of every key).
    async fn record_abort(
        &self,
        keys: &[String],
        at_ms: i64,
        since_ms: i64,
    ) -> Result<(), StoreError>;

    /// Deletes every place that no longer counts at `now_ms`, whoever holds it (what
    /// [`HoldStore::take_hold`] does for the keys it is given); returns how many.
    async fn sweep_holds(&self, now_ms: i64) -> Result<u64, StoreError>;

    /// The aborts under each of `keys` at or after `since_ms`, as (key, at_ms).
    async fn aborts_since(
        &self,
        keys: &[String],
        since_ms: i64,
    ) -> Result<Vec<(String, i64)>, StoreError>;
}

#[async_trait]
impl<S: Sql> HoldStore for S {
    async fn take_hold(
        &self,
        places: &[(String, i64)],
        request: &str,
        counts: CountsWhile,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Result<(), Full>, StoreError> {
        let mut statements = Vec::new();
        if S::DIALECT == Dialect::Postgres {
            // Two nodes taking a place under one key wait for each other here, so that each
            // counts what the other took (SQLite's one writer does this by itself). In the
            // order of the keys, so that two requests never wait for each other in a circle.
            let mut keys: Vec<&str> = places.iter().map(|(k, _)| k.as_str()).collect();
            keys.sort_unstable();
            for key in keys {
                statements.push(Statement::new(
                    "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
                    args![key],
                ));
            }
        }
        for (key, limit) in places {
            statements.push(Statement::new(
                format!("DELETE FROM quota_holds WHERE key = ? AND {GONE}"),
                args![key, now_ms],
            ));
            statements.push(
                Statement::new(
                    "INSERT INTO quota_holds (key, hold, kind, counts, until_ms) \
                     SELECT ?, ?, 'request', ?, ? \
                     WHERE (SELECT COUNT(*) FROM quota_holds WHERE key = ?) < ?",
                    args![key, request, counts.word(), until_ms, key, *limit],
                )
                .must_change(key.clone()),
            );
        }
        match self.write(statements).await {
            Ok(_) => Ok(Ok(())),
            Err(StoreError::NotFound(key)) if places.iter().any(|(k, _)| *k == key) => {
                let row = self
                    .fetch_optional(
                        "SELECT COUNT(*) AS held FROM quota_holds WHERE key = ?",
                        args![&key],
                    )
                    .await?;
                let held = match row {
                    Some(row) => row.get("held")?,
                    None => 0,
                };
                Ok(Err(Full { key, held }))
            }
            Err(e) => Err(e),
        }
    }

    async fn keep_hold(
        &self,
        keys: &[String],
        request: &str,
        holder: Holder<'_>,
    ) -> Result<(), StoreError> {
        let (kind, id) = match holder {
            Holder::Game(id) => ("game", id),
            Holder::Match(id) => ("match", id),
        };
        let statements = keys
            .iter()
            .map(|key| {
                Statement::new(
                    "UPDATE quota_holds SET kind = ?, hold = ?, until_ms = ? \
                     WHERE key = ? AND hold = ? AND kind = 'request'",
                    args![kind, id, i64::MAX, key, request],
                )
            })
            .collect();
        self.write(statements).await.map(drop)
    }

    async fn renew_hold(
        &self,
        keys: &[String],
        request: &str,
        until_ms: i64,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "UPDATE quota_holds SET until_ms = ? \
             WHERE key IN ({}) AND hold = ? AND kind = 'request'",
            placeholders(keys.len())
        );
        let mut values = args![until_ms];
        values.extend(keys.iter().map(Into::into));
        values.push(request.into());
        self.execute(&sql, values).await.map(drop)
    }

    async fn drop_hold(&self, keys: &[String], request: &str) -> Result<(), StoreError> {
        let sql = format!(
            "DELETE FROM quota_holds WHERE key IN ({}) AND hold = ? AND kind = 'request'",
            placeholders(keys.len())
        );
        let mut values: Vec<_> = keys.iter().map(Into::into).collect();
        values.push(request.into());
        self.execute(&sql, values).await.map(drop)
    }

    async fn sweep_holds(&self, now_ms: i64) -> Result<u64, StoreError> {
        self.execute(
            &format!("DELETE FROM quota_holds WHERE {GONE}"),
            args![now_ms],
        )
        .await
    }

    async fn record_abort(
        &self,
        keys: &[String],
        at_ms: i64,
        since_ms: i64,
    ) -> Result<(), StoreError> {
        let mut statements = vec![Statement::new(
            "DELETE FROM quota_aborts WHERE at_ms < ?",
            args![since_ms],
        )];
        statements.extend(keys.iter().map(|key| {
            Statement::new(
                "INSERT INTO quota_aborts (key, at_ms) VALUES (?, ?)",
                args![key, at_ms],
            )
        }));
        self.write(statements).await.map(drop)
    }

    async fn aborts_since(
        &self,
        keys: &[String],
        since_ms: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT key, at_ms FROM quota_aborts WHERE key IN ({}) AND at_ms >= ?",
            placeholders(keys.len())
        );
        let mut values: Vec<_> = keys.iter().map(Into::into).collect();
        values.push(since_ms.into());
        let rows = self.fetch_all(&sql, values).await?;
        rows.iter()
            .map(|row| Ok((row.get("key")?, row.get("at_ms")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}
