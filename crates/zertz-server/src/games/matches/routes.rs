//! The match routes: create, list, read, join, resign, export, follow over a WebSocket.

use crate::games::seats::Seats;
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::viewer::Viewer;
use crate::games::hub::{Hub, HubError};
use crate::games::model::{Credential, SeatKind};
use crate::games::new_game::{NewGame, Opponent};
use crate::games::quota::{Held, Quotas};
use crate::games::routes::{JoinBody, check_status, cursor_text, parse_cursor, too_many};
use crate::http::error::{ApiError, ApiResult, bad, bad_query, bearer};
use crate::store::Cursor;
use axum::extract::FromRef;

/// The most bribes per player a match may allow (the match form offers 0 to 20).
pub const MAX_BRIBES: u32 = 20;

/// The match routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
{
    Router::new()
        .route("/api/matches", post(create_match).get(list_matches))
        .route("/api/matches/{id}", get(get_match))
        .route("/api/matches/{id}/join", post(join_match))
        .route("/api/matches/{id}/resign", post(resign_match))
        .route("/api/matches/{id}/record", get(match_record))
}

async fn create_match(
    State(hub): State<Arc<Hub>>,
    State(quotas): State<Arc<Quotas>>,
    viewer: Viewer,
    body: Result<Json<NewGame>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(req) = body?;
    let bribe_limit = req.bribe_limit.unwrap_or(3);
    if bribe_limit > MAX_BRIBES {
        return Err(bad(format!(
            "bribe_limit must be 0 to {MAX_BRIBES}, not {bribe_limit}"
        )));
    }
    // What needs no board, then the quota: a request refused for either reads no board (a
    // custom one would stay in memory), and a malformed one takes no place, however many are
    // sent at once.
    req.without_board()?;
    let held = req.held();
    let reservation = match held {
        Some(kind) => Some(quotas.reserve(&hub, &viewer, kind).await?),
        None => None,
    };
    let (mut settings, opponent, creator_seat) = quotas
        .new_boards
        .run(&viewer.payer(), || req.settings(viewer.account.is_some()))
        .map_err(too_many)??;
    if settings.design {
        return Err(bad(
            "a match cannot be played on Zertz+xx boards: create its games one by one",
        ));
    }
    settings.seats = [SeatKind::Human, SeatKind::Human];
    let best_of = req.best_of.unwrap_or(3);
    let (id, token, invite) = hub
        .create_match(crate::games::matches::state::NewMatch {
            template: settings,
            best_of,
            creator: viewer.seated(req.name.as_deref()),
            opponent,
            first: creator_seat,
            bribe_limit,
            open: matches!(req.opponent, Opponent::Open {}),
        })
        .await?;
    if let Some(r) = reservation {
        r.keep(&id, true).await;
    }
    if held == Some(Held::EngineGame) {
        // Its games' engine waits for a slot in this client's line.
        hub.engine_slots.assign(&id, &viewer.client());
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "token": token,
            "invite_token": invite,
            "invite_url": invite.as_ref().map(|t| format!("/match/{id}#join={t}")),
        })),
    )
        .into_response())
}

/// The query of `GET /api/matches`: a status and a count, or the lobby's pages.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchesQuery {
    status: Option<String>,
    limit: Option<i64>,
    /// The `next` of the page before (the lobby's listing only).
    before: Option<String>,
    /// `true`: the lobby's listing, open matches anyone may take (not invitations), in pages.
    lobby: Option<bool>,
}

async fn list_matches(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<MatchesQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let status = check_status(&q.status)?;
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let lobby = q.lobby.unwrap_or(false);
    let (rows, next) = if lobby {
        if status.is_some_and(|s| s != "open") {
            return Err(bad(
                "lobby: the lobby lists open matches only (status=open)",
            ));
        }
        let before = q.before.as_deref().map(parse_cursor).transpose()?;
        let rows = hub
            .store()
            .lobby_matches(before.as_ref(), limit)
            .await
            .map_err(HubError::from)?;
        // A full page may have a next one; a short page is the last.
        let next = (rows.len() as i64 == limit)
            .then(|| {
                rows.last().map(|m| {
                    cursor_text(&Cursor {
                        updated_ms: m.updated_ms,
                        id: m.id.clone(),
                    })
                })
            })
            .flatten();
        (rows, next)
    } else {
        if q.before.is_some() {
            return Err(bad(
                "before: only the lobby's listing (lobby=true) has pages; other listings \
                 come in one page (at most 500)",
            ));
        }
        let rows = hub
            .store()
            .list_matches(status, limit)
            .await
            .map_err(HubError::from)?;
        (rows, None)
    };
    let mut list = Vec::new();
    for row in rows {
        if let Ok((m, _)) = hub.load_match(&row.id).await {
            list.push(hub.match_view(&m, None).await);
        }
    }
    Ok(Json(json!({ "matches": list, "next": next })).into_response())
}

async fn get_match(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
) -> ApiResult<Response> {
    let (m, _) = hub.load_match(&id).await?;
    let token = bearer(&headers);
    let view = hub.match_view(&m, viewer.acting(token.as_deref())).await;
    if token.is_some() && view.you.is_none() {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "this token holds no place in the match".into(),
        ));
    }
    Ok(Json(view).into_response())
}

async fn join_match(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
    body: Result<Json<JoinBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    let (index, token) = hub
        .join_match(&id, b.token.as_deref(), &viewer.seated(b.name.as_deref()))
        .await?;
    let (m, _) = hub.load_match(&id).await?;
    let view = hub.match_view(&m, Some(Credential::Token(&token))).await;
    Ok(Json(json!({ "id": id, "player": index, "token": token, "match": view })).into_response())
}

async fn resign_match(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
) -> ApiResult<Response> {
    let token = bearer(&headers);
    let who = viewer.acting(token.as_deref()).ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "resigning a match needs the participant's token (`Authorization: Bearer <token>`) \
             or the session of the participant's account"
                .into(),
        )
    })?;
    let m = hub.resign_match(&id, who).await?;
    Ok(Json(hub.match_view(&m, Some(who)).await).into_response())
}

async fn match_record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = hub.match_record(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}
