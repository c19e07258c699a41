//! `zertz perft`: move counts by depth, with timings.

use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use zertz::perft::{perft, perft_full};
use zertz::{Layout, Position, RuleSet, notation};

/// Options of `zertz perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Board: 37, 40, 43, 44, 48, 61, or a custom layout such as a1-4,b1-5.
    #[arg(long, default_value = "37")]
    board: String,
    /// Rule set: standard, blitz, or custom:W/G/B:w/g/b/each.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Start from this position string instead of the start position (board and rules are
    /// then taken from it).
    #[arg(long)]
    position: Option<String>,
    /// Deepest depth to count; every depth from 1 is printed.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Also print the count below each first move (at the deepest depth).
    #[arg(long)]
    divide: bool,
    /// Generate and play every move down to the last ply instead of counting it in bulk.
    #[arg(long)]
    full: bool,
}

/// Runs `zertz perft`.
pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    let position = match &args.position {
        Some(text) => text.parse::<Position>().context("bad --position")?,
        None => {
            let layout = Layout::from_spec(&args.board).context("bad --board")?;
            let rules: RuleSet = args.rules.parse().context("bad --rules")?;
            Position::new(layout, rules)
        }
    };
    if args.depth == 0 {
        bail!("--depth must be at least 1");
    }
    let count = |p: &Position, d: u32| {
        if args.full {
            perft_full(p, d)
        } else {
            perft(p, d)
        }
    };
    for depth in 1..=args.depth {
        let started = Instant::now();
        let n = count(&position, depth);
        let secs = started.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        println!(
            "perft({depth}) = {n}  ({secs:.3} s, {:.1} M moves/s)",
            rate / 1e6
        );
    }
    if args.divide {
        let mut moves = position.legal_moves();
        moves.sort();
        let mut total = 0;
        for mv in moves {
            let mut next = position.clone();
            next.play_unchecked(&mv);
            let n = count(&next, args.depth - 1);
            total += n;
            println!("{}: {n}", notation::official::move_text(&position, &mv));
        }
        println!("total: {total}");
    }
    Ok(())
}
