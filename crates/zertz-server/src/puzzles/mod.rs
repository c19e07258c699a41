//! The puzzle trainer (issue 20, docs/learning.md "Puzzle trainer"): the set of puzzles cut
//! from real games (`set`), choosing one near a solver's rating or the daily one (`choose`),
//! checking a move against the solution tree (`check`) and showing why a wrong one is wrong
//! (`refute`), and the Glicko-2 ratings of puzzles and solvers (`rating`, stored by
//! `store::puzzles`).

pub mod check;
pub mod choose;
pub mod postgres;
pub mod rating;
pub mod refute;
pub mod routes;
pub mod set;
pub(crate) mod sql;
pub mod sqlite;
pub mod store;

use std::collections::HashMap;
use std::sync::Arc;

use thiserror::Error;
use tokio::sync::Semaphore;

use crate::puzzles::store::PuzzleStore;
use crate::puzzles::store::{AttemptInput, AttemptOutcome};
use crate::ratings::glicko::Rating;
use crate::store::StoreError;
use check::{Judged, LineError};
use choose::ChooseError;
use refute::Refutation;
use set::{Book, Loaded};

/// Who is solving.
#[derive(Clone, Debug)]
pub struct Solver {
    /// `account:ID`, or `address:IP` for a guest: one rated attempt per solver and puzzle.
    pub key: String,
    /// The account, if logged in.
    pub account: Option<String>,
    /// A guest's rating as the browser sent it (the start rating if it sent none).
    pub guest_rating: Rating,
}

