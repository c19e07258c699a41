//! What the games and matches store: rows, events, listings, match steps.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::store::StoreError;
use crate::store::holds::HoldStore;

/// A game as stored when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Public id (random, URL-safe).
    pub id: String,
    /// The match it belongs to, if any.
    pub match_id: Option<String>,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: i64,
    /// The settings as JSON (the service's `GameSettings`).
    pub settings: String,
    /// Seat tokens of player one and player two (`None` for an engine seat or a seat nobody
    /// holds yet). Never logged, never sent to anyone but the holder.
    pub tokens: [Option<String>; 2],
    /// The invitations of seats nobody held when the game was made: each takes its seat once
    /// (the seat then gets a token of its own) and is kept to refuse a second use.
    pub invites: [Option<String>; 2],
    /// An open seek (open to anyone, not a match's game): listed in the lobby while open.
    pub lobby: bool,
    /// The accounts bound to the seats (none for guests, engines and empty seats).
    pub accounts: [Option<String>; 2],
    /// The names in the seats (an engine's too), once known.
    pub names: [Option<String>; 2],
    /// The board's name (`37`…, `custom`) and the rule set's (`standard`, `blitz`, `custom:…`).
    pub board: String,
    /// The rule set's name.
    pub rules: String,
    /// `open` (waiting for a player), `live`, or `finished`.
    pub status: String,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`) once finished.
    pub result: Option<String>,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: i64,
}

/// One event of a game's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRow {
    /// 1 for the first event, then consecutive.
    pub version: i64,
    /// When it happened, ms since the Unix epoch.
    pub at_ms: i64,
    /// The event as JSON (the service's `Event`).
    pub payload: String,
}

/// What changes on the game row along with an appended event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowUpdate {
    /// New status, if it changes.
    pub status: Option<String>,
    /// New result, if the game ended.
    pub result: Option<String>,
    /// A seat taken with this event: (seat index 0 or 1, token).
    pub seat: Option<(usize, String)>,
    /// The account bound to that seat, if any.
    pub seat_account: Option<String>,
    /// The name shown in that seat.
    pub seat_name: Option<String>,
    /// Turns played after this event, if they changed.
    pub turns: Option<i64>,
    /// The game ends with this event: what its players' records and ratings keep of it,
    /// written in the same transaction.
    pub ended: Option<crate::store::game_end::GameEnd>,
}

/// A line of a game listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game.
    pub id: String,
    /// Its match, if any.
    pub match_id: Option<String>,
    /// Settings JSON.
    pub settings: String,
    /// Status.
    pub status: String,
    /// Result, if finished.
    pub result: Option<String>,
    /// Creation time.
    pub created_ms: i64,
    /// Last change.
    pub updated_ms: i64,
    /// The accounts bound to its seats.
    pub accounts: [Option<String>; 2],
    /// The names in its seats.
    pub names: [Option<String>; 2],
    /// Its board (`37`…, `custom`; none for games stored before it was kept).
    pub board: Option<String>,
    /// Its rule set.
    pub rules: Option<String>,
    /// Turns played.
    pub turns: i64,
}

/// Which games a listing shows (every field optional: all games when none is set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameQuery<'a> {
    /// `open`, `live` or `finished`.
    pub status: Option<&'a str>,
    /// A name in either seat, without regard to case.
    pub player: Option<&'a str>,
    /// The board's name.
    pub board: Option<&'a str>,
    /// The rule set's name.
    pub rules: Option<&'a str>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<&'a str>,
    /// Only open seeks (the lobby's games), not invitations or a match's games.
    pub lobby: bool,
}

/// A place in a listing of games (newest change first): the last game of a page, after which
/// the next page starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// Its last change.
    pub updated_ms: i64,
    /// Its id (the order among games changed in the same millisecond).
    pub id: String,
}

impl Cursor {
    /// The place just after `game`.
    pub fn after(game: &GameSummary) -> Cursor {
        Cursor {
            updated_ms: game.updated_ms,
            id: game.id.clone(),
        }
    }
}

/// A match as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRow {
    /// Public id.
    pub id: String,
    /// Creation time.
    pub created_ms: i64,
    /// The whole match state as JSON (the service's `MatchState`, tokens included).
    pub state: String,
    /// The accounts of its two participants (none for guests and engines).
    pub accounts: [Option<String>; 2],
    /// `open`, `live`, or `finished`.
    pub status: String,
    /// Last change.
    pub updated_ms: i64,
}

/// One step of a match, stored in one transaction so that no crash can leave it half done: the
/// match's new state, the next game it starts (its row and first events), and the events
/// appended to the game that just ended (its `next_game`). All or nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchStep {
    /// The match as it is after the step (created or replaced).
    pub state: MatchRow,
    /// The game the step creates, with its first events (versions from 1).
    pub new_game: Option<(GameRow, Vec<EventRow>)>,
    /// Events appended to an existing game (versions following its last one), with the
    /// change of its row (a resignation of the match ends its current game); the row's
    /// `updated_ms` follows them.
    pub append: Option<GameAppend>,
}

/// Events appended to a game as part of a [`MatchStep`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameAppend {
    /// The game.
    pub game: String,
    /// The events (versions following its last one).
    pub events: Vec<EventRow>,
    /// The change of its row.
    pub update: RowUpdate,
}

/// Games and matches. Every method is one transaction: when it returns `Ok`, the change is
/// durable.
///
/// Where the trait leaves room, both backends decide alike: `create_game` on a taken id is a
/// `Conflict` on its first version, and its events must start at version 1 without gaps
/// (`Conflict` otherwise); `append` of no events applies the update alone and leaves
/// `updated_ms`; a seat index other than 0 or 1 is refused (`Database(InvalidArgument)`)
/// before anything is written; a `limit` of 0 or less lists nothing. What clients hold under
/// their quotas is stored alongside ([`HoldStore`]).
#[async_trait]
pub trait GameStore: HoldStore + Send + Sync {
    /// Finishes the writes given so far and closes the store, for a server that stops (on
    /// SQLite the recent events are folded then); a write after this fails.
    async fn close(&self);

    /// Creates a game with its first events (at least one).
    async fn create_game(&self, game: &GameRow, events: &[EventRow]) -> Result<(), StoreError>;

    /// Appends events to a game (versions must follow the last one: `Conflict` otherwise) and
    /// applies `update` to its row, atomically.
    async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
    ) -> Result<(), StoreError>;

    /// A game's row and all its events in version order.
    async fn load_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError>;

    /// Games with the given status (`open`, `live`, `finished`, or any when `None`), newest
    /// change first (by `updated_ms`, then id), at most `limit`; with `before`, only those that
    /// come after that place in this order (the next page of a listing).
    async fn list_games(
        &self,
        status: Option<&str>,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let query = GameQuery {
            status,
            ..GameQuery::default()
        };
        self.find_games(&query, before, limit).await
    }

    /// The games that `query` selects, in the order and pages of [`GameStore::list_games`].
    async fn find_games(
        &self,
        query: &GameQuery<'_>,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError>;

    /// Games in which `account` holds a seat whose status is one of `statuses`, newest change
    /// first, at most `limit`.
    async fn account_games(
        &self,
        account: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError>;

    /// Matches in which `account` holds a place whose status is one of `statuses`, newest
    /// change first, at most `limit`.
    async fn account_matches(
        &self,
        account: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError>;

    /// Creates or replaces a match.
    async fn save_match(&self, m: &MatchRow) -> Result<(), StoreError>;

    /// Stores a step of a match atomically (see [`MatchStep`]): on any error (a taken game id
    /// or version is a `Conflict`, a missing game `NotFound`) nothing of it is written.
    async fn advance_match(&self, step: &MatchStep) -> Result<(), StoreError>;

    /// A match.
    async fn load_match(&self, id: &str) -> Result<MatchRow, StoreError>;

    /// Matches with the given status (any when `None`), newest change first, at most `limit`.
    async fn list_matches(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError>;

    /// The lobby's matches: open to anyone (not invitations) and not yet taken, newest change
    /// first, those after `before` (a [`Cursor`] on a match's `updated_ms` and id), at most
    /// `limit`.
    async fn lobby_matches(
        &self,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError>;
}
