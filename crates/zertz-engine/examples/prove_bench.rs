//! The prover's speed on real positions: the node rate, and the time to prove the wins found
//! near the end of real games (median, 90th and 99th percentile).
//!
//! ```sh
//! cargo run --release -p zertz-engine --example prove_bench -- MAX_GAMES TURNS NODES PATH...
//! cargo run --release -p zertz-engine --example prove_bench -- 300 3 2000000 ../shared/boardspace/archive-2025
//! ```
//!
//! For each BoardSpace record (`.sgf` files, folders, `.zip` archives) that ends with a win by a
//! winning set, the positions 1, 3 and 5 plies before the end (the eventual winner to move) are
//! given to a fresh prover (64 MB table) with up to `TURNS` turns and `NODES` nodes. A node is
//! an expansion: a position whose legal moves were generated and played. Deterministic but for
//! the times.

#[path = "common/records.rs"]
mod records;

use std::path::Path;
use std::time::Instant;

use records::records;
use zertz::{Outcome, WinReason, boardspace};
use zertz_engine::prove::{Prover, Verdict};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(max), Some(turns), Some(nodes)) = (
        args.first().and_then(|s| s.parse::<usize>().ok()),
        args.get(1).and_then(|s| s.parse::<u32>().ok()),
        args.get(2).and_then(|s| s.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: prove_bench MAX_GAMES TURNS NODES PATH...");
        std::process::exit(2);
    };
    let mut texts = Vec::new();
    for path in &args[3..] {
        records(Path::new(path), &mut texts);
    }
    let mut games = 0;
    // (plies before the end, seconds, nodes, verdict in words)
    let mut rows: Vec<(usize, f64, u64, String)> = Vec::new();
    let mut prover = Prover::default();
    for (_, text) in &texts {
        if games >= max {
            break;
        }
        let Ok(r) = boardspace::import(text) else {
            continue;
        };
        let Some(Outcome::Win {
            winner,
            reason: WinReason::WinningSet,
        }) = r.game.outcome()
        else {
            continue;
        };
        games += 1;
        let positions = r.game.positions();
        let end = positions.len() - 1;
        for back in [1usize, 3, 5] {
            if back > end || positions[end - back].to_move() != winner {
                continue;
            }
            let p = &positions[end - back];
            prover.clear();
            let started = Instant::now();
            let Ok(report) = prover.prove(p, turns, nodes) else {
                continue;
            };
            let seconds = started.elapsed().as_secs_f64();
            let words = match report.verdict {
                Verdict::Win { turns, .. } => format!("win {turns}"),
                Verdict::NoWin { .. } => "no win".to_string(),
                Verdict::Unknown { .. } => "unknown".to_string(),
            };
            rows.push((back, seconds, report.nodes, words));
        }
    }
    let total_nodes: u64 = rows.iter().map(|r| r.2).sum();
    let total_seconds: f64 = rows.iter().map(|r| r.1).sum();
    println!(
        "{games} games, {} positions, {total_nodes} nodes in {total_seconds:.1} s: {:.0} nodes/s",
        rows.len(),
        total_nodes as f64 / total_seconds.max(1e-9)
    );
    let mut kinds: Vec<String> = rows.iter().map(|r| r.3.clone()).collect();
    kinds.sort();
    kinds.dedup();
    println!(
        "{:<10} {:>9} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "verdict", "positions", "median s", "p90 s", "p99 s", "max s", "median nodes"
    );
    for kind in kinds {
        let mine: Vec<&(usize, f64, u64, String)> = rows.iter().filter(|r| r.3 == kind).collect();
        let mut times: Vec<f64> = mine.iter().map(|r| r.1).collect();
        times.sort_by(f64::total_cmp);
        let mut n: Vec<f64> = mine.iter().map(|r| r.2 as f64).collect();
        n.sort_by(f64::total_cmp);
        println!(
            "{:<10} {:>9} {:>10.4} {:>10.4} {:>10.4} {:>10.4} {:>12.0}",
            kind,
            mine.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.9),
            percentile(&times, 0.99),
            times.last().copied().unwrap_or(0.0),
            percentile(&n, 0.5)
        );
    }
    for back in [1usize, 3, 5] {
        let mine: Vec<_> = rows.iter().filter(|r| r.0 == back).collect();
        let wins = mine.iter().filter(|r| r.3.starts_with("win")).count();
        println!(
            "{back} plies before the end: {} positions, {wins} proven wins",
            mine.len()
        );
    }
}
