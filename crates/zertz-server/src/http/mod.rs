//! The HTTP and WebSocket API (JSON, docs/server.md) and the pages: each feature's routes in a
//! module of its own, and what every route shares (errors, limits, the WebSocket plumbing).

pub mod accounts;
pub mod analysis;
pub mod chat;
pub mod chat_socket;
pub mod error;
pub mod game_socket;
pub mod games;
pub mod heartbeat;
pub mod limit;
pub mod match_socket;
pub mod matches;
pub mod new_game;
pub mod pages;
pub mod pairing;
pub mod players;
pub mod state;
pub mod viewer;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;

use state::AppState;

/// Every route of the service: the API (unknown `/api/…` paths get a JSON 404) and the pages.
/// A request that changes something with the session cookie must come from the site's pages.
pub fn router(state: AppState) -> Router {
    let api = games::router()
        .merge(matches::router())
        .merge(analysis::router())
        .merge(accounts::router())
        .merge(players::router())
        .merge(chat::router())
        .merge(pairing::router())
        .fallback(|| async { error::error(StatusCode::NOT_FOUND, "no such endpoint".into()) })
        .layer(DefaultBodyLimit::max(limit::MAX_BODY))
        .layer(axum::middleware::from_fn(
            crate::accounts::origin::refuse_cross_site,
        ))
        .with_state(state);
    api.merge(pages::router())
}
