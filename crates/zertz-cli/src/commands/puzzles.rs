//! `zertz puzzles generate`: finds puzzles in real games (BoardSpace records and the server's
//! finished games) and writes them as a puzzle set (`data/puzzles.json`).
//!
//! The search for each position is the engine's (`zertz_engine::puzzles::generate`); this
//! command reads the records (with `zertz replay`'s reader), hands the games to one thread per
//! core, each with its own prover, and merges what they found.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use zertz::Game;
use zertz_engine::prove::Prover;
use zertz_engine::puzzles::generate::{Settings, Stats, merge, scan_game};
use zertz_engine::puzzles::{Puzzle, PuzzleSet};

use crate::commands::replay::{Loader, Source as RecordSource, collect_lenient};

/// Options of `zertz puzzles`.
#[derive(Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    what: PuzzlesCommand,
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Find puzzles in real games and write them as a puzzle set (JSON).
    Generate(GenerateArgs),
}

/// Options of `zertz puzzles generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// BoardSpace records: `.sgf` files, folders (searched recursively), `.zip` archives; and
    /// puzzle sets (`.json`, written by this command), whose puzzles are merged in as they are
    /// (to join runs made on parts of an archive).
    #[arg(long = "from", num_args = 1.., value_name = "PATH")]
    from: Vec<PathBuf>,
    /// The server's database (a SQLite file or a `postgres://` URL, as for `zertz serve
    /// --db`): its finished games are scanned too.
    #[arg(long)]
    db: Option<String>,
    /// The puzzle set to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The longest win looked for, in the winner's turns.
    #[arg(long, default_value_t = Settings::default().max_turns, value_parser = clap::value_parser!(u32).range(1..=6))]
    max_turns: u32,
    /// Prover expansions the first filter may spend on a position.
    #[arg(long, default_value_t = Settings::default().filter_nodes)]
    filter_nodes: u64,
    /// Prover expansions the uniqueness proof may spend on a position.
    #[arg(long, default_value_t = Settings::default().unique_nodes)]
    unique_nodes: u64,
    /// The most defender replies a puzzle's solution may list.
    #[arg(long, default_value_t = Settings::default().max_defences)]
    max_defences: usize,
    /// Scan only the first N records found (in path order).
    #[arg(long)]
    limit: Option<usize>,
    /// Threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Each thread's prover table, in megabytes.
    #[arg(long, default_value_t = 32)]
    hash: usize,
}

/// Runs `zertz puzzles`.
pub fn run(args: PuzzlesArgs) -> anyhow::Result<()> {
    match args.what {
        PuzzlesCommand::Generate(args) => generate(args),
    }
}

/// A game to scan: where it comes from and the game itself (read lazily for records).
enum Work {
    Record(RecordSource),
    Stored { id: String, game: Box<Game> },
}

fn generate(args: GenerateArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        !args.from.is_empty() || args.db.is_some(),
        "nothing to scan: give records (or puzzle sets) with --from PATH... and/or a database \
         with --db URL"
    );
    let started = Instant::now();
    let settings = Settings {
        max_turns: args.max_turns,
        filter_nodes: args.filter_nodes,
        unique_nodes: args.unique_nodes,
        max_defences: args.max_defences,
    };
    let (sets, records): (Vec<PathBuf>, Vec<PathBuf>) = args.from.iter().cloned().partition(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    });
    let mut merged_in = Vec::new();
    for path in &sets {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let set = PuzzleSet::from_json(&text).with_context(|| path.display().to_string())?;
        merged_in.extend(set.puzzles);
    }
    let from_sets = merged_in.len();
    let (sources, unreadable) = collect_lenient(&records)?;
    for (path, reason) in &unreadable {
        eprintln!("skipped {}: {reason}", path.display());
    }
    let mut work: Vec<Work> = sources.into_iter().map(Work::Record).collect();
    if let Some(limit) = args.limit {
        work.truncate(limit);
    }
    if let Some(db) = &args.db {
        let stored = crate::support::puzzles_db::finished_games(db)
            .with_context(|| format!("reading the finished games of {db}"))?;
        work.extend(stored.into_iter().map(|(id, game)| Work::Stored {
            id,
            game: Box::new(game),
        }));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(work.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games  {per_sec}  {elapsed_precise} (eta {eta})  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    let found: Mutex<(Vec<Puzzle>, Stats, usize)> = Mutex::new((Vec::new(), Stats::default(), 0));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut prover = Prover::new(args.hash);
                let mut loader = Loader::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = work.get(i) else { return };
                    let mut stats = Stats::default();
                    let (puzzles, broken) = match item {
                        Work::Record(source) => {
                            let name = source.name();
                            let file = name.rsplit(['/', '!']).next().unwrap_or(&name);
                            match loader.load(source).and_then(|t| {
                                zertz::boardspace::import(&t).map_err(|e| e.to_string())
                            }) {
                                Ok(r) => (
                                    scan_game(
                                        &mut prover,
                                        "boardspace",
                                        file,
                                        &r.game,
                                        &settings,
                                        &mut stats,
                                    ),
                                    0,
                                ),
                                Err(_) => (Vec::new(), 1),
                            }
                        }
                        Work::Stored { id, game } => (
                            scan_game(&mut prover, "server", id, game, &settings, &mut stats),
                            0,
                        ),
                    };
                    let mut all = found.lock().unwrap_or_else(|e| e.into_inner());
                    all.0.extend(puzzles);
                    all.1.add(&stats);
                    all.2 += broken;
                    bar.set_message(format!("{} puzzles", all.0.len()));
                    drop(all);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let (mut puzzles, stats, broken) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    puzzles.extend(merged_in);
    let set = merge(puzzles);
    if from_sets > 0 {
        println!("{from_sets} puzzles read from the puzzle sets given");
    }
    std::fs::write(&args.out, set.to_json())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    print_summary(&set, &stats, broken, started.elapsed().as_secs_f64());
    println!("written to {}", args.out.display());
    Ok(())
}

fn print_summary(set: &PuzzleSet, stats: &Stats, broken: usize, seconds: f64) {
    println!(
        "{} games scanned ({} records unreadable), {} positions in {:.1} s",
        stats.games, broken, stats.positions, seconds
    );
    println!(
        "rejected: {} no win found by the filter, {} tree too big, {} not unique, {} undecided; \
         {} inside a found solution",
        stats.no_win, stats.too_big, stats.not_unique, stats.undecided, stats.inside_found
    );
    println!(
        "{} puzzles found, {} after merging symmetric copies",
        stats.puzzles,
        set.puzzles.len()
    );
    let mut by_turns: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    let mut by_theme: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &set.puzzles {
        let e = by_turns.entry(p.turns).or_default();
        e.0 += 1;
        if p.source.found {
            e.1 += 1;
        }
        for t in &p.themes {
            *by_theme.entry(t.as_str()).or_default() += 1;
        }
    }
    for (turns, (n, found)) in by_turns {
        println!(
            "  win in {turns}: {n} ({found} found by the player, {} missed)",
            n - found
        );
    }
    for (theme, n) in by_theme {
        println!("  {theme}: {n}");
    }
}
