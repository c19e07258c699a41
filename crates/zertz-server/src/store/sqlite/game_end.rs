//! The end of a game in SQLite, run by the writer thread inside the transaction of its result.

use rusqlite::{OptionalExtension, params};

use crate::store::StoreError;
use crate::store::game_end::{GameEnd, RatingPolicy, RatingRow};
use crate::store::sqlite::write_error;

/// Writes what the end of a game leaves: both ratings (a rated game), the rating graph's
/// points and the players' game rows. Runs inside the transaction that stores the result.
pub(crate) fn write_end(
    conn: &rusqlite::Connection,
    end: &GameEnd,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let mut current: [Option<RatingRow>; 2] = [None, None];
    if let Some(pool) = end.pool.as_ref().filter(|_| end.rated) {
        for (seat, account) in end.accounts.iter().enumerate() {
            let Some(account) = account else { continue };
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
    }
    let (ratings, played) = rating(end, current);
    for r in &ratings {
        conn.prepare_cached(
            "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, \
             updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             games = excluded.games, updated_ms = excluded.updated_ms",
        )
        .and_then(|mut upsert| {
            upsert.execute(params![
                r.account_id,
                r.pool,
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.updated_ms
            ])
        })
        .map_err(write_error)?;
        conn.prepare_cached(
            "INSERT INTO rating_history (account_id, pool, at_ms, game_id, rating, deviation) \
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .and_then(|mut insert| {
            insert.execute(params![
                r.account_id,
                r.pool,
                r.updated_ms,
                end.game,
                r.rating,
                r.deviation
            ])
        })
        .map_err(write_error)?;
    }
    for p in &played {
        conn.prepare_cached(
            "INSERT INTO player_games (account_id, game_id, ended_ms, seat, outcome, reason, \
             opponent_account, opponent_name, board, pool, rated, rating_before, rating_after) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .and_then(|mut insert| {
            insert.execute(params![
                p.account_id,
                p.game_id,
                p.ended_ms,
                p.seat,
                p.outcome,
                p.reason,
                p.opponent_account,
                p.opponent_name,
                p.board,
                p.pool,
                i64::from(p.rated),
                p.rating_before,
                p.rating_after
            ])
        })
        .map_err(write_error)?;
    }
    Ok(())
}
