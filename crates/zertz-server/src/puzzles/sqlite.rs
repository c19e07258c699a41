//! The puzzle trainer's ratings and attempts in SQLite: an attempt is written by the writer
//! thread, its ratings read and rewritten in the same transaction.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use sqlx::Row;

use crate::puzzles::store::{
    AttemptInput, AttemptOutcome, PuzzleRatingRow, PuzzleStore, SolverRow, Tried, attempt_writes,
};
use crate::ratings::glicko::Rating;
use crate::store::StoreError;
use crate::store::sqlite::{SqliteStore, write_error};

fn record(conn: &rusqlite::Connection, a: &AttemptInput) -> Result<AttemptOutcome, StoreError> {
    let puzzle = conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, attempts, solved, updated_ms \
             FROM puzzle_ratings WHERE puzzle_id = ?",
        )
        .and_then(|mut select| {
            select
                .query_row(params![a.puzzle_id], |row| {
                    Ok(PuzzleRatingRow {
                        puzzle_id: a.puzzle_id.clone(),
                        rating: Rating {
                            rating: row.get(0)?,
                            deviation: row.get(1)?,
                            volatility: row.get(2)?,
                        },
                        attempts: row.get(3)?,
                        solved: row.get(4)?,
                        updated_ms: row.get(5)?,
                    })
                })
                .optional()
        })
        .map_err(write_error)?;
    let solver = match &a.account {
        None => None,
        Some(account) => conn
            .prepare_cached(
                "SELECT rating, deviation, volatility, attempts, updated_ms \
                 FROM puzzle_solvers WHERE account_id = ?",
            )
            .and_then(|mut select| {
                select
                    .query_row(params![account], |row| {
                        Ok(SolverRow {
                            account_id: account.clone(),
                            rating: Rating {
                                rating: row.get(0)?,
                                deviation: row.get(1)?,
                                volatility: row.get(2)?,
                            },
                            attempts: row.get(3)?,
                            updated_ms: row.get(4)?,
                        })
                    })
                    .optional()
            })
            .map_err(write_error)?,
    };
    let rated_before: bool = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM puzzle_attempts \
             WHERE solver = ? AND puzzle_id = ? AND rated = 1)",
        )
        .and_then(|mut select| select.query_row(params![a.solver, a.puzzle_id], |r| r.get(0)))
        .map_err(write_error)?;
    let (puzzle, solver, outcome) = attempt_writes(a, puzzle, solver, rated_before);
    if let Some(p) = &puzzle {
        conn.prepare_cached(
            "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, \
             solved, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             attempts = excluded.attempts, solved = excluded.solved, \
             updated_ms = excluded.updated_ms",
        )
        .and_then(|mut upsert| {
            upsert.execute(params![
                p.puzzle_id,
                p.rating.rating,
                p.rating.deviation,
                p.rating.volatility,
                p.attempts,
                p.solved,
                p.updated_ms
            ])
        })
        .map_err(write_error)?;
    }
    if let Some(s) = &solver {
        conn.prepare_cached(
            "INSERT INTO puzzle_solvers (account_id, rating, deviation, volatility, attempts, \
             updated_ms) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             attempts = excluded.attempts, updated_ms = excluded.updated_ms",
        )
        .and_then(|mut upsert| {
            upsert.execute(params![
                s.account_id,
                s.rating.rating,
                s.rating.deviation,
                s.rating.volatility,
                s.attempts,
                s.updated_ms
            ])
        })
        .map_err(write_error)?;
    }
    let (before, after) = if outcome.rated {
        (
            Some(outcome.solver_before.rating),
            Some(outcome.solver_after.rating),
        )
    } else {
        (None, None)
    };
    conn.prepare_cached(
        "INSERT INTO puzzle_attempts (solver, puzzle_id, at_ms, solved, rated, rating_before, \
         rating_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .and_then(|mut insert| {
        insert.execute(params![
            a.solver,
            a.puzzle_id,
            a.at_ms,
            a.solved,
            outcome.rated,
            before,
            after
        ])
    })
    .map_err(write_error)?;
    Ok(outcome)
}

#[async_trait]
impl PuzzleStore for SqliteStore {
    async fn record_attempt(&self, attempt: &AttemptInput) -> Result<AttemptOutcome, StoreError> {
        let a = attempt.clone();
        self.write_with(move |conn| record(conn, &a)).await
    }

    async fn puzzle_ratings(&self) -> Result<Vec<PuzzleRatingRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, rating, deviation, volatility, attempts, solved, updated_ms \
             FROM puzzle_ratings",
        )
        .fetch_all(self.pool())
        .await?;
        let read = |row: &sqlx::sqlite::SqliteRow| -> Result<PuzzleRatingRow, sqlx::Error> {
            Ok(PuzzleRatingRow {
                puzzle_id: row.try_get("puzzle_id")?,
                rating: Rating {
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    volatility: row.try_get("volatility")?,
                },
                attempts: row.try_get("attempts")?,
                solved: row.try_get("solved")?,
                updated_ms: row.try_get("updated_ms")?,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }

    async fn puzzle_solver(&self, account: &str) -> Result<Option<SolverRow>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, attempts, updated_ms \
             FROM puzzle_solvers WHERE account_id = ?",
        )
        .bind(account)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(SolverRow {
            account_id: account.to_string(),
            rating: Rating {
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                volatility: row.try_get("volatility")?,
            },
            attempts: row.try_get("attempts")?,
            updated_ms: row.try_get("updated_ms")?,
        }))
    }

    async fn puzzles_tried(&self, solver: &str) -> Result<Vec<Tried>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, MAX(solved) AS solved FROM puzzle_attempts WHERE solver = ? \
             GROUP BY puzzle_id",
        )
        .bind(solver)
        .fetch_all(self.pool())
        .await?;
        let read = |row: &sqlx::sqlite::SqliteRow| -> Result<Tried, sqlx::Error> {
            Ok(Tried {
                puzzle_id: row.try_get("puzzle_id")?,
                solved: row.try_get::<i64, _>("solved")? != 0,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }
}
