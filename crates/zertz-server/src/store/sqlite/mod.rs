//! The SQLite backend: one file, written in WAL mode.
//!
//! Every commit is in the write-ahead log before it returns (`synchronous=NORMAL` in WAL mode):
//! a committed transaction survives a killed or crashed process (the log is in the operating
//! system's hands); the log is flushed to the disk at each checkpoint, so a power cut can lose
//! the last commits before it. `synchronous=FULL` would flush every commit and survive a power
//! cut too, at the price of one disk flush per commit (see docs/server.md).
//!
//! **Group commit.** SQLite has a single writer, so every write goes to one writer thread that
//! owns one connection. It takes every write waiting in its queue (up to [`MAX_BATCH`]), runs
//! them in one transaction, each inside its own savepoint (a write that fails is rolled back
//! alone and gets its own error), commits once, and only then answers each caller. Under load
//! many moves of different games share one commit; alone, a write is committed at once. The
//! transaction starts with `BEGIN IMMEDIATE`, so two writers never both read the same last
//! version, even from two processes. Under load the writer paces its batches (see `store::pace`): it
//! begins one at most once every 3 ms, so that the writes arriving meanwhile share its
//! commit; a write that finds the writer idle is committed at once. A batch is first run without savepoints (nearly every
//! write succeeds, and a savepoint costs a copy of every page it touches); only when one of its
//! writes fails is the batch rolled back and run again with one savepoint per write.
//!
//! **Checkpoints.** A checkpointer thread copies the log into the database file in the
//! background (`PRAGMA wal_checkpoint(PASSIVE)` every second, in a few passes when the log is
//! long), so that the writer never waits for the bulk of a checkpoint's copying and disk
//! flushes. But SQLite starts the log
//! afresh (writing over it from its beginning) only when a write transaction begins with
//! every frame of the log copied, which never happens while the writer commits all the time:
//! the log would grow without end (about 45 MB a second at 2,500 moves a second), and every
//! frame written past its end costs the kernel fresh zeroed pages. So once the checkpointer has
//! copied most of a long log, the writer copies the few frames committed since, between two
//! batches (a short stop: a few hundred frames and two disk flushes), and its next commit
//! starts the log afresh: the log stays some tens of MB, written over in place.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use tokio::sync::oneshot;

use crate::store::StoreError;
use crate::store::game_end::RatingPolicy;
use crate::store::game_sql::GameWrite;

mod game_end;
pub(crate) mod games;
pub(crate) mod readers;
mod recent;
pub(crate) mod sql;

/// How long a statement waits for another connection's lock before it gives up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections in the read pool (readers run side by side in WAL mode).
const MAX_CONNECTIONS: u32 = 8;

/// Most writes committed in one transaction.
pub const MAX_BATCH: usize = 512;

/// How often the checkpointer copies the log into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Frames in the log (4 KB each) from which, after a checkpoint, the writer finishes it and so
/// restarts the log (below this the log is small enough to keep growing for a while).
const RESTART_FRAMES: i64 = 4096;

/// Passes of the checkpointer before it asks the writer to finish: each copies what was
/// committed during the one before, so that the writer, which stops committing while it
/// finishes, has little left to copy.
const PASSES: usize = 3;

/// The largest the log file is left at when it restarts (it is cut back to this if a long
/// reader let it grow larger).
const JOURNAL_SIZE_LIMIT: i64 = 128 << 20;

/// Games and matches in one SQLite file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    writer: Arc<Writer>,
    readers: Arc<readers::Readers>,
    /// The events the writer has not folded into `game_events` yet (see `recent`).
    recent: Arc<recent::Unfolded>,
}

/// The queue to the writer thread, the thread, and the switch of the checkpointer.
#[derive(Debug)]
struct Writer {
    queue: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    stop_checkpoints: Mutex<Option<mpsc::Sender<()>>>,
}

/// Set by the checkpointer when it has copied most of a long log: the writer then copies the
/// rest between two batches, so that its next commit restarts the log.
type FinishCheckpoint = Arc<AtomicBool>;

/// A write of a feature other than games: it runs on the writer's connection, in its batch's
/// transaction.
type RunWrite = dyn Fn(&rusqlite::Connection) -> Result<(), StoreError> + Send;

