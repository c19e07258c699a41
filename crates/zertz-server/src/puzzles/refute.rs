//! Why a wrong move is wrong: a defence after which the attacker cannot win within the turns
//! left, found with the prover under a node budget. Blocking work: the caller runs it on a
//! blocking thread, one at a time per slot.

use zertz::notation::official;
use zertz::{Player, Position};
use zertz_engine::prove::{Prover, Verdict};

use crate::puzzles::set::wins;

/// The prover's budget for one wrong move, all defences together.
pub const REFUTE_NODES: u64 = 60_000;
/// The budget for one defence.
pub const DEFENCE_NODES: u64 = 15_000;
/// The prover's table, in megabytes.
const TABLE_MB: usize = 8;

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// A defence that leaves the attacker without a win in time (or wins for the defender).
    Refuted {
        /// The defence.
        reply: String,
        /// The position after it.
        after: Position,
        /// Why, in a sentence.
        why: String,
    },
    /// Every defence was proven to lose within the turns left: the move wins too.
    AlsoWins,
    /// The budget ran out before a refuting defence was proven.
    Unproven,
}

/// The player's words: `player 1`.
fn name(p: Player) -> String {
    format!("player {}", p.index() + 1)
}

fn turns_word(n: u32) -> String {
    if n == 1 {
        "1 turn".into()
    } else {
        format!("{n} turns")
    }
}

/// Refutes a move that left `after` (the defender to move) with `turns_left` of the attacker's
/// turns before it (the move's own turn included).
pub fn refute(after: &Position, attacker: Player, turns_left: u32) -> Refutation {
    let defender = attacker.other();
    let remaining = turns_left.saturating_sub(1);
    if !after.has_any_move() || after.is_over() {
        // (A win for the attacker is judged right before this is asked.)
        return Refutation::Unproven;
    }
    let replies: Vec<_> = after.legal_moves().to_vec();
    let answer = |reply: &zertz::Move, why: String| {
        let mut next = after.clone();
        next.play_unchecked(reply);
        Refutation::Refuted {
            reply: official::move_text(after, reply),
            after: next,
            why,
        }
    };
    // A reply that wins for the defender at once is the plainest refutation.
    for reply in &replies {
        let mut next = after.clone();
        next.play_unchecked(reply);
        if wins(&next, defender) {
            let why = if next.winner_by_captures() == Some(defender) {
                format!("{} has won with their captures", name(defender))
            } else {
                format!(
                    "{} has no legal move left, so {} wins",
                    name(attacker),
                    name(defender)
                )
            };
            return answer(reply, why);
        }
    }
    if remaining == 0 {
        let reply = &replies[0];
        return answer(reply, "the puzzle's turns are spent without a win".into());
    }
    let mut prover = Prover::new(TABLE_MB);
    let mut spent = 0u64;
    let mut all_lose = true;
    for reply in &replies {
        if spent >= REFUTE_NODES {
            all_lose = false;
            break;
        }
        let mut next = after.clone();
        next.play_unchecked(reply);
        let budget = DEFENCE_NODES.min(REFUTE_NODES - spent);
        let Ok(report) = prover.prove(&next, remaining, budget) else {
            all_lose = false;
            continue;
        };
        spent += report.nodes;
        match report.verdict {
            Verdict::NoWin { .. } => {
                return answer(
                    reply,
                    format!(
                        "{} has no win within {} (proven)",
                        name(attacker),
                        turns_word(remaining)
                    ),
                );
            }
            Verdict::Win { .. } => {}
            Verdict::Unknown { .. } => all_lose = false,
        }
    }
    if all_lose {
        Refutation::AlsoWins
    } else {
        Refutation::Unproven
    }
}
