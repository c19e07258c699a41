//! The HTTP and WebSocket API (JSON, docs/server.md) and the pages: each feature's routes in a
//! module of its own, and what every route shares (errors, limits, the WebSocket plumbing).

pub mod accounts;
pub mod analysis;
pub mod analysis_socket;
pub mod chat;
pub mod chat_socket;
pub mod error;
pub mod explorer;
pub mod game_socket;
pub mod games;
pub mod headers;
pub mod heartbeat;
pub mod lessons;
pub mod limit;
pub mod match_socket;
pub mod matches;
pub mod new_game;
pub mod pages;
pub mod pairing;
pub mod players;
pub mod positions;
pub mod puzzles;
pub mod reviews;
pub mod state;
pub mod studies;
pub mod trees;
pub mod viewer;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;

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
        .merge(positions::router())
        .merge(analysis_socket::router())
        .merge(reviews::router())
        .merge(studies::router())
        .merge(trees::router())
        .merge(explorer::router())
        .merge(puzzles::router())
        .merge(lessons::router())
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limit::MAX_BODY))
        .layer(axum::middleware::from_fn(
            crate::accounts::origin::refuse_cross_site,
        ))
        .with_state(state);
    api.merge(pages::router())
        .layer(axum::middleware::from_fn(headers::secure))
}

/// An address that is neither a page nor an endpoint: a JSON 404 under `/api/`, the page that
/// says so for a person anywhere else.
async fn not_found(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        error::error(StatusCode::NOT_FOUND, format!("no such endpoint: {path}"))
    } else {
        pages::not_found()
    }
}

/// A known address asked with the wrong method: 405 and which method that was.
async fn wrong_method(method: Method, uri: Uri) -> Response {
    error::error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", uri.path()),
    )
}
