//! The puzzle trainer's storage written once for both databases (see `store::sql`); an
//! attempt, whose ratings are read and rewritten in one transaction, differs and is in
//! `sqlite.rs` and `postgres.rs` (which share its last writes from here).

use async_trait::async_trait;

use crate::puzzles::store::{
    AttemptInput, AttemptOutcome, PuzzleRatingRow, PuzzleStore, SolverRow, Tried,
};
use crate::ratings::glicko::Rating;
use crate::store::StoreError;
use crate::store::sql::{Row, Sql, Statement, args, map_rows};

/// The columns of a [`PuzzleRatingRow`].
pub(crate) const PUZZLE_COLUMNS: &str =
    "puzzle_id, rating, deviation, volatility, attempts, solved, updated_ms";

/// The columns of a [`SolverRow`].
pub(crate) const SOLVER_COLUMNS: &str =
    "account_id, rating, deviation, volatility, attempts, updated_ms";

/// What the databases do differently for puzzles.
#[async_trait]
pub(crate) trait PuzzleDialect {
    /// Rates and stores attempt `a` in one transaction.
    async fn record(&self, a: &AttemptInput) -> Result<AttemptOutcome, StoreError>;
}

/// A puzzle's rating row holding [`PUZZLE_COLUMNS`].
pub(crate) fn puzzle_row(row: &impl Row) -> Result<PuzzleRatingRow, sqlx::Error> {
    Ok(PuzzleRatingRow {
        puzzle_id: row.get("puzzle_id")?,
        rating: Rating {
            rating: row.get("rating")?,
            deviation: row.get("deviation")?,
            volatility: row.get("volatility")?,
        },
        attempts: row.get("attempts")?,
        solved: row.get("solved")?,
        updated_ms: row.get("updated_ms")?,
    })
}

/// A solver's row holding [`SOLVER_COLUMNS`].
pub(crate) fn solver_row(row: &impl Row) -> Result<SolverRow, sqlx::Error> {
    Ok(SolverRow {
        account_id: row.get("account_id")?,
        rating: Rating {
            rating: row.get("rating")?,
            deviation: row.get("deviation")?,
            volatility: row.get("volatility")?,
        },
        attempts: row.get("attempts")?,
        updated_ms: row.get("updated_ms")?,
    })
}

/// What attempt `a` writes once the puzzle's new rating is written: the solver's new rating
/// (an account's rated attempt) and the attempt's row.
pub(crate) fn attempt_rows(
    a: &AttemptInput,
    solver: Option<&SolverRow>,
    outcome: &AttemptOutcome,
) -> Vec<Statement> {
    let mut rows: Vec<Statement> = solver.map(upsert_solver).into_iter().collect();
    rows.push(insert_attempt(a, outcome));
    rows
}

/// The solver's new rating, written over the old one.
fn upsert_solver(s: &SolverRow) -> Statement {
    Statement::new(
        format!(
            "INSERT INTO puzzle_solvers ({SOLVER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             attempts = excluded.attempts, updated_ms = excluded.updated_ms"
        ),
        args![
            &s.account_id,
            s.rating.rating,
            s.rating.deviation,
            s.rating.volatility,
            s.attempts,
            s.updated_ms
        ],
    )
}

/// The row of attempt `a`, rated as `outcome` says.
fn insert_attempt(a: &AttemptInput, outcome: &AttemptOutcome) -> Statement {
    let (before, after) = if outcome.rated {
        (
            Some(outcome.solver_before.rating),
            Some(outcome.solver_after.rating),
        )
    } else {
        (None, None)
    };
    Statement::new(
        "INSERT INTO puzzle_attempts (solver, puzzle_id, at_ms, solved, rated, rating_before, \
         rating_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
        args![
            &a.solver,
            &a.puzzle_id,
            a.at_ms,
            a.solved,
            outcome.rated,
            before,
            after
        ],
    )
}

#[async_trait]
impl<S: Sql + PuzzleDialect> PuzzleStore for S {
    async fn record_attempt(&self, a: &AttemptInput) -> Result<AttemptOutcome, StoreError> {
        self.record(a).await
    }

    async fn puzzle_ratings(&self) -> Result<Vec<PuzzleRatingRow>, StoreError> {
        // Rows without a rated attempt only hold the starting rating (PostgreSQL makes them to
        // lock them): left out.
        let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzle_ratings WHERE attempts > 0");
        let rows = self.fetch_all(&sql, Vec::new()).await?;
        map_rows(&rows, puzzle_row)
    }

    async fn puzzle_solver(&self, account: &str) -> Result<Option<SolverRow>, StoreError> {
        let sql = format!("SELECT {SOLVER_COLUMNS} FROM puzzle_solvers WHERE account_id = ?");
        let row = self.fetch_optional(&sql, args![account]).await?;
        Ok(row.as_ref().map(solver_row).transpose()?)
    }

    async fn puzzles_tried(&self, solver: &str) -> Result<Vec<Tried>, StoreError> {
        // Solved at least once: a boolean's OR in PostgreSQL, the largest 0 or 1 in SQLite.
        let solved = Self::pick("MAX(solved)", "BOOL_OR(solved)");
        let sql = format!(
            "SELECT puzzle_id, {solved} AS solved FROM puzzle_attempts WHERE solver = ? \
             GROUP BY puzzle_id"
        );
        let rows = self.fetch_all(&sql, args![solver]).await?;
        map_rows(&rows, |row| {
            Ok(Tried {
                puzzle_id: row.get("puzzle_id")?,
                solved: row.get("solved")?,
            })
        })
    }
}
