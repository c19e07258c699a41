//! Several nodes on one PostgreSQL database (docs/server.md, "Several nodes"): every
//! `zertz serve --db postgres://…` is a node of one service.
//!
//! - `leases`: each unfinished game in memory is leased to one node, renewed while the node
//!   lives (by a heartbeat on a connection of its own, `Cluster::beat_pool`, never queued
//!   behind the moves); a node that dies loses its games to the others, which load them from
//!   the event log as a restart does.
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
use sqlx::postgres::PgPoolOptions;

use crate::store::{LeaseHolder, PostgresStore};

/// This node's place among the nodes sharing a database.
#[derive(Debug)]
pub struct Cluster {
    pool: PgPool,
    /// The heartbeat's own connection (a pool of one, connected when first used and again
    /// after a failure), so that the beat never queues behind the moves on `pool`.
    beat: PgPool,
    holder: LeaseHolder,
    /// Where the other nodes reach this one (`host:port`).
    addr: String,
    /// How long a lease lasts unless renewed.
    ttl: Duration,
    /// The HTTP client passing requests to other nodes.
    client: Client,
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
        // Named, so that it can be told apart in `pg_stat_activity`.
        let options = (*pool.connect_options())
            .clone()
            .application_name(&format!("zertz heartbeat {}", holder.node));
        let beat = PgPoolOptions::new()
            .max_connections(1)
            // A beat that cannot connect within a lease is too late anyway.
            .acquire_timeout(ttl)
            .connect_lazy_with(options);
        Arc::new(Cluster {
            pool,
            beat,
            holder,
            addr,
            ttl,
            client: Client::new(),
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

    /// The heartbeat's own connection: used by nothing else but the read of the leases still
    /// held after a lapse (`games::leases`).
    pub fn beat_pool(&self) -> &PgPool {
        &self.beat
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
    pub(crate) fn client(&self) -> &Client {
        &self.client
    }
}

// What one node keeps in memory and the others must see is carried by PostgreSQL's
// `LISTEN`/`NOTIFY` on these channels (the hearing side is `app::notify`).

/// The channel of accounts heard from.
pub const ONLINE: &str = "zertz_online";
/// The channel of nodes whose quick-pairing requests were paired.
pub const PAIRING: &str = "zertz_pairing";
/// The channel of matches changed.
pub const MATCH: &str = "zertz_match";

/// Sends `payload` on `channel`.
pub(crate) async fn notify(pool: &PgPool, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(channel)
        .bind(payload)
        .execute(pool)
        .await?;
    Ok(())
}

impl Cluster {
    /// Tells the other nodes that match `id` changed (after it was stored), in the background.
    pub fn announce_match(&self, id: &str) {
        let pool = self.pool.clone();
        let payload = format!("{id} {}", self.node());
        tokio::spawn(async move {
            if let Err(e) = notify(&pool, MATCH, &payload).await {
                tracing::warn!("could not announce a match's change to the other nodes: {e}");
            }
        });
    }
}

/// What a request for `game` is told while another node holds it.
pub(crate) fn moved(game: &str) -> String {
    format!("game {game} is being played on another node of this service: ask again shortly")
}

/// The HTTP client passing requests to other nodes.
#[derive(Debug)]
pub struct Client {
    http: reqwest::Client,
}

impl Default for Client {
    fn default() -> Client {
        Client::new()
    }
}

impl Client {
    /// The HTTP client itself.
    pub(crate) fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// A client (no redirects followed: the answer goes back as it is).
    pub fn new() -> Client {
        Client {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .connect_timeout(std::time::Duration::from_secs(2))
                .build()
                .unwrap_or_default(),
        }
    }
}
