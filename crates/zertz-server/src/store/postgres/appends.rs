//! Moves on PostgreSQL, many games in one round trip (issue 41): the appends that change only
//! a game's turns (a move, a clock event, an offer: `common::changes_turns_only`) go to a queue,
//! and a writer takes every append waiting in it (up to [`MAX_BATCH`]) and stores them with
//! **one statement**, paced as the SQLite writer is (`store::pace`: under load a batch begins
//! at most every [`PACE`], 10 ms, so that the moves arriving meanwhile share it; a move that
//! finds the writers idle goes at once), which is its own transaction: no `BEGIN`, no
//! `COMMIT`, one round trip for the whole batch, however many games are in it. Before, each move was a transaction of its
//! own of five statements (`BEGIN`, the game's row locked, the lease checked, the last version
//! read, the event inserted, the turns updated, `COMMIT`: seven round trips).
//!
//! The statement keeps every guarantee of the transaction it replaces, per game:
//!
//! - the game's lease row is locked `FOR SHARE` and required to be this node's and held, until
//!   the statement commits: a node taking the game over waits for it and reads the log after
//!   it; a lease taken first is seen (a row locked after a change is read as it is after the
//!   change), and the game refused. The game's own row is not locked (it was, `FOR UPDATE`,
//!   until 1 December 2026): a node's appends to one game come one after another, a node's
//!   lease keeps the other nodes out, and the key below refuses whatever races through;
//! - the last version is read, and the events are inserted only when theirs follow it; the
//!   primary key (game, version) stays the last word: two writers of one version never both
//!   insert (the second fails on the key);
//! - a game refused (not found, its lease not held, its version taken) writes nothing, and the
//!   other games of the batch are stored; each caller gets its own answer, as from its own
//!   transaction;
//! - the turns go on the events written (their `turns` column), not on the game's row, so a
//!   move changes no row of `games` (the listings read a game's turns from its last event that
//!   has them: `store::game_sql`, docs/server.md "The turns on the events").
//!
//! The one difference: the statement reads the last version as of its start, not after a wait
//! for the game's row. Only an append racing another of the same game can tell (a caller
//! whose previous append was acknowledged sees it), and then the key refuses it. A batch that
//! fails as a whole (that key, a deadlock, a lost connection) is run again one append at a time,
//! each in a transaction of its own as before, so each caller gets the exact answer.
//!
//! An append is acknowledged only once the statement has committed: durable as before.
//!
//! The writers have connections of their own ([`WRITERS`], so moves never queue behind other
//! work for the shared pool), on which PostgreSQL keeps **one generic plan** of the statement
//! (`plan_cache_mode = force_generic_plan`, and index scans by key only: [`WRITERS_SETTINGS`]).
//! Left to choose, it planned the statement afresh at every batch (a plan for the values at
//! hand looks cheaper than one for any values), and the planning of its dozen parts cost more
//! than the old transaction: about 0.6 ms a batch against 0.05 ms for the generic plan
//! (`EXPLAIN ANALYZE` of a batch of one, 30 November 2026).

use std::sync::Arc;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::store::common::{check_versions, game_not_found};
use crate::store::game_end::RatingPolicy;
use crate::store::pace::Pace;
use crate::store::postgres::LeaseHolder;
use crate::store::postgres::leases::NOW_MS;
use crate::store::{EventRow, RowUpdate, StoreError};

/// Most appends stored by one statement.
pub const MAX_BATCH: usize = 256;

/// Writers, each with a batch in flight at most and a connection of its own: while one waits
/// for PostgreSQL, the other gathers the next batch.
pub const WRITERS: u32 = 2;

/// The least time between the starts of two batches while the writers are paced: longer than
/// the SQLite writer's 3 ms, since a statement costs PostgreSQL far more for itself (its round
/// trip, its start and its commit, about 0.25 ms) than for each move in it (about 0.07 ms).
/// Against 3 ms, PostgreSQL's CPU per move was 30-45% lower and the node's 20-25% (one node at
/// 500 and 1,500 moves a second, three nodes at 500), for 4-5 ms more at the median of the
/// answers; 20 ms gained nothing more at 1,500 moves a second (docs/server.md, "A move costs
/// PostgreSQL little").
pub const PACE: Duration = Duration::from_millis(10);

