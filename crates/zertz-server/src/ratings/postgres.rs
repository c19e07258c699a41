//! Ratings and finished games in PostgreSQL: a game's end is written inside the transaction of
//! its result, the two ratings locked (`FOR UPDATE`) while they are read and rewritten, so that
//! two games of one player ending at once are rated one after the other.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::store::postgres::PostgresStore;
use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::ratings::store::{
    GameEnd, GameFilter, PlayedGame, RatingPoint, RatingRow, RatingStore, end_writes,
};

const RATING_COLUMNS: &str = "account_id, pool, rating, deviation, volatility, games, updated_ms";

const PLAYED_COLUMNS: &str = "account_id, game_id, ended_ms, seat, outcome, reason, \
     opponent_account, opponent_name, board, pool, rated, rating_before, rating_after";

/// Writes what the end of a game leaves, on the transaction that stores its result.
pub(crate) async fn write_end(
    conn: &mut sqlx::PgConnection,
    end: &GameEnd,
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
    let (ratings, played) = end_writes(end, current);
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

fn rating_row(row: &PgRow) -> Result<RatingRow, sqlx::Error> {
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

fn played_game(row: &PgRow) -> Result<PlayedGame, sqlx::Error> {
    Ok(PlayedGame {
        account_id: row.try_get("account_id")?,
        game_id: row.try_get("game_id")?,
        ended_ms: row.try_get("ended_ms")?,
        seat: row.try_get("seat")?,
        outcome: row.try_get("outcome")?,
        reason: row.try_get("reason")?,
        opponent_account: row.try_get("opponent_account")?,
        opponent_name: row.try_get("opponent_name")?,
        board: row.try_get("board")?,
        pool: row.try_get("pool")?,
        rated: row.try_get("rated")?,
        rating_before: row.try_get("rating_before")?,
        rating_after: row.try_get("rating_after")?,
    })
}

#[async_trait]
impl RatingStore for PostgresStore {
    async fn ratings_of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 ORDER BY pool"
        ))
        .bind(account)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(rating_row).collect::<Result<_, _>>()?)
    }

    async fn rating_history(
        &self,
        account: &str,
        pool: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT at_ms, game_id, rating, deviation FROM rating_history \
             WHERE account_id = $1 AND pool = $2 ORDER BY at_ms DESC, game_id DESC LIMIT $3",
        )
        .bind(account)
        .bind(pool)
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        let mut points = rows
            .iter()
            .map(|row| {
                Ok(RatingPoint {
                    at_ms: row.try_get("at_ms")?,
                    game_id: row.try_get("game_id")?,
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        points.reverse();
        Ok(points)
    }

    async fn results_of(&self, account: &str) -> Result<Vec<(String, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT outcome, reason, COUNT(*) AS n FROM player_games WHERE account_id = $1 \
             GROUP BY outcome, reason ORDER BY outcome, reason",
        )
        .bind(account)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|row| {
                Ok((
                    row.try_get("outcome")?,
                    row.try_get("reason")?,
                    row.try_get("n")?,
                ))
            })
            .collect::<Result<_, sqlx::Error>>()?)
    }

    async fn played_games(
        &self,
        account: &str,
        filter: &GameFilter,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<PlayedGame>, StoreError> {
        let mut sql = format!("SELECT {PLAYED_COLUMNS} FROM player_games WHERE account_id = $1");
        let mut n = 1;
        let mut next = || {
            n += 1;
            format!("${n}")
        };
        for (on, column) in [
            (filter.outcome.is_some(), "outcome"),
            (filter.opponent.is_some(), "opponent_account"),
            (filter.board.is_some(), "board"),
            (filter.pool.is_some(), "pool"),
        ] {
            if on {
                sql.push_str(&format!(" AND {column} = {}", next()));
            }
        }
        if before.is_some() {
            sql.push_str(&format!(
                " AND (ended_ms, game_id) < ({}, {})",
                next(),
                next()
            ));
        }
        sql.push_str(&format!(
            " ORDER BY ended_ms DESC, game_id DESC LIMIT {}",
            next()
        ));
        let mut query = sqlx::query(&sql).bind(account);
        for value in [
            &filter.outcome,
            &filter.opponent,
            &filter.board,
            &filter.pool,
        ]
        .into_iter()
        .flatten()
        {
            query = query.bind(value);
        }
        if let Some((ms, id)) = &before {
            query = query.bind(ms).bind(id);
        }
        let rows = query
            .bind(clamp_limit(limit))
            .fetch_all(self.pool())
            .await?;
        Ok(rows.iter().map(played_game).collect::<Result<_, _>>()?)
    }

    async fn top_ratings(
        &self,
        pool: &str,
        active_since_ms: i64,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, r.account_id, r.pool, r.rating, r.deviation, r.volatility, \
             r.games, r.updated_ms FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.pool = $1 AND r.updated_ms >= $2 AND r.deviation <= $3 \
             ORDER BY r.rating DESC, a.name_key LIMIT $4",
        )
        .bind(pool)
        .bind(active_since_ms)
        .bind(max_deviation)
        .bind(clamp_limit(limit))
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|row| Ok((row.try_get("name")?, rating_row(row)?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }
}
