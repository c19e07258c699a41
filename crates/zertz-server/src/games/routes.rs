//! The game routes: create, list, read, join, act, follow over a WebSocket, export, import.

use crate::games::model::Credential;
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
use crate::games::model::Action;
use crate::games::new_game::{NewGame, Opponent};
use crate::games::quota::{Held, Quotas};
use crate::games::room::Refusal;
use crate::games::wire::view::GameView;
use crate::http::error::{ApiError, ApiResult, bad, bad_query, bearer};
use crate::store::{Cursor, GameQuery};
use axum::extract::FromRef;

/// The game routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
{
    Router::new()
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/action", post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/sgf", get(sgf))
        .route("/api/import", post(import))
        .route("/api/me/games", get(my_games))
        .route("/game/{id}", get(game_page))
}

/// The game page; a game that does not exist gets the same page (it says so) with status 404.
async fn game_page(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if hub.exists(&id).await {
        crate::http::pages::page("game.html", &headers)
    } else {
        crate::http::pages::missing("game.html")
    }
}

async fn create_game(
    State(hub): State<Arc<Hub>>,
    State(quotas): State<Arc<Quotas>>,
    viewer: Viewer,
    body: Result<Json<NewGame>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(req) = body?;
    if req.best_of.is_some() || req.bribe_limit.is_some() {
        return Err(bad(
            "best_of and bribe_limit belong to matches (POST /api/matches)",
        ));
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
    let (settings, _, creator) = quotas
        .new_boards
        .run(&viewer.payer(), || req.settings(viewer.account.is_some()))
        .map_err(too_many)??;
    debug_assert_eq!(held_by(&settings), held);
    let against_engine = held == Some(Held::EngineGame);
    let mut seated = [None, None];
    seated[creator] = Some(viewer.seated(req.name.as_deref()));
    // The invited seat's token given in advance is its invitation (see `games::invitation`).
    let invite = matches!(req.opponent, Opponent::Invite {}).then(crate::token::seat_token);
    let mut tokens = [None, None];
    tokens[1 - creator] = invite.clone();
    let (id, tokens) = hub.create_game(settings, seated, tokens, None).await?;
    if let Some(r) = reservation {
        r.keep(&id, false).await;
    }
    if against_engine {
        // Its engine waits for a slot in this client's line (round robin between clients).
        hub.engine_slots.assign(&id, &viewer.client());
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "seat": creator + 1,
            "token": tokens[creator],
            "invite_token": invite,
            "invite_url": invite.as_ref().map(|t| format!("/game/{id}#join={t}")),
        })),
    )
        .into_response())
}

/// A listing's cursor as clients see it: `UPDATED_MS-ID`.
pub(crate) fn cursor_text(c: &Cursor) -> String {
    format!("{}-{}", c.updated_ms, c.id)
}

/// Reads the `before` of a listing.
pub(crate) fn parse_cursor(text: &str) -> ApiResult<Cursor> {
    let parsed = text.split_once('-').and_then(|(ms, id)| {
        let updated_ms = ms.parse().ok()?;
        crate::token::is_plausible_id(id).then(|| Cursor {
            updated_ms,
            id: id.to_string(),
        })
    });
    parsed.ok_or_else(|| {
        bad(format!(
            "before `{text}`: expected the `next` of an earlier page, such as \
             1764000000000-abcdEFGH2345"
        ))
    })
}

pub(crate) fn check_status(status: &Option<String>) -> ApiResult<Option<&str>> {
    match status.as_deref() {
        None | Some("") => Ok(None),
        Some(s @ ("open" | "live" | "finished")) => Ok(Some(s)),
        Some(other) => Err(bad(format!(
            "status `{other}`: expected open, live or finished"
        ))),
    }
}

/// The query of `GET /api/games`: a status, filters, and the page.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GamesQuery {
    status: Option<String>,
    limit: Option<i64>,
    /// The `next` of the page before.
    before: Option<String>,
    /// A player's name, in either seat (without regard to case).
    player: Option<String>,
    /// A board: `37`, `40`, `43`, `44`, `48`, `61` or `custom`.
    board: Option<String>,
    /// A rule set: `standard`, `blitz` or a custom one's name.
    rules: Option<String>,
    /// A result: `1-0`, `0-1`, `1/2-1/2` or `*` (aborted).
    result: Option<String>,
    /// `true`: only open seeks, as the lobby lists them (not invitations nor a match's games,
    /// which a client could make without limit to push the seeks off the page).
    lobby: Option<bool>,
}

