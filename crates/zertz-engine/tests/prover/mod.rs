//! An exhaustive proof search for forced wins, its logic written with the rules library alone
//! so that the tactics suite does not rest on the engine's word: the attacker needs one move
//! that wins, every defence must lose. The attacker's moves are tried in the order of the
//! engine's proof search (`prove::dfpn::children`: captures, then forcing placements), which
//! decides only how soon a win is found, never whether. `turns` counts the attacker's turns,
//! captures included (as the engine counts a win "in n"); the defender's turns are free.
//!
//! Shared by `tests/tactics.rs` and `examples/find_tactics.rs` (which includes it by path).

use std::collections::HashMap;

use zertz::{Move, Player, Position};
use zertz_engine::prove::dfpn::children;

/// The proof search, with its memory of positions already decided.
pub struct Prover {
    attacker: Player,
    memo: HashMap<(u64, u32, bool), bool>,
    /// Positions expanded so far.
    pub nodes: u64,
    /// Give up (answer "no win") beyond this many positions; `u64::MAX` for a full proof.
    pub budget: u64,
}

impl Prover {
    /// A prover for the player to move in the positions it will be asked about.
    pub fn new(attacker: Player) -> Prover {
        Prover {
            attacker,
            memo: HashMap::new(),
            nodes: 0,
            budget: u64::MAX,
        }
    }

    /// True when the budget ran out: a "no" answer is then not a proof.
    pub fn gave_up(&self) -> bool {
        self.nodes > self.budget
    }

    /// The attacker's moves from `p` that win within `turns` (all of them; empty when none).
    #[allow(dead_code)] // used by examples/find_tactics.rs, not by every test
    pub fn winning_moves(&mut self, p: &Position, turns: u32) -> Vec<Move> {
        let mut out = Vec::new();
        if turns == 0 || p.winner_by_captures().is_some() {
            return out;
        }
        for (m, child) in children(p) {
            if self.defender_loses(&child, turns - 1) {
                out.push(m);
            }
        }
        out
    }

    /// Can the attacker, to move in `p`, win within `turns` of its turns?
    pub fn attacker_wins(&mut self, p: &Position, turns: u32) -> bool {
        match p.winner_by_captures() {
            Some(w) => return w == self.attacker,
            None if turns == 0 => return false,
            None => {}
        }
        if let Some(&known) = self.memo.get(&(p.hash(), turns, true)) {
            return known;
        }
        self.nodes += 1;
        if self.gave_up() {
            return false;
        }
        let mut result = false;
        if turns == 1 {
            // The last turn wins at once or not at all: no order finds it sooner.
            for m in p.legal_moves() {
                let mut child = p.clone();
                child.play_unchecked(&m);
                if self.defender_loses(&child, 0) {
                    result = true;
                    break;
                }
            }
        } else {
            for (_, child) in children(p) {
                if self.defender_loses(&child, turns - 1) {
                    result = true;
                    break;
                }
            }
        }
        if !self.gave_up() {
            self.memo.insert((p.hash(), turns, true), result);
        }
        result
    }

    /// Does the defender, to move in `p`, lose before the attacker has used `turns` more turns?
    pub fn defender_loses(&mut self, p: &Position, turns: u32) -> bool {
        if let Some(w) = p.winner_by_captures() {
            return w == self.attacker;
        }
        if turns == 0 {
            // The attacker has no turn left: the defender loses only with no move at all.
            return !p.has_any_move();
        }
        if let Some(&known) = self.memo.get(&(p.hash(), turns, false)) {
            return known;
        }
        self.nodes += 1;
        if self.gave_up() {
            return false;
        }
        let moves = p.legal_moves();
        // No legal move: the defender loses.
        let mut result = true;
        for m in &moves {
            let mut child = p.clone();
            child.play_unchecked(m);
            if !self.attacker_wins(&child, turns) {
                result = false;
                break;
            }
        }
        if !self.gave_up() {
            self.memo.insert((p.hash(), turns, false), result);
        }
        result
    }
}
