//! The routes of events (docs/tournaments.md, "Running an event on the server"):
//! `GET /api/tournaments[?status=…]` lists them, `POST /api/tournaments` creates one (an
//! account), `GET /api/tournaments/{id}` shows one (settings, entries, rounds with their
//! games, standings with tie-breaks); `POST /api/tournaments/{id}/join`, `/withdraw`, `/bye`
//! (Swiss) and `/first` (knockout: who begins when it is theirs to choose) act for the player,
//! `/start`, `/pause`, `/resume`, `/remove` and `/end` for the organiser; `/trf` and
//! `/games.sgf` download its report and its games; `/tournament/{id}` is the event's page.
//! Changes need the session cookie, from this site's pages (the cross-site check every route
//! passes).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRef, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::accounts::Account;
use crate::accounts::viewer::Viewer;
use crate::http::error::{ApiError, ApiResult, bad, bad_query};
use crate::tournaments::model::{Format, Settings, Stored, bye, status};
use crate::tournaments::new_event::NewEvent;
use crate::tournaments::pair;
use crate::tournaments::{TournamentError, Tournaments};

/// The routes of events.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<Tournaments>: FromRef<S>,
{
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
        .route("/api/tournaments/{id}/start", post(start))
        .route("/api/tournaments/{id}/bye", post(ask_bye))
        .route("/api/tournaments/{id}/first", post(choose_first))
        .route("/api/tournaments/{id}/remove", post(remove))
        .route("/api/tournaments/{id}/engines", post(enter_engine))
        .route("/api/tournaments/{id}/end", post(end))
        .route("/api/tournaments/{id}/pause", post(pause))
        .route("/api/tournaments/{id}/resume", post(resume))
        .route("/api/tournaments/{id}/trf", get(trf))
        .route("/api/tournaments/{id}/games.sgf", get(games_sgf))
        .route("/tournament/{id}", get(event_page))
}

/// An event's page; an event that does not exist gets the same page (it says so) with status
/// 404.
async fn event_page(
    State(events): State<Arc<Tournaments>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    match events.get(&id).await {
        Err(TournamentError::NotFound(_)) => crate::http::pages::missing("tournament.html"),
        _ => crate::http::pages::page("tournament.html", &headers),
    }
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        let status = match &e {
            TournamentError::NotFound(_) => StatusCode::NOT_FOUND,
            TournamentError::Invalid(_) => StatusCode::BAD_REQUEST,
            TournamentError::Forbidden(_) => StatusCode::FORBIDDEN,
            TournamentError::Conflict(_) => StatusCode::CONFLICT,
            TournamentError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            TournamentError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}

fn logged_in(viewer: Viewer, doing: &str) -> ApiResult<Account> {
    viewer.account.ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            format!("{doing} needs an account: log in first"),
        )
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    status: Option<String>,
}

async fn list(
    State(events): State<Arc<Tournaments>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(q) = query.map_err(bad_query)?;
    if let Some(s) = &q.status
        && !status::ALL.contains(&s.as_str())
    {
        return Err(bad(format!(
            "status `{s}`: expected registering, running or finished"
        )));
    }
    let items: Vec<Value> = events
        .list(q.status.as_deref())
        .await?
        .into_iter()
        .map(|(t, players)| {
            let settings: Option<Settings> = serde_json::from_str(&t.settings).ok();
            json!({
                "id": t.id,
                "name": t.name,
                "format": t.format,
                "status": t.status,
                "organiser": t.organiser_name,
                "players": players,
                "max_players": t.max_players,
                "start_ms": t.starts_ms,
                "round": t.round,
                "rated": settings.map(|s| s.rated),
                "created_ms": t.created_ms,
                "url": format!("/api/tournaments/{}", t.id),
            })
        })
        .collect();
    Ok(Json(json!({ "tournaments": items })))
}

async fn create(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    body: Result<Json<NewEvent>, JsonRejection>,
) -> ApiResult<Response> {
    let address = viewer.address;
    let account = logged_in(viewer, "creating an event")?;
    let Json(body) = body?;
    let id = events.create(&account, address, &body).await?;
    let stored = events.get(&id).await?;
    Ok((StatusCode::CREATED, Json(view(&stored))).into_response())
}

async fn show(
    State(events): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    Ok(Json(view(&events.get(&id).await?)))
}

async fn join(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "joining an event")?;
    // The account's age counts for an event that asks for accounts of some days.
    events.join(&id, &account, account.created_ms).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

async fn withdraw(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "withdrawing from an event")?;
    events.withdraw(&id, &account).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

