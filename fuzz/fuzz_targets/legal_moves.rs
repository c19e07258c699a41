#![no_main]
//! Plays games chosen by the fuzzer's bytes (board, rule set, then one move index per byte, with
//! undo now and then): every generated move is legal, bulk counts match, invariants hold, and a
//! finished game refuses every move.
//!
//! Each step generates every legal move (thousands of placements early on), so an input is cut
//! at `MAX_STEPS` steps: a game on the largest board ends within about a hundred moves, and
//! longer inputs only added undo/replay loops over positions already reached.

use libfuzzer_sys::fuzz_target;
use zertz::{BoardKind, Game, Layout, RuleSet, Rules};

/// Moves and undos per input.
const MAX_STEPS: usize = 160;

fuzz_target!(|data: &[u8]| {
    let Some((&setup, moves)) = data.split_first() else {
        return;
    };
    let kind = BoardKind::OFFICIAL[setup as usize % 6];
    let set = if setup & 0x80 != 0 {
        RuleSet::BLITZ
    } else {
        RuleSet::STANDARD
    };
    let mut game = Game::new(
        Layout::official(kind),
        Rules {
            set,
            ..Rules::default()
        },
    );
    for &b in moves.iter().take(MAX_STEPS) {
        let position = game.position().clone();
        let legal = game.legal_moves();
        // A game may end while its position still has moves (a draw by threefold repetition,
        // reached once the supply is empty): the game then offers none, and the end of the
        // input checks that it refuses each of the position's moves.
        if game.is_over() {
            assert!(legal.is_empty(), "a finished game offers no move");
            break;
        }
        assert!(!legal.is_empty(), "a game that is not over has a move");
        assert_eq!(position.count_moves(), legal.len() as u64);
        if b == 255 && !game.turns().is_empty() {
            game.undo().expect("undo");
            assert_eq!(
                *game.position(),
                game.positions()[game.positions().len() - 1]
            );
            continue;
        }
        let mv = legal[b as usize % legal.len()];
        position.check(&mv).expect("a generated move is legal");
        game.play(&mv).expect("a generated move plays");
        game.position().check_invariants().expect("invariants");
    }
    if game.is_over() {
        for mv in game.position().legal_moves() {
            assert!(game.check(&mv).is_err());
        }
    }
});
