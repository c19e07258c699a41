//! The tactics suite (`tests/data/tactics.txt`): positions from real games where the player to
//! move has a forced win, most of them by sacrifices (placements that force the opponent to
//! capture) and isolation.
//!
//! Each entry is first proved by an exhaustive AND-OR search written here with the rules library
//! alone (the attacker needs one move that wins, every defence must lose; captures cost no turn),
//! so the suite does not rest on the engine's word. Then the engine must find a forced win in
//! each, within the stated limit.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use zertz::{Game, Move, Player, Position, Rules};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

/// The engine's limit per position, in nodes (one thread: deterministic).
const ENGINE_NODES: u64 = 6_000_000;

struct Case {
    position: Position,
    turns: u32,
    source: String,
}

fn cases() -> Vec<Case> {
    include_str!("data/tactics.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split(" ; ").collect();
            assert!(parts.len() >= 3, "bad line: {line}");
            let position: Position = parts[0].parse().unwrap_or_else(|e| panic!("{e}"));
            let turns = parts[1]
                .strip_prefix("win ")
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| panic!("bad claim in {line}"));
            Case {
                position,
                turns,
                source: parts[2].to_string(),
            }
        })
        .collect()
}

/// An exhaustive proof search. `turns` counts the attacker's turns left, captures included (as
/// the engine counts a win "in n").
struct Prover {
    attacker: Player,
    memo: HashMap<(u64, u32, bool), bool>,
    nodes: u64,
}

impl Prover {
    /// Moves in an order that finds forced wins fast: captures, then placements that leave
    /// the opponent a capture or take marbles, then the rest.
    fn ordered(p: &Position) -> Vec<Move> {
        let mut moves = p.legal_moves();
        let me = p.to_move();
        moves.sort_by_cached_key(|m| {
            let mut q = *p;
            q.play_unchecked(m);
            let gained = q.captures(me).total() as i32 - p.captures(me).total() as i32;
            let forcing = q.has_capture() as i32;
            -(gained * 4 + forcing * 2)
        });
        moves
    }

    fn attacker_wins(&mut self, p: &Position, turns: u32) -> bool {
        match p.winner_by_captures() {
            Some(w) => return w == self.attacker,
            None if turns == 0 => return false,
            None => {}
        }
        if let Some(&known) = self.memo.get(&(p.hash(), turns, true)) {
            return known;
        }
        self.nodes += 1;
        let mut result = false;
        for m in Self::ordered(p) {
            let mut child = *p;
            child.play_unchecked(&m);
            if self.defender_loses(&child, turns - 1) {
                result = true;
                break;
            }
        }
        self.memo.insert((p.hash(), turns, true), result);
        result
    }

    fn defender_loses(&mut self, p: &Position, turns: u32) -> bool {
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
        let moves = p.legal_moves();
        // No legal move: the defender loses.
        let mut result = true;
        for m in &moves {
            let mut child = *p;
            child.play_unchecked(m);
            if !self.attacker_wins(&child, turns) {
                result = false;
                break;
            }
        }
        self.memo.insert((p.hash(), turns, false), result);
        result
    }
}

#[test]
fn every_entry_is_a_proven_forced_win() {
    let cases = cases();
    assert!(cases.len() >= 15);
    assert!(cases.iter().filter(|c| c.turns >= 3).count() >= 8);
    for c in &cases {
        let mut prover = Prover {
            attacker: c.position.to_move(),
            memo: HashMap::new(),
            nodes: 0,
        };
        assert!(
            prover.attacker_wins(&c.position, c.turns),
            "{}: no forced win in {} turns ({} nodes)",
            c.source,
            c.turns,
            prover.nodes
        );
        // And not sooner: the claimed length is the shortest.
        if c.turns > 1 {
            let mut quicker = Prover {
                attacker: c.position.to_move(),
                memo: HashMap::new(),
                nodes: 0,
            };
            assert!(
                !quicker.attacker_wins(&c.position, c.turns - 1),
                "{}: wins in fewer than {} turns",
                c.source,
                c.turns
            );
        }
    }
}

#[test]
fn the_engine_finds_every_forced_win() {
    let engine = Engine::new(SearchOptions::default(), 64);
    for c in cases() {
        engine.clear();
        let game = Game::from_position(c.position, Rules::default());
        let stop = AtomicBool::new(false);
        let r = engine.search(&game, &Limits::nodes(ENGINE_NODES), &stop, &mut |_| {});
        match r.score {
            Score::Win(n) => assert!(
                n <= c.turns,
                "{}: found a win in {n}, the shortest is {}",
                c.source,
                c.turns
            ),
            other => panic!(
                "{}: no forced win found within {ENGINE_NODES} nodes (score {other})",
                c.source
            ),
        }
        eprintln!("{}: win found in {} nodes", c.source, r.nodes);
        let best = r.best.expect("a move");
        // The move found must itself keep the win: prove it with the independent search.
        let mut after = c.position;
        after.play_unchecked(&best);
        let mut prover = Prover {
            attacker: c.position.to_move(),
            memo: HashMap::new(),
            nodes: 0,
        };
        assert!(
            prover.defender_loses(&after, c.turns - 1),
            "{}: the engine's move does not win in {} turns",
            c.source,
            c.turns
        );
    }
}
