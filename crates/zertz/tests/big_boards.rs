//! BoardSpace's large "Zertz+xx" boards: more than 64 places (up to 128), built with `R+`
//! gestures, possibly in pieces, and the `Swap` of sides (the pie rule) after the design. Every
//! record here is constructed; the shared archive's 88-ring game is replayed by the conformance
//! test of zertz-cli.

use zertz::boardspace::{
    AnyImported, ExportInfo, RejectKind, export, import, import_any, import_wide,
};
use zertz::notation::official;
use zertz::{Colour, Coord, Game, Layout, Marbles, PlaceSet, Player, Position, Turn, Wide};

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

fn moves_of(game: &Game<Wide>) -> Vec<String> {
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
        AnyImported::Narrow(_) => panic!("a board of 111 places is not narrow"),
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
fn boards_past_the_widest_set_are_refused_by_name() {
    // 11 columns of 12: 132 places, more than a u128 holds.
    let coords: Vec<Coord> = (0..11u8)
        .flat_map(|x| (1..=12).map(move |r| Coord::new(x, r)))
        .collect();
    let e = import_wide(&record("Zertz+xx", &design(&coords))).unwrap_err();
    assert_eq!(e.kind, RejectKind::BadLayout);
    assert!(e.detail.contains("at most 128"), "{}", e.detail);
    // A narrow position cannot be made on a wide layout either: an error, not a panic.
    let wide = Layout::custom_wide(&coords[..100]).unwrap();
    assert!(Position::<u64>::new_in(wide, zertz::RuleSet::STANDARD).is_err());
}