/// A write for the writer thread, owned (it crosses threads).
// The game writes are nearly every write (a move is one): boxing them would cost an
// allocation each; `Run` is the small one, and rare.
#[allow(clippy::large_enum_variant)]
enum Write {
    /// A write of games and matches.
    Game(GameWrite),
    /// Any other write, run inside the batch's transaction (perhaps twice: see
    /// `commit_batch`), as the features other than games make them.
    Run(Box<RunWrite>),
}

impl std::fmt::Debug for Write {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Write::Game(GameWrite::CreateGame(game, _)) => write!(f, "CreateGame({})", game.id),
            Write::Game(GameWrite::Append(game, events, _)) => {
                write!(f, "Append({game}, {} events)", events.len())
            }
            Write::Game(GameWrite::SaveMatch(m)) => write!(f, "SaveMatch({})", m.id),
            Write::Game(GameWrite::Step(step)) => write!(f, "Step({})", step.state.id),
            Write::Run(_) => write!(f, "Run"),
        }
    }
}

/// A write and where its outcome goes once committed (or not).
struct Job {
    write: Write,
    done: oneshot::Sender<Result<(), StoreError>>,
}

impl SqliteStore {
    /// Opens (creating it if missing) the database file at `path` and brings its schema up to
    /// date. WAL journal, `synchronous=NORMAL`, foreign keys on, a 10 s busy timeout; starts
    /// the writer and checkpointer threads.
    pub async fn open(path: &str, rating: RatingPolicy) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .connect_with(options)
            .await?;
        super::migrations::sqlite(None).await?.run(&pool).await?;
        let path = path.to_string();
        let opened = path.clone();
        let (writer, checkpointer, recent) = tokio::task::spawn_blocking(move || {
            let writer = connect(&opened, false).map_err(write_error)?;
            let checkpointer = connect(&opened, true).map_err(write_error)?;
            let recent = recent::Recent::open(&writer)?;
            Ok::<_, StoreError>((writer, checkpointer, recent))
        })
        .await
        .map_err(|e| StoreError::Write(format!("opening the writer: {e}")))??;
        let unfolded = Arc::clone(recent.shared());
        let (queue, jobs) = mpsc::channel();
        let finish = FinishCheckpoint::default();
        let finish2 = finish.clone();
        let thread = std::thread::Builder::new()
            .name("zertz-sqlite-writer".into())
            .spawn(move || write_loop(writer, jobs, finish2, recent, rating))
            .map_err(|e| StoreError::Write(format!("starting the writer: {e}")))?;
        let (stop, stopped) = mpsc::channel();
        std::thread::Builder::new()
            .name("zertz-sqlite-checkpoint".into())
            .spawn(move || checkpoint_loop(checkpointer, stopped, finish))
            .map_err(|e| StoreError::Write(format!("starting the checkpointer: {e}")))?;
        Ok(SqliteStore {
            pool,
            readers: Arc::new(readers::Readers::new(&path)),
            recent: unfolded,
            writer: Arc::new(Writer {
                queue: Mutex::new(Some(queue)),
                thread: Mutex::new(Some(thread)),
                stop_checkpoints: Mutex::new(Some(stop)),
            }),
        })
    }

    /// Closes every connection, waiting for those in use to come back; the writer finishes
    /// the writes it was given first. Writes after this fail.
    pub async fn close(&self) {
        // The writer ends once its queue is closed and empty.
        drop(
            self.writer
                .queue
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        let thread = self
            .writer
            .thread
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        drop(
            self.writer
                .stop_checkpoints
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        self.pool.close().await;
    }

    /// Hands `write` to the writer thread and waits until it is committed (or refused).
    async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (done, outcome) = oneshot::channel();
        {
            let queue = self.writer.queue.lock().unwrap_or_else(|e| e.into_inner());
            let Some(queue) = queue.as_ref() else {
                return Err(StoreError::Write("the store is closed".into()));
            };
            queue
                .send(Job { write, done })
                .map_err(|_| StoreError::Write("the writer thread stopped".into()))?;
        }
        outcome
            .await
            .map_err(|_| StoreError::Write("the writer thread stopped".into()))?
    }

    /// Runs `f` on the writer's connection inside a batch's transaction and returns what it
    /// returned once that transaction is committed. `f` may run twice (a batch in which
    /// another write failed is run again, see `commit_batch`): only the last run's result
    /// counts, and it must do the same both times.
    pub(crate) async fn write_with<T: Send + 'static>(
        &self,
        f: impl Fn(&rusqlite::Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let slot = Arc::new(Mutex::new(None));
        let out = slot.clone();
        self.write(Write::Run(Box::new(move |conn| {
            let value = f(conn)?;
            *out.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
            Ok(())
        })))
        .await?;
        let value = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        value.ok_or_else(|| StoreError::Write("a committed write left no result".into()))
    }

    /// The pool of read connections.
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// The rusqlite readers, for reads of many rows (see `readers`).
    pub(crate) fn readers(&self) -> &Arc<readers::Readers> {
        &self.readers
    }
}

