//! The prover: does the player to move win by force within N turns, and with which first
//! moves? Answered by proof-number search over the rules library, with a proof that is
//! replayed and checked before it is reported.
//!
//! **Turns** are counted as ZÈRTZ players count a win "in N" (and as the engine's
//! [`crate::Score::Win`] does): the attacker's own turns, captures included. A win in 1 is a
//! move that wins at once; a win in 2 is a move such that, whatever the defender replies, the
//! attacker has a move that wins; the defender's turns are not counted. The attacker wins when
//! their captures reach a winning set, or when the defender must move and has no legal move
//! (a defender who runs out of moves after the attacker's last counted turn also loses: that
//! is a win within N). The rules are the position's: repetition (which needs the game's
//! history) and the bribe house rule are outside the question.
//!
//! The answers: [`Verdict::Win`] with the shortest number of turns, the winning first moves and
//! a proof that [`proof::check`] has accepted; [`Verdict::NoWin`] when every line was explored to
//! the bound and none wins; [`Verdict::Unknown`] when the node budget ran out first.
//!
//! ```
//! use zertz::Position;
//! use zertz_engine::prove::{Prover, Verdict};
//!
//! let start = Position::standard();
//! let report = Prover::new(4).prove(&start, 1, 10_000).unwrap();
//! assert!(matches!(report.verdict, Verdict::NoWin { within: 1 }));
//! ```

pub mod dfpn;
pub mod proof;
pub mod table;

use thiserror::Error;
use zertz::{Move, Outcome, Position};

use dfpn::{Search, children, terminal};
pub use proof::{Proof, ProofError, ProofNode, check};
use table::Table;

/// The table size of a prover made with [`Prover::default`], in megabytes.
pub const DEFAULT_TABLE_MB: usize = 64;

/// The most nodes a proof tree may have before the prover gives up reading it out (it then
/// answers [`Verdict::Unknown`]): about 100 MB of proof.
pub const MAX_PROOF_NODES: usize = 2_000_000;

/// Why the prover refused a question.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProveError {
    /// The position is already decided.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// Zero turns asked for.
    #[error("the number of turns must be at least 1")]
    NoTurns,
    /// A proof the search found did not pass the check (a bug in the prover: never shown as a
    /// win).
    #[error("the proof found did not pass the check: {0}")]
    Rejected(ProofError),
}

/// The answer to "does the player to move win within N turns?".
#[derive(Clone, Debug)]
pub enum Verdict {
    /// A forced win, proven and checked.
    Win {
        /// The fewest of the attacker's turns the win needs (no win is shorter: proven).
        turns: u32,
        /// The winning first moves found, the proof's first among them.
        moves: Vec<Move>,
        /// True when every legal first move was decided, so `moves` is all of them.
        all_moves_checked: bool,
        /// The proof, checked by [`check`].
        proof: Proof,
    },
    /// No win within `within` turns, proven: every line explored to the bound.
    NoWin {
        /// The bound.
        within: u32,
    },
    /// The node budget ran out before an answer.
    Unknown {
        /// The nodes searched.
        nodes: u64,
    },
}

/// A verdict with the work it took.
#[derive(Clone, Debug)]
pub struct Report {
    /// The answer.
    pub verdict: Verdict,
    /// Nodes expanded (positions whose moves were generated), all searches together.
    pub nodes: u64,
}

/// Every legal first move of a position sorted by whether it wins within a number of turns:
/// what a puzzle needs to show that its solution is the only one.
#[derive(Clone, Debug, Default)]
pub struct FirstMoves {
    /// Moves proven to win within the turns.
    pub winning: Vec<Move>,
    /// Moves proven not to win within the turns.
    pub not_winning: Vec<Move>,
    /// Moves left undecided when the budget ran out.
    pub unknown: Vec<Move>,
    /// Nodes expanded.
    pub nodes: u64,
}

impl FirstMoves {
    /// The one winning move, when exactly one move wins and every other is proven not to.
    pub fn unique(&self) -> Option<Move> {
        match (self.winning.as_slice(), self.unknown.is_empty()) {
            ([only], true) => Some(*only),
            _ => None,
        }
    }
}

