//! What both backends check the same way, before or around the SQL.

use crate::store::{EventRow, RowUpdate, StoreError};

/// Checks that `events` continue a log whose last version is `last` (0 for an empty log) with
/// no gap and no repeat: the first must be `last + 1`, each next one more. The first event
/// that does not fit is the conflict.
pub(crate) fn check_versions(game: &str, last: i64, events: &[EventRow]) -> Result<(), StoreError> {
    let mut want = last;
    for event in events {
        want += 1;
        if event.version != want {
            return Err(conflict(game, event.version));
        }
    }
    Ok(())
}

/// The conflict on `version` of `game`.
pub(crate) fn conflict(game: &str, version: i64) -> StoreError {
    StoreError::Conflict {
        game: game.to_owned(),
        version,
    }
}

/// The error for a game that is not there.
pub(crate) fn game_not_found(game: &str) -> StoreError {
    StoreError::NotFound(format!("game {game}"))
}

/// The error for a match that is not there.
pub(crate) fn match_not_found(id: &str) -> StoreError {
    StoreError::NotFound(format!("match {id}"))
}

/// The new values of `token_one` and `token_two` (`None`: unchanged) that `update` asks for.
/// A seat index other than 0 or 1 is refused before anything is written.
pub(crate) fn seat_tokens(update: &RowUpdate) -> Result<[Option<&str>; 2], StoreError> {
    match &update.seat {
        None => Ok([None, None]),
        Some((0, token)) => Ok([Some(token.as_str()), None]),
        Some((1, token)) => Ok([None, Some(token.as_str())]),
        Some((seat, _)) => Err(StoreError::Database(sqlx::Error::InvalidArgument(format!(
            "seat {seat}: a seat is 0 or 1"
        )))),
    }
}

/// The new values of `name_one` and `name_two` (`None`: unchanged): the name shown in the seat
/// `update` takes.
pub(crate) fn seat_names(update: &RowUpdate) -> [Option<&str>; 2] {
    match (&update.seat, &update.seat_name) {
        (Some((0, _)), Some(n)) => [Some(n.as_str()), None],
        (Some((1, _)), Some(n)) => [None, Some(n.as_str())],
        _ => [None, None],
    }
}

/// The new values of `account_one` and `account_two` (`None`: unchanged) that `update` asks
/// for: the account bound to the seat it takes.
pub(crate) fn seat_accounts(update: &RowUpdate) -> [Option<&str>; 2] {
    match (&update.seat, &update.seat_account) {
        (Some((0, _)), Some(a)) => [Some(a.as_str()), None],
        (Some((1, _)), Some(a)) => [None, Some(a.as_str())],
        _ => [None, None],
    }
}

/// True when `update` changes only the count of turns: none of the columns the game lists are
/// ordered or filtered by (status, result, seats). Such an append (a move, a clock event, an
/// offer) leaves `updated_ms` alone and writes `turns` alone, so that it moves no entry of the
/// seven indexes that hold `updated_ms`: a move costs the game's row and its event, not a
/// dozen index pages (docs/server.md, "What a move writes").
pub(crate) fn changes_turns_only(update: &RowUpdate) -> bool {
    update.status.is_none()
        && update.result.is_none()
        && update.seat.is_none()
        && update.ended.is_none()
}

/// Maps the failure of inserting event `version` of `game`: a taken (game, version) key is a
/// conflict (another writer got there first), anything else stays a database error.
pub(crate) fn insert_event_error(err: sqlx::Error, game: &str, version: i64) -> StoreError {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => conflict(game, version),
        _ => StoreError::Database(err),
    }
}

/// Maps the failure of inserting the row of a new game: an id that is taken means its first
/// version is taken too, which is a conflict like any other.
pub(crate) fn insert_game_error(err: sqlx::Error, game: &str, events: &[EventRow]) -> StoreError {
    let version = events.first().map_or(1, |e| e.version);
    insert_event_error(err, game, version)
}

/// A listing limit as the databases take it: never negative (SQLite would read -1 as "no
/// limit", PostgreSQL would refuse it).
pub(crate) fn limit(limit: i64) -> i64 {
    limit.max(0)
}

/// The columns of a [`crate::store::GameSummary`].
pub(crate) const GAME_SUMMARY_COLUMNS: &str = "id, match_id, settings, status, result, created_ms, updated_ms, account_one, account_two, \
     name_one, name_two, board, rules, turns";

/// The columns of a [`crate::store::MatchRow`].
pub(crate) const MATCH_COLUMNS: &str =
    "id, created_ms, state, status, updated_ms, account_one, account_two";

/// The query of `account_games` (`matches` false) or `account_matches` (true) for `n`
/// statuses: parameters are the account twice, the statuses, the limit.
pub(crate) fn account_sql(matches: bool, n: usize, param: fn(usize) -> String) -> String {
    let statuses: Vec<String> = (0..n).map(|i| param(3 + i)).collect();
    let (columns, table) = if matches {
        (MATCH_COLUMNS, "matches")
    } else {
        (GAME_SUMMARY_COLUMNS, "games")
    };
    format!(
        "SELECT {columns} FROM {table} WHERE (account_one = {} OR account_two = {}) \
         AND status IN ({}) ORDER BY updated_ms DESC, id DESC LIMIT {}",
        param(1),
        param(2),
        if statuses.is_empty() {
            "NULL".to_string()
        } else {
            statuses.join(", ")
        },
        param(3 + n)
    )
}

/// The query of `find_games` for `query` and a cursor or none, newest change first.
/// `param(n)` writes the n-th parameter (from 1) as the database wants it; they are bound in
/// this order: the status, the player (twice, in lower case), the board, the rules, the
/// result, the cursor's time and id, the limit. (Texts built for the filters given rather than
/// one with `? IS NULL OR …`, which would keep the database from using its indexes.)
pub(crate) fn find_games_sql(
    query: &crate::store::GameQuery<'_>,
    before: bool,
    param: fn(usize) -> String,
) -> String {
    let mut n = 0;
    let mut next = || {
        n += 1;
        param(n)
    };
    let mut conditions = Vec::new();
    if query.status.is_some() {
        conditions.push(format!("status = {}", next()));
    }
    if query.lobby {
        conditions.push("lobby = TRUE".to_string());
    }
    if query.player.is_some() {
        conditions.push(format!(
            "(lower(name_one) = {} OR lower(name_two) = {})",
            next(),
            next()
        ));
    }
    for (on, column) in [
        (query.board.is_some(), "board"),
        (query.rules.is_some(), "rules"),
        (query.result.is_some(), "result"),
    ] {
        if on {
            conditions.push(format!("{column} = {}", next()));
        }
    }
    if before {
        conditions.push(format!("(updated_ms, id) < ({}, {})", next(), next()));
    }
    let filter = if conditions.is_empty() {
        String::new()
    } else {
        format!("WHERE {} ", conditions.join(" AND "))
    };
    format!(
        "SELECT {GAME_SUMMARY_COLUMNS} FROM games \
         {filter}ORDER BY updated_ms DESC, id DESC LIMIT {}",
        next()
    )
}

/// The key that makes names unique without regard to case (names are ASCII).
pub(crate) fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}
