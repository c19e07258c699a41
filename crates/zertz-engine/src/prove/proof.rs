//! Proof trees: what a proven win looks like, how it is read out of the search's table, and
//! the independent check that replays it with the rules library.
//!
//! A proof is stored as a DAG (positions reached by different move orders share one node) of
//! three kinds of nodes: the attacker's chosen move at each of its turns, every legal reply of
//! the defender at each of theirs, and the leaves, where the attacker holds a winning set or
//! the defender has no legal move. [`check`] trusts nothing in it: it replays every line from
//! the position, asks the rules library for the legal moves and the outcome, and fails on the
//! first thing that does not hold.

use std::collections::{HashMap, HashSet};

use thiserror::Error;
use zertz::notation::official;
use zertz::{Move, Player, Position};

use super::dfpn::{Search, children, node_key, terminal};

/// One node of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofNode {
    /// The game is won for the attacker here: a winning set, or the defender cannot move.
    Won,
    /// The attacker's turn: the move that wins, and the node after it.
    Attack {
        /// The attacker's move.
        mv: Move,
        /// The node after it (an index into the proof's nodes).
        next: usize,
    },
    /// The defender's turn: every legal reply, each with the node after it.
    Defend {
        /// Every legal reply and the node it leads to.
        replies: Vec<(Move, usize)>,
    },
}

/// A proof that `attacker` wins within `turns` of their turns from a position.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The player who wins.
    pub attacker: Player,
    /// The attacker's turns the proof needs at most.
    pub turns: u32,
    /// The nodes; [`Proof::root`] is the position's.
    pub nodes: Vec<ProofNode>,
    /// The index of the root node.
    pub root: usize,
}

/// Why a proof was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProofError {
    /// A node index points outside the proof.
    #[error("node {0} does not exist")]
    Dangling(usize),
    /// A leaf that is not a win for the attacker.
    #[error("after {line}: the line ends but the attacker has not won")]
    NotWon {
        /// The moves leading there.
        line: String,
    },
    /// The attacker's move is illegal.
    #[error("after {line}: the attacker's move is illegal: {reason}")]
    Illegal {
        /// The moves leading there.
        line: String,
        /// The rules library's reason.
        reason: String,
    },
    /// A node of the wrong kind for the player to move.
    #[error("after {line}: the proof has a {found} node where {expected} is to move")]
    WrongSide {
        /// The moves leading there.
        line: String,
        /// What the proof has.
        found: &'static str,
        /// Who is to move.
        expected: &'static str,
    },
    /// A defence the proof does not answer.
    #[error("after {line}: the defence {missing} is not answered")]
    MissingDefence {
        /// The moves leading there.
        line: String,
        /// The legal reply left out.
        missing: String,
    },
    /// A reply listed that is not legal, or listed twice.
    #[error("after {line}: the reply {reply} is not legal there, or is listed twice")]
    BadDefence {
        /// The moves leading there.
        line: String,
        /// The reply.
        reply: String,
    },
    /// The line needs more of the attacker's turns than the proof claims.
    #[error("after {line}: the attacker needs more than {turns} turns")]
    TooLong {
        /// The moves leading there.
        line: String,
        /// The turns claimed.
        turns: u32,
    },
}

impl Proof {
    /// The attacker's first move.
    pub fn first_move(&self) -> Option<Move> {
        match self.nodes.get(self.root) {
            Some(ProofNode::Attack { mv, .. }) => Some(*mv),
            _ => None,
        }
    }

    /// The main line: the attacker's moves and, at each defence, the reply that holds out
    /// longest (the one whose subtree is deepest; the first of equals).
    pub fn main_line(&self) -> Vec<Move> {
        let mut depth_memo = HashMap::new();
        let mut out = Vec::new();
        let mut at = self.root;
        while let Some(node) = self.nodes.get(at) {
            match node {
                ProofNode::Won => break,
                ProofNode::Attack { mv, next } => {
                    out.push(*mv);
                    at = *next;
                }
                ProofNode::Defend { replies } => {
                    let Some((mv, next)) = replies
                        .iter()
                        .rev()
                        .max_by_key(|(_, n)| self.depth(*n, &mut depth_memo))
                    else {
                        break;
                    };
                    out.push(*mv);
                    at = *next;
                }
            }
        }
        out
    }

