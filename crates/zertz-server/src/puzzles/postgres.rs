//! The puzzle trainer's ratings and attempts in PostgreSQL: an attempt is one transaction that
//! locks the puzzle's rating row (created first if missing) and the account's, so that two
//! attempts at one puzzle are rated one after the other and a solver's first attempt is rated
//! once. The rest is written once for both databases (`puzzles::sql`).

use async_trait::async_trait;

use crate::puzzles::sql::{
    PUZZLE_COLUMNS, PuzzleDialect, SOLVER_COLUMNS, attempt_rows, puzzle_row, solver_row,
};
use crate::puzzles::store::{AttemptInput, AttemptOutcome, attempt_writes};
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;
use crate::store::postgres::sql::run;

#[async_trait]
impl PuzzleDialect for PostgresStore {
    async fn record(&self, a: &AttemptInput) -> Result<AttemptOutcome, StoreError> {
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
        for row in attempt_rows(a, solver.as_ref(), &outcome) {
            run(&mut tx, row).await?;
        }
        tx.commit().await?;
        Ok(outcome)
    }
}
