//! Property tests on random positions: positions reached by random legal moves from the start of
//! random boards (every official board and a few custom layouts) under random rule sets.
//!
//! The move generator is checked against a brute force written here, independent of it: every
//! conceivable placement (colour × place × removal or none) and every sequence of jump
//! directions from every place, each put to `Position::check`, and the legal moves computed from
//! first principles with nothing but `Layout::neighbour` and the position's sets.

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::test_runner::Config;
use zertz::notation::{self, host, official};
use zertz::perft::{perft, perft_full};
use zertz::*;

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

fn layout(i: usize) -> &'static Layout {
    if i < 6 {
        Layout::official(BoardKind::OFFICIAL[i])
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
fn random_game(layout: &'static Layout, set: RuleSet, choices: &[u32]) -> Vec<Position> {
    let mut p = Position::new(layout, set);
    let mut out = vec![p];
    for &c in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        p = p.play(&m).unwrap();
        out.push(p);
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
// The rules from first principles
// ---------------------------------------------------------------------------------------------

fn occupied(p: &Position) -> u64 {
    Colour::ALL.iter().fold(0, |acc, c| acc | p.marbles(*c))
}

fn ring(p: &Position, place: Option<Place>) -> bool {
    place.is_some_and(|q| p.rings() & q.bit() != 0)
}

/// An empty ring with two neighbouring directions in a row without a ring.
fn free(p: &Position, place: Place) -> bool {
    let layout = p.layout();
    ring(p, Some(place))
        && occupied(p) & place.bit() == 0
        && (0..6).any(|d| {
            !ring(p, layout.neighbour(place, Direction::ALL[d]))
                && !ring(p, layout.neighbour(place, Direction::ALL[(d + 1) % 6]))
        })
}

fn someone_won(p: &Position) -> bool {
    let r = p.rule_set();
    Player::BOTH.iter().any(|pl| {
        let c = p.captures(*pl).0;
        (0..3).any(|i| c[i] >= r.single.0[i]) || c.iter().all(|&n| n >= r.each)
    })
}

/// The jump from `at` in direction `d` with marbles on `occ`: (landing) if legal.
fn my_jump(p: &Position, occ: u64, at: Place, d: Direction) -> Option<Place> {
    let layout = p.layout();
    let over = layout.neighbour(at, d)?;
    let to = layout.neighbour(over, d)?;
    (occ & over.bit() != 0 && ring(p, Some(to)) && occ & to.bit() == 0).then_some(to)
}

fn jump_board(occ: u64, at: Place, over: Place, to: Place) -> u64 {
    occ & !at.bit() & !over.bit() | to.bit()
}

/// Every complete chain, found by a depth-first search of our own.
fn my_chains(p: &Position) -> HashSet<Move> {
    fn go(p: &Position, occ: u64, at: Place, chain: &mut Capture, out: &mut HashSet<Move>) {
        let layout = p.layout();
        let mut any = false;
        for d in Direction::ALL {
            if let Some(to) = my_jump(p, occ, at, d) {
                any = true;
                let over = layout.neighbour(at, d).unwrap();
                assert!(chain.push(d));
                go(p, jump_board(occ, at, over, to), to, chain, out);
                chain.pop();
            }
        }
        if !any && !chain.is_empty() {
            out.insert(Move::Capture(*chain));
        }
    }
    let mut out = HashSet::new();
    let occ = occupied(p);
    for from in p.layout().places() {
        if occ & from.bit() != 0 {
            go(p, occ, from, &mut Capture::start(from), &mut out);
        }
    }
    out
}

/// Every legal placement, from first principles.
fn my_placements(p: &Position) -> HashSet<Move> {
    let layout = p.layout();
    let occ = occupied(p);
    let source = if p.supply().is_empty() {
        p.captures(p.to_move())
    } else {
        p.supply()
    };
    let free_rings: Vec<Place> = layout.places().filter(|q| free(p, *q)).collect();
    let mut out = HashSet::new();
    for colour in Colour::ALL {
        if source.get(colour) == 0 {
            continue;
        }
        for at in layout.places() {
            if !ring(p, Some(at)) || occ & at.bit() != 0 {
                continue;
            }
            let others: Vec<Place> = free_rings.iter().copied().filter(|r| *r != at).collect();
            if others.is_empty() {
                out.insert(Move::place(colour, at, None));
            }
            for r in others {
                out.insert(Move::place(colour, at, Some(r)));
            }
        }
    }
    out
}

fn my_legal_moves(p: &Position) -> HashSet<Move> {
    if someone_won(p) {
        return HashSet::new();
    }
    let chains = my_chains(p);
    if chains.is_empty() {
        my_placements(p)
    } else {
        chains
    }
}

/// Every capture `check` accepts, over every sequence of jump directions from every place: a
/// sequence is extended while its jumps are possible on the board (by our own reckoning), and
/// each such sequence and each one-direction extension of it (possible or not) is checked.
fn accepted_captures(p: &Position) -> HashSet<Move> {
    fn go(p: &Position, occ: Option<u64>, at: Place, chain: &Capture, out: &mut HashSet<Move>) {
        let layout = p.layout();
        for d in Direction::ALL {
            let mut next = *chain;
            if !next.push(d) {
                continue;
            }
            let m = Move::Capture(next);
            if p.check(&m).is_ok() {
                out.insert(m);
            }
            // Go on only along jumps that are possible: a start with a marble, a marble to jump
            // over, an empty ring to land on.
            if let Some(occ) = occ {
                if let Some(to) = my_jump(p, occ, at, d) {
                    let over = layout.neighbour(at, d).unwrap();
                    go(p, Some(jump_board(occ, at, over, to)), to, &next, out);
                }
            }
        }
    }
    let occ = occupied(p);
    let mut out = HashSet::new();
    for from in p.layout().places() {
        let start = Capture::start(from);
        assert!(p.check(&Move::Capture(start)).is_err(), "an empty chain");
        let occ = (occ & from.bit() != 0).then_some(occ);
        go(p, occ, from, &start, &mut out);
    }
    out
}

/// Every placement `check` accepts among all colours × places × (places or none).
fn accepted_placements(p: &Position) -> HashSet<Move> {
    let layout = p.layout();
    let mut out = HashSet::new();
    for colour in Colour::ALL {
        for at in layout.places() {
            for remove in std::iter::once(None).chain(layout.places().map(Some)) {
                let m = Move::place(colour, at, remove);
                if p.check(&m).is_ok() {
                    out.insert(m);
                }
            }
        }
    }
    out
}

fn check_generation(p: &Position) {
    let generated = p.legal_moves();
    let set: HashSet<Move> = generated.iter().copied().collect();
    assert_eq!(set.len(), generated.len(), "duplicate moves in {p}");
    let expected = my_legal_moves(p);
    let missing: Vec<_> = expected.difference(&set).take(3).collect();
    let extra: Vec<_> = set.difference(&expected).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{p}: generator misses {missing:?}, has extra {extra:?}"
    );
    let mut accepted = accepted_placements(p);
    accepted.extend(accepted_captures(p));
    let missing: Vec<_> = expected.difference(&accepted).take(3).collect();
    let extra: Vec<_> = accepted.difference(&expected).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{p}: check refuses {missing:?}, accepts {extra:?}"
    );
    assert_eq!(p.count_moves(), generated.len() as u64, "{p}");
    if !someone_won(p) {
        assert_eq!(
            p.has_capture(),
            generated.iter().any(Move::is_capture),
            "{p}"
        );
    }
    let over = someone_won(p) || generated.is_empty();
    assert_eq!(p.is_over(), over, "{p}");
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
            Move::Capture(Capture::from_landings(layout, sym.apply(c.from()), &landings).unwrap())
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
        let positions = random_game(layout(board), rule_set(set), &choices);
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
            let before = *game.position();
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
            let mut unchecked = before;
            unchecked.play_unchecked(&m);
            prop_assert_eq!(unchecked, expected);
            game.play(&m).unwrap();
            let now = *game.position();
            now.check_invariants().map_err(TestCaseError::fail)?;
            prop_assert_eq!(now, expected);
            prop_assert_eq!(now.hash(), now.compute_hash());
            prop_assert_eq!(game.undo(), Ok(Turn::Move(m)));
            let back = *game.position();
            prop_assert_eq!(back, before);
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
        let positions = random_game(layout(board), rule_set(set), &choices);
        for p in &positions {
            let text = p.to_string();
            let back: Position = text.parse().unwrap();
            prop_assert_eq!(back, *p);
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
        let positions = random_game(l, rule_set(set), &choices);
        for p in positions.iter().rev().step_by(7) {
            let moves = p.legal_moves();
            for sym in l.symmetries() {
                let t = p.transformed(sym);
                t.check_invariants().map_err(TestCaseError::fail)?;
                let images: HashSet<Move> = moves.iter().map(|m| map_move(l, sym, m)).collect();
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
        let positions = random_game(l, set, &choices);
        let last = positions.last().unwrap();
        if last.is_over() {
            prop_assert!(last.legal_moves().is_empty());
            check_generation(last);
            let mut game = Game::from_position(*last, Rules { set, ..Rules::default() });
            prop_assert!(game.is_over());
            prop_assert!(game.legal_moves().is_empty());
            for m in accepted_placements(&Position::new(l, set)).iter().take(50) {
                prop_assert!(last.check(m).is_err());
                prop_assert!(matches!(game.play(m), Err(GameError::Over(_))));
            }
        }
        // Resignation part way.
        let p = positions[resign_at.min(positions.len() - 1)];
        let mut game = Game::from_position(p, Rules { set, ..Rules::default() });
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
        let positions = random_game(layout(board), rule_set(set), &choices);
        let p = positions.last().unwrap();
        prop_assert_eq!(perft(p, 1), p.legal_moves().len() as u64);
        prop_assert_eq!(perft(p, 2), perft_full(p, 2), "{}", p);
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// The wide sets of places (`u128`, for boards of more than 64 places) agree with the
    /// narrow ones on every board that fits both: the same moves, counts, isolations, hashes and
    /// outcomes along random games.
    #[test]
    fn wide_positions_agree_with_narrow((board, set, choices) in game_strategy(80)) {
        let narrow_game = random_game(layout(board), rule_set(set), &choices);
        let mut wide: Position<Wide> = Position::new_in(layout(board), rule_set(set)).unwrap();
        for (i, narrow) in narrow_game.iter().enumerate() {
            prop_assert_eq!(wide.rings(), narrow.rings().to_wide());
            for c in Colour::ALL {
                prop_assert_eq!(wide.marbles(c), narrow.marbles(c).to_wide());
            }
            prop_assert_eq!(wide.free_rings(), narrow.free_rings().to_wide());
            prop_assert_eq!(wide.is_split(), narrow.is_split());
            prop_assert_eq!(wide.hash(), narrow.hash());
            prop_assert_eq!(wide.to_string(), narrow.to_string());
            prop_assert_eq!(wide.outcome(), narrow.outcome());
            prop_assert_eq!(wide.count_moves(), narrow.count_moves());
            let moves = narrow.legal_moves();
            prop_assert_eq!(&wide.legal_moves(), &moves);
            prop_assert!(wide.check_invariants().is_ok());
            let Some(next) = narrow_game.get(i + 1) else { break };
            // The move that led to `next`: the one whose result is `next`.
            let mv = moves
                .iter()
                .find(|m| narrow.play(m).ok().as_ref() == Some(next))
                .copied()
                .expect("a random game is made of legal moves");
            prop_assert_eq!(
                official::move_text(&wide, &mv),
                official::move_text(narrow, &mv)
            );
            let mut n = *narrow;
            let played_narrow = n.play_unchecked(&mv);
            let played_wide = wide.play_unchecked(&mv);
            for c in 0..3 {
                prop_assert_eq!(played_wide.isolated[c], played_narrow.isolated[c].to_wide());
            }
        }
    }
}
