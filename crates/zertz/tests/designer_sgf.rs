//! The designer of a "Zertz+xx" board through study trees: a record read into a `GameTree`
//! keeps who designed the board (the `Designer` header), and `GameTree::to_sgf` writes the
//! design and the `Swap` back, so the record reads again as the same game. The board keeps its
//! place on BoardSpace's grid (it is not moved to the bottom left).

use zertz::boardspace::{ExportInfo, export, import};
use zertz::layout::LayoutRef;
use zertz::tree::GameTree;
use zertz::{Coord, Game, Layout, Player, Position, RuleSet, Setup};

/// Twelve rings away from the corner of the grid, from c3 to f5.
fn board() -> LayoutRef {
    let coords: Vec<Coord> = [
        "c3", "c4", "c5", "d3", "d4", "d5", "d6", "e3", "e4", "e5", "f4", "f5",
    ]
    .iter()
    .map(|c| c.parse().unwrap())
    .collect();
    Layout::custom(&coords).unwrap()
}

/// A game of `turns` moves on the board, picked by a fixed sequence.
fn game(turns: usize) -> Game {
    let set: RuleSet = "standard".parse().unwrap();
    let start = Position::from_setup(Setup::start(board(), set)).unwrap();
    let mut game = Game::from_position(start, Default::default());
    let mut seed = 11u64;
    while game.turns().len() < turns && !game.is_over() {
        let moves = game.legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        game.play(&moves[(seed >> 33) as usize % moves.len()])
            .unwrap();
    }
    game
}

#[test]
fn the_designer_and_the_swap_survive_a_study_tree() {
    let game = game(4);
    assert!(game.turns().len() >= 3, "moves were played");
    for designer in [Player::One, Player::Two] {
        let info = ExportInfo {
            players: ["ann".into(), "ben".into()],
            designer: Some(designer),
            ..ExportInfo::default()
        };
        let text = export(&game, &info).unwrap();
        let swapped = designer == Player::One;
        assert_eq!(text.contains("Swap"), swapped, "{text}");
        assert!(
            text.contains("R+ C 3"),
            "the board stays where it was: {text}"
        );
        let tree = GameTree::from_sgf(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(tree.designer(), Some(designer));
        let again = tree.to_sgf().unwrap();
        assert_eq!(again.contains("Swap"), swapped, "{again}");
        let back = import(&again).unwrap_or_else(|e| panic!("{e}\n{again}"));
        assert_eq!(back.swapped, swapped);
        assert_eq!(back.variant, "Zertz+xx");
        assert!(*back.game.start().layout() == board(), "the same board");
        assert_eq!(back.game.positions(), game.positions());
    }
}

#[test]
fn a_tree_without_a_designer_writes_no_swap() {
    let game = game(2);
    let text = export(&game, &ExportInfo::default()).unwrap();
    let mut tree = GameTree::from_sgf(&text).unwrap();
    // Read from a Zertz+xx record without a swap: player two designed.
    assert_eq!(tree.designer(), Some(Player::Two));
    tree.set_header("Designer", "").unwrap();
    assert_eq!(tree.designer(), None);
    let again = tree.to_sgf().unwrap();
    assert!(!again.contains("Swap"));
    assert!(!import(&again).unwrap().swapped);
}
