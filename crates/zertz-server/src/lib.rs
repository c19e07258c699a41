//! The ZÈRTZ game server: games between people and against the engine over HTTP and
//! WebSocket, server-authoritative clocks, best-of-N matches with the house rules of the online
//! host (seed 004), and durable storage on SQLite or PostgreSQL.
//!
//! The API is described in docs/server.md.

#![warn(missing_docs)]

pub mod analysis_api;
pub mod api;
pub mod clock;
pub mod evict;
pub mod heartbeat;
pub mod hub;
pub mod limit;
pub mod match_ws;
pub mod matches;
pub mod model;
pub mod presence;
pub mod records;
pub mod room;
pub mod store;
pub mod token;
pub mod view;
pub mod web;
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
    hub.start_eviction();
    tracing::info!("{resumed} unfinished games resumed");
    let app = api::router(Arc::clone(&hub))
        .merge(analysis_api::router(Arc::clone(&hub)))
        .merge(web::router());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    on_ready(listener.local_addr()?);
    let app = app.layer(axum::middleware::from_fn_with_state(
        limit::PerAddress::new(hub.config().http_rate),
        limit::by_address,
    ));
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await?;
    Ok(())
}
