//! What lives in one node's memory and must be seen by the others, carried by PostgreSQL's
//! `LISTEN`/`NOTIFY`: one channel per kind, payloads are ids (never state), and a node that
//! is told re-reads from the database what it needs. One listening connection per node hears
//! every channel.
//!
//! - `zertz_online`: an account heard from on a node (its id); the others read its name and
//!   count it online (`accounts::online`).
//! - `zertz_pairing`: requests of a node were paired (the node's id, sent by the pairing
//!   round's commit, see `pairing::shared`); that node takes them from the queue and tells its
//!   clients.
//! - `zertz_match`: a match's step was stored (`MATCH_ID NODE`); the other nodes re-read the
//!   match and send it to their watchers of it (`games::matches`).

use std::sync::{Arc, Weak};
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;

use crate::accounts::Accounts;
use crate::app::store::Store;
use crate::cluster::{MATCH, ONLINE, PAIRING, notify};
use crate::games::hub::Hub;
use crate::pairing::Pairing;

/// What a node hears about, held weakly: listening ends with the service.
pub struct Hearers {
    /// The store the accounts are read from.
    pub store: Arc<dyn Store>,
    /// Who is online.
    pub accounts: Weak<Accounts>,
    /// The games and matches.
    pub hub: Weak<Hub>,
    /// Quick pairing.
    pub pairing: Weak<Pairing>,
}

/// Starts announcing this node's accounts online, and hearing the other nodes on every
/// channel.
pub fn start(pool: PgPool, accounts: &Arc<Accounts>, hearers: Hearers) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    accounts.online.announce_to(tx);
    let announcer = pool.clone();
    tokio::spawn(async move {
        while let Some(id) = rx.recv().await {
            if let Err(e) = notify(&announcer, ONLINE, &id).await {
                tracing::warn!("could not announce an account online to the other nodes: {e}");
            }
        }
    });
    tokio::spawn(async move {
        loop {
            if let Err(e) = listen(&pool, &hearers).await {
                tracing::warn!("listening to the other nodes stopped ({e}); again in a second");
            }
            if hearers.accounts.strong_count() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
}

/// Hears the other nodes until the connection fails or the service ends.
async fn listen(pool: &PgPool, hearers: &Hearers) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen_all([ONLINE, PAIRING, MATCH]).await?;
    // Paired requests told while the connection was down are found by the pairing's next
    // round (twice a second); a match's step then waits for the next one.
    loop {
        let told = listener.recv().await?;
        if hearers.accounts.strong_count() == 0 {
            return Ok(());
        }
        let payload = told.payload();
        match told.channel() {
            ONLINE => online(hearers, payload).await,
            PAIRING => {
                if let Some(pairing) = hearers.pairing.upgrade() {
                    pairing.heard_paired(payload).await;
                }
            }
            MATCH => {
                let (id, node) = payload.split_once(' ').unwrap_or((payload, ""));
                if let Some(hub) = hearers.hub.upgrade()
                    && hub.cluster().is_some_and(|c| c.node() != node)
                {
                    hub.match_stored_elsewhere(id).await;
                }
            }
            _ => {}
        }
    }
}

/// Account `id` is online on another node.
async fn online(hearers: &Hearers, id: &str) {
    let Some(accounts) = hearers.accounts.upgrade() else {
        return;
    };
    match hearers.store.accounts_by_id(&[id.to_string()]).await {
        Ok(rows) => {
            for row in rows {
                accounts.online.heard_elsewhere(&row.id, &row.name);
            }
        }
        Err(e) => tracing::warn!("account {id} announced online, not read: {e}"),
    }
}