/// The boards a game can be on, as listings name them.
const BOARDS: [&str; 7] = ["37", "40", "43", "44", "48", "61", "custom"];

async fn list_games(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<GamesQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let status = check_status(&q.status)?;
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let before = q.before.as_deref().map(parse_cursor).transpose()?;
    fn given(v: &Option<String>) -> Option<&str> {
        v.as_deref().map(str::trim).filter(|v| !v.is_empty())
    }
    let board = given(&q.board);
    if let Some(b) = board
        && !BOARDS.contains(&b)
    {
        return Err(bad(format!(
            "board `{b}`: expected one of {}",
            BOARDS.join(", ")
        )));
    }
    let result = given(&q.result);
    if let Some(r) = result
        && !["1-0", "0-1", "1/2-1/2", "*"].contains(&r)
    {
        return Err(bad(format!(
            "result `{r}`: expected 1-0, 0-1, 1/2-1/2 or * (aborted)"
        )));
    }
    let player = given(&q.player);
    if player.is_some_and(|p| p.chars().count() > 40) {
        return Err(bad("player: a name is at most 40 characters"));
    }
    let search = GameQuery {
        status,
        player,
        board,
        rules: given(&q.rules),
        result,
        lobby: q.lobby.unwrap_or(false),
    };
    let games = hub
        .store()
        .find_games(&search, before.as_ref(), limit)
        .await
        .map_err(HubError::from)?;
    // A full page may have a next one; a short page is the last.
    let next = (games.len() as i64 == limit)
        .then(|| games.last().map(|g| cursor_text(&Cursor::after(g))))
        .flatten();
    let list: Vec<_> = games
        .into_iter()
        .map(|g| {
            let settings: serde_json::Value = serde_json::from_str(&g.settings).unwrap_or_default();
            json!({
                "id": g.id,
                "match_id": g.match_id,
                "status": g.status,
                "result": g.result,
                "created_ms": g.created_ms,
                "updated_ms": g.updated_ms,
                "names": g.names,
                "board": g.board,
                "rules": g.rules,
                "turns": g.turns,
                "start": settings.get("start"),
                "clock": settings.get("clock"),
                "seats": settings.get("seats"),
                "open": settings.get("open"),
                "bribes": settings.get("bribes"),
                "repetition": settings.get("repetition"),
                "rated": settings.get("rated").cloned().unwrap_or(json!(false)),
                "pool": settings.get("pool"),
            })
        })
        .collect();
    Ok(Json(json!({ "games": list, "next": next })).into_response())
}

/// `?legal=list`: the state's legal moves spelled out (`legal_moves`) as well as compact.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateQuery {
    legal: Option<String>,
}

impl StateQuery {
    /// Whether the list is asked for; anything but `list` or `compact` is refused.
    fn list(query: Result<Query<StateQuery>, QueryRejection>) -> ApiResult<bool> {
        let Query(q) = query.map_err(bad_query)?;
        match q.legal.as_deref() {
            None | Some("compact") => Ok(false),
            Some("list") => Ok(true),
            Some(other) => Err(ApiError(
                StatusCode::BAD_REQUEST,
                format!("legal={other}: the legal moves come as `compact` (the default) or `list`"),
            )),
        }
    }
}

async fn get_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    query: Result<Query<StateQuery>, QueryRejection>,
) -> ApiResult<Json<GameView>> {
    let list = StateQuery::list(query)?;
    let token = bearer(&headers);
    let view = hub.view(&id, viewer.acting(token.as_deref()), list).await?;
    if token.is_some() && view.you.is_none() {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "this token holds no seat of the game".into(),
        ));
    }
    Ok(Json(view))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinBody {
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) token: Option<String>,
}

async fn join_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    viewer: Viewer,
    body: Result<Json<JoinBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    // Taking a stranger's seek (no invitation's token) waits after too many aborts.
    if b.token.is_none() {
        hub.quotas()
            .abort_wait(hub.store(), &viewer.payer(), crate::util::now_ms())
            .await?;
    }
    let (seat, token) = hub
        .join(&id, b.token.as_deref(), &viewer.seated(b.name.as_deref()))
        .await?;
    Ok(Json(json!({ "id": id, "seat": seat, "token": token })).into_response())
}