/// The body of `POST /api/tournaments/{id}/bye`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ByeBody {
    /// The round to sit out.
    round: u32,
    /// `half`, `zero`, or `none` to take the request back.
    points: String,
}

async fn ask_bye(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<ByeBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "asking for a bye")?;
    let Json(body) = body?;
    let points = match body.points.as_str() {
        "half" => Some(bye::HALF),
        "zero" => Some(bye::ZERO),
        "none" => None,
        other => {
            return Err(bad(format!(
                "points `{other}`: expected half, zero or none"
            )));
        }
    };
    events.ask_bye(&id, &account, body.round, points).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

/// The body of `POST /api/tournaments/{id}/first`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FirstBody {
    /// `me` (the chooser begins) or `opponent`.
    first: String,
}

async fn choose_first(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<FirstBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "choosing who begins a match")?;
    let Json(body) = body?;
    let gives_first = match body.first.as_str() {
        "me" => false,
        "opponent" => true,
        other => {
            return Err(bad(format!("first `{other}`: expected me or opponent")));
        }
    };
    events.choose_first(&id, &account, gives_first).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

/// The body of `POST /api/tournaments/{id}/engines`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineBody {
    /// The engine's level, 1 to 10.
    level: u8,
}

/// The organiser enters one of the engine's levels as a player.
async fn enter_engine(
    State(events): State<Arc<Tournaments>>,
    State(accounts): State<Arc<crate::accounts::Accounts>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<EngineBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "entering the engine")?;
    let Json(body) = body?;
    let engine = accounts.engine_account(body.level).await?;
    events.enter_engine(&id, &account, &engine).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

/// The body of `POST /api/tournaments/{id}/remove`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RemoveBody {
    /// The player's name.
    name: String,
}

async fn remove(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<RemoveBody>, JsonRejection>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "removing a player")?;
    let Json(body) = body?;
    events.remove_by(&id, &account, &body.name).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

async fn end(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "ending an event")?;
    events.end_by(&id, &account).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

async fn pause(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "pausing an event")?;
    events.pause_by(&id, &account, true).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

async fn resume(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "resuming an event")?;
    events.pause_by(&id, &account, false).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

async fn start(
    State(events): State<Arc<Tournaments>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = logged_in(viewer, "starting an event")?;
    events.start_by(&id, &account).await?;
    Ok(Json(view(&events.get(&id).await?)))
}

/// A download: `text` as `content_type`, saved as `file`.
fn download(text: String, content_type: &'static str, file: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"{file}\""))
                    .unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        text,
    )
        .into_response()
}

async fn trf(
    State(events): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let text = events.trf(&id).await?;
    Ok(download(
        text,
        "text/plain; charset=utf-8",
        format!("{id}.trf"),
    ))
}

async fn games_sgf(
    State(events): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let text = events.games_sgf(&id).await?;
    Ok(download(
        text,
        "application/x-go-sgf; charset=utf-8",
        format!("{id}.sgf"),
    ))
}

