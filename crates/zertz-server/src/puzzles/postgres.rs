//! The puzzle trainer's ratings and attempts in PostgreSQL: an attempt is one transaction that
//! locks the puzzle's rating row (created first if missing) and the account's, so that two
//! attempts at one puzzle are rated one after the other and a solver's first attempt is rated
//! once.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::puzzles::store::{
    AttemptInput, AttemptOutcome, PuzzleRatingRow, PuzzleStore, SolverRow, Tried, attempt_writes,
};
use crate::ratings::glicko::Rating;
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;

fn puzzle_row(row: &PgRow) -> Result<PuzzleRatingRow, sqlx::Error> {
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
}

fn solver_row(row: &PgRow) -> Result<SolverRow, sqlx::Error> {
    Ok(SolverRow {
        account_id: row.try_get("account_id")?,
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        attempts: row.try_get("attempts")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

const PUZZLE_COLUMNS: &str =
    "puzzle_id, rating, deviation, volatility, attempts, solved, updated_ms";
const SOLVER_COLUMNS: &str = "account_id, rating, deviation, volatility, attempts, updated_ms";

#[async_trait]
impl PuzzleStore for PostgresStore {
    async fn record_attempt(&self, a: &AttemptInput) -> Result<AttemptOutcome, StoreError> {
        let mut tx = self.pool().begin().await?;
        // A row with attempts = 0 stands for "no rated attempt yet": it exists to be locked.
        sqlx::query(&format!(
            "INSERT INTO puzzle_ratings ({PUZZLE_COLUMNS}) VALUES ($1, $2, $3, $4, 0, 0, $5) \
             ON CONFLICT (puzzle_id) DO NOTHING"
        ))
        .bind(&a.puzzle_id)
        .bind(a.puzzle_start.rating)
        .bind(a.puzzle_start.deviation)
        .bind(a.puzzle_start.volatility)
        .bind(a.at_ms)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzle_ratings WHERE puzzle_id = $1 FOR UPDATE"
        ))
        .bind(&a.puzzle_id)
        .fetch_one(&mut *tx)
        .await?;
        let puzzle = Some(puzzle_row(&row)?);
        let solver = match &a.account {
            None => None,
            Some(account) => sqlx::query(&format!(
                "SELECT {SOLVER_COLUMNS} FROM puzzle_solvers WHERE account_id = $1 FOR UPDATE"
            ))
            .bind(account)
            .fetch_optional(&mut *tx)
            .await?
            .as_ref()
            .map(solver_row)
            .transpose()?,
        };
        let rated_before: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM puzzle_attempts \
             WHERE solver = $1 AND puzzle_id = $2 AND rated)",
        )
        .bind(&a.solver)
        .bind(&a.puzzle_id)
        .fetch_one(&mut *tx)
        .await?;
        let (puzzle, solver, outcome) = attempt_writes(a, puzzle, solver, rated_before);
        if let Some(p) = &puzzle {
            sqlx::query(
                "UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4, \
                 attempts = $5, solved = $6, updated_ms = $7 WHERE puzzle_id = $1",
            )
            .bind(&p.puzzle_id)
            .bind(p.rating.rating)
            .bind(p.rating.deviation)
            .bind(p.rating.volatility)
            .bind(p.attempts)
            .bind(p.solved)
            .bind(p.updated_ms)
            .execute(&mut *tx)
            .await?;
        }
        if let Some(s) = &solver {
            sqlx::query(&format!(
                "INSERT INTO puzzle_solvers ({SOLVER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 attempts = excluded.attempts, updated_ms = excluded.updated_ms"
            ))
            .bind(&s.account_id)
            .bind(s.rating.rating)
            .bind(s.rating.deviation)
            .bind(s.rating.volatility)
            .bind(s.attempts)
            .bind(s.updated_ms)
            .execute(&mut *tx)
            .await?;
        }
        let (before, after) = if outcome.rated {
            (
                Some(outcome.solver_before.rating),
                Some(outcome.solver_after.rating),
            )
        } else {
            (None, None)
        };
        sqlx::query(
            "INSERT INTO puzzle_attempts (solver, puzzle_id, at_ms, solved, rated, \
             rating_before, rating_after) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&a.solver)
        .bind(&a.puzzle_id)
        .bind(a.at_ms)
        .bind(a.solved)
        .bind(outcome.rated)
        .bind(before)
        .bind(after)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(outcome)
    }

    async fn puzzle_ratings(&self) -> Result<Vec<PuzzleRatingRow>, StoreError> {
        // Rows without a rated attempt only hold the starting rating: left out, as in SQLite.
        let rows = sqlx::query(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzle_ratings WHERE attempts > 0"
        ))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(puzzle_row).collect::<Result<_, _>>()?)
    }

    async fn puzzle_solver(&self, account: &str) -> Result<Option<SolverRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {SOLVER_COLUMNS} FROM puzzle_solvers WHERE account_id = $1"
        ))
        .bind(account)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(solver_row).transpose()?)
    }

    async fn puzzles_tried(&self, solver: &str) -> Result<Vec<Tried>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, BOOL_OR(solved) AS solved FROM puzzle_attempts WHERE solver = $1 \
             GROUP BY puzzle_id",
        )
        .bind(solver)
        .fetch_all(self.pool())
        .await?;
        let read = |row: &PgRow| -> Result<Tried, sqlx::Error> {
            Ok(Tried {
                puzzle_id: row.try_get("puzzle_id")?,
                solved: row.try_get("solved")?,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }
}
