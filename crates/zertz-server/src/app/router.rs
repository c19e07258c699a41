//! Every route of the service in one router: each feature's routes, the API's fallbacks, and
//! the layers every request passes (the body's size and deadline, the cross-site check, the
//! headers).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::games::hub::Hub;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, StatusCode, Uri};
use axum::response::Response;

use super::state::AppState;
use crate::http::{body, error, headers, limit, pages};

/// Every route of the service: the API (unknown `/api/…` paths get a JSON 404) and the pages.
/// A request that changes something with the session cookie must come from the site's pages.
pub fn router(state: AppState) -> Router {
    let body_timeout = state.hub.config().connections.body_timeout;
    // Behind HTTPS: the origin's scheme, the cookies' names and HSTS follow.
    let https = state.hub.config().secure_cookies;
    let api = Router::new()
        .route("/api/health", get(|| async { Json(json!({"ok": true})) }))
        .route("/api/stats", get(stats))
        .route("/api/games/{id}/ws", get(super::game_socket::upgrade))
        .route("/api/matches/{id}/ws", get(super::match_socket::upgrade))
        .route("/api/room/ws", get(super::room_socket::upgrade))
        .route(
            "/api/tournaments/{id}/chat/ws",
            get(super::room_socket::tournament_upgrade),
        )
        .merge(crate::games::routes::router())
        .merge(crate::games::matches::routes::router())
        .merge(crate::accounts::routes::router())
        .merge(crate::ratings::routes::router())
        .merge(crate::chat::routes::router())
        .merge(crate::pairing::routes::router())
        .merge(crate::study::routes::router())
        .merge(crate::explorer::routes::router())
        .merge(crate::puzzles::routes::router())
        .merge(crate::lessons::routes::router())
        .merge(crate::tournaments::routes::router())
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limit::MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            body_timeout,
            body::read_bodies,
        ))
        .layer(axum::middleware::from_fn_with_state(
            https,
            crate::accounts::origin::refuse_cross_site,
        ))
        .with_state(state);
    api.merge(pages::router())
        .layer(axum::middleware::from_fn_with_state(https, headers::secure))
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

/// What an operator may want to watch: the games in memory now (docs/server.md, "Memory"), and
/// the analyses of finished games waiting or running (docs/server.md, "Limits").
async fn stats(
    State(hub): State<Arc<Hub>>,
    State(study): State<Arc<crate::study::Study>>,
) -> Json<serde_json::Value> {
    Json(json!({
        "games_in_memory": hub.games_in_memory(),
        "analyses_held": study.game_analysis.held(),
        "custom_boards_held": zertz::layout::custom_layouts_held(),
    }))
}
