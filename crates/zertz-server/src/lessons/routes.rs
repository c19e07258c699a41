//! The routes of Learn (docs/learning.md, "Lessons and the rules page"):
//!
//! - `GET /api/lessons`: the lessons in order, each marked done for a logged-in account;
//! - `GET /api/lessons/{id}`: one lesson (its position, steps, hints, the next lesson);
//! - `POST /api/lessons/{id}/try` `{"moves": [..right moves so far..], "move": "Wd4,a1"}`: the
//!   check of a try (right, wrong or illegal, with why); a finished lesson is recorded for a
//!   logged-in account;
//! - `POST /api/lessons/progress` `{"done": [{"id", "moves"}]}`: a guest's progress (kept in
//!   the browser, each lesson with the moves that did it) added to the account that just
//!   logged in;
//! - `GET /api/rules/diagrams/{name}.svg`: a picture of the rules page.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::accounts::viewer::Viewer;
use crate::http::error::{ApiError, ApiResult, bad};
use crate::lessons::check::{self, TryError};
use crate::lessons::store::LessonStore;
use crate::lessons::{self, Lesson, diagrams};
use crate::util::now_ms;
use axum::extract::FromRef;

/// The most earlier moves a try may carry (the longest lesson has far fewer steps).
const MAX_MOVES: usize = 16;

/// The lessons' routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<dyn LessonStore>: FromRef<S>,
{
    Router::new()
        .route("/api/lessons", get(list))
        .route("/api/lessons/progress", post(add_progress))
        .route("/api/lessons/{id}", get(one))
        .route("/api/lessons/{id}/try", post(try_move))
        .route("/api/rules/diagrams/{name}", get(diagram))
}

impl From<TryError> for ApiError {
    fn from(e: TryError) -> ApiError {
        let status = match e {
            TryError::Broken(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, e.to_string())
    }
}

fn lesson_or_404(id: &str) -> ApiResult<(usize, &'static Lesson)> {
    lessons::find(id).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("there is no lesson `{id}`: GET /api/lessons lists them"),
        )
    })
}

/// The lessons the viewer's account has done (none for a guest).
async fn done_by(store: &dyn LessonStore, viewer: &Viewer) -> ApiResult<Vec<String>> {
    let Some(account) = &viewer.account else {
        return Ok(Vec::new());
    };
    let rows = store
        .lessons_done(&account.id)
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    Ok(rows.into_iter().map(|(id, _)| id).collect())
}

#[derive(Serialize)]
struct Item {
    id: &'static str,
    number: usize,
    title: &'static str,
    steps: usize,
    done: bool,
}

async fn list(State(store): State<Arc<dyn LessonStore>>, viewer: Viewer) -> ApiResult<Json<Value>> {
    let done = done_by(store.as_ref(), &viewer).await?;
    let items: Vec<Item> = lessons::all()
        .iter()
        .enumerate()
        .map(|(i, l)| Item {
            id: l.id,
            number: i + 1,
            title: l.title,
            steps: l.steps.len(),
            done: done.iter().any(|d| d == l.id),
        })
        .collect();
    Ok(Json(json!({
        "lessons": items,
        "account": viewer.account.as_ref().map(|a| a.name.clone()),
    })))
}

