//! The ZÈRTZ game server: games between people and against the engine over HTTP and
//! WebSocket, server-authoritative clocks, best-of-N matches with the house rules of the online
//! host (seed 004), and durable storage on SQLite or PostgreSQL.
//!
//! One folder per feature (`accounts`, `chat`, `explorer`, `lessons`, `pairing`, `puzzles`,
//! `ratings`, `study`, `tournaments`, `games`), each with its routes, service and storage; `app` composes
//! them; `http`, `store` and `cluster` are the machinery below; `config`, `util`, `rate`,
//! `token` and `fair_slots` import nothing of the features. Which folder may use which is the
//! table in docs/server.md ("Which folder may use which"), checked by `tests/layers.rs`; the
//! API is described there too.

#![warn(missing_docs)]

pub mod accounts;
pub mod app;
pub mod chat;
pub mod cluster;
pub mod config;
pub mod explorer;
pub mod fair_slots;
pub mod games;
pub mod http;
pub mod lessons;
pub mod pairing;
pub mod puzzles;
pub mod rate;
pub mod ratings;
pub mod store;
pub mod study;
pub mod token;
pub mod tournaments;
pub mod util;

use std::net::SocketAddr;

pub use config::Config;
pub use games::hub::Hub;
use http::limit::PerAddress;

pub use app::app;

/// Opens the store, brings unfinished games back, and serves the API on `addr` until the
/// process is asked to stop (SIGTERM or Ctrl-C: the store is closed first). `on_ready` is
/// called with the bound address once the server listens.
pub async fn serve(
    addr: SocketAddr,
    db: &str,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    serve_until(addr, db, config, on_ready, stop_signal()).await
}

/// [`serve`], stopped when `stop` completes (its output is the reason logged) instead of by a
/// signal: a server embedded in another program, or several in one test process.
pub async fn serve_until(
    addr: SocketAddr,
    db: &str,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
    stop: impl std::future::Future<Output = &'static str>,
) -> anyhow::Result<()> {
    // Bound first: a node of a cluster tells the others where it listens.
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let (app, hub) = app::build(db, config, Some(listener.local_addr()?)).await?;
    match http::connections::raise_open_file_limit() {
        Ok(files) => tracing::info!("open files: up to {files} (sockets included)"),
        Err(e) => tracing::warn!("the open-file limit could not be raised: {e}"),
    }
    on_ready(listener.local_addr()?);
    let app = app.layer(axum::middleware::from_fn_with_state(
        PerAddress::new(hub.config().http_rate),
        http::limit::by_address,
    ));
    tokio::select! {
        served = http::connections::serve(listener, app, hub.config().connections.clone()) => served?,
        reason = stop => {
            // What was acknowledged is stored already; closing finishes the writes under way
            // and leaves the database whole (on SQLite, every recent event folded), so the
            // next start has nothing to tidy. A store that does not close in time is left
            // to that next start.
            tracing::info!("{reason}: stopping; closing the store");
            let store = hub.store_handle();
            let asked = std::time::Instant::now();
            match tokio::time::timeout(STOP_WITHIN, store.close()).await {
                Ok(()) => tracing::info!("store closed in {} ms", asked.elapsed().as_millis()),
                Err(_) => {
                    tracing::warn!("the store did not close within {STOP_WITHIN:?}: stopping anyway")
                }
            }
        }
    }
    Ok(())
}

/// How long a stopping server waits for its store to close.
const STOP_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// Waits for a request to stop: SIGTERM (a service manager, `kill`) or an interrupt (Ctrl-C).
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = terminate.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "interrupt",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "interrupt"
}
