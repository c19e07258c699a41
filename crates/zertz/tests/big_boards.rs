//! BoardSpace's large "Zertz+xx" boards: more than 64 places (up to its whole grid of 17
//! columns of 12, 204 places), built with `R+` gestures, possibly in pieces, and the `Swap` of
//! sides (the pie rule) after the design. Every record here is constructed; the shared archive's
//! 88-ring game is replayed by the conformance test of zertz-cli. Boards of more than 128 places
//! (`Huge` sets) are checked against the first-principles reference of `reference/`.

mod reference;

use proptest::prelude::*;
use proptest::test_runner::Config;
use zertz::boardspace::{
    AnyImported, ExportInfo, RejectKind, export, import, import_any, import_huge, import_wide,
};
use zertz::layout::{LayoutRef, LayoutWidth};
use zertz::notation::official;
use zertz::perft::{perft, perft_full};
use zertz::{
    BoardKind, Colour, Coord, Game, Huge, Layout, Marbles, PlaceSet, Player, Position, RuleSet,
    Setup, Turn, Wide, Width,
};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    /// A record around the given gesture lines, with a header.
    fn record(variant: &str, body: &[String]) -> String {
        let mut s = format!("(;\nGM[22]VV[2]\nSU[{variant}]\nP0[id \"ann\"]\nP1[id \"ben\"]\n");
        for line in body {
            s.push_str(&format!("; {line}\n"));
        }
        s.push_str(")\n");
        s
    }

    /// `R+` gestures by P0 for every coordinate, BoardSpace style (`R+ H 7`).
    fn design(coords: &[Coord]) -> Vec<String> {
        let mut out = vec!["P0[0 Start P0]".to_string()];
        for c in coords {
            out.push(format!(
                "P0[R+ {} {}]",
                c.column_letter().to_ascii_uppercase(),
                c.row
            ));
        }
        out.push("P0[Done]".into());
        out
    }

    /// Columns a-j of 11 rings (110), less j11, plus an island o1-o2 apart from the rest: 111
    /// places in two pieces.
    fn island_board() -> Vec<Coord> {
        let mut coords: Vec<Coord> = (0..10u8)
            .flat_map(|x| (1..=11).map(move |r| Coord::new(x, r)))
            .filter(|c| *c != Coord::new(9, 11))
            .collect();
        coords.push(Coord::new(14, 1));
        coords.push(Coord::new(14, 2));
        coords
    }

    fn moves_of<S: LayoutWidth>(game: &Game<S>) -> Vec<String> {
        game.turns()
            .iter()
            .zip(game.positions())
            .map(|(t, p)| match t {
                Turn::Move(m) => official::move_text(p, m),
                Turn::Pass { .. } => "-".into(),
            })
            .collect()
    }

    #[test]
    fn a_board_of_111_places_in_two_pieces_with_moves_and_a_capture_past_place_64() {
        let mut body = design(&island_board());
        body.extend(
            [
                // P1 moves first (no swap): white on h5, a1 removed.
                "P1[RtoB 2 0 H 5]",
                "P1[R- A 1]",
                "P1[Done]",
                // P0: black on h6 next to it, a2 removed.
                "P0[RtoB 2 2 H 6]",
                "P0[R- A 2]",
                "P0[Done]",
                // P1 must capture: h5 jumps over h6 to h7.
                "P1[BtoB H 5 H 7]",
                "P1[Done]",
            ]
            .map(String::from),
        );
        let text = record("Zertz+xx", &body);
        // The narrow reader refuses the board by name; the wide one reads it.
        let narrow = import(&text).unwrap_err();
        assert_eq!(narrow.kind, RejectKind::WideBoard);
        assert!(narrow.detail.contains("111 places"), "{}", narrow.detail);
        let r = import_wide(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.first, 1);
        assert!(!r.swapped);
        let start = r.game.start();
        let layout = start.layout();
        assert_eq!(layout.len(), 111);
        assert!(!layout.is_narrow());
        assert!(start.is_split(), "the island o1-o2 is apart from the rest");
        let h5 = layout.parse_place("h5").unwrap();
        let h7 = layout.parse_place("h7").unwrap();
        assert!(h5.index() > 64 && h7.index() > 64);
        assert_eq!(moves_of(&r.game), ["Wh5,a1", "Bh6,a2", "x h5Bh7"]);
        let now = r.game.position();
        assert_eq!(now.captures(Player::One), Marbles::new(0, 0, 1));
        assert_eq!(now.colour_at(h7), Some(Colour::White));
        assert_eq!(now.rings().count(), 109);
        // The wide position passes its own consistency checks, and its bulk count matches the list.
        assert!(now.check_invariants().is_ok());
        assert_eq!(now.count_moves(), now.legal_moves().len() as u64);
        match import_any(&text).unwrap() {
            AnyImported::Wide(w) => assert_eq!(w.game.positions(), r.game.positions()),
            other => panic!("a board of 111 places is wide, not {other:?}"),
        }
    }

    #[test]
    fn isolation_of_a_piece_of_a_board_built_in_pieces() {
        let mut body = design(&island_board());
        body.extend(
            [
                // P1 swaps sides: the designer, P0, moves first.
                "P1[Swap]",
                "P1[Done]",
                "P0[RtoB 2 0 O 1]",
                "P0[R- A 1]",
                "P0[Done]",
                // P1 fills the island: both marbles are P1's by isolation.
                "P1[RtoB 2 1 O 2]",
                "P1[R- A 2]",
                "P1[Done]",
            ]
            .map(String::from),
        );
        let r = import_wide(&record("Zertz+xx", &body)).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.swapped);
        assert_eq!(r.first, 0);
        let layout = r.game.start().layout();
        let o1 = layout.parse_place("o1").unwrap();
        assert_eq!(o1.index(), 109);
        assert_eq!(moves_of(&r.game), ["Wo1,a1", "Go2,a2 x Wo1Go2"]);
        let now = r.game.position();
        assert_eq!(now.captures(Player::Two), Marbles::new(1, 1, 0));
        assert_eq!(now.rings().count(), 107);
        assert!(!now.has_ring(o1));
        assert!(now.check_invariants().is_ok());
    }

    #[test]
    fn swap_is_written_back_and_read_again() {
        let mut body = design(&island_board());
        body.extend(
            [
                "P1[Swap]",
                "P1[Done]",
                "P0[RtoB 2 0 H 5]",
                "P0[R- A 1]",
                "P0[Done]",
            ]
            .map(String::from),
        );
        let r = import_wide(&record("Zertz+xx", &body)).unwrap();
        let mut game = r.game.clone();
        // Play on into the places past 64 and out to a finished game, then write and read back.
        let mut seed = 7u64;
        while !game.is_over() && game.turns().len() < 150 {
            let moves = game.legal_moves();
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            game.play(&moves[(seed >> 33) as usize % moves.len()])
                .unwrap();
        }
        for designer in [Some(Player::One), Some(Player::Two), None] {
            let info = ExportInfo {
                players: ["ann".into(), "ben".into()],
                designer,
                ..ExportInfo::default()
            };
            let text = export(&game, &info).unwrap();
            let swapped = designer == Some(Player::One);
            assert_eq!(text.contains("Swap"), swapped, "{designer:?}");
            let back = import_wide(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.swapped, swapped);
            // Player one moves first: ann, BoardSpace's P0.
            assert_eq!(back.first, 0);
            assert_eq!(back.game.positions(), game.positions());
            assert_eq!(back.game.outcome(), game.outcome());
        }
    }

    #[test]
    fn swaps_that_boardspace_does_not_allow_are_refused() {
        let seven = ["b2", "b3", "a3", "a4", "c3", "c4", "b4"].map(|c| c.parse::<Coord>().unwrap());
        let refused = |extra: &[&str]| {
            let mut body = design(&seven);
            body.extend(extra.iter().map(|s| s.to_string()));
            import(&record("Zertz+xx", &body)).unwrap_err()
        };
        // The designer cannot swap.
        let e = refused(&["P0[Swap]"]);
        assert_eq!(e.kind, RejectKind::BadGesture);
        assert!(e.detail.contains("did not design"), "{}", e.detail);
        // Not after the first move.
        let e = refused(&["P1[RtoB 2 0 B 3]", "P1[R- B 4]", "P1[Done]", "P0[Swap]"]);
        assert!(e.detail.contains("before the first move"), "{}", e.detail);
        // The swapper then moves first: out of turn.
        let e = refused(&["P1[Swap]", "P1[Done]", "P1[RtoB 2 0 B 3]", "P1[R- B 4]"]);
        assert_eq!(e.kind, RejectKind::OutOfTurn);
        // No swap on a board that nobody designed.
        let e = import(&record(
            "Zertz",
            &["P0[Start P0]".into(), "P1[Swap]".into()],
        ))
        .unwrap_err();
        assert_eq!(e.kind, RejectKind::BadGesture);
        // Swapping twice takes the swap back: P1 moves first after all.
        let mut body = design(&seven);
        body.extend(
            [
                "P1[Swap]",
                "P1[Swap]",
                "P1[Done]",
                "P1[RtoB 2 0 B 3]",
                "P1[R- B 4]",
                "P1[Done]",
            ]
            .map(String::from),
        );
        let r = import(&record("Zertz+xx", &body)).unwrap();
        assert!(!r.swapped);
        assert_eq!(r.first, 1);
    }

    #[test]
    fn boards_past_the_grid_are_refused_by_name() {
        // BoardSpace's whole grid and one place more: 205 places, more than any layout holds.
        let mut coords = grid();
        coords.push(Coord::new(17, 1));
        let e = import_any(&record("Zertz+xx", &design(&coords))).unwrap_err();
        assert_eq!(e.kind, RejectKind::BadLayout);
        assert!(e.detail.contains("at most 204"), "{}", e.detail);
        // 11 columns of 12: 132 places, more than a u128 holds: the wide reader refuses it by name,
        // the huge one reads it.
        let text = record("Zertz+xx", &design(&coords[..132]));
        let e = import_wide(&text).unwrap_err();
        assert_eq!(e.kind, RejectKind::WideBoard);
        assert!(e.detail.contains("132 places"), "{}", e.detail);
        // Said for whoever reads it (a server passes it on to a player): no function names.
        assert!(!e.detail.contains("import"), "{}", e.detail);
        assert_eq!(import_huge(&text).unwrap().game.start().layout().len(), 132);
        // A narrower position cannot be made on a wider layout: an error, not a panic.
        let wide = Layout::custom_wide(&coords[..100]).unwrap();
        assert!(Position::<u64>::new_in(wide, zertz::RuleSet::STANDARD).is_err());
        let huge = Layout::custom_wide(&coords[..150]).unwrap();
        let e = Position::<Wide>::new_in(huge, zertz::RuleSet::STANDARD).unwrap_err();
        assert!(e.to_string().contains("150 places"), "{e}");
    }

    // ---------------------------------------------------------------------------------------------
    // Boards of more than 128 places (`Huge` sets)
    // ---------------------------------------------------------------------------------------------

    /// BoardSpace's whole grid: 17 columns (a-q) of 12, 204 places.
    fn grid() -> Vec<Coord> {
        (0..17u8)
            .flat_map(|x| (1..=12).map(move |r| Coord::new(x, r)))
            .collect()
    }

    /// The grid without column i and without p1 and q2: 190 places in three pieces (a-h, j-q, and
    /// q1 alone in the corner).
    fn three_pieces() -> Vec<Coord> {
        let gone = [Coord::new(15, 1), Coord::new(16, 2)];
        grid()
            .into_iter()
            .filter(|c| c.column != 8 && !gone.contains(c))
            .collect()
    }

    #[test]
    fn the_whole_grid_imports_replays_and_exports() {
        let mut body = design(&grid());
        body.extend(
            [
                // P1 moves first: white on p5, a1 removed.
                "P1[RtoB 2 0 P 5]",
                "P1[R- A 1]",
                "P1[Done]",
                // P0: black on p6 next to it, a2 removed.
                "P0[RtoB 2 2 P 6]",
                "P0[R- A 2]",
                "P0[Done]",
                // P1 must capture: p5 jumps over p6 to p7.
                "P1[BtoB P 5 P 7]",
                "P1[Done]",
            ]
            .map(String::from),
        );
        let text = record("Zertz+xx", &body);
        // The narrow and wide readers refuse it by name; the huge one reads it.
        for e in [import(&text).unwrap_err(), import_wide(&text).unwrap_err()] {
            assert_eq!(e.kind, RejectKind::WideBoard);
            assert!(e.detail.contains("204 places"), "{}", e.detail);
        }
        let r = match import_any(&text).unwrap() {
            AnyImported::Huge(r) => r,
            other => panic!("a board of 204 places is huge, not {other:?}"),
        };
        let layout = r.game.start().layout();
        assert_eq!((layout.len(), layout.width()), (204, Width::Huge));
        assert!(!r.game.start().is_split());
        let (p5, p7) = (
            layout.parse_place("p5").unwrap(),
            layout.parse_place("p7").unwrap(),
        );
        assert_eq!((p5.index(), p7.index()), (184, 186));
        assert_eq!(moves_of(&r.game), ["Wp5,a1", "Bp6,a2", "x p5Bp7"]);
        let now = r.game.position();
        assert_eq!(now.captures(Player::One), Marbles::new(0, 0, 1));
        assert_eq!(now.colour_at(p7), Some(Colour::White));
        assert_eq!(now.rings().count(), 202);
        for p in r.game.positions() {
            assert!(p.check_invariants().is_ok());
            reference::check_generation(p);
        }
        // Play on to the end (or 150 turns), checking every tenth position against the
        // reference, then write the game as BoardSpace does and read it back.
        let mut game = r.game.clone();
        let mut seed = 11u64;
        while !game.is_over() && game.turns().len() < 150 {
            let moves = game.legal_moves();
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            game.play(&moves[(seed >> 33) as usize % moves.len()])
                .unwrap();
            if game.turns().len() % 10 == 0 {
                reference::check_generation(game.position());
            }
        }
        let info = ExportInfo {
            players: ["ann".into(), "ben".into()],
            designer: Some(Player::Two),
            ..ExportInfo::default()
        };
        let written = export(&game, &info).unwrap();
        let back = import_huge(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(back.game.positions(), game.positions());
        assert_eq!(back.game.outcome(), game.outcome());
    }

    #[test]
    fn a_board_of_190_places_in_three_pieces_isolates_its_corner() {
        let layout = Layout::custom_wide(&three_pieces()).unwrap();
        assert_eq!((layout.len(), layout.width()), (190, Width::Huge));
        let q1 = layout.parse_place("q1").unwrap();
        assert_eq!(q1.index(), 179);
        let all: Huge = layout.all_in();
        let pieces = |within: Huge| {
            let mut left = within;
            let mut sizes = Vec::new();
            while left.any() {
                let piece = layout.flood(Huge::bit(left.lowest() as u8), within);
                sizes.push(piece.count());
                left &= !piece;
            }
            sizes
        };
        assert_eq!(pieces(all), [96, 93, 1]);
        let mut body = design(&three_pieces());
        body.extend(
            [
                // P1 swaps: the designer, P0, moves first and fills the corner, which is then
                // isolated and taken with its marble.
                "P1[Swap]",
                "P1[Done]",
                "P0[RtoB 2 1 Q 1]",
                "P0[R- A 1]",
                "P0[Done]",
            ]
            .map(String::from),
        );
        let text = record("Zertz+xx", &body);
        let r = import_huge(&text).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.swapped);
        assert_eq!(moves_of(&r.game), ["Gq1,a1 x Gq1"]);
        let now = r.game.position();
        assert_eq!(now.captures(Player::One), Marbles::new(0, 1, 0));
        assert!(!now.has_ring(q1));
        assert_eq!(now.rings().count(), 188);
        assert_eq!(pieces(now.rings()), [95, 93]);
        reference::check_generation(now);
        let info = ExportInfo {
            players: ["ann".into(), "ben".into()],
            designer: Some(Player::One),
            ..ExportInfo::default()
        };
        let back = import_huge(&export(&r.game, &info).unwrap()).unwrap();
        assert!(back.swapped);
        assert_eq!(back.game.positions(), r.game.positions());
    }

    #[test]
    fn huge_sets_count_the_official_boards_as_the_narrow_ones() {
        // perft(2) of 61 rings (17,000,496) and perft(3) of 37 from a position with a capture, in
        // both widths: the same counts, bulk and full.
        let layout = Layout::official(BoardKind::Rings61);
        let narrow = Position::new(layout, RuleSet::STANDARD);
        let huge: Position<Huge> = Position::new_in(layout, RuleSet::STANDARD).unwrap();
        assert_eq!(perft(&huge, 2), 17_000_496);
        assert_eq!(perft(&huge, 2), perft(&narrow, 2));
        let start: Position<Huge> =
            Position::new_in(Layout::standard(), RuleSet::STANDARD).unwrap();
        assert_eq!(perft(&start, 2), 3_277_260);
        assert_eq!(perft_full(&start, 1), 1_944);
    }

    #[test]
    fn the_start_of_the_whole_grid_counts_from_first_principles() {
        let layout = Layout::custom_wide(&grid()).unwrap();
        let start: Position<Huge> = Position::new_in(&layout, RuleSet::STANDARD).unwrap();
        // Every ring is empty; the free ones are the perimeter's (by the reference's own test).
        let free = layout
            .places()
            .filter(|&q| reference::free(&start, q))
            .count() as u64;
        let empty = 204u64;
        let expected = 3 * (free * (free - 1) + (empty - free) * free);
        assert_eq!(perft(&start, 1), expected);
        assert_eq!(start.legal_moves().len() as u64, expected);
        assert_eq!(reference::my_legal_moves(&start).len() as u64, expected);
        // perft(2) in bulk is the sum of the reference's counts after each first move of one
        // colour on one ring (every other first move is a symmetric copy only in count, so all are
        // summed by the generator and compared with a few by the reference).
        let bulk = perft(&start, 2);
        let mut sum = 0;
        for mv in start.legal_moves() {
            let next = start.play(&mv).unwrap();
            sum += next.count_moves();
        }
        assert_eq!(bulk, sum);
        for mv in start.legal_moves().iter().step_by(997) {
            let next = start.play(mv).unwrap();
            assert_eq!(
                next.count_moves(),
                reference::my_legal_moves(&next).len() as u64
            );
        }
    }

    /// A random position on a board of more than 128 places: rings with probability about 7/8,
    /// marbles on about one ring in `sparse`, a supply and captures that leave the game open.
    fn random_setup(layout: &LayoutRef, picks: &[u8], sparse: u8, turn: bool) -> Position<Huge> {
        let mut s: Setup<Huge> = Setup::start_in(layout, RuleSet::STANDARD);
        for (q, &pick) in layout.places().zip(picks.iter().cycle()) {
            if pick % 8 == 0 {
                s.rings &= !q.bit_in::<Huge>();
            } else if pick % sparse == 1 {
                s.marbles[(pick / sparse) as usize % 3] |= q.bit_in::<Huge>();
            }
        }
        s.supply = Marbles::new(picks[0] % 4, picks[1] % 4, picks[2] % 4);
        s.captures = [
            Marbles::new(picks[3] % 3, picks[4] % 3, 0),
            Marbles::new(0, picks[5] % 3, picks[6] % 3),
        ];
        if turn {
            s.to_move = Player::Two;
        }
        Position::from_setup(s).unwrap()
    }

    proptest! {
        #![proptest_config(Config { cases: 48, failure_persistence: None, ..Config::default() })]

        /// On the whole grid and on the board in three pieces, random positions (with captures,
        /// chains, islands and an empty supply among them) give exactly the reference's moves, and
        /// bulk perft agrees with full generation where the tree is small enough to walk.
        #[test]
        fn huge_boards_agree_with_the_reference(
            board in 0..2usize,
            picks in prop::collection::vec(any::<u8>(), 8..64),
            sparse in 4..12u8,
            turn in any::<bool>(),
        ) {
            let coords = if board == 0 { grid() } else { three_pieces() };
            let layout = Layout::custom_wide(&coords).unwrap();
            let p = random_setup(&layout, &picks, sparse, turn);
            // A dense tangle of marbles can hold millions of chains, more than a reference that
            // keeps each in a set walks in reasonable time.
            prop_assume!(!p.has_capture() || p.count_moves() <= 2_000);
            // The generator against the reference (`check` on every conceivable move, 125,000
            // placements here, is left to the tests of the whole grid above).
            reference::check_moves(&p);
            let moves = p.legal_moves();
            for mv in &moves {
                let next = p.play(mv).unwrap();
                prop_assert!(next.check_invariants().is_ok());
            }
            if moves.len() <= 300 {
                // perft(2) three ways: in bulk, in full, and summing the reference's counts.
                let by_reference: u64 = reference::my_legal_moves(&p)
                    .iter()
                    .map(|m| reference::my_legal_moves(&p.play(m).unwrap()).len() as u64)
                    .sum();
                prop_assert_eq!(perft(&p, 2), by_reference);
                prop_assert_eq!(perft_full(&p, 2), by_reference);
            }
        }
    }
}