/// The settings of the writers' connections, which run the batch's statement and nothing else:
/// one generic plan, kept for the connection's life (see the module's comment), and in it no
/// scan of a whole table and no bitmap. The plan is made from the statistics of the moment,
/// at first a new database's nearly empty tables, for which PostgreSQL chose a sequential scan
/// of `games` and a bitmap of every lease the node holds in the statement before this one
/// (`EXPLAIN`, 1 December 2026): the whole of both read at every batch as they grow, until an
/// `ANALYZE` happens to replan. The statement now looks each append's rows up by key, which
/// its plan does with or without these settings (the test of the plan checks both); they stay
/// so that a later change of the statement cannot bring a whole table back unnoticed.
const WRITERS_SETTINGS: [(&str, &str); 3] = [
    ("plan_cache_mode", "force_generic_plan"),
    ("enable_seqscan", "off"),
    ("enable_bitmapscan", "off"),
];

/// How a writer connects: to the database `options` name, with [`WRITERS_SETTINGS`].
fn writers_options(options: &PgConnectOptions) -> PgConnectOptions {
    options
        .clone()
        .options(WRITERS_SETTINGS)
        .application_name("zertz moves")
}

/// One append waiting to be stored, with whom to answer.
struct Job {
    game: String,
    events: Vec<EventRow>,
    turns: Option<i64>,
    /// The node whose lease the append must hold (none: a store used alone).
    lease: Option<LeaseHolder>,
    answer: oneshot::Sender<Result<(), StoreError>>,
}

/// The queue of appends and its writers.
#[derive(Debug)]
pub(crate) struct Appender {
    queue: mpsc::UnboundedSender<Job>,
    /// Appends given and not yet answered.
    pending: Arc<AtomicUsize>,
    /// The writers' connections.
    own: PgPool,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("game", &self.game).finish()
    }
}

/// Whether an append goes through the batches: one that changes the turns alone (or nothing),
/// with events whose versions follow each other. The rest (seats, status, results, ratings)
/// keeps its transaction of several statements.
pub(crate) fn batched(events: &[EventRow], update: &RowUpdate) -> bool {
    crate::store::common::changes_turns_only(update)
        && !events.is_empty()
        && events.windows(2).all(|w| w[1].version == w[0].version + 1)
}

impl Appender {
    /// Starts the writers (on the current runtime), with connections of their own to the
    /// database `options` name (made when first used); a batch that fails is stored one append
    /// at a time on `shared`, the store's pool.
    pub(crate) fn start(
        options: &PgConnectOptions,
        shared: PgPool,
        rating: RatingPolicy,
    ) -> Appender {
        let own = PgPoolOptions::new()
            .max_connections(WRITERS)
            .acquire_timeout(Duration::from_secs(30))
            .connect_lazy_with(writers_options(options));
        let (queue, jobs) = mpsc::unbounded_channel();
        let jobs = Arc::new(Mutex::new(Queue {
            jobs,
            pace: Pace::every(PACE),
        }));
        let pending = Arc::new(AtomicUsize::new(0));
        for _ in 0..WRITERS {
            let pools = Pools {
                own: own.clone(),
                shared: shared.clone(),
            };
            tokio::spawn(writer(pools, rating, Arc::clone(&jobs)));
        }
        Appender {
            queue,
            pending,
            own,
        }
    }

    /// Stores `events` of `game` with its new `turns` (see [`batched`]) and answers once they
    /// are committed. `None` when the writers are gone (their runtime ended): the caller then
    /// stores them itself.
    pub(crate) async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
        lease: Option<&LeaseHolder>,
    ) -> Option<Result<(), StoreError>> {
        let (answer, answered) = oneshot::channel();
        let job = Job {
            game: game.to_string(),
            events: events.to_vec(),
            turns: update.turns,
            lease: lease.cloned(),
            answer,
        };
        self.pending.fetch_add(1, Ordering::Relaxed);
        let _answered = Pending(&self.pending);
        if self.queue.send(job).is_err() {
            return None;
        }
        Some(answered.await.unwrap_or_else(|_| {
            Err(StoreError::Write(format!(
                "the writer of moves stopped before it answered for game {game}: \
                 the move may or may not be stored"
            )))
        }))
    }

    /// Waits (up to `limit`) until every append given has been answered, then closes the
    /// writers' connections.
    pub(crate) async fn close(&self, limit: Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        while self.pending.load(Ordering::Relaxed) > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.own.close().await;
    }
}

/// The appends waiting, and the pace of the batches that take them (shared by the writers:
/// one gathers a batch at a time).
struct Queue {
    jobs: mpsc::UnboundedReceiver<Job>,
    pace: Pace,
}

