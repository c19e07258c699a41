//! Several nodes on one PostgreSQL database (docs/server.md, "Several nodes"): every
//! `zertz serve --db postgres://…` is a node of one service.
//!
//! - `leases`: each unfinished game in memory is leased to one node, renewed while the node
//!   lives; a node that dies loses its games to the others, which load them from the event log
//!   as a restart does.
//! - `own`: the hub's side of it (a game is loaded under a lease; a lost one leaves memory).
//! - `proxy`: a request for a game another node holds is passed to that node (HTTP and
//!   WebSocket), so any node answers any request.
//! - `notify`: what one node keeps in memory and the others must see (accounts online, a
//!   request paired, a match's step), by `LISTEN`/`NOTIFY`.
//!
//! Quick pairing's shared queue is `pairing::shared` (a table, paired in a transaction).
//!
//! On SQLite there is no cluster: one process holds every game.


use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;

use crate::store::{LeaseHolder, PostgresStore};

/// This node's place among the nodes sharing a database.
#[derive(Debug)]
pub struct Cluster {
    pool: PgPool,
    holder: LeaseHolder,
    /// Where the other nodes reach this one (`host:port`).
    addr: String,
    /// How long a lease lasts unless renewed.
    ttl: Duration,
    /// The HTTP client passing requests to other nodes.
    client: crate::app::proxy::Client,
}

impl Cluster {
    /// The node whose store is `store` (made [`PostgresStore::with_leases`]), reached by the
    /// other nodes at `addr`; `None` for a store without leases.
    pub fn of(store: &PostgresStore, addr: String) -> Option<Arc<Cluster>> {
        let holder = store.lease_holder()?.clone();
        Some(Cluster::new(store.pool().clone(), holder, addr))
    }

    fn new(pool: PgPool, holder: LeaseHolder, addr: String) -> Arc<Cluster> {
        let ttl = Duration::from_millis(holder.ttl_ms.max(1) as u64);
        Arc::new(Cluster {
            pool,
            holder,
            addr,
            ttl,
            client: crate::app::proxy::Client::new(),
        })
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.holder.node
    }

    /// The database the nodes share.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Where the other nodes reach this one.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// This node's lease holder (its id and how long a lease lasts).
    pub fn holder(&self) -> &LeaseHolder {
        &self.holder
    }

    /// How long a lease lasts unless renewed.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The HTTP client passing requests to other nodes.
    pub(crate) fn client(&self) -> &crate::app::proxy::Client {
        &self.client
    }
}

/// The node id of a server not given one (`zertz serve --node`): a single node restarted
/// takes back its own leases at once instead of waiting for them to run out. Nodes sharing a
/// database must each be given an id of their own (two processes under one id would both
/// pass the lease check; the version check still keeps them from writing one version twice).
pub const DEFAULT_NODE: &str = "default";

/// What a request for `game` is told while another node holds it.
pub(crate) fn moved(game: &str) -> String {
    format!("game {game} is being played on another node of this service: ask again shortly")
}
