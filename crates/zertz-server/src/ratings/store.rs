//! What ratings and profiles store: each account's rating per pool, the points of its rating
//! graph, and its finished games. A game's end is written with its result (see
//! [`crate::store::RowUpdate::ended`]): the rated update reads both ratings and writes both inside that
//! one transaction, so that a crash never leaves a result without its ratings or the reverse.

use async_trait::async_trait;
use serde::Serialize;

use crate::store::StoreError;
use crate::ratings::glicko::{self, Rating};

/// A finished game as its players' records and ratings keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// The game.
    pub game: String,
    /// When it ended.
    pub ended_ms: i64,
    /// The accounts in seats 1 and 2 (none for guests and engines).
    pub accounts: [Option<String>; 2],
    /// The names shown in seats 1 and 2.
    pub names: [String; 2],
    /// What seat 1 scored: 1 a win, ½ a draw, 0 a loss.
    pub score_one: f64,
    /// How it ended: `captures`, `isolation`, `no_legal_move`, `resignation`, `time`,
    /// `abandonment`, `repetition`, `agreement`.
    pub reason: String,
    /// The board's name (`37`, `48`…, `custom`).
    pub board: String,
    /// Its pool, if it belongs to one.
    pub pool: Option<String>,
    /// Whether it changes the players' ratings.
    pub rated: bool,
}

/// An account's rating in a pool, as stored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingRow {
    /// Whose.
    pub account_id: String,
    /// The pool's key.
    pub pool: String,
    /// Rating.
    pub rating: f64,
    /// Deviation at its last game.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: i64,
    /// When its last rated game ended.
    pub updated_ms: i64,
}

impl RatingRow {
    /// As the rating maths takes it.
    pub fn rating(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// A point of a rating graph: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// When.
    pub at_ms: i64,
    /// Which game.
    pub game_id: String,
    /// The rating after it.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// A finished game of an account, as its profile lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedGame {
    /// Whose game this row is.
    #[serde(skip)]
    pub account_id: String,
    /// The game.
    pub game_id: String,
    /// When it ended.
    pub ended_ms: i64,
    /// The account's seat (1 or 2).
    pub seat: i64,
    /// `win`, `loss` or `draw`.
    pub outcome: String,
    /// How it ended (see [`GameEnd::reason`]).
    pub reason: String,
    /// The opponent's account, if any (sent as `opponent_is_account`).
    #[serde(rename = "opponent_is_account", serialize_with = "is_some")]
    pub opponent_account: Option<String>,
    /// The opponent's name.
    pub opponent_name: String,
    /// The board.
    pub board: String,
    /// The pool.
    pub pool: Option<String>,
    /// Rated.
    pub rated: bool,
    /// The account's rating before and after (rated games).
    pub rating_before: Option<f64>,
    /// After.
    pub rating_after: Option<f64>,
}

/// Which finished games of an account to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// `win`, `loss` or `draw`.
    pub outcome: Option<String>,
    /// The opponent's account.
    pub opponent: Option<String>,
    /// The board's name.
    pub board: Option<String>,
    /// The pool's key.
    pub pool: Option<String>,
}

/// Ratings and finished games. Every method is one read.
#[async_trait]
pub trait RatingStore {
    /// The ratings of `account`, in every pool where it has played a rated game.
    async fn ratings_of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError>;

    /// The rating graph of `account` in `pool`: the last `limit` points, oldest first.
    async fn rating_history(
        &self,
        account: &str,
        pool: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError>;

    /// How many finished games of `account` ended each way: (outcome, reason, count).
    async fn results_of(&self, account: &str) -> Result<Vec<(String, String, i64)>, StoreError>;

    /// Finished games of `account` that pass `filter`, the latest first, starting after
    /// `before` (the `(ended_ms, game_id)` of the last game of the page before), at most
    /// `limit`.
    async fn played_games(
        &self,
        account: &str,
        filter: &GameFilter,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<PlayedGame>, StoreError>;

    /// The highest ratings of `pool` among accounts whose last rated game there ended at or
    /// after `active_since_ms` and whose deviation then was at most `max_deviation`, best
    /// first, at most `limit`: (name, rating).
    async fn top_ratings(
        &self,
        pool: &str,
        active_since_ms: i64,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<(String, RatingRow)>, StoreError>;
}

/// The writes a game's end makes, worked out from the ratings before (`current`, by seat;
/// `None` for a player new to the pool): the new ratings (rated games between two accounts
/// only) and the players' game rows.
pub(crate) fn end_writes(
    end: &GameEnd,
    current: [Option<RatingRow>; 2],
) -> (Vec<RatingRow>, Vec<PlayedGame>) {
    let mut ratings = Vec::new();
    let rated_pool = end
        .pool
        .as_ref()
        .filter(|_| end.rated && end.accounts.iter().all(Option::is_some));
    let mut before: [Option<f64>; 2] = [None, None];
    let mut after: [Option<f64>; 2] = [None, None];
    if let (Some(pool), [Some(one), Some(two)]) = (rated_pool, &end.accounts) {
        let old = current
            .clone()
            .map(|r| r.map(|r| (r.rating(), r.games, r.updated_ms)));
        let rating = |i: usize| old[i].map_or(Rating::default(), |(r, _, _)| r);
        let away = |i: usize| old[i].map_or(0, |(_, _, at)| end.ended_ms - at);
        let (a, b) = glicko::after_game(rating(0), rating(1), end.score_one, [away(0), away(1)]);
        for (i, (account, new)) in [(one, a), (two, b)].into_iter().enumerate() {
            before[i] = Some(rating(i).rating);
            after[i] = Some(new.rating);
            ratings.push(RatingRow {
                account_id: account.clone(),
                pool: pool.clone(),
                rating: new.rating,
                deviation: new.deviation,
                volatility: new.volatility,
                games: old[i].map_or(0, |(_, games, _)| games) + 1,
                updated_ms: end.ended_ms,
            });
        }
    }
    let mut played = Vec::new();
    for seat in 0..2 {
        let Some(account) = &end.accounts[seat] else {
            continue;
        };
        let score = if seat == 0 {
            end.score_one
        } else {
            1.0 - end.score_one
        };
        let outcome = if score > 0.75 {
            "win"
        } else if score < 0.25 {
            "loss"
        } else {
            "draw"
        };
        played.push(PlayedGame {
            account_id: account.clone(),
            game_id: end.game.clone(),
            ended_ms: end.ended_ms,
            seat: seat as i64 + 1,
            outcome: outcome.into(),
            reason: end.reason.clone(),
            opponent_account: end.accounts[1 - seat].clone(),
            opponent_name: end.names[1 - seat].clone(),
            board: end.board.clone(),
            pool: end.pool.clone(),
            rated: rated_pool.is_some(),
            rating_before: before[seat],
            rating_after: after[seat],
        });
    }
    (ratings, played)
}

/// Serialises whether an option holds something (the id itself stays on the server).
fn is_some<S: serde::Serializer>(value: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(value.is_some())
}
