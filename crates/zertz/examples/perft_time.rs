//! Times perft on the official boards, for comparing builds of the rules library:
//! `cargo run --release -p zertz --example perft_time -- 37:3 48:3`. Prints each count with the
//! best wall-clock time of `--runs N` runs (default 5). With `--full`, every move is generated
//! and played down to the last ply (`perft_full`, the measure of playing moves) instead of
//! counting the last ply in bulk.

use std::time::Instant;

use zertz::{
    BoardKind, Layout, Position, RuleSet,
    perft::{perft, perft_full},
};

fn main() {
    let mut runs = 5;
    let mut full = false;
    let mut jobs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs);
            continue;
        }
        if a == "--full" {
            full = true;
            continue;
        }
        let Some((board, depth)) = a.split_once(':') else {
            eprintln!("expected BOARD:DEPTH such as 37:3, got `{a}`");
            std::process::exit(2);
        };
        let Ok(layout) = Layout::from_spec(board) else {
            eprintln!("unknown board `{board}`");
            std::process::exit(2);
        };
        let Ok(depth) = depth.parse::<u32>() else {
            eprintln!("`{depth}` is not a depth");
            std::process::exit(2);
        };
        jobs.push((layout, depth));
    }
    if jobs.is_empty() {
        jobs.push((Layout::official(BoardKind::Rings37).into(), 3));
    }
    for (layout, depth) in jobs {
        let start = Position::new(&layout, RuleSet::STANDARD);
        let mut best = f64::MAX;
        let mut count = 0;
        for _ in 0..runs {
            let t = Instant::now();
            count = if full {
                perft_full(&start, depth)
            } else {
                perft(&start, depth)
            };
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{} depth {depth}{}: {count} in {:.1} ms (best of {runs})",
            layout.spec(),
            if full { ", full" } else { "" },
            best * 1e3
        );
    }
}