    /// The number of plies below node `at` along its longest line.
    fn depth(&self, at: usize, memo: &mut HashMap<usize, usize>) -> usize {
        if let Some(&d) = memo.get(&at) {
            return d;
        }
        let d = match self.nodes.get(at) {
            None | Some(ProofNode::Won) => 0,
            Some(ProofNode::Attack { next, .. }) => 1 + self.depth(*next, memo),
            Some(ProofNode::Defend { replies }) => {
                1 + replies
                    .iter()
                    .map(|(_, n)| self.depth(*n, memo))
                    .max()
                    .unwrap_or(0)
            }
        };
        memo.insert(at, d);
        d
    }

    /// How many lines (distinct paths from the root to a leaf) the proof covers.
    pub fn lines(&self) -> u64 {
        fn count(p: &Proof, at: usize, memo: &mut HashMap<usize, u64>) -> u64 {
            if let Some(&n) = memo.get(&at) {
                return n;
            }
            let n = match p.nodes.get(at) {
                None | Some(ProofNode::Won) => 1,
                Some(ProofNode::Attack { next, .. }) => count(p, *next, memo),
                Some(ProofNode::Defend { replies }) => replies
                    .iter()
                    .map(|(_, n)| count(p, *n, memo))
                    .fold(0u64, u64::saturating_add),
            };
            memo.insert(at, n);
            n
        }
        count(self, self.root, &mut HashMap::new())
    }
}

/// Replays every line of `proof` from `position` with the rules library: each attacker move
/// must be legal, each defence node must list every legal reply exactly once, each leaf must be
/// a win for the attacker (a winning set, or the defender to move without a legal move), and no
/// line may need more than the proof's turns.
pub fn check(proof: &Proof, position: &Position) -> Result<(), ProofError> {
    let mut seen = HashSet::new();
    let mut line = Vec::new();
    check_node(
        proof,
        proof.root,
        position,
        proof.turns,
        &mut seen,
        &mut line,
    )
}

fn line_text(line: &[(Position, Move)]) -> String {
    if line.is_empty() {
        return "the start".into();
    }
    line.iter()
        .map(|(p, m)| official::move_text(p, m))
        .collect::<Vec<_>>()
        .join(" ")
}

fn check_node(
    proof: &Proof,
    at: usize,
    position: &Position,
    turns: u32,
    seen: &mut HashSet<(usize, Position, u32)>,
    line: &mut Vec<(Position, Move)>,
) -> Result<(), ProofError> {
    // A node already checked from this very position and turns left (transpositions).
    if seen.contains(&(at, position.clone(), turns)) {
        return Ok(());
    }
    let node = proof.nodes.get(at).ok_or(ProofError::Dangling(at))?;
    let attacking = position.to_move() == proof.attacker;
    let text = line_text;
    match node {
        ProofNode::Won => {
            let won = position.winner_by_captures() == Some(proof.attacker)
                || (!attacking
                    && position.winner_by_captures().is_none()
                    && !position.has_any_move());
            if !won {
                return Err(ProofError::NotWon { line: text(line) });
            }
        }
        ProofNode::Attack { mv, next } => {
            if !attacking {
                return Err(ProofError::WrongSide {
                    line: text(line),
                    found: "attacker's",
                    expected: "the defender",
                });
            }
            if position.winner_by_captures().is_some() {
                return Err(ProofError::NotWon { line: text(line) });
            }
            if turns == 0 {
                return Err(ProofError::TooLong {
                    line: text(line),
                    turns: proof.turns,
                });
            }
            let after = position.play(mv).map_err(|e| ProofError::Illegal {
                line: text(line),
                reason: e.to_string(),
            })?;
            line.push((position.clone(), *mv));
            check_node(proof, *next, &after, turns - 1, seen, line)?;
            line.pop();
        }
        ProofNode::Defend { replies } => {
            if attacking {
                return Err(ProofError::WrongSide {
                    line: text(line),
                    found: "defender's",
                    expected: "the attacker",
                });
            }
            if position.winner_by_captures().is_some() {
                return Err(ProofError::NotWon { line: text(line) });
            }
            let legal: HashSet<Move> = position.legal_moves().into_iter().collect();
            let mut listed = HashSet::new();
            for (mv, _) in replies {
                if !legal.contains(mv) || !listed.insert(*mv) {
                    return Err(ProofError::BadDefence {
                        line: text(line),
                        reply: official::move_text(position, mv),
                    });
                }
            }
            if let Some(missing) = position
                .legal_moves()
                .into_iter()
                .find(|m| !listed.contains(m))
            {
                return Err(ProofError::MissingDefence {
                    line: text(line),
                    missing: official::move_text(position, &missing),
                });
            }
            if replies.is_empty() {
                // No legal reply at all: that is a `Won` leaf, not a defence.
                return Err(ProofError::WrongSide {
                    line: text(line),
                    found: "defender's",
                    expected: "nobody able",
                });
            }
            for (mv, next) in replies {
                let mut after = position.clone();
                after.play_unchecked(mv);
                line.push((position.clone(), *mv));
                check_node(proof, *next, &after, turns, seen, line)?;
                line.pop();
            }
        }
    }
    seen.insert((at, position.clone(), turns));
    Ok(())
}

