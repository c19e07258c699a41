//! The HTTP and WebSocket API (JSON). Documented in docs/server.md.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use zertz::{Layout, Position, Repetition, RuleSet, Rules};

use crate::clock::ClockSpec;
use crate::hub::{Hub, HubError};
use crate::model::{Action, GameSettings, SeatKind};
use crate::room::Refusal;
use crate::store::Cursor;
use crate::view::GameView;

/// Largest request body accepted.
pub const MAX_BODY: usize = 256 * 1024;

/// The routes of the API, on `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/api/health", get(|| async { Json(json!({"ok": true})) }))
        .route("/api/stats", get(stats))
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/action", post(act))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/sgf", get(sgf))
        .route("/api/import", post(import))
        .route("/api/matches", post(create_match).get(list_matches))
        .route("/api/matches/{id}", get(get_match))
        .route("/api/matches/{id}/join", post(join_match))
        .route("/api/matches/{id}/resign", post(resign_match))
        .route("/api/matches/{id}/record", get(match_record))
        .route("/api/matches/{id}/ws", get(match_ws))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such endpoint".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
}

/// An error answer: a status and `{"error": message}`.
pub struct ApiError(StatusCode, String);

fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
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
        HubError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl From<HubError> for ApiError {
    fn from(e: HubError) -> ApiError {
        ApiError(status_of(&e), e.to_string())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = match &r {
            JsonRejection::BytesRejection(_) => StatusCode::PAYLOAD_TOO_LARGE,
            JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, format!("request body: {}", r.body_text()))
    }
}

type ApiResult<T> = Result<T, ApiError>;

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// The seat token from `Authorization: Bearer …`.
fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}

/// Who the opponent of a new game is.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Opponent {
    /// The engine at a level.
    Engine {
        /// 1 to 10.
        level: u8,
    },
    /// A friend, through a link. (Braces, not a unit variant, so that unknown fields are
    /// refused: see `Action`.)
    Invite {},
    /// Anyone, from the lobby.
    Open {},
}

/// The creator's colour choice.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatChoice {
    /// Move first.
    #[default]
    First,
    /// Move second.
    Second,
    /// Drawn by lot.
    Random,
}

/// The body of `POST /api/games` and the game part of `POST /api/matches`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Board: `37`, `40`, `43`, `44`, `48`, `61` or `custom:a1,b2,…`.
    #[serde(default)]
    pub board: Option<String>,
    /// Rule set: `standard`, `blitz` or `custom:W/G/B:w/g/b/each`.
    #[serde(default)]
    pub rules: Option<String>,
    /// A start position string instead of board and rules.
    #[serde(default)]
    pub position: Option<String>,
    /// A whole game to continue (a record in the project's format or a BoardSpace SGF),
    /// instead of a position or a board and rules: its turns are replayed and kept.
    #[serde(default)]
    pub record: Option<String>,
    /// The no-repetition house rule (default: off, or as the record says).
    #[serde(default)]
    pub no_repetition: Option<bool>,
    /// The bribe-to-pass house rule (default: off, or as the record says).
    #[serde(default)]
    pub bribes: Option<bool>,
    /// The clock (no clock if absent).
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// Casual (takebacks allowed); default true.
    #[serde(default)]
    pub casual: Option<bool>,
    /// Who plays against the creator.
    pub opponent: Opponent,
    /// The creator's seat.
    #[serde(default)]
    pub seat: SeatChoice,
    /// The creator's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Matches only: best of N (odd).
    #[serde(default)]
    pub best_of: Option<u32>,
    /// Matches only: bribes per player per match (default 3).
    #[serde(default)]
    pub bribe_limit: Option<u32>,
}

