//! The time to prove the puzzles of a set: each puzzle's position given to `Prover::prove` (what
//! `zertz prove POSITION --turns N` runs) with the puzzle's length as the bound, and the verdict
//! compared with the puzzle: a win in exactly that many turns whose only winning first move is
//! the solution's, every other first move decided.
//!
//! ```sh
//! cargo run --release -p zertz-engine --example puzzle_bench -- NODES [FILE] [EVERY]
//! cargo run --release -p zertz-engine --example puzzle_bench -- 200000 data/puzzles.json
//! ```
//!
//! Each puzzle gets a cleared prover (the default table), so no puzzle profits from an earlier
//! one. `EVERY` takes every n-th puzzle (default 1: all). Times are the thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`, so other programs on the machine do not inflate them) and
//! wall time beside it; the nodes are deterministic.

use std::time::Instant;

use zertz::Position;
use zertz::notation::official;
use zertz_engine::prove::{Prover, Verdict};
use zertz_engine::puzzles::PuzzleSet;

/// CPU time used by this thread so far, in seconds (None where the clock is not offered).
fn thread_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// One puzzle proven: its length, CPU and wall seconds, nodes, and whether the verdict agrees.
struct Row {
    turns: u32,
    cpu: f64,
    wall: f64,
    nodes: u64,
    agrees: bool,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(nodes) = args.first().and_then(|s| s.parse::<u64>().ok()) else {
        eprintln!("usage: puzzle_bench NODES [FILE] [EVERY]");
        std::process::exit(2);
    };
    let file = args.get(1).map_or("data/puzzles.json", String::as_str);
    let every = args
        .get(2)
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let set = match PuzzleSet::from_json(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let mut prover = Prover::default();
    let mut rows = Vec::new();
    let mut disagreements = Vec::new();
    for puzzle in set.puzzles.iter().step_by(every) {
        let position: Position = match puzzle.position.parse() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: position: {e}", puzzle.id);
                std::process::exit(1);
            }
        };
        let solution = match official::parse(&position, &puzzle.solution.mv) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{}: solution {}: {e}", puzzle.id, puzzle.solution.mv);
                std::process::exit(1);
            }
        };
        prover.clear();
        let cpu_start = thread_cpu_seconds();
        let wall_start = Instant::now();
        let report = match prover.prove(&position, puzzle.turns, nodes) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: {e}", puzzle.id);
                std::process::exit(1);
            }
        };
        let wall = wall_start.elapsed().as_secs_f64();
        let cpu = match (cpu_start, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => wall,
        };
        let agrees = matches!(
            &report.verdict,
            Verdict::Win { turns, moves, all_moves_checked: true, .. }
                if *turns == puzzle.turns && moves.as_slice() == [solution]
        );
        if !agrees {
            disagreements.push(format!("{} ({} turns)", puzzle.id, puzzle.turns));
        }
        rows.push(Row {
            turns: puzzle.turns,
            cpu,
            wall,
            nodes: report.nodes,
            agrees,
        });
    }
    let total_nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let total_cpu: f64 = rows.iter().map(|r| r.cpu).sum();
    let total_wall: f64 = rows.iter().map(|r| r.wall).sum();
    println!(
        "{} puzzles, {total_nodes} nodes, {total_cpu:.1} s CPU ({total_wall:.1} s wall): {:.0} nodes/s",
        rows.len(),
        total_nodes as f64 / total_cpu.max(1e-9)
    );
    println!(
        "{:<6} {:>7} {:>8} {:>11} {:>11} {:>11} {:>11} {:>12} {:>10}",
        "length",
        "puzzles",
        "agree",
        "median ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "median nodes",
        "p99 nodes"
    );
    let mut lengths: Vec<u32> = rows.iter().map(|r| r.turns).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let groups = lengths
        .iter()
        .map(|&t| {
            (
                format!("{t}"),
                rows.iter().filter(|r| r.turns == t).collect(),
            )
        })
        .chain([("all".to_string(), rows.iter().collect::<Vec<&Row>>())]);
    for (name, mine) in groups {
        let mut cpu: Vec<f64> = mine.iter().map(|r| r.cpu * 1000.0).collect();
        cpu.sort_by(f64::total_cmp);
        let mut n: Vec<f64> = mine.iter().map(|r| r.nodes as f64).collect();
        n.sort_by(f64::total_cmp);
        println!(
            "{:<6} {:>7} {:>8} {:>11.2} {:>11.2} {:>11.2} {:>11.2} {:>12.0} {:>10.0}",
            name,
            mine.len(),
            mine.iter().filter(|r| r.agrees).count(),
            percentile(&cpu, 0.5),
            percentile(&cpu, 0.9),
            percentile(&cpu, 0.99),
            cpu.last().copied().unwrap_or(0.0),
            percentile(&n, 0.5),
            percentile(&n, 0.99),
        );
    }
    if !disagreements.is_empty() {
        println!(
            "verdicts that differ from the set ({}): {}",
            disagreements.len(),
            disagreements.join(", ")
        );
    }
}
