//! The puzzle trainer's routes (docs/learning.md, "Puzzle trainer"): `GET /api/puzzles` (the
//! set's size, its themes and the solver's rating), `GET /api/puzzles/next`, `GET
//! /api/puzzles/daily`, `GET /api/puzzles/{id}` and `POST /api/puzzles/{id}/move`.

use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::accounts::viewer::Viewer;
use crate::http::error::{ApiError, ApiResult, bad, bad_query};
use crate::puzzles::check::LineError;
use crate::puzzles::set::Loaded;
use crate::puzzles::store::AttemptOutcome;
use crate::puzzles::{Answer, PuzzleError, Puzzles, Solver, choose, legal_moves, rating};
use crate::ratings::glicko::Rating;
use crate::util::now_ms;
use axum::extract::FromRef;

/// The longest line a move may come after (a puzzle of 32 turns).
const MAX_LINE: usize = 64;

/// The trainer's routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::puzzles::Puzzles>: FromRef<S>,
{
    Router::new()
        .route("/api/puzzles", get(overview))
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/daily", get(daily))
        .route("/api/puzzles/{id}", get(one))
        .route("/api/puzzles/{id}/move", post(answer))
}

impl From<PuzzleError> for ApiError {
    fn from(e: PuzzleError) -> ApiError {
        let status = match &e {
            PuzzleError::Unknown(_) => StatusCode::NOT_FOUND,
            PuzzleError::Choose(choose::ChooseError::UnknownTheme(_)) => StatusCode::BAD_REQUEST,
            PuzzleError::Choose(_) => StatusCode::NOT_FOUND,
            PuzzleError::Line(LineError::Illegal(_)) => StatusCode::UNPROCESSABLE_ENTITY,
            PuzzleError::Line(_) => StatusCode::BAD_REQUEST,
            PuzzleError::Refute(_) => StatusCode::INTERNAL_SERVER_ERROR,
            PuzzleError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}

/// A guest's rating as sent (in a query or a body).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SentRating {
    rating: f64,
    deviation: Option<f64>,
    volatility: Option<f64>,
}

/// Who is solving: the account, or the guest with the rating they sent.
fn solver(viewer: &Viewer, sent: Option<&SentRating>) -> ApiResult<Solver> {
    let guest_rating = match (sent, &viewer.account) {
        (Some(s), None) => {
            rating::guest_rating(s.rating, s.deviation, s.volatility).map_err(bad)?
        }
        _ => rating::new_solver(),
    };
    Ok(Solver {
        key: viewer.client(),
        account: viewer.account.as_ref().map(|a| a.id.clone()),
        guest_rating,
    })
}

fn rating_json(r: &Rating) -> Value {
    json!({
        "rating": r.rating,
        "deviation": r.deviation,
        "volatility": r.volatility,
        "provisional": r.is_provisional(),
    })
}

/// A puzzle as the page shows it: never its solution.
async fn puzzle_json(puzzles: &Puzzles, p: &Loaded) -> ApiResult<Value> {
    let (r, attempts, solved) = puzzles.rating_of(p).await?;
    let s = &p.puzzle.source;
    Ok(json!({
        "id": p.puzzle.id,
        "position": p.puzzle.position,
        "to_move": p.attacker().index() + 1,
        "turns": p.puzzle.turns,
        "themes": p.puzzle.themes,
        "legal": legal_moves(&p.start),
        "rating": r.rating.round(),
        "attempts": attempts,
        "solved": solved,
        "source": {
            "archive": s.archive,
            "game": s.game,
            "move_number": s.move_number,
        },
    }))
}

async fn overview(
    State(puzzles): State<Arc<crate::puzzles::Puzzles>>,
    viewer: Viewer,
) -> ApiResult<Json<Value>> {
    let puzzles = &puzzles;
    let themes: serde_json::Map<String, Value> = puzzles
        .book()
        .theme_counts()
        .into_iter()
        .map(|(t, n)| (t.to_string(), json!(n)))
        .collect();
    let mut answer = json!({
        "count": puzzles.book().all().len(),
        "themes": themes,
    });
    if viewer.account.is_some() {
        let who = solver(&viewer, None)?;
        let r = puzzles.solver_rating(&who, now_ms()).await?;
        answer["rating"] = rating_json(&r);
    }
    Ok(Json(answer))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NextQuery {
    theme: Option<String>,
    /// The puzzle just played, not to be given again at once.
    after: Option<String>,
    rating: Option<f64>,
    deviation: Option<f64>,
    volatility: Option<f64>,
}

async fn next(
    State(puzzles): State<Arc<crate::puzzles::Puzzles>>,
    viewer: Viewer,
    query: Result<Query<NextQuery>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = query.map_err(bad_query)?;
    let sent = q.rating.map(|rating| SentRating {
        rating,
        deviation: q.deviation,
        volatility: q.volatility,
    });
    let who = solver(&viewer, sent.as_ref())?;
    let theme = q.theme.as_deref().filter(|t| !t.is_empty());
    let p = puzzles
        .next(&who, theme, q.after.as_deref(), now_ms())
        .await?;
    Ok(Json(puzzle_json(&puzzles, p).await?))
}

async fn daily(State(puzzles): State<Arc<crate::puzzles::Puzzles>>) -> ApiResult<Json<Value>> {
    let now = now_ms();
    let p = choose::daily(puzzles.book(), now).map_err(PuzzleError::from)?;
    let mut answer = puzzle_json(&puzzles, p).await?;
    answer["date"] = json!(choose::date(now));
    Ok(Json(answer))
}

async fn one(
    State(puzzles): State<Arc<crate::puzzles::Puzzles>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let p = puzzles.get(&id)?;
    Ok(Json(puzzle_json(&puzzles, p).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    /// The line so far: the solver's moves and the server's replies, in turn.
    #[serde(default)]
    moves: Vec<String>,
    r#move: String,
    /// A guest's rating (ignored for an account).
    rating: Option<SentRating>,
}

fn outcome_json(o: &AttemptOutcome) -> Value {
    json!({
        "rated": o.rated,
        "before": rating_json(&o.solver_before),
        "after": rating_json(&o.solver_after),
        "change": (o.solver_after.rating - o.solver_before.rating).round(),
        "puzzle_before": o.puzzle_before.rating.round(),
        "puzzle_after": o.puzzle_after.rating.round(),
    })
}

async fn answer(
    State(puzzles): State<Arc<crate::puzzles::Puzzles>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<MoveBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Json(body) = body?;
    if body.moves.len() > MAX_LINE {
        return Err(bad(format!(
            "the line has {} moves: no puzzle is that long (at most {MAX_LINE})",
            body.moves.len()
        )));
    }
    let who = solver(&viewer, body.rating.as_ref())?;
    let puzzles = &puzzles;
    let p = puzzles.get(&id)?;
    let answer = puzzles
        .answer(&id, &body.moves, &body.r#move, &who, now_ms())
        .await?;
    let source = json!({
        "played": p.puzzle.source.played,
        "found": p.puzzle.source.found,
    });
    Ok(Json(match answer {
        Answer::Right {
            mv,
            after_move,
            reply,
            position,
            legal,
        } => json!({
            "result": "right",
            "move": mv,
            "after_move": after_move,
            "reply": reply,
            "position": position,
            "legal": legal,
        }),
        Answer::Solved {
            mv,
            after_move,
            outcome,
        } => json!({
            "result": "solved",
            "move": mv,
            "after_move": after_move,
            "rating": outcome_json(&outcome),
            "source": source,
        }),
        Answer::Wrong {
            mv,
            after_move,
            refutation,
            why,
            solution,
            outcome,
        } => json!({
            "result": "wrong",
            "move": mv,
            "after_move": after_move,
            "refutation": refutation.as_ref().map(|(r, _)| r),
            "refuted_position": refutation.as_ref().map(|(_, p)| p),
            "why": why,
            "solution": solution,
            "rating": outcome_json(&outcome),
            "source": source,
        }),
        Answer::AlsoWins { mv } => json!({
            "result": "also-wins",
            "move": mv,
            "why": format!("{mv} wins too, but the puzzle's line is another: find its move."),
        }),
    }))
}