/// A writer's connections: its own (for the batches) and the store's (for an append alone).
struct Pools {
    own: PgPool,
    shared: PgPool,
}

/// An append counted until answered.
struct Pending<'a>(&'a AtomicUsize);

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One writer: gathers a batch (one writer at a time), then stores it.
async fn writer(pools: Pools, rating: RatingPolicy, queue: Arc<Mutex<Queue>>) {
    loop {
        let batch = {
            let mut queue = queue.lock().await;
            let Some(first) = queue.jobs.recv().await else {
                return;
            };
            let waited = match queue.pace.due() {
                Some(rest) => {
                    tokio::time::sleep(rest).await;
                    true
                }
                None => false,
            };
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match queue.jobs.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            queue.pace.began(Instant::now(), waited, batch.len());
            batch
        };
        // Appends for another node's lease (never in a server: one node per store) are
        // stored in batches of their own.
        let mut rest = batch;
        while !rest.is_empty() {
            let node = rest[0].lease.as_ref().map(|l| Arc::clone(&l.node));
            let (same, other): (Vec<Job>, Vec<Job>) = rest
                .into_iter()
                .partition(|j| j.lease.as_ref().map(|l| &l.node) == node.as_ref());
            store_batch(&pools, rating, same).await;
            rest = other;
        }
    }
}

/// Whether an append of the batch may be written (in the statement, of a row of `a`): its game
/// found, its lease held, and its first version the one after the game's last.
const WRITABLE: &str = "a.found AND a.leased AND a.last = a.first - 1";

/// The statement that stores a batch. Its values: `$1` the games, `$2` the first version of each
/// append, `$3` its turns (null: unchanged), then the events flattened: `$4` which append
/// (1-based), `$5` version, `$6` time, `$7` payload; with leases, `$8` the node.
///
/// One pass over the appends (`a`) looks up, for each, its game, its lease and its last version
/// by key, and the events of those that may be written are inserted: a dozen nodes in the plan,
/// each append read once. It was a chain of six CTEs (the games, the leases and the versions
/// each read apart and joined again), twice the nodes for PostgreSQL to build at every batch
/// and 0.046 ms a move against 0.024 (`deploy/pgbench`, batches of eight: 0.61-0.65 ms a batch
/// against 0.46-0.53).
fn statement(leases: bool) -> String {
    // With leases, the lease row is found by its key alone and locked `FOR SHARE` (its node
    // read in the same row, as the single append's check does: with `node = $8` in the
    // condition, PostgreSQL could also read the node's index, every lease the node holds). A
    // lease row exists only for a game that does (its key refers to `games`, and a game
    // deleted by hand deletes it, waiting for this lock): the lock also orders the append
    // before such a deletion. A store used alone has no lease: the game's row is locked
    // `FOR KEY SHARE` instead, for the same order. Each is a subquery of one value, not an
    // `EXISTS`: PostgreSQL may run an `EXISTS` by hashing the whole table (it did, reading an
    // index of every game at each batch, in the plan made on new tables).
    //
    // A lease holds while its own expiry or its node's is ahead (`leases::held`); the node is
    // this one for every append, so its expiry is read once for the batch (a subquery that
    // refers to no append), not once for each append.
    let node_alive = format!("(SELECT n.expires_ms > {NOW_MS} FROM nodes n WHERE n.id = $8)");
    let (found, leased) = if leases {
        (
            "COALESCE((SELECT TRUE FROM games g WHERE g.id = a.game_id), FALSE)".to_string(),
            format!(
                "COALESCE((SELECT l.node = $8 AND (l.expires_ms > {NOW_MS} OR {node_alive}) \
                 FROM game_leases l WHERE l.game_id = a.game_id FOR SHARE OF l), FALSE)"
            ),
        )
    } else {
        (
            "COALESCE((SELECT TRUE FROM games g WHERE g.id = a.game_id FOR KEY SHARE OF g), FALSE)"
                .to_string(),
            "TRUE".to_string(),
        )
    };
    format!(
        "WITH a AS MATERIALIZED (\
           SELECT a.i, a.game_id, a.first, a.turns, {found} AS found, {leased} AS leased, \
             (SELECT COALESCE(MAX(x.version), 0) FROM game_events x \
              WHERE x.game_id = a.game_id) AS last \
           FROM unnest($1::text[], $2::bigint[], $3::bigint[]) \
           WITH ORDINALITY AS a(game_id, first, turns, i)), \
         ins AS (INSERT INTO game_events (game_id, version, at_ms, payload, turns) \
           SELECT a.game_id, e.version, e.at_ms, e.payload, a.turns \
           FROM unnest($4::bigint[], $5::bigint[], $6::bigint[], $7::text[]) \
             AS e(i, version, at_ms, payload) \
           JOIN a ON a.i = e.i AND {WRITABLE}) \
         SELECT a.i, a.found, a.leased, a.last, {WRITABLE} AS written FROM a ORDER BY a.i"
    )
}

