//! `GET /api/games/{id}/analysis?turn=N`: what the engine thinks of a finished game's position
//! after `N` turns (default: the last one). Finished games only, so that nobody asks the engine
//! for help during a game. A short fixed search budget, on a blocking thread, one analysis at a
//! time, in a line bounded per client and in all (`study::game_analysis`).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::viewer::Viewer;
use crate::games::hub::Hub;
use crate::study::Study;
use crate::study::analysis::finished;
use axum::extract::FromRef;

/// Search time of one analysis.
pub const BUDGET: Duration = Duration::from_millis(400);

/// How many moves an analysis ranks.
pub const TOP: usize = 3;

/// The analysis route.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::study::Study>: FromRef<S>,
{
    Router::new().route("/api/games/{id}/analysis", get(analysis))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisQuery {
    turn: Option<usize>,
}

fn refuse(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

async fn analysis(
    State(hub): State<Arc<Hub>>,
    State(study): State<Arc<Study>>,
    viewer: Viewer,
    Path(id): Path<String>,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Response {
    let q = match query {
        Ok(Query(q)) => q,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e.body_text()),
    };
    let room = match hub.room(&id).await {
        Ok(room) => room,
        Err(e) => {
            let status = crate::games::routes::status_of(&e);
            return refuse(status, e.to_string());
        }
    };
    if !room.is_over() {
        return refuse(
            StatusCode::CONFLICT,
            "the engine's analysis is shown once the game is over".into(),
        );
    }
    let turns = room.game.turns().len();
    let turn = q.turn.unwrap_or(turns);
    if turn > turns {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("turn {turn}: the game has {turns} turns"),
        );
    }
    let Some(game) = finished::replay(&room.game, turn) else {
        return refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the game could not be replayed".into(),
        );
    };
    if game.is_over() || game.legal_moves().is_empty() {
        return Json(finished::over(&game, turn)).into_response();
    }
    let ticket = match study.game_analysis.enter(&viewer.line()) {
        Ok(ticket) => ticket,
        Err(full) => {
            let body = json!({
                "error": full.message,
                "place": full.place,
                "retry_after": full.retry_after,
            });
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, full.retry_after.to_string())],
                Json(body),
            )
                .into_response();
        }
    };
    let slot = ticket.slot().await;
    let result = tokio::task::spawn_blocking(move || {
        let _held = (slot, ticket);
        finished::analyse(&game, turn, BUDGET, TOP)
    })
    .await;
    match result {
        Ok(value) => Json(value).into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("analysis: {e}")),
    }
}
