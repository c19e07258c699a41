//! A puzzle's solution tree: a checked proof turned into the tree the trainer walks, and the
//! replay that checks a tree against the rules.
//!
//! A proof ([`crate::prove::Proof`]) is a DAG with one node per (position, turns left); a
//! solution is a tree of moves in notation, where the defender's replies that the attacker
//! answers the same way (the same move and the same tree below it) share one group. The main
//! defence (the trainer's reply) comes first: the game's own reply where the game followed the
//! tree, else the reply that holds out longest.

use std::collections::HashMap;

use thiserror::Error;
use zertz::notation::official;
use zertz::{Move, Player, Position};

use super::{Attack, Defences};
use crate::prove::{Proof, ProofNode};

/// How big a solution tree is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// The defender's replies listed in the whole tree.
    pub defences: usize,
    /// Groups of replies (attacker answers below the first move).
    pub groups: usize,
}

/// The size of a tree.
pub fn size(attack: &Attack) -> Size {
    let mut s = Size::default();
    for g in &attack.then {
        s.defences += g.defences.len();
        s.groups += 1;
        let below = size(&g.next);
        s.defences += below.defences;
        s.groups += below.groups;
    }
    s
}

/// Builds the solution tree from a checked proof of a win from `position`. `game_line` is what
/// the game played from there (the attacker's move first): where the game follows the tree, its
/// replies are the main defences. `None` when the tree would list more than `max_defences`
/// replies (checked as it grows, so a huge proof costs little).
pub fn from_proof(
    proof: &Proof,
    position: &Position,
    game_line: &[Move],
    max_defences: usize,
) -> Option<Attack> {
    let mut budget = max_defences;
    let mut depth_memo = HashMap::new();
    build_attack(
        proof,
        proof.root,
        position,
        Some(game_line),
        &mut budget,
        &mut depth_memo,
    )
}

fn build_attack(
    proof: &Proof,
    at: usize,
    position: &Position,
    game: Option<&[Move]>,
    budget: &mut usize,
    memo: &mut HashMap<usize, usize>,
) -> Option<Attack> {
    let ProofNode::Attack { mv, next } = proof.nodes.get(at)? else {
        return None;
    };
    let text = official::move_text(position, mv);
    let mut after = position.clone();
    after.play_unchecked(mv);
    // The game goes on along the tree only while it played the tree's moves.
    let game_rest = game.filter(|g| g.first() == Some(mv)).map(|g| &g[1..]);
    let then = match proof.nodes.get(*next)? {
        ProofNode::Won => Vec::new(),
        ProofNode::Attack { .. } => return None,
        ProofNode::Defend { replies } => {
            if replies.len() > *budget {
                return None;
            }
            *budget -= replies.len();
            // The main reply: the game's, else the one whose line is longest (the first such).
            let game_reply = game_rest.and_then(|g| g.first());
            let main = game_reply
                .and_then(|r| replies.iter().position(|(m, _)| m == r))
                .unwrap_or_else(|| {
                    let mut best = 0;
                    let mut best_depth = 0;
                    for (i, (_, n)) in replies.iter().enumerate() {
                        let d = depth(proof, *n, memo);
                        if d > best_depth {
                            best = i;
                            best_depth = d;
                        }
                    }
                    best
                });
            let mut order: Vec<usize> = (0..replies.len()).collect();
            order.swap(0, main);
            order[1..].sort_unstable();
            let mut groups: Vec<Defences> = Vec::new();
            for i in order {
                let (reply, node) = &replies[i];
                let reply_text = official::move_text(&after, reply);
                let mut below = after.clone();
                below.play_unchecked(reply);
                let rest = game_rest
                    .filter(|g| g.first() == Some(reply))
                    .map(|g| &g[1..]);
                let answer = build_attack(proof, *node, &below, rest, budget, memo)?;
                match groups.iter_mut().find(|g| g.next == answer) {
                    Some(g) => g.defences.push(reply_text),
                    None => groups.push(Defences {
                        defences: vec![reply_text],
                        next: answer,
                    }),
                }
            }
            groups
        }
    };
    Some(Attack { mv: text, then })
}

/// Plies along the longest line below a proof node.
fn depth(proof: &Proof, at: usize, memo: &mut HashMap<usize, usize>) -> usize {
    if let Some(&d) = memo.get(&at) {
        return d;
    }
    let d = match proof.nodes.get(at) {
        None | Some(ProofNode::Won) => 0,
        Some(ProofNode::Attack { next, .. }) => 1 + depth(proof, *next, memo),
        Some(ProofNode::Defend { replies }) => {
            1 + replies
                .iter()
                .map(|(_, n)| depth(proof, *n, memo))
                .max()
                .unwrap_or(0)
        }
    };
    memo.insert(at, d);
    d
}