/// Why a request of the trainer was refused.
#[derive(Debug, Error)]
pub enum PuzzleError {
    /// No puzzle with this id.
    #[error("no puzzle {0}")]
    Unknown(String),
    /// No puzzle could be chosen.
    #[error("{0}")]
    Choose(#[from] ChooseError),
    /// The line or the move was refused.
    #[error("{0}")]
    Line(#[from] LineError),
    /// The refutation search could not run.
    #[error("the check of a wrong move failed: {0}")]
    Refute(String),
    /// The store failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// The answer to a move.
#[derive(Clone, Debug)]
pub enum Answer {
    /// Right, and the puzzle goes on with the server's reply.
    Right {
        /// The move, as the rules write it.
        mv: String,
        /// The position after the move.
        after_move: String,
        /// The defence.
        reply: String,
        /// The position after the defence (the solver to move).
        position: String,
        /// The solver's legal moves there.
        legal: Vec<String>,
    },
    /// Solved: recorded.
    Solved {
        /// The move.
        mv: String,
        /// The position after it.
        after_move: String,
        /// The ratings.
        outcome: AttemptOutcome,
    },
    /// Wrong: recorded, with the refutation.
    Wrong {
        /// The move.
        mv: String,
        /// The position after it.
        after_move: String,
        /// The refuting defence (none when the budget ran out before one was proven).
        refutation: Option<(String, String)>,
        /// Why, in a sentence.
        why: String,
        /// The solution's move where the solver went wrong.
        solution: String,
        /// The ratings.
        outcome: AttemptOutcome,
    },
    /// A move the prover shows wins too, but off the solution's line: try again, nothing
    /// recorded.
    AlsoWins {
        /// The move.
        mv: String,
    },
}

/// The trainer: the set, the store, and the slots refutation searches run on.
pub struct Puzzles {
    book: Book,
    store: Arc<dyn PuzzleStore>,
    slots: Semaphore,
}

impl Puzzles {
    /// The trainer serving `book`, with `slots` refutation searches at once.
    pub fn new(book: Book, store: Arc<dyn PuzzleStore>, slots: usize) -> Arc<Puzzles> {
        Arc::new(Puzzles {
            book,
            store,
            slots: Semaphore::new(slots.max(1)),
        })
    }

    /// The set.
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Result<&Loaded, PuzzleError> {
        self.book
            .get(id)
            .ok_or_else(|| PuzzleError::Unknown(id.to_string()))
    }

    /// The current ratings of every puzzle that has been rated (the others have their start).
    pub async fn ratings(&self) -> Result<HashMap<String, (Rating, i64, i64)>, PuzzleError> {
        Ok(self
            .store
            .puzzle_ratings()
            .await?
            .into_iter()
            .map(|r| (r.puzzle_id, (r.rating, r.attempts, r.solved)))
            .collect())
    }

    /// A puzzle's rating, its rated attempts and how many solved it.
    pub async fn rating_of(&self, p: &Loaded) -> Result<(Rating, i64, i64), PuzzleError> {
        let all = self.ratings().await?;
        Ok(all
            .get(&p.puzzle.id)
            .copied()
            .unwrap_or((rating::start_rating(p.puzzle.turns), 0, 0)))
    }

    /// The solver's rating: the account's stored one (grown for its time away), else the one
    /// the guest sent.
    pub async fn solver_rating(&self, solver: &Solver, now_ms: i64) -> Result<Rating, PuzzleError> {
        Ok(match &solver.account {
            Some(account) => match self.store.puzzle_solver(account).await? {
                Some(row) => rating::solver_after(row.rating, now_ms - row.updated_ms),
                None => rating::new_solver(),
            },
            None => solver.guest_rating,
        })
    }

    /// The next puzzle for `solver`.
    pub async fn next(
        &self,
        solver: &Solver,
        theme: Option<&str>,
        after: Option<&str>,
        now_ms: i64,
    ) -> Result<&Loaded, PuzzleError> {
        let rating = self.solver_rating(solver, now_ms).await?;
        let ratings = self.ratings().await?;
        let history: choose::History = self
            .store
            .puzzles_tried(&solver.key)
            .await?
            .into_iter()
            .map(|t| (t.puzzle_id, t.solved))
            .collect();
        let rating_of = |p: &Loaded| {
            ratings
                .get(&p.puzzle.id)
                .map_or(rating::start_rating(p.puzzle.turns), |r| r.0)
                .rating
        };
        let mut seed = [0u8; 8];
        // A failed draw of randomness only makes the choice the nearest puzzle.
        let _ = getrandom::fill(&mut seed);
        Ok(choose::next(
            &self.book,
            rating_of,
            &history,
            rating.rating,
            theme,
            after,
            u64::from_le_bytes(seed),
        )?)
    }

    /// Checks `mv` after `line` in puzzle `id`, records a solved or failed attempt, and
    /// answers.
    pub async fn answer(
        &self,
        id: &str,
        line: &[String],
        mv: &str,
        solver: &Solver,
        now_ms: i64,
    ) -> Result<Answer, PuzzleError> {
        let puzzle = self.get(id)?;
        let judged = check::judge(puzzle, line, mv)?;
        let record = |solved: bool| AttemptInput {
            solver: solver.key.clone(),
            account: solver.account.clone(),
            guest_rating: solver.guest_rating,
            puzzle_id: puzzle.puzzle.id.clone(),
            puzzle_start: rating::start_rating(puzzle.puzzle.turns),
            solved,
            at_ms: now_ms,
        };
        match judged {
            Judged::Right {
                mv,
                after_move,
                reply,
                after_reply,
            } => Ok(Answer::Right {
                mv,
                after_move: after_move.to_string(),
                reply,
                position: after_reply.to_string(),
                legal: legal_moves(&after_reply),
            }),
            Judged::Solved { mv, after_move } => {
                let outcome = self.store.record_attempt(&record(true)).await?;
                Ok(Answer::Solved {
                    mv,
                    after_move: after_move.to_string(),
                    outcome,
                })
            }
            Judged::Wrong {
                mv,
                after_move,
                turns_left,
                solution,
                ..
            } => {
                let attacker = puzzle.attacker();
                let _slot = self
                    .slots
                    .acquire()
                    .await
                    .map_err(|e| PuzzleError::Refute(e.to_string()))?;
                let position = after_move.clone();
                let found = tokio::task::spawn_blocking(move || {
                    refute::refute(&position, attacker, turns_left)
                })
                .await
                .map_err(|e| PuzzleError::Refute(e.to_string()))?;
                let (refutation, why) = match found {
                    Refutation::AlsoWins => return Ok(Answer::AlsoWins { mv }),
                    Refutation::Refuted { reply, after, why } => {
                        let why =
                            format!("{mv} is not the solution: after the reply {reply}, {why}.");
                        (Some((reply, after.to_string())), why)
                    }
                    Refutation::Unproven => (
                        None,
                        format!(
                            "{mv} is not the solution: the puzzle's move wins within {turns_left} \
                             of your turns, and this one was not shown to."
                        ),
                    ),
                };
                let outcome = self.store.record_attempt(&record(false)).await?;
                Ok(Answer::Wrong {
                    mv,
                    after_move: after_move.to_string(),
                    refutation,
                    why,
                    solution,
                    outcome,
                })
            }
        }
    }
}

/// The legal moves of a position, as the rules write them.
pub fn legal_moves(position: &zertz::Position) -> Vec<String> {
    position
        .legal_moves()
        .iter()
        .map(|m| zertz::notation::official::move_text(position, m))
        .collect()
}