/// Whether a winning first move is the only one ([`Prover::only_winner`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// Every other first move is proven not to win within the turns.
    Unique,
    /// This other move wins too.
    Another(Move),
    /// This other move was left undecided by the budget.
    Undecided(Move),
}

/// What the iterative deepening found.
enum Found {
    Win(Proof),
    NoWin,
    Unknown,
}

/// A prover with its table (kept between questions: what one proof learned helps the next).
pub struct Prover {
    table: Table,
}

impl Default for Prover {
    fn default() -> Prover {
        Prover::new(DEFAULT_TABLE_MB)
    }
}

fn refuse(position: &Position, turns: u32) -> Result<(), ProveError> {
    if let Some(outcome) = position.outcome() {
        return Err(ProveError::GameOver(outcome));
    }
    if turns == 0 {
        return Err(ProveError::NoTurns);
    }
    Ok(())
}

impl Prover {
    /// A prover whose table takes about `table_mb` megabytes.
    pub fn new(table_mb: usize) -> Prover {
        Prover {
            table: Table::new(table_mb),
        }
    }

    /// The table's size in megabytes.
    pub fn table_mb(&self) -> usize {
        self.table.megabytes()
    }

    /// Forgets what earlier questions taught the table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Does the player to move win within `turns` of their turns? Tries 1, 2, … `turns` in
    /// turn (so a win found is the shortest) with at most `nodes` expansions for that and for
    /// reading the proof out; then spends up to `nodes` more on deciding the other first moves.
    pub fn prove(
        &mut self,
        position: &Position,
        turns: u32,
        nodes: u64,
    ) -> Result<Report, ProveError> {
        let (found, spent) = self.shortest(position, turns, nodes)?;
        let proof = match found {
            Found::Win(proof) => proof,
            Found::NoWin => {
                return Ok(Report {
                    verdict: Verdict::NoWin { within: turns },
                    nodes: spent,
                });
            }
            Found::Unknown => {
                return Ok(Report {
                    verdict: Verdict::Unknown { nodes: spent },
                    nodes: spent,
                });
            }
        };
        let t = proof.turns;
        let first = self.first_moves(position, t, nodes)?;
        let mut moves = first.winning.clone();
        if let Some(m) = proof.first_move().filter(|m| !moves.contains(m)) {
            moves.insert(0, m);
        }
        Ok(Report {
            verdict: Verdict::Win {
                turns: t,
                moves,
                all_moves_checked: first.unknown.is_empty(),
                proof,
            },
            nodes: spent + first.nodes,
        })
    }

    /// The shortest win within `turns` as a checked proof, without deciding the other first
    /// moves (cheaper than [`Prover::prove`]: what the review uses to confirm a search's claim).
    /// `Ok(None)` when no win is proven within `nodes` expansions.
    pub fn proof_within(
        &mut self,
        position: &Position,
        turns: u32,
        nodes: u64,
    ) -> Result<Option<Proof>, ProveError> {
        Ok(match self.shortest(position, turns, nodes)?.0 {
            Found::Win(proof) => Some(proof),
            Found::NoWin | Found::Unknown => None,
        })
    }

    /// Iterative deepening over the turns, then the proof read out and checked.
    fn shortest(
        &mut self,
        position: &Position,
        turns: u32,
        nodes: u64,
    ) -> Result<(Found, u64), ProveError> {
        refuse(position, turns)?;
        let attacker = position.to_move();
        let mut search = Search {
            table: &mut self.table,
            attacker,
            nodes: 0,
            budget: nodes,
        };
        for t in 1..=turns {
            let numbers = search.solve(position, t);
            if numbers.dn == 0 {
                continue;
            }
            if numbers.pn != 0 {
                return Ok((Found::Unknown, search.nodes));
            }
            let Some(proof) = proof::extract(&mut search, position, t, MAX_PROOF_NODES) else {
                return Ok((Found::Unknown, search.nodes));
            };
            check(&proof, position).map_err(ProveError::Rejected)?;
            return Ok((Found::Win(proof), search.nodes));
        }
        Ok((Found::NoWin, search.nodes))
    }

