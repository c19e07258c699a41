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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use zertz_server::app::store::Store;
use zertz_server::explorer::cache::AnswerCache;
use zertz_server::explorer::games::{boardspace_id, from_boardspace};
use zertz_server::explorer::import::{Aggregate, GameEntry};
use zertz_server::explorer::queries::{Source, explore};
use zertz_server::explorer::store::ExplorerBatch;
use zertz_server::store::StoreError;

use crate::commands::replay::{Loader, Source as RecordSource, collect_lenient};

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
    /// Ask the database every time, without the cache of busy positions the server keeps.
    #[arg(long)]
    no_cache: bool,
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
    /// Rows of figures written (one per position, source, rating band and move, per batch,
    /// for the positions more than one game of the batch reached).
    pub rows_written: usize,
    /// Leaves written: positions one game of a batch reached (stored as a row instead where
    /// the position already had a leaf).
    pub leaves_written: usize,
    /// Transactions.
    pub batches: usize,
    /// Seconds in all.
    pub seconds: f64,
    /// Seconds from the start until every record was read, replayed and counted (the writes
    /// run at the same time; the rest is the last batch's write).
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
        let store = zertz_server::app::store::open(&args.db).await?;
        import(store.as_ref(), &args.paths, args.batch.max(1), progress).await
    })?;
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        print_summary(&summary);
    }
    Ok(())
}

/// What a reading thread made of one record.
enum Read {
    /// A game to count.
    Game(Box<GameEntry>),
    /// Already in the database.
    Known,
    /// Not imported, and why.
    Broken(Broken),
}

/// Loose files handed to a reading thread at a time.
const FILES_PER_SHARE: usize = 16;

/// The records cut into shares for the reading threads: the entries of one archive together
/// (so that each archive is opened once, by one thread), loose files by
/// [`FILES_PER_SHARE`]. Each share is a range of `sources`.
fn shares(sources: &[RecordSource]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let joins = match (out.last(), i.checked_sub(1).map(|j| &sources[j])) {
            (Some(last), Some(RecordSource::ZipEntry(before, ..))) => {
                matches!(source, RecordSource::ZipEntry(zip, ..) if std::sync::Arc::ptr_eq(zip, before))
                    && last.end == i
            }
            (Some(last), Some(RecordSource::File(_))) => {
                matches!(source, RecordSource::File(_)) && last.len() < FILES_PER_SHARE
            }
            _ => false,
        };
        match out.last_mut() {
            Some(last) if joins => last.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// Reads, replays and keys the records of the shares handed out by `next`, on the calling
/// thread, sending what it made of each share to `out` at once (shares in no particular
/// order; one hand-over per share rather than per record keeps the threads from waking each
/// other tens of thousands of times).
fn read_records(
    sources: &[RecordSource],
    shares: &[std::ops::Range<usize>],
    next: &AtomicUsize,
    known: &HashSet<String>,
    out: &std::sync::mpsc::SyncSender<Vec<Read>>,
) {
    let mut loader = Loader::default();
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(share) = shares.get(i) else { return };
        let mut reads = Vec::with_capacity(share.len());
        for source in &sources[share.clone()] {
            let read = match loader.load(source) {
                Err(reason) => Read::Broken(Broken {
                    file: source.name(),
                    reason,
                }),
                Ok(text) if known.contains(&boardspace_id(&text)) => Read::Known,
                Ok(text) => {
                    let name = source.name();
                    let file_name = name.rsplit(['/', '!']).next().unwrap_or(&name).to_string();
                    match from_boardspace(&text, &file_name) {
                        Ok(entry) => Read::Game(Box::new(entry)),
                        Err(reason) => Read::Broken(Broken { file: name, reason }),
                    }
                }
            };
            reads.push(read);
        }
        if out.send(reads).is_err() {
            return;
        }
    }
}

/// Imports every record under `paths` into `store`, `batch` games per transaction.
///
/// Three stages run at once: reading threads (one per core; each record read, replayed and
/// keyed), one counting thread (the games summed into a batch), and this task, which writes
/// each batch while the next is being counted.
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
    let known: HashSet<String> = store
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
    // One batch waits while another is written: counting never runs far ahead of the store.
    let (batches, mut written) = tokio::sync::mpsc::channel::<(ExplorerBatch, f64)>(1);
    let counter_bar = bar.clone();
    let counting = tokio::task::spawn_blocking(move || {
        count_records(sources, known, batch, &counter_bar, &batches)
    });
    while let Some((next, counting_seconds)) = written.recv().await {
        summary.counting_seconds = counting_seconds;
        flush(store, next, &mut summary, &bar).await?;
    }
    let counted = counting
        .await
        .map_err(|e| anyhow::anyhow!("the counting thread stopped: {e}"))?;
    summary.already_stored += counted.already_stored;
    summary.broken.extend(counted.broken);
    bar.finish_and_clear();
    summary.seconds = started.elapsed().as_secs_f64();
    summary.counting_seconds = counted.seconds;
    summary.games_per_second = summary.added as f64 / summary.seconds.max(1e-9);
    Ok(summary)
}

