//! perft from the start position of every official board, against rules.md section 10.

use zertz::perft::{perft, perft_full};
use zertz::{BoardKind, Layout, Position, RuleSet};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    fn start(kind: BoardKind) -> Position {
        Position::new(Layout::official(kind), RuleSet::STANDARD)
    }

    #[test]
    fn depth_one_every_board() {
        let expected = [
            (BoardKind::Rings37, 1944),
            (BoardKind::Rings40, 2223),
            (BoardKind::Rings43, 2520),
            (BoardKind::Rings44, 2580),
            (BoardKind::Rings48, 2961),
            (BoardKind::Rings61, 4320),
        ];
        for (kind, n) in expected {
            assert_eq!(perft(&start(kind), 1), n, "{kind:?}");
            assert_eq!(start(kind).legal_moves().len() as u64, n, "{kind:?}");
        }
    }

    #[test]
    fn depth_two_37_and_48() {
        assert_eq!(perft(&start(BoardKind::Rings37), 2), 3_277_260);
        assert_eq!(perft(&start(BoardKind::Rings48), 2), 7_824_600);
    }

    #[test]
    fn depth_three_37() {
        // The first depth with captures (and so chains and the first isolations).
        assert_eq!(perft(&start(BoardKind::Rings37), 3), 4_114_538_424);
    }

    #[test]
    fn blitz_start_counts_like_standard_at_depth_one() {
        // Same board and three colours in the supply: the same 1,944 first moves.
        let blitz = Position::new(Layout::standard(), RuleSet::BLITZ);
        assert_eq!(perft(&blitz, 1), 1944);
    }

    #[test]
    fn bulk_counting_agrees_with_full_generation() {
        for kind in BoardKind::OFFICIAL {
            assert_eq!(
                perft(&start(kind), 2),
                perft_full(&start(kind), 2),
                "{kind:?}"
            );
        }
    }
}
