//! The puzzle trainer's ratings and attempts in SQLite: an attempt is written by the writer
//! thread, its ratings read (with rusqlite) and rewritten in the same transaction. The rest is
//! written once for both databases (`puzzles::sql`).

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use crate::puzzles::sql::{PuzzleDialect, attempt_rows};
use crate::puzzles::store::{
    AttemptInput, AttemptOutcome, PuzzleRatingRow, SolverRow, attempt_writes,
};
use crate::ratings::glicko::Rating;
use crate::store::StoreError;
use crate::store::sqlite::sql::run;
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
    for row in attempt_rows(a, solver.as_ref(), &outcome) {
        run(conn, &row)?;
    }
    Ok(outcome)
}

#[async_trait]
impl PuzzleDialect for SqliteStore {
    async fn record(&self, attempt: &AttemptInput) -> Result<AttemptOutcome, StoreError> {
        let a = attempt.clone();
        self.write_with(move |conn| record(conn, &a)).await
    }
}
