//! Depth-first proof-number search (df-pn, Nagai 2002) bounded by the attacker's turns.
//!
//! A node is a position with the number of turns the attacker has left. At an OR node the
//! attacker moves (one winning move proves it, and spends one turn); at an AND node the
//! defender moves (every reply must lose; the defender's turns are free). Proof numbers say
//! how many leaves must still be proved, disproof numbers how many disproved; the search always
//! goes down to the most-proving node, as best-first proof-number search would, but depth
//! first with thresholds so that only the path is in memory and the rest in the [`Table`].
//!
//! Turns left only ever decrease on the attacker's moves and the two players alternate, so the
//! nodes form a DAG (a position can recur once the supply is empty, but never with the same
//! turns left on the same path): df-pn's cycle troubles do not arise.
//!
//! Every rule comes from the rules library: the moves from [`Position::legal_moves`] (captures
//! compulsory, whole chains), the play from [`Position::play_unchecked`] (isolations, the empty
//! supply), the end from [`Position::winner_by_captures`] and [`Position::has_any_move`].

use zertz::{Move, Player, Position};

use super::table::{INF, Numbers, Table};

/// The key of a node: the position's hash mixed with the turns left and the attacker.
pub fn node_key(position: &Position, turns: u32, attacker: Player) -> u64 {
    let salt = (u64::from(turns) << 1 | attacker.index() as u64).wrapping_add(1);
    position.hash() ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
}

/// The result of a node that needs no search, if it has one: a winning set on either side,
/// the attacker out of turns, or a player with no legal move.
pub fn terminal(position: &Position, turns: u32, attacker: Player) -> Option<Numbers> {
    if let Some(w) = position.winner_by_captures() {
        return Some(if w == attacker {
            Numbers::PROVEN
        } else {
            Numbers::DISPROVEN
        });
    }
    let attacking = position.to_move() == attacker;
    if !position.has_any_move() {
        // The player to move loses.
        return Some(if attacking {
            Numbers::DISPROVEN
        } else {
            Numbers::PROVEN
        });
    }
    if attacking && turns == 0 {
        return Some(Numbers::DISPROVEN);
    }
    if !attacking && turns == 0 {
        // The attacker has no turn left and the defender can move: no win in time.
        return Some(Numbers::DISPROVEN);
    }
    None
}

/// The moves of `position` with their positions after, in the order the search tries them
/// first: moves that take marbles, then moves that leave the opponent a capture (forcing),
/// then the rest. Proof numbers soon override this, but among equals it decides.
pub fn children(position: &Position) -> Vec<(Move, Position)> {
    let me = position.to_move();
    let before = position.captures(me).total();
    let mut out: Vec<(i32, Move, Position)> = position
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = position.clone();
            next.play_unchecked(&m);
            let gained = next.captures(me).total() as i32 - before as i32;
            let forcing = i32::from(next.has_capture());
            (-(gained * 4 + forcing * 2), m, next)
        })
        .collect();
    out.sort_by_key(|(k, _, _)| *k);
    out.into_iter().map(|(_, m, p)| (m, p)).collect()
}

/// The search state: the table, the attacker, and the nodes spent against a budget.
pub struct Search<'t> {
    /// The table of proof and disproof numbers.
    pub table: &'t mut Table,
    /// The player trying to win.
    pub attacker: Player,
    /// Expansions (move generations) so far.
    pub nodes: u64,
    /// The most expansions allowed.
    pub budget: u64,
}

fn cap(n: u64) -> u64 {
    n.min(INF)
}

impl Search<'_> {
    /// True once the budget is spent.
    pub fn exhausted(&self) -> bool {
        self.nodes >= self.budget
    }

    /// What is known of a node: decided by the rules, stored, or nothing yet (1 and 1).
    pub fn numbers(&self, position: &Position, turns: u32) -> Numbers {
        if let Some(t) = terminal(position, turns, self.attacker) {
            return t;
        }
        self.table
            .get(node_key(position, turns, self.attacker))
            .unwrap_or(Numbers { pn: 1, dn: 1 })
    }

    /// Searches the node until it is decided or the budget runs out; returns its numbers.
    pub fn solve(&mut self, position: &Position, turns: u32) -> Numbers {
        self.mid(position, turns, INF, INF);
        self.numbers(position, turns)
    }

    /// One df-pn visit: searches below the node until its proof number reaches `th_pn` or its
    /// disproof number `th_dn` (or the budget runs out), and stores what it learned.
    fn mid(&mut self, position: &Position, turns: u32, th_pn: u64, th_dn: u64) {
        let here = self.numbers(position, turns);
        if here.is_solved() || here.pn >= th_pn || here.dn >= th_dn || self.exhausted() {
            return;
        }
        let start = self.nodes;
        self.nodes += 1;
        let attacking = position.to_move() == self.attacker;
        let kids = children(position);
        let child_turns = if attacking { turns - 1 } else { turns };
        // In phi/delta form: phi is the number the node's mover wants to bring to 0 (pn at an
        // OR node, dn at an AND node), delta the other; a node's phi is the least delta among its
        // children and its delta the sum of their phis.
        let (th_phi, th_delta) = if attacking {
            (th_pn, th_dn)
        } else {
            (th_dn, th_pn)
        };
        let key = node_key(position, turns, self.attacker);
        loop {
            let mut phi = INF;
            let mut delta = 0;
            let mut best = 0;
            let mut second = INF;
            let mut best_phi_child = 0;
            for (i, (_, next)) in kids.iter().enumerate() {
                let n = self.numbers(next, child_turns);
                // The child's own phi and delta (its mover is the other player).
                let (c_phi, c_delta) = if attacking {
                    (n.dn, n.pn)
                } else {
                    (n.pn, n.dn)
                };
                delta = cap(delta + c_phi);
                if c_delta < phi {
                    second = phi;
                    phi = c_delta;
                    best = i;
                    best_phi_child = c_phi;
                } else if c_delta < second {
                    second = c_delta;
                }
            }
            let numbers = if attacking {
                Numbers { pn: phi, dn: delta }
            } else {
                Numbers { pn: delta, dn: phi }
            };
            self.table.put(key, numbers, self.nodes - start);
            if phi >= th_phi || delta >= th_delta || phi == 0 || delta == 0 || self.exhausted() {
                return;
            }
            // The most-proving child gets thresholds that send the search back up as soon as
            // another child or the node's own thresholds become the better place to work.
            let child_phi = if th_delta >= INF {
                INF
            } else {
                th_delta - (delta - best_phi_child)
            };
            let child_delta = th_phi.min(cap(second + 1));
            let (c_pn, c_dn) = if attacking {
                (child_delta, child_phi)
            } else {
                (child_phi, child_delta)
            };
            let (_, next) = &kids[best];
            self.mid(next, child_turns, c_pn, c_dn);
        }
    }
}