/// Reads a proof out of the search's table after the root was proved, proving again (within
/// the search's budget) any part the table has forgotten. `None` when the budget runs out or
/// the proof would have more than `max_nodes` nodes.
pub fn extract(
    search: &mut Search<'_>,
    position: &Position,
    turns: u32,
    max_nodes: usize,
) -> Option<Proof> {
    let mut builder = Builder {
        nodes: Vec::new(),
        index: HashMap::new(),
        max_nodes,
    };
    let root = builder.node(search, position, turns)?;
    Some(Proof {
        attacker: search.attacker,
        turns,
        nodes: builder.nodes,
        root,
    })
}

struct Builder {
    nodes: Vec<ProofNode>,
    index: HashMap<(u64, Position), usize>,
    max_nodes: usize,
}

impl Builder {
    /// True when the node is proven: by the rules at once, by the table, or by a new search.
    fn proven(search: &mut Search<'_>, position: &Position, turns: u32) -> bool {
        search.numbers(position, turns).pn == 0 || search.solve(position, turns).pn == 0
    }

    fn node(&mut self, search: &mut Search<'_>, position: &Position, turns: u32) -> Option<usize> {
        let key = (node_key(position, turns, search.attacker), position.clone());
        if let Some(&i) = self.index.get(&key) {
            return Some(i);
        }
        if self.nodes.len() >= self.max_nodes {
            return None;
        }
        let node = match terminal(position, turns, search.attacker) {
            Some(n) if n.pn == 0 => ProofNode::Won,
            Some(_) => return None,
            None if position.to_move() == search.attacker => {
                let kids = children(position);
                // A move that wins at once first; then one the table already knows is proven;
                // then the first a new search proves.
                let pick = kids
                    .iter()
                    .find(|(_, p)| matches!(terminal(p, turns - 1, search.attacker), Some(n) if n.pn == 0))
                    .or_else(|| {
                        kids.iter()
                            .find(|(_, p)| search.numbers(p, turns - 1).pn == 0)
                    })
                    .cloned()
                    .or_else(|| {
                        kids.iter()
                            .find(|(_, p)| Self::proven(search, p, turns - 1))
                            .cloned()
                    })?;
                let (mv, after) = pick;
                let next = self.node(search, &after, turns - 1)?;
                ProofNode::Attack { mv, next }
            }
            None => {
                let mut replies = Vec::new();
                for (mv, after) in children(position) {
                    if !Self::proven(search, &after, turns) {
                        return None;
                    }
                    replies.push((mv, self.node(search, &after, turns)?));
                }
                ProofNode::Defend { replies }
            }
        };
        self.nodes.push(node);
        let i = self.nodes.len() - 1;
        self.index.insert(key, i);
        Some(i)
    }
}