/// The statement for a node among several (the lease checked).
static WITH_LEASES: LazyLock<String> = LazyLock::new(|| statement(true));

/// The statement for a store used alone.
static ALONE: LazyLock<String> = LazyLock::new(|| statement(false));

/// What the statement says of one append.
struct Outcome {
    found: bool,
    leased: bool,
    last: i64,
    written: bool,
}

/// Stores `batch` (every job for one node) and answers each job.
async fn store_batch(pools: &Pools, rating: RatingPolicy, batch: Vec<Job>) {
    if batch.is_empty() {
        return;
    }
    match run_batch(&pools.own, &batch).await {
        Ok(outcomes) if outcomes.len() == batch.len() => {
            for (job, outcome) in batch.into_iter().zip(outcomes) {
                let answer = answer(&job, &outcome);
                let _ = job.answer.send(answer);
            }
        }
        failed => {
            // Nothing of the batch was written: each append alone, for its own answer.
            tracing::debug!(
                appends = batch.len(),
                "a batch of moves failed as a whole, stored one at a time: {:?}",
                failed.map(|o| o.len())
            );
            for job in batch {
                let answer = alone(&pools.shared, rating, &job).await;
                let _ = job.answer.send(answer);
            }
        }
    }
}

/// Runs the batch's statement: one outcome per job, in order.
async fn run_batch(pool: &PgPool, batch: &[Job]) -> Result<Vec<Outcome>, sqlx::Error> {
    let mut games = Vec::with_capacity(batch.len());
    let mut firsts = Vec::with_capacity(batch.len());
    let mut turns = Vec::with_capacity(batch.len());
    let (mut which, mut versions, mut times, mut payloads) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, job) in batch.iter().enumerate() {
        games.push(job.game.as_str());
        firsts.push(job.events.first().map_or(0, |e| e.version));
        turns.push(job.turns);
        for e in &job.events {
            which.push(i as i64 + 1);
            versions.push(e.version);
            times.push(e.at_ms);
            payloads.push(e.payload.as_str());
        }
    }
    let node = batch[0].lease.as_ref().map(|l| l.node.as_ref());
    let sql: &str = if node.is_some() { &WITH_LEASES } else { &ALONE };
    let query = sqlx::query_as::<_, (i64, bool, bool, i64, bool)>(sql)
        .bind(games)
        .bind(firsts)
        .bind(turns)
        .bind(which)
        .bind(versions)
        .bind(times)
        .bind(payloads);
    let query = match node {
        Some(node) => query.bind(node),
        None => query,
    };
    let rows = query.fetch_all(pool).await?;
    Ok(rows
        .into_iter()
        .map(|(_, found, leased, last, written)| Outcome {
            found,
            leased,
            last,
            written,
        })
        .collect())
}

/// The answer to `job` from what the statement says of it.
fn answer(job: &Job, outcome: &Outcome) -> Result<(), StoreError> {
    if outcome.written {
        return Ok(());
    }
    if !outcome.found {
        return Err(game_not_found(&job.game));
    }
    if !outcome.leased {
        return Err(StoreError::NotOwner(job.game.clone()));
    }
    check_versions(&job.game, outcome.last, &job.events)?;
    Err(StoreError::Write(format!(
        "the append to game {} was not stored, for no reason the database gave",
        job.game
    )))
}

