//! `zertz explorer import`: reads BoardSpace archives (folders, `.sgf` files, `.zip` archives)
//! into the opening explorer of the server's database (the same `--db` and default as
//! `zertz serve`).
//!
//! Records are read with `zertz replay`'s reader, replayed, keyed (`zertz::symmetry`) and
//! counted in memory; every `--batch` games the counts go to the store in one transaction. A
//! crash loses at most the batch being counted; a second run skips the games already stored
//! (by the hash of their record), so it resumes where the first stopped and never counts a
//! game twice. A record that cannot be read or replayed is listed with the reason, and the
//! others are imported.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use zertz_server::explorer::games::{boardspace_id, from_boardspace};
use zertz_server::explorer::import::Aggregate;
use zertz_server::explorer::queries::{Source, explore};
use zertz_server::store::{Store, StoreError};

use crate::replay::{Loader, collect_lenient};

/// Options of `zertz explorer`.
#[derive(Args)]
pub struct ExplorerArgs {
    #[command(subcommand)]
    what: ExplorerCommand,
}

#[derive(Subcommand)]
enum ExplorerCommand {
    /// Import BoardSpace records (folders searched recursively, `.sgf` files, `.zip`
    /// archives) into the explorer.
    Import(ImportArgs),
    /// Measure the explorer's answers: positions drawn at random from records, each asked of
    /// the database as the API asks it (without HTTP); prints the latency percentiles.
    Bench(BenchArgs),
}

/// Options of `zertz explorer bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Database: a SQLite file or a `postgres://` URL (imported beforehand).
    #[arg(long, default_value = "zertz.db")]
    db: String,
    /// Positions asked.
    #[arg(long, default_value_t = 10_000)]
    queries: usize,
    /// Seed of the random choice of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Records to draw the positions from (as for `import`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Options of `zertz explorer import`.
#[derive(Args)]
pub struct ImportArgs {
    /// Database: a SQLite file (created if missing) or a `postgres://` URL.
    #[arg(long, default_value = "zertz.db")]
    db: String,
    /// Games counted in memory before each write (one transaction each).
    #[arg(long, default_value_t = 20_000)]
    batch: usize,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// `.sgf` files, directories and `.zip` archives of BoardSpace records.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// A record or archive that was not imported, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Broken {
    /// The file, or `archive.zip!entry`.
    pub file: String,
    /// Why.
    pub reason: String,
}

/// What an import did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Records found.
    pub records: usize,
    /// Games added to the explorer.
    pub added: usize,
    /// Records already in the explorer (an earlier run, or the same record twice).
    pub already_stored: usize,
    /// Records or archives that could not be read or replayed.
    pub broken: Vec<Broken>,
    /// Rows written (one per position, source, rating band and move, per batch).
    pub rows_written: usize,
    /// Transactions.
    pub batches: usize,
    /// Seconds in all.
    pub seconds: f64,
    /// Seconds spent reading, replaying and counting (the rest is the store's).
    pub counting_seconds: f64,
    /// Games added a second.
    pub games_per_second: f64,
}

/// Runs `zertz explorer`.
pub fn run(args: ExplorerArgs) -> anyhow::Result<()> {
    let args = match args.what {
        ExplorerCommand::Import(args) => args,
        ExplorerCommand::Bench(args) => return bench(args),
    };
    let progress = std::io::stderr().is_terminal() && !args.json;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let summary = runtime.block_on(async {
        let store = zertz_server::store::open(&args.db).await?;
        import(store.as_ref(), &args.paths, args.batch.max(1), progress).await
    })?;
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print_summary(&summary);
    }
    Ok(())
}

