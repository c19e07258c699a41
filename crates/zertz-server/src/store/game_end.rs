//! The end of a game, written in the transaction of its result: the players' game rows and, for
//! a rated game, both new ratings, so that a crash never leaves a result without its ratings or
//! the reverse. Who is rated and by how much is not decided here: the store is given a
//! [`RatingPolicy`] when it opens (the ratings' `ratings::policy::rate`), and calls it inside the
//! transaction with the ratings it has just read.

use serde::Serialize;

use crate::store::sql::{Row, Statement, args};

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

/// Who a finished game rates and by how much: from the game's end and both players' ratings
/// before it (by seat; `None` for a player new to the pool), the new ratings to write and the
/// players' game rows. A pure function, called inside the game-end transaction.
pub type RatingPolicy = fn(&GameEnd, [Option<RatingRow>; 2]) -> (Vec<RatingRow>, Vec<PlayedGame>);

/// Serialises whether an option holds something (the id itself stays on the server).
fn is_some<S: serde::Serializer>(value: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(value.is_some())
}

/// The columns of a player's game row ([`PlayedGame`]).
pub(crate) const PLAYED_COLUMNS: &str = "account_id, game_id, ended_ms, seat, outcome, reason, \
     opponent_account, opponent_name, board, pool, rated, rating_before, rating_after";

/// The columns of a rating row ([`RatingRow`]).
pub(crate) const RATING_COLUMNS: &str =
    "account_id, pool, rating, deviation, volatility, games, updated_ms";

/// A rating row as read, from either database.
pub(crate) fn rating_row(row: &impl Row) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        account_id: row.get("account_id")?,
        pool: row.get("pool")?,
        rating: row.get("rating")?,
        deviation: row.get("deviation")?,
        volatility: row.get("volatility")?,
        games: row.get("games")?,
        updated_ms: row.get("updated_ms")?,
    })
}

/// A player's game row as read, from either database.
pub(crate) fn played_game(row: &impl Row) -> Result<PlayedGame, sqlx::Error> {
    Ok(PlayedGame {
        account_id: row.get("account_id")?,
        game_id: row.get("game_id")?,
        ended_ms: row.get("ended_ms")?,
        seat: row.get("seat")?,
        outcome: row.get("outcome")?,
        reason: row.get("reason")?,
        opponent_account: row.get("opponent_account")?,
        opponent_name: row.get("opponent_name")?,
        board: row.get("board")?,
        pool: row.get("pool")?,
        rated: row.get("rated")?,
        rating_before: row.get("rating_before")?,
        rating_after: row.get("rating_after")?,
    })
}

/// The ratings the end of game `end` reads before `rating` rates it: `(seat, account, pool)`
/// of each account seated in a rated game (none for an unrated one).
pub(crate) fn rated_seats(end: &GameEnd) -> Vec<(usize, &String, &String)> {
    let Some(pool) = end.pool.as_ref().filter(|_| end.rated) else {
        return Vec::new();
    };
    (end.accounts.iter().enumerate())
        .filter_map(|(seat, account)| Some((seat, account.as_ref()?, pool)))
        .collect()
}

/// What the end of game `end` writes once `rating` has rated it from the `current` ratings of
/// its seats (read as [`rated_seats`] says), in order: each new rating (an upsert) with its
/// point of the rating graph, then the players' game rows. Each backend runs them in the
/// transaction of the result.
pub(crate) fn end_writes(
    end: &GameEnd,
    rating: RatingPolicy,
    current: [Option<RatingRow>; 2],
) -> Vec<Statement> {
    let (ratings, played) = rating(end, current);
    let mut writes = Vec::with_capacity(2 * ratings.len() + played.len());
    for r in &ratings {
        writes.push(Statement::new(
            format!(
                "INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games, updated_ms = excluded.updated_ms"
            ),
            args![
                &r.account_id,
                &r.pool,
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.updated_ms
            ],
        ));
        writes.push(Statement::new(
            "INSERT INTO rating_history (account_id, pool, at_ms, game_id, rating, deviation) \
             VALUES (?, ?, ?, ?, ?, ?)",
            args![
                &r.account_id,
                &r.pool,
                r.updated_ms,
                &end.game,
                r.rating,
                r.deviation
            ],
        ));
    }
    for p in &played {
        writes.push(Statement::new(
            format!(
                "INSERT INTO player_games ({PLAYED_COLUMNS}) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            args![
                &p.account_id,
                &p.game_id,
                p.ended_ms,
                p.seat,
                &p.outcome,
                &p.reason,
                &p.opponent_account,
                &p.opponent_name,
                &p.board,
                &p.pool,
                p.rated,
                p.rating_before,
                p.rating_after
            ],
        ));
    }
    writes
}
