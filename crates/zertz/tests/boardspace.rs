//! BoardSpace records: every quirk of rules.md section 9 on a small synthetic record, errors that
//! name the line, and export → import round trips.

use zertz::boardspace::{Ending, ExportInfo, RecordedResult, RejectKind, export, import};
use zertz::notation::official;
use zertz::{BoardKind, Game, Layout, Marbles, Move, Player, Position, RuleSet, Rules, Turn};

/// A record around the given gesture lines (`P0[...]` etc.), with a header.
fn record(variant: &str, result: Option<&str>, body: &[&str]) -> String {
    let mut s = format!("(;\nGM[22]VV[2]\nSU[{variant}]\n");
    if let Some(r) = result {
        s.push_str(&format!("RE[{r}]\n"));
    }
    s.push_str("P0[id \"ann\"]\nP1[id \"ben\"]\n");
    for line in body {
        s.push_str(&format!("; {line}\n"));
    }
    s.push_str(")\n");
    s
}

fn moves_of(game: &Game) -> Vec<String> {
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
fn modern_record_with_done_and_a_chain() {
    // Wd4,d1; Bd5,a1; then d4 jumps over d5 to d6: one capture, a chain of one jump.
    let text = record(
        "Zertz",
        Some("Game won by ben"),
        &[
            "P0[0 Start P0]",
            "P0[1 RtoB 2 0 D 4]TM[1]",
            "P0[2 R- D 1]",
            "P0[3 Done ]",
            "P1[4 RtoB 2 2 D 5]",
            "P1[5 R- A 1]",
            "P1[6 Done ]",
            "P0[7 BtoB D 4 D 6]",
            "P0[8 Done ]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(moves_of(&r.game), ["Wd4,d1", "Bd5,a1", "x d4Bd6"]);
    assert_eq!(r.lines, [8, 11, 14]);
    assert_eq!(r.result, RecordedResult::Winner(1));
    assert_eq!(r.ending, Ending::Unfinished);
    assert_eq!(
        r.game.position().captures(Player::One),
        Marbles::new(0, 0, 1)
    );
}

#[test]
fn removal_written_before_placement() {
    let text = record(
        "Zertz",
        None,
        &[
            "P0[0 Start P0]",
            "P0[1 R- D 1]",
            "P0[2 RtoB 2 1 D 4]",
            "P0[3 Done]",
        ],
    );
    assert_eq!(moves_of(&import(&text).unwrap().game), ["Gd4,d1"]);
}

#[test]
fn old_records_without_numbers_or_done() {
    // A change of player ends the turn.
    let text = record(
        "Zertz",
        None,
        &[
            "P0[Start P0]",
            "P0[RtoB 2 0 D 4]",
            "P0[R- D 1]",
            "P1[R- A 1]",
            "P1[RtoB 2 2 D 5]",
            "P0[BtoB D 4 D 6]",
        ],
    );
    assert_eq!(
        moves_of(&import(&text).unwrap().game),
        ["Wd4,d1", "Bd5,a1", "x d4Bd6"]
    );
}

#[test]
fn null_gestures_are_skipped() {
    let text = record(
        "Zertz",
        None,
        &[
            "P0[0 Start P0]",
            "P0[1 RtoR 2 1 2]",
            "P0[2 RtoB 2 0 D 4]",
            "P0[3 R- D 1]",
            "P0[4 Done]",
            "P1[5 RtoB 2 2 D 5]",
            "P1[6 R- A 1]",
            "P1[7 Done]",
            "P0[8 BtoB D 4 D 4]",
            "P0[9 BtoB D 4 D 6]",
            "P0[10 Done]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(moves_of(&r.game), ["Wd4,d1", "Bd5,a1", "x d4Bd6"]);
    assert_eq!(r.null_gestures, 2);
}

#[test]
fn undo_gestures_inside_a_turn_are_honoured() {
    let text = record(
        "Zertz",
        None,
        &[
            "P0[0 Start P0]",
            // Place, take it back, place elsewhere.
            "P0[1 RtoB 2 0 C 3]",
            "P0[2 BtoR C 3 2]",
            "P0[3 RtoB 2 0 D 4]",
            // Remove a ring, put it back, remove another.
            "P0[4 R- A 1]",
            "P0[5 R+ A 1]",
            "P0[6 R- D 1]",
            "P0[7 Done]",
            // Start over with Reset.
            "P1[8 RtoB 2 1 B 2]",
            "P1[Reset]",
            "P1[9 RtoB 2 2 D 5]",
            "P1[10 R- A 1]",
            "P1[11 Done]",
            // A jump, taken back, then made.
            "P0[12 BtoB D 4 D 6]",
            "P0[13 BtoB D 6 D 4]",
            "P0[14 BtoB D 4 D 6]",
            "P0[15 Done]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(moves_of(&r.game), ["Wd4,d1", "Bd5,a1", "x d4Bd6"]);
    assert_eq!(r.undo_gestures, 4);
}

#[test]
fn a_placed_marble_dragged_to_another_ring() {
    // 2004-05 records: the marble just placed is moved before the turn ends.
    let text = record(
        "Zertz",
        None,
        &[
            "P0[Start P0]",
            "P0[RtoB 2 2 D 2]",
            "P0[BtoB D 2 C 2]",
            "P0[R- G 1]",
            "P1[RtoB 2 0 E 4]",
            "P1[R- B 5]",
        ],
    );
    assert_eq!(moves_of(&import(&text).unwrap().game), ["Bc2,g1", "We4,b5"]);
}

#[test]
fn resignation_abandons_the_turn_in_progress() {
    let text = record(
        "Zertz",
        Some("Game won by ann"),
        &[
            "P0[0 Start P0]",
            "P0[1 RtoB 2 0 D 4]",
            "P0[2 R- D 1]",
            "P0[3 Done]",
            "P1[4 R- A 1]",
            "P1[5 Resign]",
            "P1[6 Done]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(moves_of(&r.game), ["Wd4,d1"]);
    assert_eq!(r.ending, Ending::Resigned(1));
}

#[test]
fn gestures_after_the_win_are_ignored() {
    // A winning position: player one needs one more white. f1 is then isolated with its
    // white... simpler: player one holds 3 whites and jumps a white.
    let start = "37 standard ..../...../....../......./....../...../.... 3/8/10 3/0/0 0/0/0 1";
    let p: Position = start.parse().unwrap();
    let mut game = Game::from_position(p, Rules::default());
    for text in ["Wd4,d1", "Wd5,a1", "x d4Wd6"] {
        let mv = official::parse(game.position(), text).unwrap();
        game.play(&mv).unwrap();
    }
    assert!(game.is_over());
    // The same game as a handicap record, with a resignation and a move after the end.
    let text = record(
        "Zertz+H",
        Some("Game won by ann"),
        &[
            "P0[0 Edit]",
            "P0[1 RtoR 2 0 0]",
            "P0[2 RtoR 2 0 0]",
            "P0[3 RtoR 2 0 0]",
            "P0[4 Start P0]",
            "P0[5 RtoB 2 0 D 4]",
            "P0[6 R- D 1]",
            "P0[7 Done]",
            "P1[8 RtoB 2 0 D 5]",
            "P1[9 R- A 1]",
            "P1[10 Done]",
            "P0[11 BtoB D 4 D 6]",
            "P0[12 Done]",
            "P1[13 RtoB 2 2 C 3]",
            "P1[14 R- A 2]",
            "P1[15 Resign]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(moves_of(&r.game), ["Wd4,d1", "Wd5,a1", "x d4Wd6"]);
    assert!(matches!(r.ending, Ending::Rules(o) if o.winner() == Some(Player::One)));
    assert_eq!(r.rules_winner(), Some(0));
    assert!(r.gestures_after_end >= 2);
    // On the 48 board (Zertz+H), with the handicap in player one's captures.
    assert_eq!(r.game.start().layout().kind(), BoardKind::Rings48);
    assert_eq!(r.game.start().captures(Player::One), Marbles::new(3, 0, 0));
    assert_eq!(r.game.start().supply(), Marbles::new(3, 8, 10));
}

#[test]
fn handicap_setup_in_edit_mode() {
    // As BoardSpace writes it: rings removed, marbles given, then Start P1 — P1 moves first.
    let text = record(
        "Zertz+H",
        Some("Dumbot hat gewonnen"),
        &[
            "P0[0 edit ]",
            "P1[1 rtor 2 0 1]",
            "P0[2 r- F 6]",
            "P0[3 rtob 2 1 E 2]",
            "P1[4 Start P1]",
            "P1[5 rtob 2 1 B 3]",
            "P1[6 r- C 7]",
            "P1[7 done]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(r.first, 1);
    let start = r.game.start();
    assert_eq!(
        start.captures(Player::One),
        Marbles::new(1, 0, 0),
        "P1 is player one and holds the handicap"
    );
    assert_eq!(start.supply(), Marbles::new(5, 7, 10));
    let l = start.layout();
    assert!(!start.has_ring(l.parse_place("f6").unwrap()));
    assert_eq!(
        start.colour_at(l.parse_place("e2").unwrap()),
        Some(zertz::Colour::Grey)
    );
    assert_eq!(moves_of(&r.game), ["Gb3,c7"]);
    // "Dumbot" names neither ann nor ben.
    assert!(matches!(r.result, RecordedResult::Unreadable(_)));
}

#[test]
fn custom_board_built_with_r_plus() {
    // P0 builds a board of 7 rings in the Zertz+xx frame (column a starts half a ring below
    // column b, so b3 touches a3, a4, c3 and c4), then P1 moves first.
    let text = record(
        "Zertz+xx",
        None,
        &[
            "P0[0 Start P0]",
            "P0[1 R+ B 2]",
            "P0[2 R+ B 3]",
            "P0[3 R+ A 3]",
            "P0[4 R+ A 4]",
            "P0[5 R+ C 3]",
            "P0[6 R+ C 4]",
            "P0[7 R+ B 4]",
            "P0[8 Done]",
            "P1[9 RtoB 2 0 B 3]",
            "P1[10 R- B 4]",
            "P1[11 Done]",
        ],
    );
    let r = import(&text).unwrap();
    assert_eq!(r.first, 1);
    let layout = r.game.start().layout();
    assert_eq!(layout.kind(), BoardKind::Custom);
    assert_eq!(layout.len(), 7);
    // b3 is the centre of this little hexagon: six neighbours.
    assert_eq!(
        layout
            .neighbour_mask(layout.parse_place("b3").unwrap())
            .count_ones(),
        6
    );
    assert_eq!(moves_of(&r.game), ["Wb3,b4"]);
}

#[test]
fn results_in_many_languages() {
    use zertz::boardspace::read_result;
    let players = ["superqwert".to_string(), "Dumbot".to_string()];
    assert_eq!(
        read_result("Игру выиграл(а) superqwert.", &players),
        RecordedResult::Winner(0)
    );
    assert_eq!(
        read_result("Partie gagnée par Dumbot", &players),
        RecordedResult::Winner(1)
    );
    assert_eq!(
        read_result("Dumbot hat gewonnen", &players),
        RecordedResult::Winner(1)
    );
    assert_eq!(
        read_result("The game is a draw", &players),
        RecordedResult::Draw
    );
    // Whole words only: "guest1488" does not name "guest".
    let guests = ["guest".to_string(), "guest".to_string()];
    assert!(matches!(
        read_result("Game won by guest1488", &guests),
        RecordedResult::Unreadable(_)
    ));
}

#[test]
fn rejections_name_the_line_and_reason() {
    let illegal = record(
        "Zertz",
        None,
        &[
            "P0[0 Start P0]",
            "P0[1 RtoB 2 0 D 4]",
            "P0[2 R- D 5]",
            "P0[3 Done]",
        ],
    );
    let e = import(&illegal).unwrap_err();
    // Line 7: the turn's first gesture (the record has no RE line).
    assert_eq!((e.kind, e.line), (RejectKind::IllegalMove, 7));
    assert!(e.detail.contains("ring d5 is not free"), "{}", e.detail);

    let off = record("Zertz", None, &["P0[0 Start P0]", "P0[1 RtoB 2 0 H 4]"]);
    assert_eq!(import(&off).unwrap_err().kind, RejectKind::BadCoordinate);

    let unknown = record("Zertz", None, &["P0[0 Start P0]", "P0[1 Fly D 4]"]);
    let e = import(&unknown).unwrap_err();
    assert_eq!((e.kind, e.line), (RejectKind::BadGesture, 7));

    let two = record(
        "Zertz",
        None,
        &[
            "P0[0 Start P0]",
            "P0[1 RtoB 2 0 D 4]",
            "P0[2 RtoB 2 0 C 4]",
            "P0[3 Done]",
        ],
    );
    assert_eq!(import(&two).unwrap_err().kind, RejectKind::MalformedTurn);

    let undo = record("Zertz", None, &["P0[0 Start P0]", "P0[1 BtoR D 4 2]"]);
    assert_eq!(import(&undo).unwrap_err().kind, RejectKind::UnmatchedUndo);

    assert_eq!(import("").unwrap_err().kind, RejectKind::EmptyFile);
    assert_eq!(
        import("(;GM[22]SU[Zertz] P0[1 RtoB").unwrap_err().kind,
        RejectKind::Syntax
    );
    assert_eq!(
        import("(;GM[1]SU[Go])").unwrap_err().kind,
        RejectKind::UnknownVariant
    );
    assert_eq!(
        import("(;GM[22]SU[Zertz+99])").unwrap_err().kind,
        RejectKind::UnknownVariant
    );
    let bad_arg = record("Zertz", None, &["P0[0 Start P0]", "P0[1 RtoB 2 7 D 4]"]);
    assert_eq!(import(&bad_arg).unwrap_err().kind, RejectKind::BadGesture);
}

/// Plays a deterministic pseudo-random game of up to `n` turns.
fn some_game(start: Position, n: usize, seed: u64) -> Game {
    let mut game = Game::from_position(start, Rules::default());
    let mut x = seed;
    for _ in 0..n {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv: Move = moves[(x % moves.len() as u64) as usize];
        game.play(&mv).unwrap();
    }
    game
}

#[test]
fn export_then_import_gives_the_same_game() {
    let info = ExportInfo {
        players: ["ann".into(), "ben".into()],
        date: Some("Sat Nov 21 10:00:00 UTC 2026".into()),
        name: Some("test".into()),
        designer: None,
    };
    for kind in [BoardKind::Rings37, BoardKind::Rings48, BoardKind::Rings61] {
        for seed in 1..=6u64 {
            let game = some_game(
                Position::new(Layout::official(kind), RuleSet::STANDARD),
                200,
                seed * 7 + 1,
            );
            let text = export(&game, &info).unwrap();
            let back = import(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(
                back.game.positions(),
                game.positions(),
                "{kind:?} seed {seed}"
            );
            assert_eq!(back.game.outcome(), game.outcome());
            if let Some(w) = game.outcome().and_then(|o| o.winner()) {
                assert_eq!(back.result, RecordedResult::Winner(w.index()));
            }
        }
    }
}

#[test]
fn export_of_a_handicap_game_on_48() {
    let start: Position =
        "48 standard ---../....../......B/......../......./....../...../.... 4/7/9 2/0/0 0/1/0 1"
            .parse()
            .unwrap();
    let game = some_game(start, 60, 99);
    let text = export(&game, &ExportInfo::default()).unwrap();
    assert!(text.contains("SU[Zertz+H]"));
    let back = import(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.game.positions(), game.positions());
}

#[test]
fn export_of_other_boards_uses_the_custom_frame() {
    for kind in [BoardKind::Rings40, BoardKind::Rings43, BoardKind::Rings44] {
        let game = some_game(
            Position::new(Layout::official(kind), RuleSet::STANDARD),
            200,
            5,
        );
        let text = export(&game, &ExportInfo::default()).unwrap();
        assert!(text.contains("SU[Zertz+xx]"));
        let back = import(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // Same shape, moved into BoardSpace's frame: compare what does not depend on names.
        assert_eq!(back.game.start().layout().len(), kind_len(kind));
        assert_eq!(
            back.game.start().layout().symmetries().len(),
            Layout::official(kind).symmetries().len()
        );
        assert_eq!(back.game.turns().len(), game.turns().len());
        for (a, b) in back.game.positions().iter().zip(game.positions()) {
            assert_eq!(a.rings().count_ones(), b.rings().count_ones());
            assert_eq!(a.supply(), b.supply());
            assert_eq!(a.captures(Player::One), b.captures(Player::One));
            assert_eq!(a.captures(Player::Two), b.captures(Player::Two));
            assert_eq!(a.legal_moves().len(), b.legal_moves().len());
        }
        assert_eq!(back.game.outcome(), game.outcome());
    }
}

fn kind_len(kind: BoardKind) -> usize {
    Layout::official(kind).len()
}

#[test]
fn export_refuses_what_boardspace_cannot_hold() {
    let blitz = Game::new(
        Layout::standard(),
        Rules {
            set: RuleSet::BLITZ,
            ..Rules::default()
        },
    );
    assert!(export(&blitz, &ExportInfo::default()).is_err());
    let handicap37: Position =
        "37 standard ..../...../....../......./....../...../.... 5/8/10 1/0/0 0/0/0 1"
            .parse()
            .unwrap();
    assert!(
        export(
            &Game::from_position(handicap37, Rules::default()),
            &ExportInfo::default()
        )
        .is_err()
    );
}