/// A connection of the writer (or the checkpointer) thread.
fn connect(path: &str, checkpointer: bool) -> Result<rusqlite::Connection, rusqlite::Error> {
    let conn = rusqlite::Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    if !checkpointer {
        // Checkpoints are the checkpointer's business; the writer only finishes them (see
        // the module's documentation).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", JOURNAL_SIZE_LIMIT)?;
        // The pages a write touches (index and event pages of thousands of live games) stay
        // in memory: 64 MB instead of the default 2 MB.
        conn.pragma_update(None, "cache_size", -65536)?;
    }
    Ok(conn)
}

/// A rusqlite error as a store error.
pub(crate) fn write_error(e: rusqlite::Error) -> StoreError {
    StoreError::Write(e.to_string())
}

/// True when `e` is a taken primary key or unique value.
pub(crate) fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
}

/// The writer thread: batches of waiting writes, one transaction each; between two batches,
/// the end of a checkpoint when the checkpointer asks for it.
fn write_loop(
    conn: rusqlite::Connection,
    jobs: mpsc::Receiver<Job>,
    finish: FinishCheckpoint,
    mut recent: recent::Recent,
    rating: RatingPolicy,
) {
    let slow = crate::util::slow_ms();
    let mut batch = Vec::with_capacity(MAX_BATCH);
    let mut pace = crate::store::pace::Pace::default();
    while let Ok(first) = jobs.recv() {
        let waited = pace.wait();
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let started = Instant::now();
        let n = batch.len();
        pace.began(started, waited, n);
        commit_batch(&conn, &mut batch, &mut recent, rating);
        if let Some(slow) = slow
            && started.elapsed() >= slow
        {
            tracing::warn!(
                "SQLite writer: a batch of {n} writes took {:.1} ms",
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        if finish.swap(false, Ordering::AcqRel) {
            // The checkpointer has just copied most of the log: copy what was committed
            // since (a few hundred frames at most), so that the next commit restarts it.
            let started = Instant::now();
            let result = checkpoint(&conn);
            if let Err(e) = &result {
                tracing::warn!("SQLite checkpoint (writer): {e}");
            }
            if let Some(slow) = slow
                && started.elapsed() >= slow
            {
                tracing::warn!(
                    "SQLite writer: finishing a checkpoint took {:.1} ms ({result:?})",
                    started.elapsed().as_secs_f64() * 1e3
                );
            }
        }
    }
    // Closing: every event goes to `game_events` (a store opened later would fold them too).
    if let Err(e) = recent.fold_everything(&conn) {
        tracing::warn!("SQLite writer: folding the recent events on close: {e}");
    }
}

/// A passive checkpoint: `(frames in the log, frames copied into the database)`.
fn checkpoint(conn: &rusqlite::Connection) -> Result<(i64, i64), rusqlite::Error> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
        Ok((row.get(1)?, row.get(2)?))
    })
}

/// Runs one statement without parameters, prepared once per connection.
fn exec(conn: &rusqlite::Connection, sql: &str) -> Result<(), rusqlite::Error> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// Answers every job of `batch` with the same error.
fn fail_all(batch: &mut Vec<Job>, message: String) {
    for job in batch.drain(..) {
        let _ = job.done.send(Err(StoreError::Write(message.clone())));
    }
}

/// Begins a batch's transaction, and the recent events' part of it (see `recent`).
fn begin(conn: &rusqlite::Connection, recent: &mut recent::Recent) -> Result<(), String> {
    exec(conn, "BEGIN IMMEDIATE").map_err(|e| e.to_string())?;
    recent.begin(conn).map_err(|e| {
        let _ = conn.execute_batch("ROLLBACK");
        recent.rolled_back();
        e.to_string()
    })
}