    /// Sorts every legal first move by whether it wins within `turns` (at most `nodes`
    /// expansions for all of them together): the winning ones, the ones proven not to win, and
    /// the ones the budget left undecided.
    pub fn first_moves(
        &mut self,
        position: &Position,
        turns: u32,
        nodes: u64,
    ) -> Result<FirstMoves, ProveError> {
        refuse(position, turns)?;
        let attacker = position.to_move();
        let mut search = Search {
            table: &mut self.table,
            attacker,
            nodes: 0,
            budget: nodes,
        };
        let mut out = FirstMoves::default();
        for (mv, after) in children(position) {
            let numbers = match terminal(&after, turns - 1, attacker) {
                Some(n) => n,
                None => search.solve(&after, turns - 1),
            };
            if numbers.pn == 0 {
                out.winning.push(mv);
            } else if numbers.dn == 0 {
                out.not_winning.push(mv);
            } else {
                out.unknown.push(mv);
            }
        }
        out.nodes = search.nodes;
        Ok(out)
    }

    /// Is `winner` (a move known to win within `turns`) the only winning first move? Decides
    /// the other first moves one by one (captures and forcing moves first, as the search orders
    /// them) and stops at the first other move that wins or that `nodes` expansions in all
    /// leave undecided: much cheaper than [`Prover::first_moves`] when the answer is no.
    pub fn only_winner(
        &mut self,
        position: &Position,
        winner: &Move,
        turns: u32,
        nodes: u64,
    ) -> Result<Uniqueness, ProveError> {
        refuse(position, turns)?;
        let attacker = position.to_move();
        let mut search = Search {
            table: &mut self.table,
            attacker,
            nodes: 0,
            budget: nodes,
        };
        for (mv, after) in children(position) {
            if mv == *winner {
                continue;
            }
            let numbers = match terminal(&after, turns - 1, attacker) {
                Some(n) => n,
                None => search.solve(&after, turns - 1),
            };
            if numbers.pn == 0 {
                return Ok(Uniqueness::Another(mv));
            }
            if numbers.dn != 0 {
                return Ok(Uniqueness::Undecided(mv));
            }
        }
        Ok(Uniqueness::Unique)
    }

    /// A checked proof that `mv` wins within `turns` from `position`, if one is found within
    /// `nodes` expansions (for a puzzle's solution tree starting with a given move).
    pub fn prove_move(
        &mut self,
        position: &Position,
        mv: &Move,
        turns: u32,
        nodes: u64,
    ) -> Result<Option<Proof>, ProveError> {
        refuse(position, turns)?;
        let attacker = position.to_move();
        let Ok(after) = position.play(mv) else {
            return Ok(None);
        };
        let mut search = Search {
            table: &mut self.table,
            attacker,
            nodes: 0,
            budget: nodes,
        };
        if search.numbers(&after, turns - 1).pn != 0 && search.solve(&after, turns - 1).pn != 0 {
            return Ok(None);
        }
        let Some(below) = proof::extract(&mut search, &after, turns - 1, MAX_PROOF_NODES) else {
            return Ok(None);
        };
        let mut nodes_list = below.nodes;
        nodes_list.push(ProofNode::Attack {
            mv: *mv,
            next: below.root,
        });
        let proof = Proof {
            attacker,
            turns,
            root: nodes_list.len() - 1,
            nodes: nodes_list,
        };
        check(&proof, position).map_err(ProveError::Rejected)?;
        Ok(Some(proof))
    }
}

/// Proves with a fresh prover of [`DEFAULT_TABLE_MB`]: see [`Prover::prove`].
pub fn prove(position: &Position, turns: u32, nodes: u64) -> Result<Report, ProveError> {
    Prover::default().prove(position, turns, nodes)
}

#[cfg(test)]
mod tests;