impl NewGame {
    fn settings(&self) -> ApiResult<(GameSettings, SeatKind, usize)> {
        let given = [
            self.record.is_some(),
            self.position.is_some(),
            self.board.is_some() || self.rules.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(bad(
                "give one of: a record, a position, or a board and rules (not several)",
            ));
        }
        let mut repetition = Repetition::ThreefoldDraw;
        let mut bribes = false;
        let mut history = None;
        let start = match (&self.record, &self.position) {
            (Some(text), _) => {
                let game = self.continued(text)?;
                (repetition, bribes) = (game.rules().repetition, game.rules().bribes);
                if !game.turns().is_empty() {
                    history = Some(crate::records::history_text(&game));
                }
                *game.start()
            }
            (None, Some(text)) => {
                let p: Position = text.parse().map_err(|e| bad(format!("position: {e}")))?;
                if p.is_over() {
                    return Err(bad("position: the game is already over in this position"));
                }
                p
            }
            (None, None) => {
                let board = self.board.as_deref().unwrap_or("37");
                let layout =
                    Layout::from_spec(board).map_err(|e| bad(format!("board `{board}`: {e}")))?;
                let rules = self.rules.as_deref().unwrap_or("standard");
                let set: RuleSet = rules
                    .parse()
                    .map_err(|e| bad(format!("rules `{rules}`: {e}")))?;
                Position::new(layout, set)
            }
        };
        let clock = self.clock.unwrap_or(ClockSpec::Unlimited {});
        clock.validate().map_err(|e| bad(e.to_string()))?;
        let opponent = match self.opponent {
            Opponent::Engine { level } => {
                if !(1..=10).contains(&level) {
                    return Err(bad(format!("engine level must be 1 to 10, not {level}")));
                }
                SeatKind::Engine { level }
            }
            Opponent::Invite {} | Opponent::Open {} => SeatKind::Human,
        };
        let creator = match self.seat {
            SeatChoice::First => 0,
            SeatChoice::Second => 1,
            SeatChoice::Random => {
                let mut b = [0u8; 1];
                getrandom::fill(&mut b).map_err(|e| bad(e.to_string()))?;
                usize::from(b[0] & 1)
            }
        };
        let mut seats = [SeatKind::Human, SeatKind::Human];
        seats[1 - creator] = opponent.clone();
        if let Some(forbid) = self.no_repetition {
            repetition = if forbid {
                Repetition::Forbidden
            } else {
                Repetition::ThreefoldDraw
            };
        }
        Ok((
            GameSettings {
                start: start.to_string(),
                repetition: repetition.name().into(),
                bribes: self.bribes.unwrap_or(bribes),
                clock,
                casual: self.casual.unwrap_or(true),
                seats,
                open: matches!(self.opponent, Opponent::Open {}),
                history,
                match_game: None,
            },
            opponent,
            creator,
        ))
    }

    /// The game of the record `text`, replayed under the rules of the new game (the record's
    /// own, unless `no_repetition` or `bribes` say otherwise). Refused when the rules end it:
    /// there is nothing to continue. (A record that ended by resignation, time or agreement
    /// goes on from its last position.)
    fn continued(&self, text: &str) -> ApiResult<zertz::Game> {
        let read = crate::records::read(text).map_err(bad)?;
        let own = read.game.rules();
        let rules = Rules {
            set: own.set,
            repetition: match self.no_repetition {
                Some(true) => Repetition::Forbidden,
                Some(false) => Repetition::ThreefoldDraw,
                None => own.repetition,
            },
            bribes: self.bribes.unwrap_or(own.bribes),
        };
        let game = crate::records::replay_under(&read.game, rules)
            .map_err(|e| bad(format!("record: {e}")))?;
        if let Some(outcome) = game.outcome() {
            return Err(bad(format!(
                "record: the game is over ({outcome}): there is nothing to continue"
            )));
        }
        Ok(game)
    }
}

/// What an operator may want to watch: the games in memory now (docs/server.md, "Memory").
async fn stats(State(hub): State<Arc<Hub>>) -> Json<serde_json::Value> {
    Json(json!({ "games_in_memory": hub.games_in_memory() }))
}

