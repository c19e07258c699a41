//! The puzzle generator on known positions, and every puzzle of the committed set
//! (`data/puzzles.json`) checked against the rules library and, for the short ones, against
//! the exhaustive search of `tests/prover/mod.rs` (not the df-pn prover that made them).

mod prover;

use std::collections::HashSet;

use zertz::notation::official;
use zertz::{Game, Move, Position};
use zertz_engine::prove::Prover;
use zertz_engine::puzzles::generate::{Rejection, Settings, puzzle_at, puzzle_id, scan_game};
use zertz_engine::puzzles::solution::{main_line, size, verify};
use zertz_engine::puzzles::themes::{THEMES, themes};
use zertz_engine::puzzles::{Attack, Defences, Puzzle, PuzzleSet};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    const SET: &str = include_str!("../../../data/puzzles.json");

    fn position(text: &str) -> Position {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn set() -> PuzzleSet {
        PuzzleSet::from_json(SET).expect("data/puzzles.json reads")
    }

    /// Column `a` alone (a1 W, a2-a4 empty), player 1 with 3 white: every placement that removes
    /// a2 isolates a1 and wins; several moves win at once.
    const ISOLATION_IN_1: &str =
        "37 standard W.../-----/------/-------/------/-----/---- 2/8/10 3/0/0 0/0/0 1";

    /// Player 2 wins in 2 with five different first moves (the prover's tests).
    const CHAIN_IN_2: &str =
        "37 standard --BW/.--.-/-..B.-/--..G.W/---.--/--WB-/---- 0/3/1 1/2/3 2/2/3 2";

    fn settings() -> Settings {
        Settings {
            max_turns: 3,
            filter_nodes: 2_000,
            unique_nodes: 200_000,
            max_defences: 200,
        }
    }

    #[test]
    fn positions_with_several_winning_moves_are_rejected() {
        let mut prover = Prover::new(8);
        for text in [ISOLATION_IN_1, CHAIN_IN_2] {
            let p = position(text);
            // The exhaustive search agrees that more than one move wins.
            let mut exhaustive = prover::Prover::new(p.to_move());
            let turns = if text == CHAIN_IN_2 { 2 } else { 1 };
            assert!(exhaustive.winning_moves(&p, turns).len() > 1, "{text}");
            let got = puzzle_at(&mut prover, &p, &[], &settings());
            assert_eq!(got.err(), Some(Rejection::NotUnique), "{text}");
        }
    }

    #[test]
    fn a_position_without_a_win_is_rejected() {
        let mut prover = Prover::new(8);
        let start = Position::standard();
        let got = puzzle_at(&mut prover, &start, &[], &settings());
        assert_eq!(got.err(), Some(Rejection::NoWinFound));
    }

    /// The first puzzles of each length in the set, found again from their position alone: the
    /// generator names the same single winning move, which the exhaustive search confirms is the
    /// only one, and the shortest.
    #[test]
    fn a_unique_win_is_found_and_its_tree_solves_the_position() {
        let set = set();
        let mut prover = Prover::new(16);
        for turns in 1..=2 {
            let Some(puzzle) = set.puzzles.iter().find(|p| p.turns == turns) else {
                continue;
            };
            let p = position(&puzzle.position);
            let found = puzzle_at(&mut prover, &p, &[], &settings())
                .unwrap_or_else(|e| panic!("{}: {e:?}", puzzle.id));
            assert_eq!(found.turns, turns);
            let mut exhaustive = prover::Prover::new(p.to_move());
            assert_eq!(exhaustive.winning_moves(&p, turns), vec![found.first]);
            verify(&p, &found.solution, turns).unwrap();
        }
    }

    /// A position whose one legal move is forced is not a puzzle, even when it wins.
    #[test]
    fn a_single_legal_move_is_no_puzzle() {
        // Column `a`: a1 G, a2 W, a3 and a4 empty: the jump a1 over a2 is the only move and wins.
        let p = position(
            "37 standard GW../-----/------/-------/------/-----/---- 2/7/10 3/0/0 0/0/0 1",
        );
        assert_eq!(p.legal_moves().len(), 1);
        let got = puzzle_at(&mut Prover::new(4), &p, &[], &settings());
        assert_eq!(got.err(), Some(Rejection::Forced));
    }

    /// The game's own replies are the main defences, and the scan records whether the player
    /// found the win.
    #[test]
    fn a_scanned_game_keeps_its_source_and_main_line() {
        let set = set();
        let puzzle = set
            .puzzles
            .iter()
            .find(|p| p.turns >= 2 && p.source.found)
            .expect("a found puzzle of 2 or more turns in the set");
        let p = position(&puzzle.position);
        let (line, _) = main_line(&p, &puzzle.solution).unwrap();
        // A game made of the main line: the scan finds the puzzle at its first move, found.
        let mut game = Game::from_position(p.clone(), zertz::Rules::default());
        for (_, m) in &line {
            game.play(m).unwrap();
        }
        let mut stats = Default::default();
        let found = scan_game(
            &mut Prover::new(16),
            "test",
            "g",
            &game,
            &settings(),
            &mut stats,
        );
        let first = found.first().expect("the puzzle is found");
        assert_eq!(first.id, puzzle.id);
        assert!(first.source.found);
        assert_eq!(first.source.move_number, 1);
        assert_eq!(first.source.played, puzzle.solution.mv);
        // The main defence is the one the game played.
        let (again, _) = main_line(&p, &first.solution).unwrap();
        assert_eq!(again[..2], line[..2]);
    }

    fn replies(attack: &Attack) -> impl Iterator<Item = &Defences> {
        attack.then.iter()
    }

    #[test]
    fn every_puzzle_of_the_set_replays_and_answers_every_defence() {
        let set = set();
        assert!(set.puzzles.len() >= 10, "{} puzzles", set.puzzles.len());
        let mut ids = HashSet::new();
        let mut keys = HashSet::new();
        for puzzle in &set.puzzles {
            let p = position(&puzzle.position);
            verify(&p, &puzzle.solution, puzzle.turns)
                .unwrap_or_else(|e| panic!("{}: {e}", puzzle.id));
            assert!(ids.insert(puzzle.id.clone()), "{} twice", puzzle.id);
            // Symmetric copies merged: one puzzle per canonical position and length.
            assert!(
                keys.insert(zertz::symmetry::Frame::of(&p).key()),
                "{}",
                puzzle.id
            );
            assert_eq!(puzzle.id, puzzle_id(&p, puzzle.turns));
            assert_eq!(puzzle.themes, themes(&p, &puzzle.solution), "{}", puzzle.id);
            assert!(puzzle.themes.iter().all(|t| THEMES.contains(&t.as_str())));
            assert!(p.legal_moves().len() >= 2, "{}", puzzle.id);
            assert!(size(&puzzle.solution).defences <= 200, "{}", puzzle.id);
            // The source: the move played is legal there, and `found` says whether it is the
            // solution's.
            let played = official::parse(&p, &puzzle.source.played).unwrap();
            let solution = official::parse(&p, &puzzle.solution.mv).unwrap();
            assert_eq!(puzzle.source.found, played == solution, "{}", puzzle.id);
            // The main line lasts exactly the puzzle's turns (its length is the shortest win's).
            let (line, _) = main_line(&p, &puzzle.solution).unwrap();
            let attacker_moves = line
                .iter()
                .filter(|(q, _)| q.to_move() == p.to_move())
                .count();
            assert!(attacker_moves as u32 <= puzzle.turns, "{}", puzzle.id);
            for group in replies(&puzzle.solution) {
                assert!(!group.defences.is_empty());
            }
        }
    }

    /// Uniqueness and shortness checked again by the exhaustive search: the solution's first move
    /// is the only move winning within the puzzle's turns, and no win is shorter. Every puzzle of
    /// 1 and 2 turns; the 3-turn puzzles in `every_three_turn_puzzle_is_unique`.
    #[test]
    fn short_puzzles_are_unique_by_an_exhaustive_search() {
        for puzzle in set().puzzles.iter().filter(|p| p.turns <= 2) {
            check_unique(puzzle);
        }
    }

    /// Every 3-turn puzzle (under a second: the exhaustive search is cheap on these forcing lines).
    #[test]
    fn every_three_turn_puzzle_is_unique() {
        for puzzle in set().puzzles.iter().filter(|p| p.turns == 3) {
            check_unique(puzzle);
        }
    }

    fn check_unique(puzzle: &Puzzle) {
        let p = position(&puzzle.position);
        let mut exhaustive = prover::Prover::new(p.to_move());
        let solution: Move = official::parse(&p, &puzzle.solution.mv).unwrap();
        assert_eq!(
            exhaustive.winning_moves(&p, puzzle.turns),
            vec![solution],
            "{}: not the one winning move",
            puzzle.id
        );
        if puzzle.turns > 1 {
            assert!(
                !exhaustive.attacker_wins(&p, puzzle.turns - 1),
                "{}: a shorter win exists",
                puzzle.id
            );
        }
    }
}
