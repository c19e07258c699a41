//! The chat of a game or a match as stored, for the archive and for clients that do not keep a
//! WebSocket open (talking goes over the WebSocket), and the public room's latest lines.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::chat::{Chat, game_room, match_room};
use crate::games::hub::Hub;
use crate::http::error::{ApiError, ApiResult};
use axum::extract::FromRef;

/// Lines served at most (the latest).
const MOST: i64 = 5_000;

/// The chat routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::chat::Chat>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
{
    Router::new()
        .route("/api/games/{id}/chat", get(game_chat))
        .route("/api/matches/{id}/chat", get(match_chat))
        .route("/api/room", get(public_room))
}

/// The public room's latest lines (the home page's panel; talking goes over `/api/room/ws`).
async fn public_room(State(chat): State<Arc<Chat>>) -> ApiResult<Response> {
    let lines = chat
        .history(crate::chat::public::ROOM, PANEL)
        .await
        .map_err(failed)?;
    Ok(Json(json!({ "lines": lines })).into_response())
}

/// Lines of the public room the home page shows.
const PANEL: i64 = 8;

fn failed(e: crate::chat::ChatError) -> ApiError {
    let status = axum::http::StatusCode::from_u16(e.status())
        .unwrap_or(axum::http::StatusCode::SERVICE_UNAVAILABLE);
    ApiError(status, e.to_string())
}

async fn game_chat(
    State(hub): State<Arc<Hub>>,
    State(chat): State<Arc<Chat>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    // A game that does not exist has no chat: 404, not an empty list.
    hub.get(&id).await?;
    let lines = chat.history(&game_room(&id), MOST).await.map_err(failed)?;
    Ok(Json(json!({ "lines": lines })).into_response())
}

async fn match_chat(
    State(hub): State<Arc<Hub>>,
    State(chat): State<Arc<Chat>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    hub.load_match(&id).await?;
    let lines = chat.history(&match_room(&id), MOST).await.map_err(failed)?;
    Ok(Json(json!({ "lines": lines })).into_response())
}
