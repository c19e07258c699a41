//! The analysis board's stateless position routes (docs/study.md): `GET /api/position`
//! describes a position string, `POST /api/position/play` plays a move from one, and
//! `POST /api/position/setup` turns a hand-made setup into one or says which rule it breaks.

use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::accounts::viewer::Viewer;
use crate::games::quota::Quotas;
use crate::games::routes::too_many;
use crate::http::error::{ApiResult, bad, bad_query};
use crate::study::positions::{self, Described, HandSetup, Played};
use axum::extract::FromRef;

/// The position routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
{
    Router::new()
        .route("/api/position", get(describe))
        .route("/api/position/play", post(play))
        .route("/api/position/setup", post(set_up))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionQuery {
    position: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    position: String,
    r#move: String,
}

/// Reads a position string that `viewer` sent, within its allowance of new custom boards.
fn parse(quotas: &Quotas, viewer: &Viewer, text: &str) -> ApiResult<zertz::Position> {
    quotas
        .new_boards
        .run(&viewer.payer(), || positions::parse(text))
        .map_err(too_many)?
        .map_err(bad)
}

async fn describe(
    State(quotas): State<Arc<Quotas>>,
    viewer: Viewer,
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> ApiResult<Json<Described>> {
    let Query(q) = query.map_err(bad_query)?;
    let position = parse(&quotas, &viewer, &q.position)?;
    Ok(Json(positions::describe(&position)))
}

async fn play(
    State(quotas): State<Arc<Quotas>>,
    viewer: Viewer,
    body: Result<Json<PlayBody>, JsonRejection>,
) -> ApiResult<Json<Played>> {
    let Json(b) = body?;
    let position = parse(&quotas, &viewer, &b.position)?;
    Ok(Json(
        positions::play(&position, &b.r#move).map_err(|e| bad(format!("move: {e}")))?,
    ))
}

async fn set_up(body: Result<Json<HandSetup>, JsonRejection>) -> ApiResult<Json<Value>> {
    let Json(s) = body?;
    let position = positions::set_up(&s).map_err(bad)?;
    Ok(Json(json!({ "position": position.to_string() })))
}
