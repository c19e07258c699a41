//! The prover against two independent judges: the exhaustive AND-OR search of `prover/mod.rs`
//! (written with the rules library alone) on random positions, and real games from the
//! BoardSpace archive, whose winners' last moves must be proven wins. Every proof the prover
//! reports has passed `prove::check`; these tests check the verdicts themselves.

mod prover;
#[path = "../examples/common/records.rs"]
mod records;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use zertz::{Game, Outcome, Position, Rules, WinReason, boardspace};
use zertz_engine::prove::{Prover, Verdict, check};
use zertz_engine::{Engine, Limits, Rng, Score, SearchOptions};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    /// Random positions: every position of random games from a fixed seed, past the opening.
    fn random_positions(seed: u64, games: usize, every: usize) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut p = Position::standard();
            let mut ply = 0;
            while !p.is_over() {
                ply += 1;
                if ply > 10 && ply % every == 0 {
                    out.push(p.clone());
                }
                let moves = p.legal_moves();
                p.play_unchecked(&moves[rng.below(moves.len())]);
            }
        }
        out
    }

    fn engine_score(p: &Position, depth: u32) -> Score {
        let engine = Engine::new(
            SearchOptions {
                threads: 1,
                ..SearchOptions::default()
            },
            8,
        );
        let game = Game::from_position(p.clone(), Rules::default());
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(depth),
            nodes: Some(30_000),
            ..Limits::default()
        };
        engine.search(&game, &limits, &stop, &mut |_| {}).score
    }

    /// On random positions the prover and the exhaustive search agree on "win within 1" and
    /// "win within 2" whenever both finish; a win's first moves are exactly the exhaustive
    /// search's; a "no win within 1" means no legal move wins at once; and the engine never finds a
    /// defence against a proven win.
    #[test]
    fn random_positions_agree_with_the_exhaustive_search_and_the_engine() {
        let positions = random_positions(11, 30, 4);
        assert!(positions.len() > 100, "{}", positions.len());
        let started = std::time::Instant::now();
        let (mut wins, mut no_wins, mut decided) = (0, 0, 0);
        let mut prover = Prover::new(16);
        for p in &positions {
            if p.is_over() {
                continue;
            }
            for turns in 1..=2 {
                let report = prover.prove(p, turns, 100_000).unwrap();
                let mut exhaustive = prover::Prover::new(p.to_move());
                exhaustive.budget = 20_000;
                let expected = exhaustive.attacker_wins(p, turns);
                if exhaustive.gave_up() {
                    continue;
                }
                match &report.verdict {
                    Verdict::Win {
                        turns: t,
                        moves,
                        all_moves_checked,
                        proof,
                    } => {
                        assert!(
                            expected,
                            "{p}: the prover claims a win in {t}, there is none"
                        );
                        assert!(*t <= turns);
                        check(proof, p).unwrap();
                        let mut exhaustive = prover::Prover::new(p.to_move());
                        let mut all = exhaustive.winning_moves(p, *t);
                        if *all_moves_checked {
                            let mut mine = moves.clone();
                            mine.sort();
                            all.sort();
                            assert_eq!(mine, all, "{p}: winning first moves differ");
                        }
                        // The engine must not find a way out after the proof's first move.
                        let first = proof.first_move().unwrap();
                        let after = p.play(&first).unwrap();
                        if !after.is_over() {
                            let s = engine_score(&after, 2 * turns);
                            assert!(
                                !matches!(s, Score::Win(_)),
                                "{p}: the engine defends: {s:?}"
                            );
                        }
                        wins += 1;
                    }
                    Verdict::NoWin { within } => {
                        assert_eq!(*within, turns);
                        assert!(!expected, "{p}: the prover says no win within {turns}");
                        if turns == 1 {
                            for m in p.legal_moves() {
                                let after = p.play(&m).unwrap();
                                assert_ne!(after.winner_by_captures(), Some(p.to_move()), "{p}");
                            }
                        }
                        no_wins += 1;
                    }
                    Verdict::Unknown { .. } => continue,
                }
                decided += 1;
                // A win in 1 is also a win within 2: nothing more to ask.
                if matches!(report.verdict, Verdict::Win { .. }) {
                    break;
                }
            }
        }
        eprintln!(
            "{wins} wins, {no_wins} no wins, {decided} decided of {} positions in {:?}",
            positions.len(),
            started.elapsed()
        );
        assert!(
            wins >= 10 && no_wins >= 50,
            "{wins} wins, {no_wins} no wins of {decided}"
        );
    }

    fn archive() -> Option<PathBuf> {
        let dir = match std::env::var_os("ZERTZ_BOARDSPACE") {
            Some(d) => PathBuf::from(d),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boardspace"),
        };
        dir.is_dir().then_some(dir)
    }

    /// Real games that ended with a winning set: the winner's last move wins in 1, proven; the
    /// position before the winner's last two moves, when the exhaustive search says it is a forced
    /// win in 2, is proven a win in 2 (or in 1) by the prover too, with a checked proof.
    #[test]
    fn the_winners_last_moves_in_real_games_are_proven() {
        let Some(dir) = archive() else {
            eprintln!(
                "no BoardSpace archive at ../shared/boardspace or $ZERTZ_BOARDSPACE: nothing to check"
            );
            return;
        };
        let mut texts = Vec::new();
        records::records(
            &dir.join("archive-2025").join("games-Apr-22-2025.zip"),
            &mut texts,
        );
        assert!(!texts.is_empty(), "no record in the archive");
        let mut prover = Prover::new(32);
        let (mut ones, mut twos) = (0, 0);
        for (name, text) in texts.iter().take(400) {
            let Ok(r) = boardspace::import(text) else {
                continue;
            };
            let Some(Outcome::Win {
                winner,
                reason: WinReason::WinningSet,
            }) = r.game.outcome()
            else {
                continue;
            };
            let positions = r.game.positions();
            let end = positions.len() - 1;
            // The position before the winner's last move.
            let last = positions[end - 1].clone();
            assert_eq!(last.to_move(), winner, "{name}");
            let report = prover.prove(&last, 1, 100_000).unwrap();
            match &report.verdict {
                Verdict::Win {
                    turns: 1, proof, ..
                } => check(proof, &last).unwrap(),
                other => panic!("{name}: the winner's last move is not proven: {other:?}"),
            }
            ones += 1;
            if end < 3 || positions[end - 3].to_move() != winner {
                continue;
            }
            let before = positions[end - 3].clone();
            let mut exhaustive = prover::Prover::new(winner);
            exhaustive.budget = 500_000;
            let forced = exhaustive.attacker_wins(&before, 2);
            if exhaustive.gave_up() {
                continue;
            }
            let report = prover.prove(&before, 2, 2_000_000).unwrap();
            match (&report.verdict, forced) {
                (Verdict::Win { turns, proof, .. }, true) => {
                    assert!(*turns <= 2);
                    check(proof, &before).unwrap();
                    twos += 1;
                }
                (Verdict::NoWin { within: 2 }, false) | (Verdict::Unknown { .. }, _) => {}
                (v, f) => panic!("{name}: the prover says {v:?}, the exhaustive search {f}"),
            }
            if ones >= 60 && twos >= 10 {
                break;
            }
        }
        eprintln!("{ones} last moves and {twos} wins in 2 proven");
        assert!(ones >= 30, "only {ones} games ended with a winning set");
        assert!(twos >= 3, "only {twos} forced wins in 2 before the end");
    }
}
