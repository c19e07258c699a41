//! The end of a game, written in the transaction of its result: the players' game rows and, for
//! a rated game, both new ratings, so that a crash never leaves a result without its ratings or
//! the reverse. Who is rated and by how much is not decided here: the store is given a
//! [`RatingPolicy`] when it opens (the ratings' `ratings::policy::rate`), and calls it inside the
//! transaction with the ratings it has just read.

use serde::Serialize;

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
