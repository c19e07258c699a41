//! The opening explorer's routes: `GET /api/explorer?position=P&source=…&min_rating=N&eval=…`
//! (the moves played from a position, in the frame it is asked in) and
//! `GET /api/explorer/games/{id}` (an example game with its record) and
//! `GET /api/explorer/games?name=FILE&source=boardspace` (a game found by its file name: what a
//! puzzle's source names). docs/study.md.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use zertz::Position;

use crate::explorer::Explorer;
use crate::explorer::eval::{MAX_MOVES, evaluate};
use crate::explorer::queries::{Source, explore};
use crate::explorer::turned;
use crate::http::error::error;
use axum::extract::FromRef;

/// The explorer's routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<Explorer>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
{
    Router::new()
        .route("/api/explorer", get(positions))
        .route("/api/explorer/games/{id}", get(game))
        .route("/api/explorer/games", get(game_named))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NameQuery {
    name: Option<String>,
    source: Option<String>,
}

/// The longest name looked up: BoardSpace file names are under 100 characters.
const MAX_NAME: usize = 300;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplorerQuery {
    position: Option<String>,
    source: Option<String>,
    min_rating: Option<String>,
    eval: Option<String>,
}

async fn positions(
    State(explorer): State<Arc<Explorer>>,
    State(quotas): State<Arc<crate::games::quota::Quotas>>,
    viewer: crate::accounts::viewer::Viewer,
    query: Result<Query<ExplorerQuery>, QueryRejection>,
) -> Response {
    let q = match query {
        Ok(Query(q)) => q,
        Err(e) => return error(StatusCode::BAD_REQUEST, e.body_text()),
    };
    let Some(text) = q.position else {
        return error(
            StatusCode::BAD_REQUEST,
            "the position is missing (?position=… with a position string)".into(),
        );
    };
    // A custom board new to the server counts against this client's allowance (`new_boards`).
    let parsed = quotas
        .new_boards
        .run(&viewer.payer(), || text.trim().parse::<Position>());
    let position: Position = match parsed {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => return error(StatusCode::BAD_REQUEST, e.to_string()),
        Err(e) => return error(StatusCode::TOO_MANY_REQUESTS, e),
    };
    let source = match q.source.as_deref() {
        None | Some("") => Source::All,
        Some(s) => match Source::parse(s) {
            Some(source) => source,
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("source `{s}`: expected all, boardspace or server"),
                );
            }
        },
    };
    let min_rating = match q.min_rating.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) => match s.parse::<f64>() {
            Ok(r) if r.is_finite() && r >= 0.0 => Some(r),
            _ => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("min_rating `{s}`: expected a number such as 1500"),
                );
            }
        },
    };
    let want_eval = match q.eval.as_deref() {
        None | Some("") | Some("false") => false,
        Some("true") => true,
        Some(s) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("eval `{s}`: expected true or false"),
            );
        }
    };
    let mut answer = match explore(
        explorer.store(),
        Some(explorer.cache()),
        &position,
        source,
        min_rating,
    )
    .await
    {
        Ok(a) => a,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    if want_eval && !answer.moves.is_empty() {
        let n = answer.moves.len().min(MAX_MOVES);
        let moves = answer.moves[..n].iter().map(|m| m.mv).collect();
        let scores = evaluate(position, moves).await;
        for (m, s) in answer.moves.iter_mut().zip(scores) {
            m.eval = s;
        }
    }
    Json(answer).into_response()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameQuery {
    /// The position the game was chosen from: the game is given in its frame (`turned`).
    position: Option<String>,
}

async fn game(
    State(explorer): State<Arc<Explorer>>,
    Path(id): Path<String>,
    query: Result<Query<GameQuery>, QueryRejection>,
) -> Response {
    let asked = match query {
        Ok(Query(GameQuery { position: None })) => None,
        Ok(Query(GameQuery { position: Some(p) })) => match p.trim().parse::<Position>() {
            Ok(p) => Some(p),
            Err(e) => return error(StatusCode::BAD_REQUEST, format!("position: {e}")),
        },
        Err(e) => return error(StatusCode::BAD_REQUEST, e.body_text()),
    };
    match explorer.store().explorer_game(&id).await {
        Ok(Some(mut g)) => {
            // `ply` and `turned` say where the game meets the position asked about and
            // whether its record was turned to match it (explorer/turned.rs).
            let met = asked.as_ref().and_then(|p| turned::met(&g.record, p));
            let (ply, was_turned) = match met {
                Some(m) => {
                    g.record = m.record;
                    (Some(m.ply), m.turned)
                }
                None => (None, false),
            };
            let mut body = serde_json::to_value(&g).unwrap_or_default();
            if asked.is_some() {
                body["ply"] = serde_json::json!(ply);
                body["turned"] = serde_json::json!(was_turned);
            }
            Json(body).into_response()
        }
        Ok(None) => error(
            StatusCode::NOT_FOUND,
            format!("no game `{id}` in the explorer"),
        ),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

async fn game_named(
    State(explorer): State<Arc<Explorer>>,
    query: Result<Query<NameQuery>, QueryRejection>,
) -> Response {
    let q = match query {
        Ok(Query(q)) => q,
        Err(e) => return error(StatusCode::BAD_REQUEST, e.body_text()),
    };
    let name = match q.name.as_deref().map(str::trim) {
        None | Some("") => {
            return error(
                StatusCode::BAD_REQUEST,
                "the name is missing (?name=… with a BoardSpace file name or a game id)".into(),
            );
        }
        Some(n) if n.len() > MAX_NAME => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("the name is longer than {MAX_NAME} bytes"),
            );
        }
        Some(n) => n.to_string(),
    };
    let source = match q.source.as_deref() {
        None | Some("") => "boardspace",
        Some(s @ ("boardspace" | "server")) => s,
        Some(other) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("unknown source `{other}` (boardspace or server)"),
            );
        }
    };
    match explorer.store().explorer_game_named(source, &name).await {
        Ok(Some(g)) => Json(g).into_response(),
        Ok(None) => error(
            StatusCode::NOT_FOUND,
            format!("no {source} game named `{name}` in the explorer"),
        ),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}
