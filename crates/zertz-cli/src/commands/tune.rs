//! `zertz tune`: tunes the evaluation weights by self-play (SPSA) and writes them to a file.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use zertz_engine::Weights;
use zertz_engine::tuning::{TuneConfig, pattern_matches, tune};

/// Options of `zertz tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// Where to write the tuned weights (rewritten after every iteration).
    #[arg(long)]
    out: PathBuf,
    /// Weights file to start from, as written by `zertz tune` or `crates/zertz-engine/weights.txt`
    /// (default: the hand-set baseline the built-in weights were tuned from).
    #[arg(long, visible_alias = "start", value_name = "FILE")]
    from: Option<PathBuf>,
    /// Weights held at their starting value, by name: comma-separated globs (`single.*,each.*`)
    /// or prefixes (`single`, `single.black`); repeatable.
    #[arg(long, value_name = "PATTERNS")]
    fixed: Vec<String>,
    /// Tune one curve for all four winning sets (`single.*.N` and `each.N` move together,
    /// from their mean) instead of a table per set.
    #[arg(long)]
    shared_sets: bool,
    /// Iterations.
    #[arg(long, default_value_t = 200)]
    iterations: usize,
    /// Openings per iteration, each played twice.
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Games at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
}

/// Runs `zertz tune`.
pub fn run(args: TuneArgs) -> anyhow::Result<()> {
    if args.iterations == 0 || args.openings == 0 || args.nodes == 0 || args.concurrency == 0 {
        anyhow::bail!("--iterations, --openings, --nodes and --concurrency must be at least 1");
    }
    let start = match &args.from {
        Some(path) => Weights::parse(
            &std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?,
        )?,
        None => Weights::baseline(),
    };
    let names = start.named();
    let mut fixed = Vec::new();
    for pattern in args.fixed.iter().flat_map(|p| p.split(',')) {
        let pattern = pattern.trim();
        if pattern.is_empty() {
            continue;
        }
        if !names.iter().any(|(name, _)| pattern_matches(pattern, name)) {
            anyhow::bail!(
                "--fixed `{pattern}` names no weight (the names are those of the weights file: \
                 single.white.1 … single.black.8, each.1 … each.8, material.white, tempo, …)"
            );
        }
        fixed.push(pattern.to_string());
    }
    let config = TuneConfig {
        iterations: args.iterations,
        openings: args.openings,
        nodes: args.nodes,
        concurrency: args.concurrency,
        seed: args.seed,
        rate: args.rate,
        fixed,
        shared_sets: args.shared_sets,
        ..TuneConfig::default()
    };
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut failure = None;
    let weights = tune(&start, &config, &mut |step| {
        eprintln!(
            "iteration {:>4}: plus vs minus {:.2}",
            step.iteration, step.score
        );
        let text = format!(
            "# {command}\n# after iteration {} of {}\n{}",
            step.iteration, config.iterations, step.weights
        );
        if let Err(e) =
            std::fs::File::create(&args.out).and_then(|mut f| f.write_all(text.as_bytes()))
        {
            failure = Some(e);
        }
    });
    if let Some(e) = failure {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    println!("{weights}");
    Ok(())
}
