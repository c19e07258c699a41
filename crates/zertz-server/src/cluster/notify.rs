//! What lives in one node's memory and must be seen by the others, carried by PostgreSQL's
//! `LISTEN`/`NOTIFY`: one channel per kind, payloads are ids (never state), and a node that
//! is told re-reads from the database what it needs.
//!
//! - `zertz_online`: an account heard from on a node (its id); the others read its name and
//!   count it online (`accounts::online`).

use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;

use crate::accounts::Accounts;
use crate::store::Store;

/// The channel of accounts heard from.
pub const ONLINE: &str = "zertz_online";

/// Starts announcing this node's accounts online and hearing the other nodes' ones.
pub fn start_online(pool: PgPool, store: Arc<dyn Store>, accounts: &Arc<Accounts>) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    accounts.online.announce_to(tx);
    let announcer = pool.clone();
    tokio::spawn(async move {
        while let Some(id) = rx.recv().await {
            let sent = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(ONLINE)
                .bind(&id)
                .execute(&announcer)
                .await;
            if let Err(e) = sent {
                tracing::warn!("could not announce an account online to the other nodes: {e}");
            }
        }
    });
    let accounts = Arc::downgrade(accounts);
    tokio::spawn(async move {
        loop {
            if let Err(e) = listen_online(&pool, &*store, &accounts).await {
                tracing::warn!("listening to {ONLINE} stopped ({e}); again in a second");
            }
            if accounts.strong_count() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
}

/// Hears accounts online on other nodes until the connection fails or the service ends.
async fn listen_online(
    pool: &PgPool,
    store: &dyn Store,
    accounts: &std::sync::Weak<Accounts>,
) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(ONLINE).await?;
    loop {
        let told = listener.recv().await?;
        let Some(accounts) = accounts.upgrade() else {
            return Ok(());
        };
        let id = told.payload().to_string();
        match store.accounts_by_id(std::slice::from_ref(&id)).await {
            Ok(rows) => {
                for row in rows {
                    accounts.online.heard_elsewhere(&row.id, &row.name);
                }
            }
            Err(e) => tracing::warn!("account {id} announced online, not read: {e}"),
        }
    }
}
