//! The end of a game in PostgreSQL, inside the transaction of its result: the two ratings are
//! locked (`FOR UPDATE`) while they are read and rewritten, so that two games of one player
//! ending at once are rated one after the other.

use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::store::StoreError;
use crate::store::game_end::{GameEnd, RatingPolicy, RatingRow};

/// The columns of a player's game row.
pub(crate) const PLAYED_COLUMNS: &str = "account_id, game_id, ended_ms, seat, outcome, reason, \
     opponent_account, opponent_name, board, pool, rated, rating_before, rating_after";

/// The columns of a rating row.
pub(crate) const RATING_COLUMNS: &str =
    "account_id, pool, rating, deviation, volatility, games, updated_ms";

/// Writes what the end of a game leaves, on the transaction that stores its result.
pub(crate) async fn write_end(
    conn: &mut sqlx::PgConnection,
    end: &GameEnd,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let mut current: [Option<RatingRow>; 2] = [None, None];
    if let Some(pool) = end.pool.as_ref().filter(|_| end.rated) {
        for (seat, account) in end.accounts.iter().enumerate() {
            let Some(account) = account else { continue };
            let row = sqlx::query(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 AND pool = $2 \
                 FOR UPDATE"
            ))
            .bind(account)
            .bind(pool)
            .fetch_optional(&mut *conn)
            .await?;
            current[seat] = row.as_ref().map(rating_row).transpose()?;
        }
    }
    let (ratings, played) = rating(end, current);
    for r in &ratings {
        sqlx::query(
            "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, \
             updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             games = excluded.games, updated_ms = excluded.updated_ms",
        )
        .bind(&r.account_id)
        .bind(&r.pool)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(r.games)
        .bind(r.updated_ms)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (account_id, pool, at_ms, game_id, rating, deviation) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&r.account_id)
        .bind(&r.pool)
        .bind(r.updated_ms)
        .bind(&end.game)
        .bind(r.rating)
        .bind(r.deviation)
        .execute(&mut *conn)
        .await?;
    }
    for p in &played {
        sqlx::query(&format!(
            "INSERT INTO player_games ({PLAYED_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
        ))
        .bind(&p.account_id)
        .bind(&p.game_id)
        .bind(p.ended_ms)
        .bind(p.seat)
        .bind(&p.outcome)
        .bind(&p.reason)
        .bind(&p.opponent_account)
        .bind(&p.opponent_name)
        .bind(&p.board)
        .bind(&p.pool)
        .bind(p.rated)
        .bind(p.rating_before)
        .bind(p.rating_after)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A rating row as read.
pub(crate) fn rating_row(row: &PgRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        account_id: row.try_get("account_id")?,
        pool: row.try_get("pool")?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: row.try_get("games")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}
