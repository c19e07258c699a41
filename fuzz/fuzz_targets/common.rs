//! Positions the move parsers are fuzzed in: starts of several boards and real-game positions
//! with captures, chains, isolations and an empty supply.

use std::sync::OnceLock;

use zertz::Position;

/// The positions, read once per process (reading them for every input cost most of each run).
pub fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut out: Vec<Position> = [
            "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
            "61 blitz ...../....../......./......../........./......../......./....../..... 5/7/9 0/0/0 0/0/0 1",
        ]
        .iter()
        .map(|s| s.parse().expect("valid position"))
        .collect();
        for line in include_str!("../../crates/zertz/tests/data/perft.txt").lines() {
            if let Some((position, _)) = line.split_once(" ; ") {
                if let Ok(p) = position.parse() {
                    out.push(p);
                }
            }
        }
        out
    })
}