/// Imports every record under `paths` into `store`, `batch` games per transaction.
pub async fn import(
    store: &dyn Store,
    paths: &[PathBuf],
    batch: usize,
    progress: bool,
) -> anyhow::Result<Summary> {
    let started = Instant::now();
    let mut summary = Summary::default();
    let (sources, unreadable) = collect_lenient(paths)?;
    for (path, reason) in unreadable {
        summary.broken.push(Broken {
            file: path.display().to_string(),
            reason,
        });
    }
    summary.records = sources.len();
    let mut known: HashSet<String> = store
        .explorer_game_ids("boardspace")
        .await?
        .into_iter()
        .collect();
    let bar = if progress {
        let bar = ProgressBar::new(sources.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} records  {per_sec}  {elapsed_precise}  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut loader = Loader { open: None };
    let mut aggregate = Aggregate::new("boardspace");
    let mut counting = 0.0;
    let mut since = Instant::now();
    for source in &sources {
        bar.inc(1);
        let text = match loader.load(source) {
            Ok(text) => text,
            Err(reason) => {
                summary.broken.push(Broken {
                    file: source.name(),
                    reason,
                });
                continue;
            }
        };
        let id = boardspace_id(&text);
        if known.contains(&id) || aggregate.contains(&id) {
            summary.already_stored += 1;
            continue;
        }
        let name = source.name();
        let file_name = name.rsplit(['/', '!']).next().unwrap_or(&name).to_string();
        match from_boardspace(&text, &file_name) {
            Ok(entry) => {
                aggregate.add(entry);
            }
            Err(reason) => summary.broken.push(Broken { file: name, reason }),
        }
        if aggregate.games() >= batch {
            counting += since.elapsed().as_secs_f64();
            flush(store, &mut aggregate, &mut known, &mut summary, &bar).await?;
            since = Instant::now();
        }
    }
    counting += since.elapsed().as_secs_f64();
    flush(store, &mut aggregate, &mut known, &mut summary, &bar).await?;
    bar.finish_and_clear();
    summary.seconds = started.elapsed().as_secs_f64();
    summary.counting_seconds = counting;
    summary.games_per_second = summary.added as f64 / summary.seconds.max(1e-9);
    Ok(summary)
}

/// Writes what `aggregate` holds as one transaction.
async fn flush(
    store: &dyn Store,
    aggregate: &mut Aggregate,
    known: &mut HashSet<String>,
    summary: &mut Summary,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    if aggregate.games() == 0 {
        return Ok(());
    }
    bar.set_message(format!("writing {} games", aggregate.games()));
    let batch = aggregate.take_batch();
    let (games, rows) = (batch.games.len(), batch.moves.len());
    let ids: Vec<String> = batch.games.iter().map(|g| g.id.clone()).collect();
    match store.add_explorer_batch(batch).await {
        Ok(()) => {}
        Err(StoreError::Taken(what)) => anyhow::bail!(
            "{what}: another import is writing to this database; run this one again when it \
             is done (the games stored so far are kept and will be skipped)"
        ),
        Err(e) => return Err(e.into()),
    }
    known.extend(ids);
    summary.added += games;
    summary.rows_written += rows;
    summary.batches += 1;
    bar.set_message(String::new());
    Ok(())
}

/// Runs `zertz explorer bench`.
fn bench(args: BenchArgs) -> anyhow::Result<()> {
    let (sources, _) = collect_lenient(&args.paths)?;
    let mut loader = Loader { open: None };
    let mut positions = Vec::new();
    for source in &sources {
        let Ok(text) = loader.load(source) else {
            continue;
        };
        if let Ok(r) = zertz::boardspace::import(&text) {
            let n = r.game.turns().len();
            positions.extend_from_slice(&r.game.positions()[..n]);
        }
    }
    anyhow::ensure!(
        !positions.is_empty(),
        "no position found in the records given"
    );
    // A fixed sequence (splitmix64), so that runs on two databases ask the same positions.
    let mut state = args.seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let asked: Vec<zertz::Position> = (0..args.queries)
        .map(|_| positions[(next() % positions.len() as u64) as usize])
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (mut times, moves, games) = runtime.block_on(async {
        let store = zertz_server::store::open(&args.db).await?;
        let mut times = Vec::with_capacity(asked.len());
        let (mut moves, mut games) = (0usize, 0i64);
        for p in &asked {
            let started = Instant::now();
            let answer = explore(store.as_ref(), p, Source::All, None).await?;
            times.push(started.elapsed().as_secs_f64() * 1e3);
            moves += answer.moves.len();
            games += answer.games;
        }
        anyhow::Ok((times, moves, games))
    })?;
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} positions drawn from {} ({} records): {:.1} moves and {:.1} games per answer",
        times.len(),
        positions.len(),
        sources.len(),
        moves as f64 / times.len() as f64,
        games as f64 / times.len() as f64
    );
    println!(
        "latency ms: p50 {:.3}  p90 {:.3}  p99 {:.3}  max {:.3}  mean {:.3}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        times.iter().sum::<f64>() / times.len() as f64
    );
    Ok(())
}

fn print_summary(s: &Summary) {
    println!("records found            {:>8}", s.records);
    println!("games added              {:>8}", s.added);
    println!("already stored (skipped) {:>8}", s.already_stored);
    println!("broken (not imported)    {:>8}", s.broken.len());
    println!(
        "rows written             {:>8}  in {} transaction(s)",
        s.rows_written, s.batches
    );
    println!(
        "time                     {:>8.2} s  ({:.2} s reading and counting, {:.2} s writing)",
        s.seconds,
        s.counting_seconds,
        s.seconds - s.counting_seconds
    );
    println!("games a second           {:>8.0}", s.games_per_second);
    for b in &s.broken {
        println!("  broken: {}: {}", b.file, b.reason);
    }
}