/// The main line of a tree: the attacker's moves and the first reply of the first group at
/// each defence, as (position before, move) pairs, and the position at its end. `None` when a
/// move of the line does not parse or is illegal.
pub fn main_line(
    position: &Position,
    attack: &Attack,
) -> Option<(Vec<(Position, Move)>, Position)> {
    let mut line = Vec::new();
    let mut at = position.clone();
    let mut node = attack;
    loop {
        let mv = official::parse(&at, &node.mv).ok()?;
        line.push((at.clone(), mv));
        at = at.play(&mv).ok()?;
        let Some(group) = node.then.first() else {
            return Some((line, at));
        };
        let reply = official::parse(&at, group.defences.first()?).ok()?;
        line.push((at.clone(), reply));
        at = at.play(&reply).ok()?;
        node = &group.next;
    }
}

/// Why a solution tree does not solve its position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolutionError {
    /// A move of the tree is not legal (or not readable) where it stands.
    #[error("after {line}: `{mv}` is not legal: {reason}")]
    Illegal {
        /// The moves leading there.
        line: String,
        /// The move.
        mv: String,
        /// Why.
        reason: String,
    },
    /// A legal reply of the defender the tree does not answer.
    #[error("after {line}: the defence {missing} is not answered")]
    Missing {
        /// The moves leading there.
        line: String,
        /// The reply left out.
        missing: String,
    },
    /// A reply listed twice.
    #[error("after {line}: the defence {reply} is listed twice")]
    Twice {
        /// The moves leading there.
        line: String,
        /// The reply.
        reply: String,
    },
    /// A line ends without the attacker having won.
    #[error("after {line}: the line ends but the attacker has not won")]
    NotWon {
        /// The moves leading there.
        line: String,
    },
    /// A line needs more of the attacker's turns than the puzzle says.
    #[error("after {line}: the attacker needs more than {turns} turns")]
    TooLong {
        /// The moves leading there.
        line: String,
        /// The puzzle's turns.
        turns: u32,
    },
    /// The game is already over where the tree still has a move.
    #[error("after {line}: the game is already over")]
    Over {
        /// The moves leading there.
        line: String,
    },
}

/// Replays every line of `attack` from `position` with the rules library: every move legal,
/// every legal reply of the defender listed exactly once, every line ending in a win for the
/// player to move at `position` (a winning set, or the defender left without a legal move)
/// within `turns` of their turns.
pub fn verify(position: &Position, attack: &Attack, turns: u32) -> Result<(), SolutionError> {
    let attacker = position.to_move();
    let mut line = Vec::new();
    verify_attack(position, attack, turns, turns, attacker, &mut line)
}

fn verify_attack(
    position: &Position,
    attack: &Attack,
    left: u32,
    turns: u32,
    attacker: Player,
    line: &mut Vec<String>,
) -> Result<(), SolutionError> {
    let here = || {
        if line.is_empty() {
            "the start".to_string()
        } else {
            line.join(" ")
        }
    };
    if position.is_over() {
        return Err(SolutionError::Over { line: here() });
    }
    if left == 0 {
        return Err(SolutionError::TooLong {
            line: here(),
            turns,
        });
    }
    let mv = official::parse(position, &attack.mv).map_err(|e| SolutionError::Illegal {
        line: here(),
        mv: attack.mv.clone(),
        reason: e.to_string(),
    })?;
    let after = position.play(&mv).map_err(|e| SolutionError::Illegal {
        line: here(),
        mv: attack.mv.clone(),
        reason: e.to_string(),
    })?;
    line.push(attack.mv.clone());
    let won = after.winner_by_captures() == Some(attacker)
        || (after.winner_by_captures().is_none() && !after.has_any_move());
    if attack.then.is_empty() {
        if !won {
            return Err(SolutionError::NotWon {
                line: line.join(" "),
            });
        }
        line.pop();
        return Ok(());
    }
    if after.is_over() {
        return Err(SolutionError::Over {
            line: line.join(" "),
        });
    }
    // Every legal reply exactly once.
    let mut listed: HashMap<Move, ()> = HashMap::new();
    for group in &attack.then {
        for text in &group.defences {
            let reply = official::parse(&after, text).map_err(|e| SolutionError::Illegal {
                line: line.join(" "),
                mv: text.clone(),
                reason: e.to_string(),
            })?;
            if after.check(&reply).is_err() {
                return Err(SolutionError::Illegal {
                    line: line.join(" "),
                    mv: text.clone(),
                    reason: "not a legal reply".into(),
                });
            }
            if listed.insert(reply, ()).is_some() {
                return Err(SolutionError::Twice {
                    line: line.join(" "),
                    reply: text.clone(),
                });
            }
            let below = after.play(&reply).map_err(|e| SolutionError::Illegal {
                line: line.join(" "),
                mv: text.clone(),
                reason: e.to_string(),
            })?;
            line.push(text.clone());
            verify_attack(&below, &group.next, left - 1, turns, attacker, line)?;
            line.pop();
        }
    }
    if let Some(missing) = after
        .legal_moves()
        .into_iter()
        .find(|m| !listed.contains_key(m))
    {
        return Err(SolutionError::Missing {
            line: line.join(" "),
            missing: official::move_text(&after, &missing),
        });
    }
    line.pop();
    Ok(())
}
