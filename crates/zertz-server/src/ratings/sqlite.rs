//! Ratings and finished games in SQLite: the profile's reads, on the pool. (A game's end is
//! written by the store, `store::sqlite::game_end`.)

use async_trait::async_trait;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::ratings::store::{GameFilter, PlayedGame, RatingPoint, RatingRow, RatingStore};
use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::sqlite::SqliteStore;

fn rating_row(row: &SqliteRow) -> Result<RatingRow, sqlx::Error> {
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

fn played_game(row: &SqliteRow) -> Result<PlayedGame, sqlx::Error> {
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
        rated: row.try_get::<i64, _>("rated")? != 0,
        rating_before: row.try_get("rating_before")?,
        rating_after: row.try_get("rating_after")?,
    })
}

#[async_trait]
impl RatingStore for SqliteStore {
    async fn ratings_of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT account_id, pool, rating, deviation, volatility, games, updated_ms \
             FROM ratings WHERE account_id = ? ORDER BY pool",
        )
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
             WHERE account_id = ? AND pool = ? ORDER BY at_ms DESC, game_id DESC LIMIT ?",
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
            "SELECT outcome, reason, COUNT(*) AS n FROM player_games WHERE account_id = ? \
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
        let mut sql = String::from(
            "SELECT account_id, game_id, ended_ms, seat, outcome, reason, opponent_account, opponent_name, \
             board, pool, rated, rating_before, rating_after FROM player_games \
             WHERE account_id = ?",
        );
        let conditions = [
            (filter.outcome.is_some(), " AND outcome = ?"),
            (filter.opponent.is_some(), " AND opponent_account = ?"),
            (filter.board.is_some(), " AND board = ?"),
            (filter.pool.is_some(), " AND pool = ?"),
            (before.is_some(), " AND (ended_ms, game_id) < (?, ?)"),
        ];
        for (on, condition) in conditions {
            if on {
                sql.push_str(condition);
            }
        }
        sql.push_str(" ORDER BY ended_ms DESC, game_id DESC LIMIT ?");
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
             WHERE r.pool = ? AND r.updated_ms >= ? AND r.deviation <= ? \
             ORDER BY r.rating DESC, a.name_key LIMIT ?",
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
