//! The end of a game in SQLite, run by the writer thread inside the transaction of its result.

use rusqlite::{OptionalExtension, params};

use crate::store::StoreError;
use crate::store::game_end::{GameEnd, RatingPolicy, RatingRow, end_writes, rated_seats};
use crate::store::sqlite::sql::run;
use crate::store::sqlite::write_error;

/// Writes what the end of a game leaves: both ratings (a rated game), the rating graph's
/// points and the players' game rows. Runs inside the transaction that stores the result. (The
/// ratings are read with rusqlite, on the writer's connection; what is written is shared.)
pub(crate) fn write_end(
    conn: &rusqlite::Connection,
    end: &GameEnd,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let mut current: [Option<RatingRow>; 2] = [None, None];
    for (seat, account, pool) in rated_seats(end) {
        current[seat] = conn
            .prepare_cached(
                "SELECT rating, deviation, volatility, games, updated_ms FROM ratings \
                 WHERE account_id = ? AND pool = ?",
            )
            .and_then(|mut select| {
                select
                    .query_row(params![account, pool], |row| {
                        Ok(RatingRow {
                            account_id: account.clone(),
                            pool: pool.clone(),
                            rating: row.get(0)?,
                            deviation: row.get(1)?,
                            volatility: row.get(2)?,
                            games: row.get(3)?,
                            updated_ms: row.get(4)?,
                        })
                    })
                    .optional()
            })
            .map_err(write_error)?;
    }
    for statement in end_writes(end, rating, current) {
        run(conn, &statement)?;
    }
    Ok(())
}
