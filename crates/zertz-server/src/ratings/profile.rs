//! A player's profile: ratings per pool (with games played, the provisional mark and the
//! points of the rating graph), results by outcome and how games ended, the games being played
//! now, and the finished games page by page.

use serde::Serialize;

use crate::games::pools::Pool;
use crate::ratings::glicko::PROVISIONAL_DEVIATION;
use crate::ratings::store::PlayerStore;
use crate::ratings::store::{GameFilter, RatingPoint};
use crate::store::{PlayedGame, RatingRow, StoreError};
use crate::util::now_ms;

/// Points of a rating graph sent with a profile (the latest).
pub const GRAPH_POINTS: i64 = 500;

/// A rating as shown: rounded, its deviation grown for the time since the last game.
#[derive(Clone, Debug, Serialize)]
pub struct ShownRating {
    /// The pool's key.
    pub pool: String,
    /// The pool's name.
    pub pool_name: String,
    /// The rating, rounded.
    pub rating: i64,
    /// The deviation now, rounded.
    pub deviation: i64,
    /// Still provisional (deviation above 110).
    pub provisional: bool,
    /// Rated games in the pool.
    pub games: i64,
    /// When the last one ended.
    pub last_game_ms: i64,
    /// The rating after each rated game, oldest first.
    pub graph: Vec<RatingPoint>,
}

impl ShownRating {
    /// `row` as it stands at `now_ms`.
    pub fn of(row: &RatingRow, now_ms: i64, graph: Vec<RatingPoint>) -> ShownRating {
        let now = crate::ratings::policy::rating_of(row).after(now_ms - row.updated_ms);
        ShownRating {
            pool: row.pool.clone(),
            pool_name: Pool::parse(&row.pool).map_or_else(|| row.pool.clone(), |p| p.name()),
            rating: now.rating.round() as i64,
            deviation: now.deviation.round() as i64,
            provisional: now.deviation > PROVISIONAL_DEVIATION,
            games: row.games,
            last_game_ms: row.updated_ms,
            graph,
        }
    }
}

/// Counts of finished games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Results {
    /// All finished games (aborted ones are not counted).
    pub games: i64,
    /// Won.
    pub won: i64,
    /// Lost.
    pub lost: i64,
    /// Drawn.
    pub drawn: i64,
    /// By outcome and how the game ended: `[["win", "captures", 3], …]`.
    pub by_reason: Vec<(String, String, i64)>,
}

/// A game being played now.
#[derive(Clone, Debug, Serialize)]
pub struct Playing {
    /// The game.
    pub id: String,
    /// The player's seat.
    pub seat: Option<usize>,
    /// Its pool.
    pub pool: Option<String>,
    /// Rated.
    pub rated: bool,
}

/// A player's profile.
#[derive(Clone, Debug, Serialize)]
pub struct Profile {
    /// The name.
    pub name: String,
    /// When the account was made.
    pub created_ms: i64,
    /// Online now.
    pub online: bool,
    /// Ratings, by pool.
    pub ratings: Vec<ShownRating>,
    /// Results.
    pub results: Results,
    /// Games being played now.
    pub playing: Vec<Playing>,
}

/// The profile of account `id` named `name`.
pub async fn profile(
    store: &dyn PlayerStore,
    id: &str,
    name: &str,
    created_ms: i64,
    online: bool,
) -> Result<Profile, StoreError> {
    let now = now_ms();
    let mut ratings = Vec::new();
    for row in store.ratings_of(id).await? {
        let graph = store.rating_history(id, &row.pool, GRAPH_POINTS).await?;
        ratings.push(ShownRating::of(&row, now, graph));
    }
    let mut results = Results::default();
    for (outcome, reason, n) in store.results_of(id).await? {
        results.games += n;
        match outcome.as_str() {
            "win" => results.won += n,
            "loss" => results.lost += n,
            _ => results.drawn += n,
        }
        results.by_reason.push((outcome, reason, n));
    }
    let playing = store
        .account_games(id, &["live"], 50)
        .await?
        .into_iter()
        .map(|g| {
            let settings: serde_json::Value = serde_json::from_str(&g.settings).unwrap_or_default();
            Playing {
                seat: (0..2)
                    .find(|&i| g.accounts[i].as_deref() == Some(id))
                    .map(|i| i + 1),
                pool: settings["pool"].as_str().map(str::to_string),
                rated: settings["rated"].as_bool().unwrap_or(false),
                id: g.id,
            }
        })
        .collect();
    Ok(Profile {
        name: name.to_string(),
        created_ms,
        online,
        ratings,
        results,
        playing,
    })
}

/// A page of an account's finished games, and the `next` that continues it (when the page is
/// full).
pub async fn games_page(
    store: &dyn PlayerStore,
    id: &str,
    filter: &GameFilter,
    before: Option<(i64, String)>,
    limit: i64,
) -> Result<(Vec<PlayedGame>, Option<String>), StoreError> {
    let games = store.played_games(id, filter, before, limit).await?;
    let next = (games.len() as i64 == limit)
        .then(|| {
            games
                .last()
                .map(|g| format!("{}-{}", g.ended_ms, g.game_id))
        })
        .flatten();
    Ok((games, next))
}