/// Stores `job` alone, in a transaction of its own (as every append was before the batches).
async fn alone(pool: &PgPool, rating: RatingPolicy, job: &Job) -> Result<(), StoreError> {
    let update = RowUpdate {
        turns: job.turns,
        ..RowUpdate::default()
    };
    let mut tx = pool.begin().await?;
    super::games::append_in(
        &mut tx,
        &job.game,
        &job.events,
        &update,
        job.lease.as_ref(),
        rating,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The batch's statement on PostgreSQL (`ZERTZ_TEST_POSTGRES`; NOT RUN without it): each game
/// of one batch gets its own answer, and only the games that may be written are.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::postgres::PostgresStore;
    use crate::store::postgres::fixtures::{self, event};
    use crate::store::{GameRow, GameStore, scratch};

    fn game(id: &str) -> GameRow {
        fixtures::game(id, "live")
    }

    /// A job appending `versions` to `game` for node `node`, and where its answer arrives.
    fn job(
        game: &str,
        versions: std::ops::RangeInclusive<i64>,
        node: Option<&str>,
    ) -> (Job, oneshot::Receiver<Result<(), StoreError>>) {
        let (answer, answered) = oneshot::channel();
        let job = Job {
            game: game.into(),
            events: versions.map(event).collect(),
            turns: Some(7),
            lease: node.map(|n| LeaseHolder {
                node: n.into(),
                ttl_ms: 60_000,
            }),
            answer,
        };
        (job, answered)
    }

    async fn batch_answers_each_game(url: String) {
        let store = PostgresStore::open(&url, |_, _| Default::default())
            .await
            .unwrap();
        for id in ["mine", "taken", "theirs", "lapsed", "unleased"] {
            store.create_game(&game(id), &[event(1)]).await.unwrap();
        }
        let pool = store.pool();
        for sql in [
            format!(
                "INSERT INTO nodes (id, addr, seen_ms, expires_ms) VALUES \
                 ('n', 'n:1', 0, 0), ('m', 'm:1', 0, {NOW_MS} + 60000)"
            ),
            format!(
                "INSERT INTO game_leases (game_id, node, expires_ms) VALUES \
                 ('mine', 'n', {NOW_MS} + 60000), ('taken', 'n', {NOW_MS} + 60000), \
                 ('theirs', 'm', 0), ('lapsed', 'n', 0)"
            ),
        ] {
            sqlx::query(&sql).execute(pool).await.unwrap();
        }
        let jobs = [
            job("mine", 2..=3, Some("n")),
            job("taken", 1..=1, Some("n")),
            job("theirs", 2..=2, Some("n")),
            job("lapsed", 2..=2, Some("n")),
            job("unleased", 2..=2, Some("n")),
            job("missing", 2..=2, Some("n")),
        ];
        let (batch, _receivers): (Vec<Job>, Vec<_>) = jobs.into_iter().unzip();
        let outcomes = run_batch(pool, &batch).await.expect("the statement runs");
        let answers: Vec<String> = batch
            .iter()
            .zip(&outcomes)
            .map(|(job, outcome)| format!("{:?}", answer(job, outcome)))
            .collect();
        assert_eq!(
            answers,
            [
                "Ok(())",
                "Err(Conflict { game: \"taken\", version: 1 })",
                "Err(NotOwner(\"theirs\"))",
                "Err(NotOwner(\"lapsed\"))",
                "Err(NotOwner(\"unleased\"))",
                "Err(NotFound(\"game missing\"))",
            ]
        );
        let (_, events) = store.load_game("mine").await.unwrap();
        assert_eq!(events, [event(1), event(2), event(3)]);
        for id in ["taken", "theirs", "lapsed", "unleased"] {
            let (_, events) = store.load_game(id).await.unwrap();
            assert_eq!(events, [event(1)], "{id}: nothing written");
        }
        // The turns go on the events written, and no game's row changes.
        let turns: Vec<(String, i64, Option<i64>)> =
            sqlx::query_as("SELECT game_id, version, turns FROM game_events ORDER BY 1, 2")
                .fetch_all(pool)
                .await
                .unwrap();
        let seven: Vec<(&str, i64)> = turns
            .iter()
            .filter(|(_, _, t)| *t == Some(7))
            .map(|(id, version, _)| (id.as_str(), *version))
            .collect();
        assert_eq!(seven, [("mine", 2), ("mine", 3)], "only the events written");
        let rows: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT turns FROM games")
            .fetch_all(pool)
            .await
            .unwrap();
        assert_eq!(rows, [0], "no game's row written");
        let listed = store.list_games(None, None, 10).await.unwrap();
        let listed: Vec<(&str, i64)> = listed.iter().map(|g| (g.id.as_str(), g.turns)).collect();
        assert!(listed.contains(&("mine", 7)), "{listed:?}");
        assert!(listed.contains(&("taken", 0)), "{listed:?}");

        // A lease whose own expiry has passed holds while its node beats: "theirs" is node
        // m's, whose row is ahead.
        let (their_job, _answer) = job("theirs", 2..=2, Some("m"));
        let outcomes = run_batch(pool, std::slice::from_ref(&their_job))
            .await
            .unwrap();
        assert!(answer(&their_job, &outcomes[0]).is_ok());

        // A store used alone checks no lease.
        let (alone_job, _answer) = job("unleased", 2..=2, None);
        let outcomes = run_batch(pool, std::slice::from_ref(&alone_job))
            .await
            .unwrap();
        assert!(answer(&alone_job, &outcomes[0]).is_ok());

        // Two appends of one version of one game in one batch: the key refuses the statement,
        // the batch is run again one append at a time, and exactly one gets in.
        let (first, first_answer) = job("mine", 4..=4, Some("n"));
        let (second, second_answer) = job("mine", 4..=4, Some("n"));
        let pools = Pools {
            own: pool.clone(),
            shared: pool.clone(),
        };
        store_batch(&pools, |_, _| Default::default(), vec![first, second]).await;
        let answers = [first_answer.await.unwrap(), second_answer.await.unwrap()];
        assert!(answers[0].is_ok(), "{answers:?}");
        assert!(
            matches!(&answers[1], Err(StoreError::Conflict { version: 4, .. })),
            "{answers:?}"
        );
        let (_, events) = store.load_game("mine").await.unwrap();
        assert_eq!(events.len(), 4);

        // Through the store: a move is answered once committed.
        let moved = store
            .append("mine", &[event(5)], &RowUpdate::default())
            .await;
        assert!(moved.is_ok(), "{moved:?}");
        store.close().await;
    }

    /// The generic plan of the statement for several nodes, on a connection made with
    /// `options`, for a database whose tables are all but empty: each node of the plan, a line.
    async fn plan_on_new_tables(options: PgConnectOptions) -> String {
        use sqlx::Connection;
        let mut connection = sqlx::PgConnection::connect_with(&options).await.unwrap();
        sqlx::query(&format!("PREPARE batch AS {}", *WITH_LEASES))
            .execute(&mut connection)
            .await
            .unwrap();
        let lines: Vec<String> = sqlx::query_scalar(
            "EXPLAIN EXECUTE batch('{a}', '{1}', '{1}', '{1}', '{1}', '{0}', '{x}', 'n')",
        )
        .fetch_all(&mut connection)
        .await
        .unwrap();
        lines.join("\n")
    }

    async fn plan_reads_by_key(url: String) {
        let store = PostgresStore::open(&url, |_, _| Default::default())
            .await
            .unwrap();
        store.create_game(&game("g"), &[event(1)]).await.unwrap();
        let options: PgConnectOptions = url.parse().unwrap();
        // The writers' settings: every table read through its key.
        let plan = plan_on_new_tables(writers_options(&options)).await;
        for (read, what) in [
            ("using games_pkey on games", "the games"),
            ("using game_leases_pkey on game_leases", "the leases"),
            ("using game_events_pkey on game_events", "the last versions"),
        ] {
            assert!(plan.contains(read), "{what} read by key:\n{plan}");
        }
        assert!(!plan.contains("Seq Scan"), "no table read whole:\n{plan}");
        assert!(!plan.contains("Bitmap"), "no bitmap:\n{plan}");
        // Without them too: the statement looks each append up by key, whatever the
        // statistics (its form before, with the games and leases read by `= ANY`, read a table
        // whole or took a bitmap here).
        let generic = options.options([("plan_cache_mode", "force_generic_plan")]);
        let plan = plan_on_new_tables(generic).await;
        assert!(!plan.contains("Seq Scan"), "no table read whole:\n{plan}");
        assert!(!plan.contains("Bitmap"), "no bitmap:\n{plan}");
        assert!(
            plan.contains("using games_pkey on games"),
            "the games read by key:\n{plan}"
        );
        store.close().await;
    }

    #[tokio::test]
    async fn the_writers_plan_reads_every_table_by_its_key() {
        if let Some(database) = scratch::create("the_writers_plan_reads_by_key").await {
            database.run(plan_reads_by_key).await;
        }
    }

    #[tokio::test]
    async fn a_batch_answers_each_game_and_writes_only_those_it_may() {
        if let Some(database) = scratch::create("a_batch_answers_each_game").await {
            database.run(batch_answers_each_game).await;
        }
    }
}