/// An event as shown: settings, entries, rounds with their games and results, and the
/// standings after the rounds whose results are all in.
pub fn view(stored: &Stored) -> Value {
    let t = &stored.row;
    let settings: Option<Settings> = serde_json::from_str(&t.settings).ok();
    let names: HashMap<&str, &str> = stored
        .entries
        .iter()
        .map(|e| (e.account_id.as_str(), e.name.as_str()))
        .collect();
    let name = |account: &str| names.get(account).copied().unwrap_or(account).to_string();
    let entered = stored.entries.iter().filter(|e| !e.withdrawn).count() as u32;
    let rounds = match (Format::parse(&t.format), &settings) {
        (Some(format), Some(s)) => {
            let players = if t.status == status::REGISTERING {
                entered
            } else {
                pair::players(stored).len() as u32
            };
            // A knockout's bracket grows with its entries: no count before there are two. An
            // arena has waves, not rounds.
            (format != Format::Arena && (format != Format::Knockout || players >= 2))
                .then(|| pair::total_rounds(format, s, players))
        }
        _ => None,
    };
    let entries: Vec<Value> = stored
        .entries
        .iter()
        .map(|e| {
            // The byes asked for rounds not paired yet (a paired one is in its round).
            let byes: Vec<Value> = stored
                .byes
                .iter()
                .filter(|b| b.account_id == e.account_id && b.round > t.round)
                .map(|b| json!({"round": b.round, "points": b.points}))
                .collect();
            json!({
                "name": e.name,
                "rating": e.rating.round(),
                "number": e.number,
                "withdrawn": e.withdrawn,
                "byes": byes,
                // A knockout: whom this player has begin when it is theirs to choose.
                "first": if e.gives_first { "opponent" } else { "me" },
                // An engine level entered by the organiser: its level, else null.
                "engine": crate::accounts::engine::level_of(&e.account_id),
            })
        })
        .collect();
    let knockout = Format::parse(&t.format) == Some(Format::Knockout);
    let arena = Format::parse(&t.format) == Some(Format::Arena);
    let mut by_round: Vec<(i64, Vec<Value>)> = Vec::new();
    for p in &stored.pairings {
        // A knockout's board is a best-of-3 match, with a page of its own.
        let page = if knockout { "match" } else { "game" };
        let board = json!({
            "board": p.board,
            "white": name(&p.white),
            "black": p.black.as_deref().map(name),
            "game": p.game_id,
            "url": p.game_id.as_ref().map(|g| format!("/{page}/{g}")),
            "result": p.result,
        });
        match by_round.last_mut() {
            Some((r, boards)) if *r == p.round => boards.push(board),
            _ => by_round.push((p.round, vec![board])),
        }
    }
    let pairings: Vec<Value> = by_round
        .into_iter()
        .map(|(round, boards)| json!({"round": round, "boards": boards}))
        .collect();
    let (after, standings) = if knockout {
        // Places by the round each player went out in (the winner 1, the finalist 2, the
        // semifinal losers 3…), those still in first.
        let lines: Vec<Value> = crate::tournaments::knockout::placings(stored, rounds.unwrap_or(1))
            .iter()
            .map(|p| {
                json!({
                    "rank": p.rank,
                    "name": p.player.name,
                    "number": p.player.number,
                    "out_in": p.out_in,
                    "wins": p.wins,
                    "withdrawn": p.player.withdrawn,
                })
            })
            .collect();
        (pair::rounds_done(stored), lines)
    } else if arena {
        (0, arena_standings(stored))
    } else {
        swiss_standings(stored)
    };
    let ends_ms = settings
        .as_ref()
        .filter(|_| arena)
        .and_then(|s| crate::tournaments::arena::ends_ms(stored, s));
    json!({
        "id": t.id,
        "name": t.name,
        "format": t.format,
        "status": t.status,
        "organiser": t.organiser_name,
        "clock_text": settings.as_ref().map(|s| s.clock.describe()),
        "settings": settings,
        "start_ms": t.starts_ms,
        "max_players": t.max_players,
        "players": entered,
        "round": t.round,
        "rounds": rounds,
        "entries": entries,
        "pairings": pairings,
        "standings": {"after_round": after, "lines": standings},
        "ends_ms": ends_ms,
        "created_ms": t.created_ms,
    })
}

/// An arena's table: points, the streak that doubles them, each game's points (doubled,
/// berserk), whether the player is in a game now or away.
fn arena_standings(stored: &Stored) -> Vec<Value> {
    crate::tournaments::arena::standings(stored)
        .iter()
        .map(|l| {
            let sheet: Vec<Value> = l
                .sheet
                .iter()
                .map(|g| {
                    json!({
                        "points": g.points,
                        "outcome": g.outcome,
                        "doubled": g.doubled,
                        "berserk": g.berserk,
                    })
                })
                .collect();
            json!({
                "rank": l.rank,
                "name": l.player.name,
                "number": l.player.number,
                "rating": l.player.rating.round(),
                "points": l.score.points,
                "games": l.score.games,
                "wins": l.wins,
                "streak": l.score.streak,
                "on_fire": l.score.on_fire(),
                "berserk_wins": l.score.berserk_wins,
                "sheet": sheet,
                "playing": l.playing,
                "away": l.player.withdrawn,
            })
        })
        .collect()
}

/// The standings of a Swiss or round robin after the rounds whose results are all in, with
/// their tie-breaks.
fn swiss_standings(stored: &Stored) -> (u32, Vec<Value>) {
    let (after, lines) = pair::standings(stored);
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| {
            let s = &l.standing;
            json!({
                "rank": l.rank,
                "name": l.player.name,
                "number": l.player.number,
                "points": f64::from(s.points) / 2.0,
                "buchholz_cut1": f64::from(s.buchholz_cut1) / 2.0,
                "sonneborn_berger": f64::from(s.sonneborn_berger) / 4.0,
                "direct_encounter": f64::from(s.direct_encounter) / 2.0,
                "wins": s.wins,
                "withdrawn": l.player.withdrawn,
            })
        })
        .collect();
    (after, lines)
}