async fn one(
    State(store): State<Arc<dyn LessonStore>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let (index, lesson) = lesson_or_404(&id)?;
    let done = done_by(store.as_ref(), &viewer).await?;
    let steps: Vec<Value> = lesson
        .steps
        .iter()
        .map(|s| json!({ "task": s.task, "hints": s.hints }))
        .collect();
    Ok(Json(json!({
        "id": lesson.id,
        "number": index + 1,
        "of": lessons::all().len(),
        "title": lesson.title,
        "intro": lesson.intro,
        "position": lesson.position,
        "steps": steps,
        "previous": index.checked_sub(1).map(|i| lessons::all()[i].id),
        "next": lessons::all().get(index + 1).map(|l| l.id),
        "done": done.iter().any(|d| d == lesson.id),
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TryBody {
    #[serde(default)]
    moves: Vec<String>,
    r#move: String,
}

async fn try_move(
    State(store): State<Arc<dyn LessonStore>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<TryBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let (_, lesson) = lesson_or_404(&id)?;
    let Json(body) = body?;
    if body.moves.len() > MAX_MOVES {
        return Err(bad(format!(
            "moves: {} moves given, a lesson has at most {MAX_MOVES}",
            body.moves.len()
        )));
    }
    let answer = check::try_move(lesson, &body.moves, &body.r#move)?;
    let mut recorded = false;
    if answer.done
        && let Some(account) = &viewer.account
    {
        store
            .mark_lessons_done(&account.id, &[lesson.id.to_string()], now_ms())
            .await
            .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
        recorded = true;
    }
    let mut value = serde_json::to_value(&answer)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    value["recorded"] = json!(recorded);
    Ok(Json(value))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgressBody {
    done: Vec<DoneHere>,
}

/// A lesson done in a browser as a guest: its id and the learner's right moves, one a step.
#[derive(Deserialize)]
#[serde(untagged)]
enum DoneHere {
    /// What a browser keeps now.
    Shown {
        /// The lesson.
        id: String,
        /// The moves that did it.
        moves: Vec<String>,
    },
    /// An id alone, as browsers kept it before the moves were asked for: not counted.
    Bare(String),
}

async fn add_progress(
    State(store): State<Arc<dyn LessonStore>>,
    viewer: Viewer,
    body: Result<Json<ProgressBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let Some(account) = &viewer.account else {
        return Err(ApiError(
            StatusCode::UNAUTHORIZED,
            "keeping lessons with an account needs an account: log in first (a guest's \
             progress stays in the browser)"
                .into(),
        ));
    };
    let Json(body) = body?;
    if body.done.len() > lessons::all().len() * 4 {
        return Err(bad(format!(
            "done: {} lessons given, there are only {} lessons",
            body.done.len(),
            lessons::all().len()
        )));
    }
    // A lesson counts with the moves that did it, checked as the tries were (a bare id would
    // let anyone mark every lesson done). The others are left out with the reason, not
    // refused: the rest still counts.
    let mut known: Vec<String> = Vec::new();
    let mut ignored: Vec<Value> = Vec::new();
    for entry in &body.done {
        let (id, moves) = match entry {
            DoneHere::Shown { id, moves } => (id, moves),
            DoneHere::Bare(id) => {
                ignored.push(
                    json!({"id": id, "why": "no moves: a lesson counts with the \
                                                      moves that did it"}),
                );
                continue;
            }
        };
        let Some((_, lesson)) = lessons::find(id) else {
            ignored.push(json!({"id": id, "why": "no such lesson on this server"}));
            continue;
        };
        if moves.len() > MAX_MOVES {
            ignored.push(json!({"id": id, "why": format!("more than {MAX_MOVES} moves")}));
            continue;
        }
        match check::completed(lesson, moves) {
            Ok(()) if !known.iter().any(|k| k == lesson.id) => known.push(lesson.id.into()),
            Ok(()) => {}
            Err(why) => ignored.push(json!({"id": id, "why": why})),
        }
    }
    let added = store
        .mark_lessons_done(&account.id, &known, now_ms())
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    let done = done_by(store.as_ref(), &viewer).await?;
    Ok(Json(
        json!({ "done": done, "added": added, "ignored": ignored }),
    ))
}

async fn diagram(Path(name): Path<String>) -> ApiResult<Response> {
    match diagrams::render(&name) {
        Some(Ok(svg)) => Ok((
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            svg,
        )
            .into_response()),
        Some(Err(e)) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, e)),
        None => Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("there is no rules diagram `{name}`"),
        )),
    }
}
