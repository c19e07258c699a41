//! `zertz bench`: search speed — a fixed set of positions searched to a fixed depth, with the
//! time to each depth, the nodes and the nodes per second. With one thread the node count is the
//! same on every machine (a signature of the search).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use zertz::{BoardKind, Game, Layout, Position, RuleSet, Rules};
use zertz_engine::{Engine, Limits, SearchOptions};

/// Options of `zertz bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Depth in placement turns for the midgame positions (the openings get one less).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// Undecided middlegame positions from real BoardSpace games.
const MIDGAME: &[&str] = &[
    "37 standard .--./...../.....-/-..W..-/.....-/-..WB/-.-B 3/6/6 0/0/0 1/2/2 1",
    "37 standard ..../W...-/.W..--/.W...../-...../-B.../-... 2/8/8 0/0/0 1/0/1 1",
    "48 standard ..-../....../......./-.B..W../-....../.....-/-.-../.--. 2/7/7 1/1/2 2/0/0 2",
    "48 standard -.G--/.W...-/G..W..-/--W.G.G-/-...W.-/G.W..G/-..W./-G.- 0/1/10 0/0/0 0/0/0 2",
    "61 standard -...-/....../......./....G.../...B..G--/.W..B..-/...B.../....../....- 5/6/7 0/0/0 0/0/0 1",
    "61 standard ...../....../......./.....W../.......G-/...W...-/.....--/.....-/...-. 4/6/8 0/1/2 0/0/0 2",
];

/// Runs `zertz bench`.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let mut cases: Vec<(String, Position, u32)> =
        [BoardKind::Rings37, BoardKind::Rings48, BoardKind::Rings61]
            .into_iter()
            .map(|k| {
                let p = Position::new(Layout::official(k), RuleSet::STANDARD);
                (
                    format!("start of {}", k.name()),
                    p,
                    args.depth.saturating_sub(1).max(1),
                )
            })
            .collect();
    for (i, text) in MIDGAME.iter().enumerate() {
        cases.push((format!("midgame {}", i + 1), text.parse()?, args.depth));
    }
    let options = SearchOptions {
        threads: args.threads.max(1),
        ..SearchOptions::default()
    };
    let mut total_nodes = 0u64;
    let started = Instant::now();
    for (name, position, depth) in cases {
        let engine = Engine::new(options.clone(), args.hash);
        let game = Game::from_position(position, Rules::default());
        let stop = AtomicBool::new(false);
        let mut times = Vec::new();
        let result = engine.search(&game, &Limits::depth(depth), &stop, &mut |info| {
            times.push(format!("d{} {:.3}s", info.depth, info.time.as_secs_f64()));
        });
        total_nodes += result.nodes;
        println!(
            "{name:<14} depth {:>2}  nodes {:>10}  {:>7.0} kn/s  {:>7.3} s   ({})",
            result.depth,
            result.nodes,
            result.nodes as f64 / result.time.as_secs_f64().max(1e-9) / 1000.0,
            result.time.as_secs_f64(),
            times.join(", ")
        );
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "total: {total_nodes} nodes in {secs:.2} s, {:.0} kn/s ({} threads)",
        total_nodes as f64 / secs / 1000.0,
        options.threads
    );
    Ok(())
}
