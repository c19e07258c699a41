//! The PostgreSQL backend, by URL.
//!
//! Appends lock their game's row (`SELECT … FOR UPDATE`) before they read the last version,
//! so appends to one game take turns and the version check is exact; appends to different
//! games run side by side. The (game, version) primary key stays the last word: a writer that
//! still collides gets a conflict, never a second event with the same version. Moves (appends
//! that change the turns alone) are stored many games at a time, one statement per batch
//! (`appends`), with the same locks and checks. Reads of a whole game run in one
//! `REPEATABLE READ` transaction, so the row and the events agree.

use crate::store::game_end::RatingPolicy;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use crate::store::StoreError;

pub(crate) mod appends;
pub(crate) mod game_end;
pub(crate) mod games;
pub(crate) mod leases;
pub(crate) mod sql;

/// Games and events for the PostgreSQL tests of this folder.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::store::{EventRow, GameRow};

    /// A game of `status`, nobody seated.
    pub(crate) fn game(id: &str, status: &str) -> GameRow {
        GameRow {
            id: id.into(),
            match_id: None,
            created_ms: 1,
            settings: "{}".into(),
            tokens: [None, None],
            invites: [None, None],
            lobby: false,
            accounts: [None, None],
            names: [None, None],
            board: "37".into(),
            rules: "standard".into(),
            status: status.into(),
            result: None,
            updated_ms: 1,
        }
    }

    /// The event of `version` (its time and payload follow from it).
    pub(crate) fn event(version: i64) -> EventRow {
        EventRow {
            version,
            at_ms: 100 + version,
            payload: format!("{{\"v\":{version}}}"),
        }
    }
}

/// How long a request waits for a free connection before it gives up.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections in the pool.
const MAX_CONNECTIONS: u32 = 8;

/// Games and matches in a PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: PgPool,
    /// With several nodes: the lease an append must hold (none for a store used alone).
    lease: Option<LeaseHolder>,
    /// Who a finished game rates (see `store::game_end`).
    rating: RatingPolicy,
    /// The queue of moves stored many games at a time (`appends`).
    appender: Arc<appends::Appender>,
}

pub use leases::LeaseHolder;
pub(crate) use leases::{
    acquire, heartbeat, orphans, owner, still_held, sweep_leases, sweep_nodes,
};

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) and
    /// brings its schema up to date. The database must exist; the migrations create the tables.
    pub async fn open(url: &str, rating: RatingPolicy) -> Result<PostgresStore, StoreError> {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options.clone())
            .await?;
        super::migrations::postgres(None).await?.run(&pool).await?;
        let appender = Arc::new(appends::Appender::start(&options, pool.clone(), rating));
        Ok(PostgresStore {
            pool,
            lease: None,
            rating,
            appender,
        })
    }

    /// The same store as a node among several: every append must hold its game's lease for
    /// `holder`, and the games it creates are leased to it.
    pub fn with_leases(mut self, holder: LeaseHolder) -> PostgresStore {
        self.lease = Some(holder);
        self
    }

    /// The lease this store's appends hold, if it is a node among several.
    pub fn lease_holder(&self) -> Option<&LeaseHolder> {
        self.lease.as_ref()
    }

    /// Closes every connection, waiting for the moves queued to be stored (at most 10 s) and
    /// for the connections in use to come back.
    pub async fn close(&self) {
        self.appender.close(Duration::from_secs(10)).await;
        self.pool.close().await;
    }
}

impl PostgresStore {
    /// The connection pool.
    pub(crate) fn pool(&self) -> &PgPool {
        &self.pool
    }
}