async fn create_game(
    State(hub): State<Arc<Hub>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(req) = body?;
    if req.best_of.is_some() || req.bribe_limit.is_some() {
        return Err(bad(
            "best_of and bribe_limit belong to matches (POST /api/matches)",
        ));
    }
    let (settings, _, creator) = req.settings()?;
    let mut names = [None, None];
    names[creator] = Some(req.name.clone().unwrap_or_default());
    let mut tokens = [None, None];
    if matches!(req.opponent, Opponent::Invite {}) {
        tokens[1 - creator] = Some(crate::token::seat_token());
    }
    let (id, tokens) = hub.create_game(settings, names, tokens, None).await?;
    let invite = matches!(req.opponent, Opponent::Invite {})
        .then(|| tokens[1 - creator].clone())
        .flatten();
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    status: Option<String>,
    limit: Option<i64>,
    /// The `next` of the page before (games only).
    before: Option<String>,
}

/// A listing's cursor as clients see it: `UPDATED_MS-ID`.
fn cursor_text(c: &Cursor) -> String {
    format!("{}-{}", c.updated_ms, c.id)
}

/// Reads the `before` of a listing.
fn parse_cursor(text: &str) -> ApiResult<Cursor> {
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

fn check_status(status: &Option<String>) -> ApiResult<Option<&str>> {
    match status.as_deref() {
        None | Some("") => Ok(None),
        Some(s @ ("open" | "live" | "finished")) => Ok(Some(s)),
        Some(other) => Err(bad(format!(
            "status `{other}`: expected open, live or finished"
        ))),
    }
}

async fn list_games(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(|e| bad(e.body_text()))?;
    let status = check_status(&q.status)?;
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let before = q.before.as_deref().map(parse_cursor).transpose()?;
    let games = hub
        .store()
        .list_games(status, before.as_ref(), limit)
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
                "start": settings.get("start"),
                "clock": settings.get("clock"),
                "seats": settings.get("seats"),
                "open": settings.get("open"),
                "bribes": settings.get("bribes"),
                "repetition": settings.get("repetition"),
            })
        })
        .collect();
    Ok(Json(json!({ "games": list, "next": next })).into_response())
}

async fn get_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<GameView>> {
    let token = bearer(&headers);
    let view = hub.view(&id, token.as_deref()).await?;
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
struct JoinBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

async fn join_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Result<Json<JoinBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    let (seat, token) = hub
        .join(&id, b.token.as_deref(), b.name.as_deref().unwrap_or(""))
        .await?;
    Ok(Json(json!({ "id": id, "seat": seat, "token": token })).into_response())
}

