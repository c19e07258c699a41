//! Ratings and finished games, the profile's reads, written once for both databases (see
//! `store::sql`). (A game's end is written by the store, `store::game_end`.)

use async_trait::async_trait;

use crate::ratings::store::{GameFilter, PlayedGame, RatingPoint, RatingRow, RatingStore};
use crate::store::StoreError;
use crate::store::common::limit as clamp_limit;
use crate::store::game_end::{PLAYED_COLUMNS, RATING_COLUMNS, played_game, rating_row};
use crate::store::sql::{Arg, Row, Sql, args, map_rows};

#[async_trait]
impl<S: Sql> RatingStore for S {
    async fn ratings_of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        let sql =
            format!("SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = ? ORDER BY pool");
        let rows = self.fetch_all(&sql, args![account]).await?;
        map_rows(&rows, rating_row)
    }

    async fn rating_history(
        &self,
        account: &str,
        pool: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT at_ms, game_id, rating, deviation FROM rating_history \
                 WHERE account_id = ? AND pool = ? ORDER BY at_ms DESC, game_id DESC LIMIT ?",
                args![account, pool, clamp_limit(limit)],
            )
            .await?;
        let mut points = map_rows(&rows, |row| {
            Ok(RatingPoint {
                at_ms: row.get("at_ms")?,
                game_id: row.get("game_id")?,
                rating: row.get("rating")?,
                deviation: row.get("deviation")?,
            })
        })?;
        points.reverse();
        Ok(points)
    }

    async fn results_of(&self, account: &str) -> Result<Vec<(String, String, i64)>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT outcome, reason, COUNT(*) AS n FROM player_games WHERE account_id = ? \
                 GROUP BY outcome, reason ORDER BY outcome, reason",
                args![account],
            )
            .await?;
        map_rows(&rows, |row| {
            Ok((row.get("outcome")?, row.get("reason")?, row.get("n")?))
        })
    }

    async fn played_games(
        &self,
        account: &str,
        filter: &GameFilter,
        before: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<PlayedGame>, StoreError> {
        let mut sql = format!("SELECT {PLAYED_COLUMNS} FROM player_games WHERE account_id = ?");
        let mut values = args![account];
        for (value, condition) in [
            (&filter.outcome, " AND outcome = ?"),
            (&filter.opponent, " AND opponent_account = ?"),
            (&filter.board, " AND board = ?"),
            (&filter.pool, " AND pool = ?"),
        ] {
            if let Some(value) = value {
                sql.push_str(condition);
                values.push(Arg::from(value));
            }
        }
        if let Some((ms, id)) = before {
            sql.push_str(" AND (ended_ms, game_id) < (?, ?)");
            values.extend(args![ms, id]);
        }
        sql.push_str(" ORDER BY ended_ms DESC, game_id DESC LIMIT ?");
        values.push(Arg::from(clamp_limit(limit)));
        let rows = self.fetch_all(&sql, values).await?;
        map_rows(&rows, played_game)
    }

    async fn top_ratings(
        &self,
        pool: &str,
        active_since_ms: i64,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT a.name, r.account_id, r.pool, r.rating, r.deviation, r.volatility, \
                 r.games, r.updated_ms FROM ratings r JOIN accounts a ON a.id = r.account_id \
                 WHERE r.pool = ? AND r.updated_ms >= ? AND r.deviation <= ? \
                 ORDER BY r.rating DESC, a.name_key LIMIT ?",
                args![pool, active_since_ms, max_deviation, clamp_limit(limit)],
            )
            .await?;
        map_rows(&rows, |row| Ok((row.get("name")?, rating_row(row)?)))
    }
}
