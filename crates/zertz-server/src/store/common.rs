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

/// A listing limit as the databases take it: never negative (SQLite would read -1 as "no
/// limit", PostgreSQL would refuse it).
pub(crate) fn limit(limit: i64) -> i64 {
    limit.max(0)
}

/// The key that makes names unique without regard to case (names are ASCII).
pub(crate) fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}
