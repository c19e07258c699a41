//! `GET /api/games/{id}/analysis?turn=N`: what the engine thinks of a finished game's position
//! after `N` turns (default: the last one). Finished games only, so that nobody asks the engine
//! for help during a game. A short fixed search budget, on a blocking thread, one analysis at a
//! time.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;
use zertz::notation::official;
use zertz::{Game, Move, Position, Turn};
use zertz_engine::analysis::analyse_position;
use zertz_engine::{Engine, Limits, SearchOptions};

use super::state::AppState;
use crate::games::hub::Hub;

/// Search time of one analysis.
pub const BUDGET: Duration = Duration::from_millis(400);

/// How many moves an analysis ranks.
pub const TOP: usize = 3;

/// The analysis route.
pub fn router() -> Router<AppState> {
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

/// The moves of a line in official notation, as far as they are legal.
fn line(position: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = *position;
    let mut out = Vec::new();
    for m in moves {
        if p.check(m).is_err() {
            break;
        }
        out.push(official::move_text(&p, m));
        p.play_unchecked(m);
    }
    out
}

/// The game after its first `turn` turns.
fn replay(game: &Game, turn: usize) -> Option<Game> {
    let mut g = Game::from_position(*game.start(), game.rules());
    for t in game.turns().get(..turn)? {
        match t {
            Turn::Move(mv) => g.play(mv).ok()?,
            Turn::Pass { bribe } => {
                g.propose_bribe(*bribe).ok()?;
                g.answer_bribe(true).ok()?;
            }
        }
    }
    Some(g)
}

async fn analysis(
    State(hub): State<Arc<Hub>>,
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
            let status = crate::http::error::status_of(&e);
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
    let Some(game) = replay(&room.game, turn) else {
        return refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the game could not be replayed".into(),
        );
    };
    let mover = game.to_move().number();
    if game.is_over() || game.legal_moves().is_empty() {
        return Json(json!({ "turn": turn, "to_move": mover, "over": true, "best": [] }))
            .into_response();
    }
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    let Ok(_permit) = SLOTS.get_or_init(|| Semaphore::new(1)).acquire().await else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "analysis unavailable".into(),
        );
    };
    let result = tokio::task::spawn_blocking(move || {
        let engine = Engine::new(SearchOptions::default(), 16);
        let a = analyse_position(&engine, &game, &Limits::movetime(BUDGET), TOP, &mut |_| {});
        let position = *game.position();
        let best: Vec<_> = a
            .top
            .iter()
            .map(|r| {
                json!({
                    "move": official::move_text(&position, &r.mv),
                    "score": r.score.to_string(),
                    "line": line(&position, &r.pv),
                })
            })
            .collect();
        json!({
            "turn": turn,
            "to_move": mover,
            "over": false,
            "score": a.search.score.to_string(),
            "depth": a.search.depth,
            "best": best,
        })
    })
    .await;
    match result {
        Ok(value) => Json(value).into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, format!("analysis: {e}")),
    }
}