/// What the counting thread saw besides the games.
#[derive(Default)]
struct Counted {
    already_stored: usize,
    broken: Vec<Broken>,
    /// From its start until its last batch was handed over.
    seconds: f64,
}

/// Reads `sources` on one thread per core and counts their games, handing a batch to
/// `batches` every `batch` games (and the rest at the end).
fn count_records(
    sources: Vec<RecordSource>,
    known: HashSet<String>,
    batch: usize,
    bar: &ProgressBar,
    batches: &tokio::sync::mpsc::Sender<(ExplorerBatch, f64)>,
) -> Counted {
    let started = Instant::now();
    let mut counted = Counted::default();
    let readers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = AtomicUsize::new(0);
    let shares = shares(&sources);
    // A few shares (archives) wait at most: the readers never run far ahead of counting.
    let (out, reads) = std::sync::mpsc::sync_channel::<Vec<Read>>(4);
    std::thread::scope(|scope| {
        for _ in 0..readers {
            let out = out.clone();
            let (sources, shares, next, known) = (&sources, &shares, &next, &known);
            scope.spawn(move || read_records(sources, shares, next, known, &out));
        }
        drop(out);
        // Sized for a batch, or for every record when they are fewer.
        let mut aggregate = Aggregate::with_capacity("boardspace", batch.min(sources.len()));
        let mut seen = HashSet::new();
        let hand_over = |aggregate: &mut Aggregate| {
            if aggregate.games() > 0 {
                bar.set_message(format!("writing {} games", aggregate.games()));
                let seconds = started.elapsed().as_secs_f64();
                // The writer gone (it failed): stop reading; its error is the answer.
                batches
                    .blocking_send((aggregate.take_batch(), seconds))
                    .is_ok()
            } else {
                true
            }
        };
        for read in reads.iter().flatten() {
            bar.inc(1);
            match read {
                Read::Known => counted.already_stored += 1,
                Read::Broken(b) => counted.broken.push(b),
                // The same record twice in this run (in this batch or an earlier one): counted
                // once.
                Read::Game(entry) if !seen.insert(entry.game.id.clone()) => {
                    counted.already_stored += 1;
                }
                Read::Game(entry) => {
                    aggregate.add(*entry);
                }
            }
            if aggregate.games() >= batch && !hand_over(&mut aggregate) {
                next.store(shares.len(), Ordering::Relaxed);
                break;
            }
        }
        hand_over(&mut aggregate);
        // Readers still running stop at their next record (or at once if they are waiting
        // to hand one over: the channel is closed).
        next.store(shares.len(), Ordering::Relaxed);
        drop(reads);
        counted.seconds = started.elapsed().as_secs_f64();
    });
    counted.broken.sort_by(|a, b| a.file.cmp(&b.file));
    counted
}

/// Writes one batch as one transaction.
async fn flush(
    store: &dyn Store,
    batch: ExplorerBatch,
    summary: &mut Summary,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    let (games, rows, leaves) = (batch.games.len(), batch.moves.len(), batch.leaves.len());
    match store.add_explorer_batch(batch).await {
        Ok(()) => {}
        Err(StoreError::Taken(what)) => anyhow::bail!(
            "{what}: another import is writing to this database; run this one again when it \
             is done (the games stored so far are kept and will be skipped)"
        ),
        Err(e) => return Err(e.into()),
    }
    summary.added += games;
    summary.rows_written += rows;
    summary.leaves_written += leaves;
    summary.batches += 1;
    bar.set_message(String::new());
    Ok(())
}

/// Runs `zertz explorer bench`.
fn bench(args: BenchArgs) -> anyhow::Result<()> {
    let (sources, _) = collect_lenient(&args.paths)?;
    let mut loader = Loader::default();
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
        .map(|_| positions[(next() % positions.len() as u64) as usize].clone())
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (mut times, moves, games) = runtime.block_on(async {
        let store = zertz_server::app::store::open(&args.db).await?;
        let cache = (!args.no_cache).then(AnswerCache::new);
        let mut times = Vec::with_capacity(asked.len());
        let (mut moves, mut games) = (0usize, 0i64);
        for p in &asked {
            let started = Instant::now();
            let answer = explore(store.as_ref(), cache.as_ref(), p, Source::All, None).await?;
            times.push(started.elapsed().as_secs_f64() * 1e3);
            moves += answer.moves.len();
            games += answer.games;
        }
        anyhow::Ok((times, moves, games))
    })?;
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} positions drawn from {} ({} records), {}: {:.1} moves and {:.1} games per answer",
        times.len(),
        positions.len(),
        sources.len(),
        if args.no_cache {
            "no cache"
        } else {
            "with the server's cache of busy positions"
        },
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
        "rows written             {:>8}  and {} leaves, in {} transaction(s)",
        s.rows_written, s.leaves_written, s.batches
    );
    println!(
        "time                     {:>8.2} s  (reading and counting done after {:.2} s; \
         each batch written while the next was counted)",
        s.seconds, s.counting_seconds,
    );
    println!("games a second           {:>8.0}", s.games_per_second);
    for b in &s.broken {
        println!("  broken: {}: {}", b.file, b.reason);
    }
}
