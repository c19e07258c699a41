//! What the puzzle trainer stores: each puzzle's Glicko-2 rating, each account's puzzle rating,
//! and every attempt. An attempt is written in one transaction with the two ratings it changes:
//! the first attempt of a solver at a puzzle is rated, every later one is kept unrated.

use async_trait::async_trait;

use crate::puzzles::rating;
use crate::ratings::glicko::{self, Rating};
use crate::store::StoreError;

/// A puzzle's rating, as stored (a puzzle without a row has its starting rating).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRatingRow {
    /// The puzzle's id.
    pub puzzle_id: String,
    /// Its rating.
    pub rating: Rating,
    /// Rated attempts at it.
    pub attempts: i64,
    /// How many of them solved it.
    pub solved: i64,
    /// When its last rated attempt was.
    pub updated_ms: i64,
}

/// An account's puzzle rating, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverRow {
    /// The account.
    pub account_id: String,
    /// Its puzzle rating.
    pub rating: Rating,
    /// Rated attempts.
    pub attempts: i64,
    /// When its last rated attempt was.
    pub updated_ms: i64,
}

/// An attempt to record.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptInput {
    /// Who: `account:ID`, or `address:IP` for a guest.
    pub solver: String,
    /// The account, for an account's attempt (its rating is read and written here).
    pub account: Option<String>,
    /// A guest's rating, as the browser keeps it (ignored for an account).
    pub guest_rating: Rating,
    /// The puzzle.
    pub puzzle_id: String,
    /// The puzzle's starting rating (when it has no row yet).
    pub puzzle_start: Rating,
    /// Solved (true) or failed.
    pub solved: bool,
    /// When.
    pub at_ms: i64,
}

/// What an attempt changed.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptOutcome {
    /// Whether it was rated (the solver's first attempt at the puzzle).
    pub rated: bool,
    /// The solver's rating before.
    pub solver_before: Rating,
    /// The solver's rating after (the same as before when unrated).
    pub solver_after: Rating,
    /// The puzzle's rating before.
    pub puzzle_before: Rating,
    /// The puzzle's rating after.
    pub puzzle_after: Rating,
}

/// A puzzle a solver has tried, and whether they ever solved it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tried {
    /// The puzzle.
    pub puzzle_id: String,
    /// Solved at least once.
    pub solved: bool,
}

/// The puzzle trainer's storage. Every method is one transaction.
#[async_trait]
pub trait PuzzleStore: Send + Sync {
    /// Records an attempt: rated when the solver has no rated attempt at this puzzle yet, and
    /// then the puzzle's and (for an account) the solver's ratings are updated with it.
    async fn record_attempt(&self, attempt: &AttemptInput) -> Result<AttemptOutcome, StoreError>;

    /// The ratings of every puzzle that has had a rated attempt.
    async fn puzzle_ratings(&self) -> Result<Vec<PuzzleRatingRow>, StoreError>;

    /// An account's puzzle rating, if it has had a rated attempt.
    async fn puzzle_solver(&self, account: &str) -> Result<Option<SolverRow>, StoreError>;

    /// The puzzles a solver has tried.
    async fn puzzles_tried(&self, solver: &str) -> Result<Vec<Tried>, StoreError>;
}

/// The writes of an attempt, worked out from what is stored (`puzzle`, `solver`: the rows
/// before, if any; `rated_before`: the solver already has a rated attempt at the puzzle). Both
/// backends call it inside their transaction.
pub(crate) fn attempt_writes(
    a: &AttemptInput,
    puzzle: Option<PuzzleRatingRow>,
    solver: Option<SolverRow>,
    rated_before: bool,
) -> (Option<PuzzleRatingRow>, Option<SolverRow>, AttemptOutcome) {
    let puzzle_before = puzzle.as_ref().map_or(a.puzzle_start, |p| p.rating);
    let solver_before = match (&a.account, &solver) {
        (Some(_), Some(s)) => rating::solver_after(s.rating, a.at_ms - s.updated_ms),
        (Some(_), None) => rating::new_solver(),
        (None, _) => a.guest_rating,
    };
    if rated_before {
        let outcome = AttemptOutcome {
            rated: false,
            solver_before,
            solver_after: solver_before,
            puzzle_before,
            puzzle_after: puzzle_before,
        };
        return (None, None, outcome);
    }
    // A solved puzzle is a win of the solver over the puzzle. The puzzle's deviation does not
    // grow with time: a puzzle does not get better or worse while nobody tries it.
    let score = if a.solved { 1.0 } else { 0.0 };
    let (solver_after, puzzle_after) =
        glicko::after_game(solver_before, puzzle_before, score, [0, 0]);
    let puzzle_row = PuzzleRatingRow {
        puzzle_id: a.puzzle_id.clone(),
        rating: puzzle_after,
        attempts: puzzle.as_ref().map_or(0, |p| p.attempts) + 1,
        solved: puzzle.as_ref().map_or(0, |p| p.solved) + i64::from(a.solved),
        updated_ms: a.at_ms,
    };
    let solver_row = a.account.as_ref().map(|account| SolverRow {
        account_id: account.clone(),
        rating: solver_after,
        attempts: solver.as_ref().map_or(0, |s| s.attempts) + 1,
        updated_ms: a.at_ms,
    });
    let outcome = AttemptOutcome {
        rated: true,
        solver_before,
        solver_after,
        puzzle_before,
        puzzle_after,
    };
    (Some(puzzle_row), solver_row, outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(solved: bool) -> AttemptInput {
        AttemptInput {
            solver: "address:127.0.0.1".into(),
            account: None,
            guest_rating: Rating::default(),
            puzzle_id: "p".into(),
            puzzle_start: Rating {
                rating: 1600.0,
                deviation: 250.0,
                volatility: 0.06,
            },
            solved,
            at_ms: 1000,
        }
    }

    #[test]
    fn a_first_attempt_is_rated_and_a_later_one_is_not() {
        let (puzzle, solver, won) = attempt_writes(&input(true), None, None, false);
        assert!(won.rated);
        assert!(won.solver_after.rating > 1500.0, "{won:?}");
        assert!(won.puzzle_after.rating < 1600.0, "{won:?}");
        let puzzle = puzzle.expect("the puzzle's new rating");
        assert_eq!((puzzle.attempts, puzzle.solved), (1, 1));
        assert!(solver.is_none(), "a guest's rating is not stored");

        let (puzzle, solver, again) = attempt_writes(&input(false), None, None, true);
        assert!(!again.rated && puzzle.is_none() && solver.is_none());
        assert_eq!(again.solver_after, again.solver_before);
        assert_eq!(again.puzzle_after.rating, 1600.0);
    }

    #[test]
    fn a_failed_attempt_lowers_the_solver_and_an_account_is_stored() {
        let mut a = input(false);
        a.account = Some("acc".into());
        let before = SolverRow {
            account_id: "acc".into(),
            rating: Rating {
                rating: 1700.0,
                deviation: 80.0,
                volatility: 0.06,
            },
            attempts: 4,
            updated_ms: 1000,
        };
        let (puzzle, solver, lost) = attempt_writes(&a, None, Some(before), false);
        assert!(lost.solver_after.rating < 1700.0, "{lost:?}");
        assert!(lost.puzzle_after.rating > 1600.0, "{lost:?}");
        assert_eq!(puzzle.unwrap().solved, 0);
        let solver = solver.expect("the account's rating");
        assert_eq!(solver.attempts, 5);
        assert_eq!(solver.rating, lost.solver_after);
    }
}