/// Runs `batch` in one transaction and answers each job once it is committed. First without
/// savepoints, folding the recent events that are due (see `recent`); if a write fails, the
/// whole transaction is rolled back and the batch is run again with a savepoint per write, so
/// that only the failed write is refused.
fn commit_batch(
    conn: &rusqlite::Connection,
    batch: &mut Vec<Job>,
    recent: &mut recent::Recent,
    rating: RatingPolicy,
) {
    if let Err(e) = begin(conn, recent) {
        return fail_all(batch, e);
    }
    let written = batch
        .iter()
        .all(|job| run(conn, &job.write, recent, rating).is_ok());
    let folded = written
        && recent
            .fold_due(conn)
            .inspect_err(|e| tracing::warn!("SQLite writer: folding recent events: {e}"))
            .is_ok();
    if folded {
        match exec(conn, "COMMIT") {
            Ok(()) => {
                recent.committed();
                for job in batch.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                recent.rolled_back();
                fail_all(batch, format!("commit failed, nothing was written: {e}"));
            }
        }
        return;
    }
    recent.rolled_back();
    if let Err(e) = conn.execute_batch("ROLLBACK") {
        return fail_all(batch, format!("rollback failed, nothing was written: {e}"));
    }
    commit_batch_savepoints(conn, batch, recent, rating);
}

/// Runs `batch` in one transaction, each write in its own savepoint (a write that fails is
/// rolled back alone and gets its error), and answers each job once it is committed.
fn commit_batch_savepoints(
    conn: &rusqlite::Connection,
    batch: &mut Vec<Job>,
    recent: &mut recent::Recent,
    rating: RatingPolicy,
) {
    if let Err(e) = begin(conn, recent) {
        return fail_all(batch, e);
    }
    let mut outcomes = Vec::with_capacity(batch.len());
    for job in batch.iter() {
        let mark = recent.mark();
        let outcome = exec(conn, "SAVEPOINT job")
            .map_err(write_error)
            .and_then(|()| run(conn, &job.write, recent, rating));
        let closed = match &outcome {
            Ok(()) => exec(conn, "RELEASE job"),
            Err(_) => {
                recent.undo_to(mark);
                exec(conn, "ROLLBACK TO job").and_then(|()| exec(conn, "RELEASE job"))
            }
        };
        outcomes.push(closed.map_err(write_error).and(outcome));
    }
    match exec(conn, "COMMIT") {
        Ok(()) => {
            recent.committed();
            for (job, outcome) in batch.drain(..).zip(outcomes) {
                let _ = job.done.send(outcome);
            }
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            recent.rolled_back();
            fail_all(batch, format!("commit failed, nothing was written: {e}"));
        }
    }
}

/// One write, inside the batch's transaction.
fn run(
    conn: &rusqlite::Connection,
    write: &Write,
    recent: &mut recent::Recent,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    match write {
        Write::Game(GameWrite::CreateGame(game, events)) => games::create_game(conn, game, events),
        Write::Game(GameWrite::Append(game, events, update)) => {
            games::append(conn, recent, game, events, update, rating)
        }
        Write::Game(GameWrite::SaveMatch(m)) => games::save_match(conn, m),
        Write::Game(GameWrite::Step(step)) => games::step(conn, recent, step, rating),
        Write::Run(f) => f(conn),
    }
}

/// The checkpointer thread: a passive checkpoint every [`CHECKPOINT_EVERY`] until the store
/// closes; after one that copied a long log, it asks the writer to finish it.
fn checkpoint_loop(conn: rusqlite::Connection, stop: mpsc::Receiver<()>, finish: FinishCheckpoint) {
    let slow = crate::util::slow_ms();
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
        for pass in 1..=PASSES {
            let started = Instant::now();
            match checkpoint(&conn) {
                Ok((log, copied)) => {
                    if let Some(slow) = slow
                        && started.elapsed() >= slow
                    {
                        tracing::warn!(
                            "SQLite checkpointer: pass {pass}, {:.1} ms, {copied} of {log} \
                             frames copied",
                            started.elapsed().as_secs_f64() * 1e3
                        );
                    }
                    if log < RESTART_FRAMES || copied == 0 {
                        break;
                    }
                    if pass == PASSES {
                        finish.store(true, Ordering::Release);
                    }
                }
                Err(e) => {
                    tracing::warn!("SQLite checkpoint: {e}");
                    break;
                }
            }
        }
    }
}