async fn act(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    query: Result<Query<StateQuery>, QueryRejection>,
    body: Result<Json<Action>, JsonRejection>,
) -> ApiResult<Response> {
    let list = StateQuery::list(query)?;
    let token = bearer(&headers);
    let who = viewer.acting(token.as_deref()).ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "acting needs the seat token (`Authorization: Bearer <token>`) or the session of \
             the seat's account"
                .into(),
        )
    })?;
    let Json(action) = body?;
    let version = hub.act(&id, who, action, &viewer.payer()).await?;
    let view = hub.view(&id, Some(who), list).await?;
    Ok(Json(json!({ "version": version, "state": view })).into_response())
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let room = hub.room(&id).await?;
    let text = crate::games::export::record_text(&room, &[]);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn sgf(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let room = hub.room(&id).await?;
    let text = crate::games::export::sgf_text(&room)
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    Ok((
        [(header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")],
        text,
    )
        .into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    /// A record in the project's format or a BoardSpace SGF.
    text: String,
}

async fn import(
    State(quotas): State<Arc<Quotas>>,
    viewer: Viewer,
    body: Result<Json<ImportBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    let crate::games::records::ReadGame { game, headers } = quotas
        .new_boards
        .run(&viewer.payer(), || crate::games::records::read(&b.text))
        .map_err(too_many)?
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    let moves = crate::games::records::move_texts(&game);
    let positions = game.positions();
    Ok(Json(json!({
        "headers": headers,
        "start": game.start().to_string(),
        "moves": moves,
        "positions": positions.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "position": game.position().to_string(),
        "result": game.outcome().map(|o| o.to_string()),
    }))
    .into_response())
}

/// What a new game with these settings holds of its creator's quota: a game against the engine,
/// a seek in the lobby, or an invitation not yet taken.
pub(crate) fn held_by(settings: &crate::games::model::GameSettings) -> Option<Held> {
    use crate::games::model::SeatKind;
    if settings
        .seats
        .iter()
        .any(|s| matches!(s, SeatKind::Engine { .. }))
    {
        Some(Held::EngineGame)
    } else if settings.open {
        Some(Held::Seek)
    } else {
        // A game made here with neither an engine nor an open seat has an invitation.
        Some(Held::Invitation)
    }
}

/// A refusal over a client's quota: 429.
pub(crate) fn too_many(message: String) -> ApiError {
    ApiError(StatusCode::TOO_MANY_REQUESTS, message)
}

/// The HTTP status of a refusal, shared by the HTTP answers and the WebSocket's `refused`.
pub(crate) fn status_of(e: &HubError) -> StatusCode {
    match e {
        HubError::NotFound(_) => StatusCode::NOT_FOUND,
        HubError::Forbidden(_) => StatusCode::FORBIDDEN,
        HubError::Refused(Refusal::IllegalMove(_)) => StatusCode::UNPROCESSABLE_ENTITY,
        HubError::Refused(Refusal::NotNow(_)) => StatusCode::CONFLICT,
        HubError::Refused(Refusal::BadRequest(_)) | HubError::BadRequest(_) => {
            StatusCode::BAD_REQUEST
        }
        HubError::Storage(_) | HubError::Elsewhere(_) | HubError::Busy(_) => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        HubError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
    }
}

impl From<HubError> for ApiError {
    fn from(e: HubError) -> ApiError {
        ApiError(status_of(&e), e.to_string())
    }
}

/// `GET /api/me/games`: the logged-in account's open and live games and matches.
async fn my_games(State(hub): State<Arc<Hub>>, viewer: Viewer) -> ApiResult<Response> {
    let account = viewer
        .account
        .ok_or_else(|| crate::accounts::routes::not_logged_in("GET /api/me/games"))?;
    let store = hub.store();
    let games = store
        .account_games(&account.id, &["open", "live"], 100)
        .await
        .map_err(HubError::from)?;
    let games: Vec<_> = games
        .iter()
        .map(|g| {
            let settings: serde_json::Value = serde_json::from_str(&g.settings).unwrap_or_default();
            let seat = (0..2).find(|&i| g.accounts[i].as_deref() == Some(&account.id));
            json!({
                "id": g.id,
                "match_id": g.match_id,
                "status": g.status,
                "seat": seat.map(|i| i + 1),
                "start": settings.get("start"),
                "clock": settings.get("clock"),
                "updated_ms": g.updated_ms,
            })
        })
        .collect();
    let rows = store
        .account_matches(&account.id, &["open", "live"], 100)
        .await
        .map_err(HubError::from)?;
    let mut matches = Vec::new();
    for row in rows {
        if let Ok((m, _)) = hub.load_match(&row.id).await {
            matches.push(
                hub.match_view(&m, Some(Credential::Account(&account.id)))
                    .await,
            );
        }
    }
    Ok(Json(json!({ "games": games, "matches": matches })).into_response())
}
