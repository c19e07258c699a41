//! The players' routes: profiles, their finished games page by page, and the leaderboard.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::Accounts;
use crate::accounts::store::AccountRow;
use crate::games::hub::HubError;
use crate::games::pools::Pool;
use crate::http::error::{ApiError, ApiResult, bad, bad_query};
use crate::ratings::leaderboard::{TOP, leaders};
use crate::ratings::profile::{games_page, profile};
use crate::ratings::store::GameFilter;
use crate::ratings::store::PlayerStore;
use axum::extract::FromRef;

/// The players' routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<dyn PlayerStore>: FromRef<S>,
{
    Router::new()
        .route("/api/players/{name}", get(player))
        .route("/api/players/{name}/games", get(player_games))
        .route("/api/leaderboard", get(leaderboard))
}

/// The account named `name`, or 404.
async fn account(accounts: &Accounts, name: &str) -> ApiResult<AccountRow> {
    accounts
        .named(name)
        .await?
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no player is named {name}")))
}

/// The pools' keys, for error messages.
fn pool_keys() -> String {
    Pool::all()
        .iter()
        .map(Pool::key)
        .collect::<Vec<_>>()
        .join(", ")
}

fn parse_pool(key: &str) -> ApiResult<Pool> {
    Pool::parse(key).ok_or_else(|| bad(format!("pool `{key}`: expected one of {}", pool_keys())))
}

async fn player(
    State(store): State<Arc<dyn PlayerStore>>,
    State(accounts): State<Arc<Accounts>>,
    Path(name): Path<String>,
) -> ApiResult<Response> {
    let row = account(&accounts, &name).await?;
    let (online, _) = accounts.online.names(usize::MAX);
    let is_online = online.iter().any(|n| n == &row.name);
    let p = profile(
        store.as_ref(),
        &row.id,
        &row.name,
        row.created_ms,
        is_online,
    )
    .await
    .map_err(HubError::from)?;
    Ok(Json(p).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GamesQuery {
    result: Option<String>,
    opponent: Option<String>,
    board: Option<String>,
    pool: Option<String>,
    before: Option<String>,
    limit: Option<i64>,
}

/// The boards a game can be on.
const BOARDS: [&str; 7] = ["37", "40", "43", "44", "48", "61", "custom"];

async fn player_games(
    State(store): State<Arc<dyn PlayerStore>>,
    State(accounts): State<Arc<Accounts>>,
    Path(name): Path<String>,
    query: Result<Query<GamesQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let row = account(&accounts, &name).await?;
    let outcome = match q.result.as_deref() {
        None | Some("") => None,
        Some(r @ ("win" | "loss" | "draw")) => Some(r.to_string()),
        Some(other) => {
            return Err(bad(format!("result `{other}`: expected win, loss or draw")));
        }
    };
    let opponent = match q.opponent.as_deref().filter(|o| !o.is_empty()) {
        None => None,
        Some(o) => Some(
            accounts
                .named(o)
                .await?
                .ok_or_else(|| bad(format!("opponent `{o}`: no player has that name")))?
                .id,
        ),
    };
    let board = match q.board.as_deref().filter(|b| !b.is_empty()) {
        None => None,
        Some(b) if BOARDS.contains(&b) => Some(b.to_string()),
        Some(b) => {
            return Err(bad(format!(
                "board `{b}`: expected one of {}",
                BOARDS.join(", ")
            )));
        }
    };
    let pool = q
        .pool
        .as_deref()
        .filter(|p| !p.is_empty())
        .map(|p| parse_pool(p).map(|p| p.key()))
        .transpose()?;
    let before = match q.before.as_deref().filter(|b| !b.is_empty()) {
        None => None,
        Some(text) => Some(
            text.split_once('-')
                .and_then(|(ms, id)| {
                    let ms = ms.parse::<i64>().ok()?;
                    crate::token::is_plausible_id(id).then(|| (ms, id.to_string()))
                })
                .ok_or_else(|| {
                    bad(format!(
                        "before `{text}`: expected the `next` of an earlier page"
                    ))
                })?,
        ),
    };
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let filter = GameFilter {
        outcome,
        opponent,
        board,
        pool,
    };
    let (games, next) = games_page(store.as_ref(), &row.id, &filter, before, limit)
        .await
        .map_err(HubError::from)?;
    Ok(Json(json!({ "name": row.name, "games": games, "next": next })).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderboardQuery {
    pool: Option<String>,
}

/// With `pool`, its top 100; without, the top 10 of every pool.
async fn leaderboard(
    State(store): State<Arc<dyn PlayerStore>>,
    query: Result<Query<LeaderboardQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let pools = match q.pool.as_deref().filter(|p| !p.is_empty()) {
        Some(key) => vec![parse_pool(key)?],
        None => Pool::all(),
    };
    let limit = if pools.len() == 1 { TOP } else { 10 };
    let mut out = Vec::new();
    for pool in pools {
        let players = leaders(store.as_ref(), &pool, limit)
            .await
            .map_err(HubError::from)?;
        out.push(json!({ "pool": pool.key(), "name": pool.name(), "players": players }));
    }
    Ok(Json(json!({ "pools": out })).into_response())
}