async fn act(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Action>, JsonRejection>,
) -> ApiResult<Response> {
    let token = bearer(&headers).ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "acting needs the seat token: `Authorization: Bearer <token>`".into(),
        )
    })?;
    let Json(action) = body?;
    let version = hub.act(&id, &token, action).await?;
    let view = hub.view(&id, Some(&token)).await?;
    Ok(Json(json!({ "version": version, "state": view })).into_response())
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let room = hub.room(&id).await?;
    let text = crate::records::record_text(&room, &[]);
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn sgf(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let room = hub.room(&id).await?;
    let info = zertz::boardspace::ExportInfo {
        players: room
            .names
            .clone()
            .map(|n| n.unwrap_or_else(|| "player".into())),
        date: None,
        name: Some(id.clone()),
    };
    let text = zertz::boardspace::export(&room.game, &info)
        .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
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

async fn import(body: Result<Json<ImportBody>, JsonRejection>) -> ApiResult<Response> {
    let Json(b) = body?;
    let crate::records::ReadGame { game, headers } =
        crate::records::read(&b.text).map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    let moves = crate::room::move_texts(&game);
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

async fn create_match(
    State(hub): State<Arc<Hub>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(req) = body?;
    let (mut settings, opponent, creator_seat) = req.settings()?;
    settings.seats = [SeatKind::Human, SeatKind::Human];
    let best_of = req.best_of.unwrap_or(3);
    let (id, token, invite) = hub
        .create_match(crate::matches::NewMatch {
            template: settings,
            best_of,
            creator: req.name.clone().unwrap_or_default(),
            opponent,
            first: creator_seat,
            bribe_limit: req.bribe_limit.unwrap_or(3),
            open: matches!(req.opponent, Opponent::Open {}),
        })
        .await?;
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

async fn list_matches(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(|e| bad(e.body_text()))?;
    let status = check_status(&q.status)?;
    if q.before.is_some() {
        return Err(bad("before: matches are listed in one page (at most 500)"));
    }
    let rows = hub
        .store()
        .list_matches(status, q.limit.unwrap_or(50).clamp(1, 500))
        .await
        .map_err(HubError::from)?;
    let mut list = Vec::new();
    for row in rows {
        if let Ok((m, _)) = hub.load_match(&row.id).await {
            list.push(hub.match_view(&m, None).await);
        }
    }
    Ok(Json(json!({ "matches": list })).into_response())
}

async fn get_match(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (m, _) = hub.load_match(&id).await?;
    let token = bearer(&headers);
    let view = hub.match_view(&m, token.as_deref()).await;
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
    body: Result<Json<JoinBody>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    let (index, token) = hub
        .join_match(&id, b.token.as_deref(), b.name.as_deref().unwrap_or(""))
        .await?;
    let (m, _) = hub.load_match(&id).await?;
    let view = hub.match_view(&m, Some(&token)).await;
    Ok(Json(json!({ "id": id, "player": index, "token": token, "match": view })).into_response())
}

async fn resign_match(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let token = bearer(&headers).ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "resigning a match needs the participant's token: `Authorization: Bearer <token>`"
                .into(),
        )
    })?;
    let m = hub.resign_match(&id, &token).await?;
    Ok(Json(hub.match_view(&m, Some(&token)).await).into_response())
}

async fn match_record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = hub.match_record(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchWsQuery {
    token: Option<String>,
}

async fn match_ws(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    query: Result<Query<MatchWsQuery>, axum::extract::rejection::QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(|e| bad(e.body_text()))?;
    // Subscribed before the state is read, so that no change falls between the two.
    let changes = hub.watch_match(&id);
    let first = hub.load_match(&id).await;
    let first = match first {
        Ok((m, _)) => m,
        Err(e) => {
            drop(changes);
            hub.unwatch_match(&id);
            return Err(e.into());
        }
    };
    if let Some(t) = &q.token
        && first.participant(t).is_none()
    {
        drop(changes);
        hub.unwatch_match(&id);
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "this token holds no place in the match".into(),
        ));
    }
    Ok(upgrade
        .max_message_size(crate::ws::MAX_FRAME)
        .max_frame_size(crate::ws::MAX_FRAME)
        .read_buffer_size(8 * 1024)
        .on_upgrade(move |socket| crate::match_ws::serve(hub, first, q.token, changes, socket)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WsQuery {
    token: Option<String>,
    since: Option<i64>,
}

async fn ws(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    query: Result<Query<WsQuery>, axum::extract::rejection::QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(|e| bad(e.body_text()))?;
    // Check the game and the token before upgrading, so errors are plain HTTP answers.
    let (live, seat, receiver) = hub.connect(&id, q.token.as_deref()).await?;
    Ok(upgrade
        // Messages over the limit are refused by `ws::serve` with a close frame that says so;
        // the library's own limits are set higher, so that such a frame is read to its end.
        .max_message_size(crate::ws::MAX_FRAME)
        .max_frame_size(crate::ws::MAX_FRAME)
        // Actions are small; tungstenite zero-fills the whole read buffer on every read.
        .read_buffer_size(8 * 1024)
        .on_upgrade(move |socket| async move {
            crate::ws::serve(hub, live, seat, q.token, q.since, receiver, socket).await;
        }))
}
