//! perft of positions from real games (`tests/data/perft.txt`): captures with chains and
//! choices, isolations, an empty supply, a split board. Bulk counting and full generation must
//! both give the recorded figures.

use zertz::Position;
use zertz::perft::{perft, perft_full};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    fn cases() -> Vec<(Position, Vec<u64>, String)> {
        let text = include_str!("data/perft.txt");
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|line| {
                let parts: Vec<&str> = line.split(" ; ").collect();
                assert_eq!(parts.len(), 3, "bad line: {line}");
                let position: Position = parts[0].parse().unwrap_or_else(|e| panic!("{e}"));
                let counts = parts[1]
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect();
                (position, counts, parts[2].to_string())
            })
            .collect()
    }

    #[test]
    fn bulk_counts_match_the_data() {
        let cases = cases();
        assert!(cases.len() >= 10);
        for (position, counts, source) in &cases {
            for (d, &expected) in counts.iter().enumerate() {
                assert_eq!(
                    perft(position, d as u32 + 1),
                    expected,
                    "depth {} of {source}",
                    d + 1
                );
            }
        }
    }

    #[test]
    fn full_generation_matches_the_data() {
        for (position, counts, source) in cases() {
            for (d, &expected) in counts.iter().enumerate() {
                // Depth 3 by full generation only where it stays quick.
                if d < 2 || expected < 30_000_000 {
                    assert_eq!(
                        perft_full(&position, d as u32 + 1),
                        expected,
                        "depth {} of {source}",
                        d + 1
                    );
                }
            }
        }
    }
}
