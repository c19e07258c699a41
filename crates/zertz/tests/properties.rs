//! Property tests on random positions: positions reached by random legal moves from the start of
//! random boards (every official board and a few custom layouts) under random rule sets.
//!
//! The move generator is checked against a brute force independent of it (`reference/`): every
//! conceivable placement (colour × place × removal or none) and every sequence of jump
//! directions from every place, each put to `Position::check`, and the legal moves computed from
//! first principles with nothing but `Layout::neighbour` and the position's rings and marbles.

mod reference;

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::test_runner::Config;
use zertz::layout::LayoutRef;
use zertz::notation::{self, host, official};
use zertz::perft::{perft, perft_full};
use zertz::*;

use reference::{accepted_placements, check_generation};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    // ---------------------------------------------------------------------------------------------
    // Boards, rule sets, random games
    // ---------------------------------------------------------------------------------------------

    /// Custom layouts, in the custom frame.
    const CUSTOM: [&str; 5] = [
        // A hexagon of 19 places (all 12 symmetries).
        "a2-4,b1-4,c1-5,d1-4,e2-4",
        // An irregular blob.
        "a1-3,b1-5,c2-4,d1-2",
        // Three columns: a band with long straight lines.
        "a1-5,b1-4,c1-5",
        // 64 places: the largest layout, every bit of the u64 in use.
        "a1-8,b1-8,c1-8,d1-8,e1-8,f1-8,g1-8,h1-8",
        // 26 columns of two: every column letter (x and host row letters W, G, B, X included).
        "a1-2,b1-2,c1-2,d1-2,e1-2,f1-2,g1-2,h1-2,i1-2,j1-2,k1-2,l1-2,m1-2,n1-2,o1-2,p1-2,q1-2,\
     r1-2,s1-2,t1-2,u1-2,v1-2,w1-2,x1-2,y1-2,z1-2",
    ];

    const LAYOUTS: usize = 6 + CUSTOM.len();

    fn layout(i: usize) -> LayoutRef {
        if i < 6 {
            Layout::official(BoardKind::OFFICIAL[i]).into()
        } else {
            Layout::from_spec(CUSTOM[i - 6]).unwrap()
        }
    }

    const RULE_SETS: usize = 4;

    fn rule_set(i: usize) -> RuleSet {
        match i {
            0 => RuleSet::STANDARD,
            1 => RuleSet::BLITZ,
            // A small supply that empties fast, and wins that come early.
            2 => RuleSet::custom(Marbles::new(2, 2, 3), Marbles::new(2, 2, 3), 1).unwrap(),
            // No win is possible: the game runs until the supply, the captures or the rings run out.
            _ => RuleSet::custom(Marbles::new(3, 3, 3), Marbles::new(9, 9, 9), 9).unwrap(),
        }
    }

    /// Every position of a random game (the start first), at most `choices.len()` moves long.
    fn random_game(layout: &LayoutRef, set: RuleSet, choices: &[u32]) -> Vec<Position> {
        let mut p = Position::new(layout, set);
        let mut out = vec![p.clone()];
        for &c in choices {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            p = p.play(&m).unwrap();
            out.push(p.clone());
        }
        out
    }

    fn game_strategy(max_len: usize) -> impl Strategy<Value = (usize, usize, Vec<u32>)> {
        (
            0..LAYOUTS,
            0..RULE_SETS,
            prop::collection::vec(any::<u32>(), 0..max_len),
        )
    }

    fn config(cases: u32) -> Config {
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Symmetry
    // ---------------------------------------------------------------------------------------------

    fn map_move(layout: &Layout, sym: &Symmetry, m: &Move) -> Move {
        match m {
            Move::Place(pl) => {
                Move::place(pl.colour, sym.apply(pl.at), pl.remove.map(|r| sym.apply(r)))
            }
            Move::Capture(c) => {
                let landings: Vec<Place> = c
                    .steps(layout)
                    .unwrap()
                    .iter()
                    .map(|&(_, to)| sym.apply(to))
                    .collect();
                Move::Capture(
                    Capture::from_landings(layout, sym.apply(c.from()), &landings).unwrap(),
                )
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Properties
    // ---------------------------------------------------------------------------------------------

    proptest! {
        #![proptest_config(config(128))]

        /// (a), (b): generated moves are exactly the legal ones, without duplicates, along random
        /// games; `check` agrees on every conceivable move.
        #[test]
        fn generation_is_complete_and_sound((board, set, choices) in game_strategy(60)) {
            let positions = random_game(&layout(board), rule_set(set), &choices);
            for p in &positions {
                check_generation(p);
            }
        }
    }

    proptest! {
        #![proptest_config(config(128))]

        /// (c): playing then undoing in a `Game` restores the exact position and hash; the derived
        /// data of every position reached is right; the game's legal moves are the position's minus,
        /// under the no-repetition rule, those that recreate an earlier position.
        #[test]
        fn play_then_undo_restores(
            (board, set, choices) in game_strategy(80),
            forbid in any::<bool>(),
        ) {
            let set = rule_set(set);
            let rules = Rules {
                set,
                repetition: if forbid { Repetition::Forbidden } else { Repetition::ThreefoldDraw },
                bribes: false,
            };
            let mut game = Game::new(layout(board), rules);
            for c in choices {
                if game.is_over() {
                    prop_assert!(game.legal_moves().is_empty());
                    break;
                }
                let before = game.position().clone();
                let mut moves = game.legal_moves();
                let all = before.legal_moves();
                prop_assert!(!moves.is_empty());
                if forbid {
                    for m in &all {
                        let next = before.play(m).unwrap();
                        let repeats = game.positions().contains(&next);
                        prop_assert_eq!(moves.contains(m), !repeats);
                        if repeats {
                            prop_assert_eq!(game.check(m), Err(GameError::Repeats));
                        }
                    }
                } else {
                    prop_assert_eq!(&moves, &all);
                }
                let m = moves.swap_remove(c as usize % moves.len());
                let expected = before.play(&m).unwrap();
                let mut unchecked = before.clone();
                unchecked.play_unchecked(&m);
                prop_assert_eq!(&unchecked, &expected);
                game.play(&m).unwrap();
                let now = game.position().clone();
                now.check_invariants().map_err(TestCaseError::fail)?;
                prop_assert_eq!(&now, &expected);
                prop_assert_eq!(now.hash(), now.compute_hash());
                prop_assert_eq!(game.undo(), Ok(Turn::Move(m)));
                let back = game.position().clone();
                prop_assert_eq!(&back, &before);
                prop_assert_eq!(back.hash(), before.hash());
                prop_assert_eq!(back.to_string(), before.to_string());
                prop_assert_eq!(game.outcome(), None);
                game.play(&m).unwrap();
            }
        }
    }

    proptest! {
        #![proptest_config(config(128))]

        /// (d): official and host notation of every capture and of a sample of placements parse back
        /// to the same move; position strings round-trip exactly.
        #[test]
        fn notation_round_trips((board, set, choices) in game_strategy(60)) {
            let positions = random_game(&layout(board), rule_set(set), &choices);
            for p in &positions {
                let text = p.to_string();
                let back: Position = text.parse().unwrap();
                prop_assert_eq!(&back, p);
                prop_assert_eq!(back.to_string(), text);
                prop_assert_eq!(back.hash(), p.hash());

                let moves = p.legal_moves();
                let step = (moves.len() / 24).max(1);
                let sample = moves
                    .iter()
                    .enumerate()
                    .filter(|(i, m)| m.is_capture() || i % step == 0)
                    .map(|(_, m)| m);
                for m in sample {
                    let o = official::move_text(p, m);
                    prop_assert_eq!(official::parse(p, &o), Ok(*m), "official {}", o);
                    prop_assert_eq!(notation::parse_any(p, &o), Ok(*m), "official {}", o);
                    // Typed in lower case, and with a dash or a space before the removed ring, as
                    // people type it: the same move.
                    let lower = o.to_lowercase();
                    prop_assert_eq!(notation::parse_any(p, &lower), Ok(*m), "official {}", lower);
                    let loose = lower.replacen(',', if o.len() % 2 == 0 { "-" } else { " " }, 1);
                    prop_assert_eq!(notation::parse_any(p, &loose), Ok(*m), "official {}", loose);
                    let h = host::move_text(p, m);
                    prop_assert_eq!(host::parse(p, &h), Ok(*m), "host {}", h);
                    prop_assert_eq!(notation::parse_any(p, &h), Ok(*m), "host {}", h);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(config(64))]

        /// (e): a position moved by a symmetry of its layout has the moved legal moves.
        #[test]
        fn symmetric_positions_have_symmetric_moves((board, set, choices) in game_strategy(50)) {
            let l = layout(board);
            let positions = random_game(&l, rule_set(set), &choices);
            for p in positions.iter().rev().step_by(7) {
                let moves = p.legal_moves();
                for sym in l.symmetries() {
                    let t = p.transformed(sym);
                    t.check_invariants().map_err(TestCaseError::fail)?;
                    let images: HashSet<Move> = moves.iter().map(|m| map_move(&l, sym, m)).collect();
                    let theirs: HashSet<Move> = t.legal_moves().into_iter().collect();
                    prop_assert_eq!(&theirs, &images, "{} under {}", p, sym.name());
                    prop_assert_eq!(t.outcome(), p.outcome());
                    prop_assert_eq!(t.is_split(), p.is_split());
                    prop_assert_eq!(t.free_rings().count_ones(), p.free_rings().count_ones());
                }
            }
        }
    }

    proptest! {
        #![proptest_config(config(96))]

        /// (f): a finished game refuses every move: games played to their end (a winning set or no
        /// legal move), and games resigned part way.
        #[test]
        fn finished_positions_refuse_every_move(
            (board, set, choices) in game_strategy(400),
            resign_at in 0usize..40,
        ) {
            let l = layout(board);
            let set = rule_set(set);
            let positions = random_game(&l, set, &choices);
            let last = positions.last().unwrap();
            if last.is_over() {
                prop_assert!(last.legal_moves().is_empty());
                check_generation(last);
                let mut game = Game::from_position(last.clone(), Rules { set, ..Rules::default() });
                prop_assert!(game.is_over());
                prop_assert!(game.legal_moves().is_empty());
                for m in accepted_placements(&Position::new(l, set)).iter().take(50) {
                    prop_assert!(last.check(m).is_err());
                    prop_assert!(matches!(game.play(m), Err(GameError::Over(_))));
                }
            }
            // Resignation part way.
            let p = &positions[resign_at.min(positions.len() - 1)];
            let mut game = Game::from_position(p.clone(), Rules { set, ..Rules::default() });
            if !game.is_over() {
                let mover = game.to_move();
                game.resign(mover).unwrap();
                prop_assert_eq!(
                    game.outcome(),
                    Some(Outcome::Win { winner: mover.other(), reason: WinReason::Resignation })
                );
                prop_assert!(game.legal_moves().is_empty());
                for m in p.legal_moves().iter().take(50) {
                    prop_assert!(matches!(game.play(m), Err(GameError::Over(_))));
                }
                prop_assert!(matches!(game.resign(mover.other()), Err(GameError::Over(_))));
            }
        }
    }

    proptest! {
        #![proptest_config(config(32))]

        /// (g): the bulk count of perft equals the count by full generation, at depth 2.
        #[test]
        fn perft_bulk_equals_full((board, set, choices) in game_strategy(40)) {
            let positions = random_game(&layout(board), rule_set(set), &choices);
            let p = positions.last().unwrap();
            prop_assert_eq!(perft(p, 1), p.legal_moves().len() as u64);
            prop_assert_eq!(perft(p, 2), perft_full(p, 2), "{}", p);
        }
    }

    /// A game replayed with sets of places of type `S` agrees with the narrow one at every step:
    /// the same moves, counts, isolations, hashes, strings and outcomes.
    fn agrees_with_narrow<S: layout::LayoutWidth>(
        narrow_game: &[Position],
    ) -> Result<(), TestCaseError> {
        let first = &narrow_game[0];
        let mut other: Position<S> = Position::new_in(first.layout(), first.rule_set()).unwrap();
        for (i, narrow) in narrow_game.iter().enumerate() {
            prop_assert_eq!(other.rings(), narrow.rings().convert().unwrap());
            prop_assert_eq!(other.rings().convert::<u64>(), Some(narrow.rings()));
            for c in Colour::ALL {
                prop_assert_eq!(other.marbles(c), narrow.marbles(c).convert().unwrap());
            }
            prop_assert_eq!(other.free_rings(), narrow.free_rings().convert().unwrap());
            prop_assert_eq!(other.is_split(), narrow.is_split());
            prop_assert_eq!(other.hash(), narrow.hash());
            prop_assert_eq!(other.to_string(), narrow.to_string());
            prop_assert_eq!(other.outcome(), narrow.outcome());
            prop_assert_eq!(other.count_moves(), narrow.count_moves());
            let moves = narrow.legal_moves();
            prop_assert_eq!(&other.legal_moves(), &moves);
            prop_assert!(other.check_invariants().is_ok());
            let Some(next) = narrow_game.get(i + 1) else {
                break;
            };
            // The move that led to `next`: the one whose result is `next`.
            let mv = moves
                .iter()
                .find(|m| narrow.play(m).ok().as_ref() == Some(next))
                .copied()
                .expect("a random game is made of legal moves");
            prop_assert_eq!(
                official::move_text(&other, &mv),
                official::move_text(narrow, &mv)
            );
            let mut n = narrow.clone();
            let played_narrow = n.play_unchecked(&mv);
            let played = other.play_unchecked(&mv);
            for c in 0..3 {
                prop_assert_eq!(
                    played.isolated[c],
                    played_narrow.isolated[c].convert().unwrap()
                );
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(config(128))]

        /// The wider sets of places (`u128` for boards of more than 64 places, `Huge` for more than
        /// 128) agree with the narrow ones on every board that fits all three.
        #[test]
        fn wider_positions_agree_with_narrow((board, set, choices) in game_strategy(80)) {
            let narrow_game = random_game(&layout(board), rule_set(set), &choices);
            agrees_with_narrow::<Wide>(&narrow_game)?;
            agrees_with_narrow::<Huge>(&narrow_game)?;
        }
    }
}
