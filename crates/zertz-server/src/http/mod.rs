//! The HTTP and WebSocket API (JSON, docs/server.md) and the pages: each feature's routes in a
//! module of its own, and what every route shares (errors, limits, the WebSocket plumbing).

pub mod analysis;
pub mod error;
pub mod game_socket;
pub mod games;
pub mod heartbeat;
pub mod limit;
pub mod match_socket;
pub mod matches;
pub mod new_game;
pub mod pages;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;

use crate::games::hub::Hub;

/// Every route of the service, on `hub`: the API (unknown `/api/…` paths get a JSON 404) and
/// the pages.
pub fn router(hub: Arc<Hub>) -> Router {
    let api = games::router(Arc::clone(&hub))
        .merge(matches::router(Arc::clone(&hub)))
        .merge(analysis::router(Arc::clone(&hub)))
        .fallback(|| async { error::error(StatusCode::NOT_FOUND, "no such endpoint".into()) })
        .layer(DefaultBodyLimit::max(limit::MAX_BODY));
    api.merge(pages::router())
}
