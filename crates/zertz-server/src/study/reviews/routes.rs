//! Game reviews (docs/study.md): `POST /api/reviews` asks for the review of a server game or
//! of a pasted record or BoardSpace SGF, `GET /api/reviews/{id}` says where it stands (and gives
//! it when done), `GET /api/games/{id}/review` finds a server game's review.

use std::sync::Arc;

use std::net::SocketAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use zertz::boardspace;
use zertz::record::Record;

use crate::accounts::viewer::viewer;
use crate::games::hub::HubError;
use crate::http::error::{ApiError, ApiResult, bad};
use crate::study::reviews::{ReviewError, Status};
use axum::extract::FromRef;

/// The review routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
    Arc<crate::study::Study>: FromRef<S>,
{
    Router::new()
        .route("/api/reviews", post(ask))
        .route("/api/reviews/{id}", get(status))
        .route("/api/games/{id}/review", get(of_game))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    /// A server game's id.
    game: Option<String>,
    /// A record in the project's format, or a BoardSpace SGF.
    record: Option<String>,
}

impl From<ReviewError> for ApiError {
    fn from(e: ReviewError) -> ApiError {
        let status = match &e {
            ReviewError::NotOver => StatusCode::CONFLICT,
            ReviewError::Empty => StatusCode::BAD_REQUEST,
            ReviewError::TooManyOfYours(_) => StatusCode::TOO_MANY_REQUESTS,
            ReviewError::Full(_) => StatusCode::SERVICE_UNAVAILABLE,
            ReviewError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}

/// A pasted record or SGF as a record with the players' names.
fn read_record(text: &str) -> Result<Record, String> {
    if text.trim_start().starts_with('(') {
        let imported = boardspace::import(text).map_err(|e| format!("record: {e}"))?;
        let names = if imported.first == 0 {
            [imported.players[0].clone(), imported.players[1].clone()]
        } else {
            [imported.players[1].clone(), imported.players[0].clone()]
        };
        Ok(Record::new(
            imported.game,
            &[
                ("Player1", names[0].as_str()),
                ("Player2", names[1].as_str()),
            ],
        ))
    } else {
        Record::parse(text).map_err(|e| format!("record: {e}"))
    }
}

async fn ask(
    State(accounts): State<Arc<crate::accounts::Accounts>>,
    State(hub): State<Arc<crate::games::hub::Hub>>,
    State(quotas): State<Arc<crate::games::quota::Quotas>>,
    State(study): State<Arc<crate::study::Study>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Ask>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(body) = body?;
    let who = viewer(&headers, &accounts, false, Some(peer.ip())).await?;
    let (game_id, record) = match (body.game, body.record) {
        (Some(id), None) => {
            let room = hub.room(&id).await.map_err(|e| match e {
                HubError::NotFound(_) => ApiError(StatusCode::NOT_FOUND, format!("no game {id}")),
                other => other.into(),
            })?;
            let text = crate::games::export::record_text(&room, &[]);
            let record =
                Record::parse(&text).map_err(|e| bad(format!("the game's record: {e}")))?;
            if record.game.outcome().is_none() && !room.aborted {
                return Err(ReviewError::NotOver.into());
            }
            (Some(id), record)
        }
        // A custom board new to the server counts against this client's allowance.
        (None, Some(text)) => (
            None,
            quotas
                .new_boards
                .run(&who.payer(), || read_record(&text))
                .map_err(crate::games::routes::too_many)?
                .map_err(bad)?,
        ),
        _ => {
            return Err(bad(
                "send either `game` (a game's id) or `record` (its text)",
            ));
        }
    };
    let status = study
        .reviews
        .ask(&who.line(), game_id.as_deref(), &record)
        .await?;
    Ok(Json(status.to_json()))
}

fn found(status: Option<Status>, what: String) -> ApiResult<Json<Value>> {
    match status {
        Some(s) => Ok(Json(s.to_json())),
        None => Err(ApiError(StatusCode::NOT_FOUND, what)),
    }
}

async fn status(
    State(study): State<Arc<crate::study::Study>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let status = study
        .reviews
        .status(&id)
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    found(status, format!("no review {id}"))
}

/// A game's review: its job (as `GET /api/reviews/{id}`), `{"state": "none"}` for a game not
/// reviewed yet (an answer, not an error: the page asks before offering one), 404 for no game.
async fn of_game(
    State(study): State<Arc<crate::study::Study>>,
    State(hub): State<Arc<crate::games::hub::Hub>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let status = study
        .reviews
        .of_game(&id)
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    match status {
        Some(s) => Ok(Json(s.to_json())),
        None if hub.exists(&id).await => Ok(Json(json!({ "state": "none" }))),
        None => Err(ApiError(StatusCode::NOT_FOUND, format!("no game {id}"))),
    }
}
