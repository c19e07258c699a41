//! The tactics suite (`tests/data/tactics.txt`): positions from real games where the player to
//! move has a forced win, most of them by sacrifices (placements that force the opponent to
//! capture) and isolation.
//!
//! Each entry is first proved by an exhaustive AND-OR search written with the rules library
//! alone (`prover/mod.rs`: the attacker needs one move that wins, every defence must lose), so
//! the suite does not rest on the engine's word. Then the engine must find a forced win in
//! each, within the stated limit.

mod prover;

use std::sync::atomic::AtomicBool;

use prover::Prover;
use zertz::{Game, Position, Rules};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

/// The engine's limit per position, in nodes (one thread: deterministic). Every entry but one
/// takes under 6.2 million; the 61-ring entry T-Z24-Kartoved24-preve-2025-10-27-2032 turn 21
/// takes 32.7 million since the search answers completed combinations (4.2 million without:
/// `answers=0`; docs/strength.md).
const ENGINE_NODES: u64 = 35_000_000;

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

/// Minutes of searching and nothing to wait for: CI runs the tests of modules named `cpu_bound`
/// beside the other test binaries, which mostly wait on sockets, storage and timers (`.ci/run`).
mod cpu_bound {
    use super::*;

    #[test]
    fn every_entry_is_a_proven_forced_win() {
        let cases = cases();
        assert!(cases.len() >= 15);
        assert!(cases.iter().filter(|c| c.turns >= 3).count() >= 8);
        assert!(
            cases
                .iter()
                .filter(|c| c.source.starts_with("rulebook"))
                .count()
                >= 5,
            "the rulebook's combinations are in the suite"
        );
        for c in &cases {
            let mut prover = Prover::new(c.position.to_move());
            assert!(
                prover.attacker_wins(&c.position, c.turns),
                "{}: no forced win in {} turns ({} nodes)",
                c.source,
                c.turns,
                prover.nodes
            );
            // And not sooner: the claimed length is the shortest. The same prover: what it
            // remembers is exact for a position and a number of turns, whichever question
            // reached it, and the shorter search meets many of the longer one's positions.
            if c.turns > 1 {
                assert!(
                    !prover.attacker_wins(&c.position, c.turns - 1),
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
            let game = Game::from_position(c.position.clone(), Rules::default());
            let stop = AtomicBool::new(false);
            let r = engine.search(&game, &Limits::nodes(ENGINE_NODES), &stop, &mut |_| {});
            match r.score {
                // The prover showed there is no shorter win, so a shorter claim would be false.
                Score::Win(n) => assert_eq!(
                    n, c.turns,
                    "{}: found a win in {n}, the shortest is {}",
                    c.source, c.turns
                ),
                other => panic!(
                    "{}: no forced win found within {ENGINE_NODES} nodes (score {other})",
                    c.source
                ),
            }
            eprintln!("{}: win found in {} nodes", c.source, r.nodes);
            let best = r.best.expect("a move");
            // The move found must itself keep the win: prove it with the independent search.
            let mut after = c.position.clone();
            after.play_unchecked(&best);
            let mut prover = Prover::new(c.position.to_move());
            assert!(
                prover.defender_loses(&after, c.turns - 1),
                "{}: the engine's move does not win in {} turns",
                c.source,
                c.turns
            );
        }
    }
}
