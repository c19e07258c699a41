//! The ZÈRTZ game server: games between people and against the engine over HTTP and
//! WebSocket, server-authoritative clocks, best-of-N matches with the house rules of the online
//! host (seed 004), and durable storage on SQLite or PostgreSQL.
//!
//! The API is described in docs/server.md.

#![warn(missing_docs)]

pub mod api;
pub mod clock;
pub mod hub;
pub mod matches;
pub mod model;
pub mod room;
pub mod store;
pub mod token;
pub mod view;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

pub use hub::{Config, Hub};

/// Opens the store, brings unfinished games back, and serves the API on `addr` until the
/// process ends. `on_ready` is called with the bound address once the server listens.
pub async fn serve(
    addr: SocketAddr,
    db: &str,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    let store = store::open(db).await?;
    let hub = Hub::new(store, config);
    let resumed = hub.resume().await?;
    hub.resume_matches().await?;
    tracing::info!("{resumed} unfinished games resumed");
    let app = api::router(Arc::clone(&hub)).route("/", axum::routing::get(index));
    let listener = tokio::net::TcpListener::bind(addr).await?;
    on_ready(listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}

/// The front page until the web UI arrives: what runs here and where the API is.
async fn index() -> axum::response::Html<&'static str> {
    axum::response::Html(INDEX)
}

const INDEX: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ZÈRTZ server</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5}
code{background:#eee;padding:0 .2em}</style></head>
<body><h1>ZÈRTZ server</h1>
<p>This server hosts ZÈRTZ games, matches and their records over HTTP and WebSocket.
The browser interface is not part of this build yet; programs talk to the JSON API:</p>
<ul>
<li><a href="/api/games?status=open">open games</a>, <a href="/api/games?status=live">live games</a>,
<a href="/api/games?status=finished">finished games</a>, <a href="/api/matches">matches</a></li>
<li>create a game: <code>POST /api/games</code>; play: <code>POST /api/games/{id}/action</code>;
follow: <code>GET /api/games/{id}/ws</code></li>
</ul>
<p>The API is described in <code>docs/server.md</code> of the repository.</p>
</body></html>"#;
