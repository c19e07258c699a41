//! Recent events: where an appended event waits, in a table without an index, until the
//! writer folds it into `game_events`.
//!
//! `game_events` is kept in game order (its key is the game and the version), so a move
//! dirties a page of its own game: nine thousand games moving every two seconds share no page
//! within a commit, and each move cost the writer some 3.4 pages written to the log (and
//! copied again by the checkpoint), plus its row's `turns` (docs/performance.md, "Measured, 26
//! November 2026"). So the events of an append go to one of two small tables in arrival order
//! (the moves of a batch share the last page), and the writer **folds** them into
//! `game_events` later, a few games in each batch, every waiting event of a game at once: a
//! game that moved five times in the meantime dirties its page once, and its row's `turns`
//! once. Until then the listings take `turns` from memory.
//!
//! **Two generations.** New rows go to the current table. Every [`GENERATION`] the two swap:
//! the games of the older one are folded over the next [`FOLD_WITHIN`], spread over the
//! batches, and once they all are the table is emptied in one statement (a `DELETE` of a whole
//! table frees its pages without visiting its rows).
//!
//! **Reads.** The writer keeps every unfolded event in memory too ([`Unfolded`]), so the
//! version check of an append and `load_game` need no index on the recent tables: those are
//! the events' durable copy. A store that opens folds whatever is in them (what a killed
//! process left), and names itself their owner (`recent_owner`). A store that finds another
//! connection has written since its last commit (`PRAGMA data_version`), and another store
//! named owner, folds everything from the tables before its batch, and `load_game` on a store
//! that is not the owner reads the tables. One process per SQLite file is the design (the
//! server holds its live games in memory); a second store on the file stays correct, only
//! slower.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rusqlite::{OptionalExtension, params};

use crate::store::sqlite::write_error;
use crate::store::{EventRow, GameSummary, StoreError};

/// How long a table takes new rows before the two swap (and its games begin to be folded).
pub const GENERATION: Duration = Duration::from_secs(20);

/// How long the older table's games take to be folded, spread over the batches.
pub const FOLD_WITHIN: Duration = Duration::from_secs(10);

/// Fewest games folded in one batch, unless all the rest are due: a fold dirties the upper
/// pages of `game_events` and `games` whatever its size, so it is worth a hundred games or so.
const FEWEST_PER_FOLD: usize = 128;

/// Most games folded in one batch (a batch of an idle server may have all of them due).
const MOST_PER_FOLD: usize = 512;

/// The two tables, by generation slot.
const TABLES: [&str; 2] = ["recent_events_0", "recent_events_1"];

/// The events not yet folded, shared by the writer (which alone changes them, once a batch is
/// committed) and the store's reads.
#[derive(Debug)]
pub(crate) struct Unfolded {
    /// This store's name in `recent_owner`.
    store: String,
    games: Mutex<HashMap<String, Pending>>,
}

/// One game's unfolded events and listing turns.
#[derive(Debug, Default)]
struct Pending {
    /// In version order, each with the slot of the table it is in.
    events: Vec<(usize, EventRow)>,
    /// The game's `turns` as of its last append that set them.
    turns: Option<i64>,
}

impl Unfolded {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Pending>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// This store's name in `recent_owner`.
    pub(crate) fn store(&self) -> &str {
        &self.store
    }

    /// The unfolded events of `game` this store wrote, in version order.
    pub(crate) fn events_of(&self, game: &str) -> Vec<EventRow> {
        self.lock()
            .get(game)
            .map(|p| p.events.iter().map(|(_, e)| e.clone()).collect())
            .unwrap_or_default()
    }

    /// Sets the `turns` of the listed games whose row does not have them yet.
    pub(crate) fn overlay_turns(&self, games: &mut [GameSummary]) {
        let pending = self.lock();
        if pending.is_empty() {
            return;
        }
        for game in games {
            if let Some(turns) = pending.get(&game.id).and_then(|p| p.turns) {
                game.turns = turns;
            }
        }
    }
}

/// `stored` (from `game_events`, in version order) with the events of `more` it lacks, in
/// version order.
pub(crate) fn merge(mut stored: Vec<EventRow>, more: Vec<EventRow>) -> Vec<EventRow> {
    if more.is_empty() {
        return stored;
    }
    stored.extend(more);
    stored.sort_by_key(|e| e.version);
    stored.dedup_by_key(|e| e.version);
    stored
}

/// What a batch changes in memory once it is committed.
#[derive(Debug, Default)]
struct Staged {
    /// Appends, in order: the game, its events (in the current table), its turns if set.
    appended: Vec<(String, Vec<EventRow>, Option<i64>)>,
    /// How many of the older table's games are folded once the batch is committed.
    folded: usize,
    /// The older table was emptied.
    cleared: bool,
    /// Everything was folded from the tables (another store had written).
    folded_all: bool,
    /// `PRAGMA data_version` at the start of the batch.
    data_version: i64,
}

/// The writer's side: which table takes new rows, which games are still to fold, and what
/// the open batch changed.
#[derive(Debug)]
pub(crate) struct Recent {
    shared: Arc<Unfolded>,
    /// `PRAGMA data_version` after this store's last commit: it changes when another
    /// connection commits.
    data_version: i64,
    /// The slot of the table new rows go to.
    current: usize,
    /// When the current table began to take rows.
    since: Instant,
    /// [`GENERATION`] and [`FOLD_WITHIN`] (shorter in tests).
    generation: Duration,
    fold_within: Duration,
    /// The older table's games, to fold in this order, and when it stopped taking rows.
    to_fold: Vec<String>,
    folded: usize,
    old_since: Instant,
    staged: Staged,
}

impl Recent {
    /// Opens the recent tables of the writer's connection: folds whatever they hold (a
    /// killed process's last events) and names this store their owner.
    pub(crate) fn open(conn: &rusqlite::Connection) -> Result<Recent, StoreError> {
        let mut name = [0u8; 8];
        getrandom::fill(&mut name).map_err(|e| StoreError::Write(e.to_string()))?;
        let store = format!("{}-{:016x}", std::process::id(), u64::from_le_bytes(name));
        conn.execute_batch("BEGIN IMMEDIATE").map_err(write_error)?;
        let opened = fold_all(conn).and_then(|()| claim(conn, &store));
        match opened {
            Ok(()) => conn.execute_batch("COMMIT").map_err(write_error)?,
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                return Err(e);
            }
        }
        let now = Instant::now();
        Ok(Recent {
            shared: Arc::new(Unfolded {
                store,
                games: Mutex::default(),
            }),
            data_version: data_version(conn)?,
            current: 0,
            since: now,
            generation: GENERATION,
            fold_within: FOLD_WITHIN,
            to_fold: Vec::new(),
            folded: 0,
            old_since: now,
            staged: Staged::default(),
        })
    }

    /// What the store's reads share with the writer.
    pub(crate) fn shared(&self) -> &Arc<Unfolded> {
        &self.shared
    }

    /// At the start of a batch, in its transaction: folds everything if another store has
    /// written the file since this one's last commit, and swaps the tables when it is time.
    pub(crate) fn begin(&mut self, conn: &rusqlite::Connection) -> Result<(), StoreError> {
        self.staged = Staged {
            folded: self.folded,
            data_version: data_version(conn)?,
            ..Staged::default()
        };
        if self.staged.data_version != self.data_version {
            let owner: Option<String> = conn
                .prepare_cached(OWNER)
                .and_then(|mut q| q.query_row([], |row| row.get(0)).optional())
                .map_err(write_error)?;
            if owner.as_deref() != Some(self.shared.store.as_str()) {
                tracing::info!("SQLite: another store wrote this file; folding its recent events");
                fold_all(conn)?;
                claim(conn, &self.shared.store)?;
                self.staged.folded_all = true;
            }
        }
        if self.to_fold.is_empty() && self.since.elapsed() >= self.generation {
            let current = self.current;
            let games: Vec<String> = self
                .shared
                .lock()
                .iter()
                .filter(|(_, p)| p.events.iter().any(|(slot, _)| *slot == current))
                .map(|(game, _)| game.clone())
                .collect();
            let now = Instant::now();
            self.since = now;
            if !games.is_empty() {
                // In key order: the games of one fold are neighbours in `game_events`,
                // sharing its pages.
                let mut games = games;
                games.sort_unstable();
                self.to_fold = games;
                self.folded = 0;
                self.staged.folded = 0;
                self.old_since = now;
                self.current = 1 - current;
            }
        }
        Ok(())
    }

    /// The last version of `game` among its unfolded events (this batch's first), if any.
    pub(crate) fn last_version(&self, game: &str) -> Option<i64> {
        let staged = self
            .staged
            .appended
            .iter()
            .rev()
            .find(|(g, events, _)| g == game && !events.is_empty())
            .and_then(|(_, events, _)| events.last().map(|e| e.version));
        if staged.is_some() || self.staged.folded_all {
            return staged;
        }
        self.shared
            .lock()
            .get(game)
            .and_then(|p| p.events.last().map(|(_, e)| e.version))
    }

    /// Appends `events` of `game` (checked) to the current table; `turns` goes with the last.
    pub(crate) fn append(
        &mut self,
        conn: &rusqlite::Connection,
        game: &str,
        events: &[EventRow],
        turns: Option<i64>,
    ) -> Result<(), StoreError> {
        let mut insert = conn
            .prepare_cached(&format!(
                "INSERT INTO {} (game_id, version, at_ms, payload, turns) VALUES (?, ?, ?, ?, ?)",
                TABLES[self.current]
            ))
            .map_err(write_error)?;
        for (i, e) in events.iter().enumerate() {
            let turns = if i + 1 == events.len() { turns } else { None };
            insert
                .execute(params![game, e.version, e.at_ms, e.payload, turns])
                .map_err(write_error)?;
        }
        self.staged
            .appended
            .push((game.to_string(), events.to_vec(), turns));
        Ok(())
    }

    /// How much of the batch is staged: a write that fails is undone to here.
    pub(crate) fn mark(&self) -> usize {
        self.staged.appended.len()
    }

    /// Forgets what was staged after `mark` (its write was rolled back).
    pub(crate) fn undo_to(&mut self, mark: usize) {
        self.staged.appended.truncate(mark);
    }

    /// At the end of a batch, in its transaction: folds the older table's games that are due
    /// by now, and empties the table once they all are.
    pub(crate) fn fold_due(&mut self, conn: &rusqlite::Connection) -> Result<(), StoreError> {
        if self.to_fold.is_empty() || self.staged.folded_all {
            return Ok(());
        }
        let share = (self.old_since.elapsed().as_secs_f64()
            / self.fold_within.as_secs_f64().max(1e-9))
        .min(1.0);
        let due = (self.to_fold.len() as f64 * share).ceil() as usize;
        let upto = due.clamp(self.folded, self.folded + MOST_PER_FOLD);
        if upto - self.folded < FEWEST_PER_FOLD.min(self.to_fold.len() - self.folded) {
            return Ok(());
        }
        let old = 1 - self.current;
        let mut insert = conn
            .prepare_cached(
                "INSERT OR IGNORE INTO game_events (game_id, version, at_ms, payload) \
                 VALUES (?, ?, ?, ?)",
            )
            .map_err(write_error)?;
        let mut set_turns = conn
            .prepare_cached("UPDATE games SET turns = ? WHERE id = ?")
            .map_err(write_error)?;
        for game in &self.to_fold[self.folded..upto] {
            let (events, turns) = {
                let pending = self.shared.lock();
                let Some(p) = pending.get(game) else {
                    continue;
                };
                let events: Vec<EventRow> = p
                    .events
                    .iter()
                    .filter(|(slot, _)| *slot == old)
                    .map(|(_, e)| e.clone())
                    .collect();
                (events, p.turns)
            };
            for e in &events {
                insert
                    .execute(params![game, e.version, e.at_ms, e.payload])
                    .map_err(write_error)?;
            }
            // The latest turns, this batch's included: the row is then as the recent
            // tables say, whichever of the game's events are still waiting.
            let staged = self
                .staged
                .appended
                .iter()
                .rev()
                .find(|(g, _, t)| g == game && t.is_some())
                .and_then(|(_, _, t)| *t);
            if let Some(turns) = staged.or(turns) {
                set_turns
                    .execute(params![turns, game])
                    .map_err(write_error)?;
            }
        }
        if upto == self.to_fold.len() {
            conn.prepare_cached(&format!("DELETE FROM {}", TABLES[old]))
                .and_then(|mut delete| delete.execute([]))
                .map_err(write_error)?;
            self.staged.cleared = true;
        }
        self.staged.folded = upto;
        Ok(())
    }

    /// The batch is committed: memory follows what it wrote.
    pub(crate) fn committed(&mut self) {
        let staged = std::mem::take(&mut self.staged);
        self.data_version = staged.data_version;
        let mut pending = self.shared.lock();
        if staged.folded_all {
            pending.clear();
            self.to_fold.clear();
            self.folded = 0;
        } else {
            let old = 1 - self.current;
            for game in &self.to_fold[self.folded..staged.folded] {
                if let Some(p) = pending.get_mut(game) {
                    p.events.retain(|(slot, _)| *slot != old);
                    if p.events.is_empty() {
                        pending.remove(game);
                    }
                }
            }
            self.folded = staged.folded;
            if staged.cleared {
                self.to_fold.clear();
                self.folded = 0;
            }
        }
        for (game, events, turns) in staged.appended {
            let p = pending.entry(game).or_default();
            p.events
                .extend(events.into_iter().map(|e| (self.current, e)));
            if turns.is_some() {
                p.turns = turns;
            }
        }
    }

    /// The batch was rolled back: nothing it staged happened.
    pub(crate) fn rolled_back(&mut self) {
        self.staged = Staged::default();
    }

    /// Folds every waiting event, in a transaction of its own (when the store closes).
    pub(crate) fn fold_everything(
        &mut self,
        conn: &rusqlite::Connection,
    ) -> Result<(), StoreError> {
        conn.execute_batch("BEGIN IMMEDIATE").map_err(write_error)?;
        match fold_all(conn) {
            Ok(()) => conn.execute_batch("COMMIT").map_err(write_error)?,
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                return Err(e);
            }
        }
        self.shared.lock().clear();
        self.to_fold.clear();
        self.folded = 0;
        Ok(())
    }
}

/// `PRAGMA data_version` of the connection.
fn data_version(conn: &rusqlite::Connection) -> Result<i64, StoreError> {
    conn.prepare_cached("PRAGMA data_version")
        .and_then(|mut q| q.query_row([], |row| row.get(0)))
        .map_err(write_error)
}

/// Names `store` the owner of the recent tables.
fn claim(conn: &rusqlite::Connection, store: &str) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO recent_owner (id, store) VALUES (1, ?) \
         ON CONFLICT (id) DO UPDATE SET store = excluded.store",
    )
    .and_then(|mut q| q.execute([store]))
    .map_err(write_error)?;
    Ok(())
}

/// Moves every row of both recent tables into `game_events` (a row already there, folded by
/// a store that then died before emptying its table, is the same event and stays as it is),
/// sets each game's latest `turns`, and empties the tables.
fn fold_all(conn: &rusqlite::Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "INSERT OR IGNORE INTO game_events (game_id, version, at_ms, payload) \
           SELECT game_id, version, at_ms, payload FROM recent_events_0 \
           UNION ALL SELECT game_id, version, at_ms, payload FROM recent_events_1 \
           ORDER BY 1, 2; \
         UPDATE games SET turns = latest.turns FROM ( \
           SELECT game_id, turns, MAX(version) FROM ( \
             SELECT game_id, version, turns FROM recent_events_0 WHERE turns IS NOT NULL \
             UNION ALL SELECT game_id, version, turns FROM recent_events_1 \
               WHERE turns IS NOT NULL) \
           GROUP BY game_id) AS latest \
         WHERE games.id = latest.game_id; \
         DELETE FROM recent_events_0; \
         DELETE FROM recent_events_1;",
    )
    .map_err(write_error)
}

/// The events of `game` in the recent tables (for a store that is not their owner).
pub(crate) const EVENTS_OF_GAME: &str = "SELECT version, at_ms, payload FROM recent_events_0 \
     WHERE game_id = ?1 UNION ALL SELECT version, at_ms, payload FROM recent_events_1 \
     WHERE game_id = ?1";

/// The owner of the recent tables.
pub(crate) const OWNER: &str = "SELECT store FROM recent_owner WHERE id = 1";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::RowUpdate;
    use crate::store::game_end::RatingPolicy;

    /// These appends end no game.
    const NO_RATINGS: RatingPolicy = |_, _| (Vec::new(), Vec::new());
    use crate::store::sqlite::{connect, games};

    /// A database file with the whole schema and games `a`, `b`, `c` at version 1.
    fn database() -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir
            .path()
            .join("recent.sqlite")
            .to_str()
            .unwrap()
            .to_string();
        let conn = connect(&path, false).unwrap();
        let mut files: Vec<_> =
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite"))
                .unwrap()
                .map(|f| f.unwrap().path())
                .collect();
        files.sort();
        for file in files {
            conn.execute_batch(&std::fs::read_to_string(file).unwrap())
                .unwrap();
        }
        for game in ["a", "b", "c"] {
            conn.execute(
                "INSERT INTO games (id, created_ms, settings, status, updated_ms) \
                 VALUES (?, 0, '{}', 'live', 0)",
                [game],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO game_events (game_id, version, at_ms, payload) \
                 VALUES (?, 1, 0, '{}')",
                [game],
            )
            .unwrap();
        }
        (dir, path)
    }

    fn event(version: i64) -> EventRow {
        EventRow {
            version,
            at_ms: version * 10,
            payload: format!("{{\"v\":{version}}}"),
        }
    }

    fn moved(turns: i64) -> RowUpdate {
        RowUpdate {
            turns: Some(turns),
            ..RowUpdate::default()
        }
    }

    /// One batch of appends, each `(game, version, turns)`, committed as the writer does.
    fn batch(
        conn: &rusqlite::Connection,
        recent: &mut Recent,
        appends: &[(&str, i64, i64)],
    ) -> Result<(), StoreError> {
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        recent.begin(conn)?;
        for (game, version, turns) in appends {
            if let Err(e) = games::append(
                conn,
                recent,
                game,
                &[event(*version)],
                &moved(*turns),
                NO_RATINGS,
            ) {
                conn.execute_batch("ROLLBACK").unwrap();
                recent.rolled_back();
                return Err(e);
            }
        }
        recent.fold_due(conn)?;
        conn.execute_batch("COMMIT").unwrap();
        recent.committed();
        Ok(())
    }

    fn versions(conn: &rusqlite::Connection, table: &str, game: &str) -> Vec<i64> {
        let mut q = conn
            .prepare(&format!(
                "SELECT version FROM {table} WHERE game_id = ? ORDER BY version"
            ))
            .unwrap();
        q.query_map([game], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    fn turns(conn: &rusqlite::Connection, game: &str) -> i64 {
        conn.query_row("SELECT turns FROM games WHERE id = ?", [game], |row| {
            row.get(0)
        })
        .unwrap()
    }

    /// A writer whose tables swap at every batch and whose older table is due at once.
    fn hasty(conn: &rusqlite::Connection) -> Recent {
        let mut recent = Recent::open(conn).unwrap();
        recent.generation = Duration::ZERO;
        recent.fold_within = Duration::ZERO;
        recent
    }

    #[test]
    fn events_wait_then_fold_game_by_game() {
        let (_dir, path) = database();
        let conn = connect(&path, false).unwrap();
        let mut recent = Recent::open(&conn).unwrap();
        recent.generation = Duration::from_secs(3600);
        batch(&conn, &mut recent, &[("a", 2, 1), ("b", 2, 1), ("a", 3, 2)]).unwrap();
        batch(&conn, &mut recent, &[("a", 4, 3)]).unwrap();
        // Waiting: in the first table and in memory, not in game_events nor on the rows.
        assert_eq!(versions(&conn, "recent_events_0", "a"), [2, 3, 4]);
        assert_eq!(versions(&conn, "game_events", "a"), [1]);
        assert_eq!(turns(&conn, "a"), 0);
        assert_eq!(
            recent.shared().events_of("a"),
            [event(2), event(3), event(4)]
        );
        let mut listed = [summary("a"), summary("b"), summary("c")];
        recent.shared().overlay_turns(&mut listed);
        assert_eq!(listed.map(|g| g.turns), [3, 1, 0]);

        // The tables swap: a's and b's events are folded in one batch, the table emptied;
        // the batch's own move of `a` waits in the other table.
        recent.generation = Duration::ZERO;
        recent.fold_within = Duration::ZERO;
        batch(&conn, &mut recent, &[("a", 5, 4)]).unwrap();
        assert_eq!(versions(&conn, "game_events", "a"), [1, 2, 3, 4]);
        assert_eq!(versions(&conn, "game_events", "b"), [1, 2]);
        assert_eq!(versions(&conn, "recent_events_0", "a"), Vec::<i64>::new());
        assert_eq!(versions(&conn, "recent_events_1", "a"), [5]);
        assert_eq!((turns(&conn, "a"), turns(&conn, "b")), (4, 1));
        assert_eq!(recent.shared().events_of("a"), [event(5)]);
        assert!(recent.shared().events_of("b").is_empty());

        // And back: everything is in game_events, nothing waits.
        batch(&conn, &mut recent, &[]).unwrap();
        batch(&conn, &mut recent, &[]).unwrap();
        assert_eq!(versions(&conn, "game_events", "a"), [1, 2, 3, 4, 5]);
        assert_eq!(versions(&conn, "recent_events_1", "a"), Vec::<i64>::new());
        assert!(recent.shared().events_of("a").is_empty());
    }

    fn summary(id: &str) -> GameSummary {
        GameSummary {
            id: id.into(),
            match_id: None,
            settings: String::new(),
            status: "live".into(),
            result: None,
            created_ms: 0,
            updated_ms: 0,
            accounts: [None, None],
            names: [None, None],
            board: None,
            rules: None,
            turns: 0,
        }
    }

    #[test]
    fn versions_are_checked_against_the_waiting_events() {
        let (_dir, path) = database();
        let conn = connect(&path, false).unwrap();
        let mut recent = hasty(&conn);
        batch(&conn, &mut recent, &[("a", 2, 1)]).unwrap();
        for taken_or_gap in [1, 2, 4] {
            assert!(matches!(
                batch(&conn, &mut recent, &[("a", taken_or_gap, 9)]),
                Err(StoreError::Conflict { version, .. }) if version == taken_or_gap
            ));
        }
        // Within one batch too.
        assert!(matches!(
            batch(&conn, &mut recent, &[("b", 2, 1), ("b", 2, 1)]),
            Err(StoreError::Conflict { version: 2, .. })
        ));
        // The refused batch left nothing, in the tables or in memory.
        assert!(recent.shared().events_of("b").is_empty());
        batch(&conn, &mut recent, &[("b", 2, 1), ("b", 3, 2), ("a", 3, 2)]).unwrap();
        assert!(matches!(
            batch(&conn, &mut recent, &[("zz", 2, 1)]),
            Err(StoreError::NotFound(_))
        ));
        for _ in 0..3 {
            batch(&conn, &mut recent, &[]).unwrap();
        }
        assert_eq!(versions(&conn, "game_events", "a"), [1, 2, 3]);
        assert_eq!(versions(&conn, "game_events", "b"), [1, 2, 3]);
        assert_eq!((turns(&conn, "a"), turns(&conn, "b")), (2, 2));
    }

    #[test]
    fn a_store_that_opens_folds_what_a_killed_one_left() {
        let (_dir, path) = database();
        {
            let conn = connect(&path, false).unwrap();
            let mut recent = Recent::open(&conn).unwrap();
            batch(&conn, &mut recent, &[("a", 2, 1), ("c", 2, 1), ("a", 3, 2)]).unwrap();
            // Dropped without folding, as a killed process would leave it.
        }
        let conn = connect(&path, false).unwrap();
        let recent = Recent::open(&conn).unwrap();
        assert_eq!(versions(&conn, "game_events", "a"), [1, 2, 3]);
        assert_eq!(versions(&conn, "game_events", "c"), [1, 2]);
        for table in TABLES {
            assert_eq!(
                conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r
                    .get::<_, i64>(0))
                    .unwrap(),
                0
            );
        }
        assert_eq!((turns(&conn, "a"), turns(&conn, "c")), (2, 1));
        assert!(recent.shared().events_of("a").is_empty());
    }

    #[test]
    fn two_stores_on_one_file_take_the_tables_in_turn() {
        let (_dir, path) = database();
        let (one, two) = (
            connect(&path, false).unwrap(),
            connect(&path, false).unwrap(),
        );
        let mut first = Recent::open(&one).unwrap();
        let mut second = Recent::open(&two).unwrap();
        batch(&one, &mut first, &[("a", 2, 1)]).unwrap();
        // The second store finds the first's waiting event through the fold, not by chance.
        assert!(matches!(
            batch(&two, &mut second, &[("a", 2, 1)]),
            Err(StoreError::Conflict { version: 2, .. })
        ));
        batch(&two, &mut second, &[("a", 3, 2)]).unwrap();
        assert_eq!(versions(&two, "game_events", "a"), [1, 2]);
        // The first's memory is out of date: it folds and checks against the file.
        assert!(matches!(
            batch(&one, &mut first, &[("a", 3, 2)]),
            Err(StoreError::Conflict { version: 3, .. })
        ));
        batch(&one, &mut first, &[("a", 4, 3)]).unwrap();
        assert_eq!(versions(&one, "game_events", "a"), [1, 2, 3]);
        assert_eq!(versions(&one, "recent_events_0", "a"), [4]);
        first.fold_everything(&one).unwrap();
        assert_eq!(versions(&one, "game_events", "a"), [1, 2, 3, 4]);
        assert_eq!(turns(&one, "a"), 3);
    }

    #[test]
    fn merge_takes_each_version_once_in_order() {
        let merged = merge(
            vec![event(1), event(2), event(3)],
            vec![event(3), event(5), event(4)],
        );
        assert_eq!(merged, (1..=5).map(event).collect::<Vec<_>>());
    }
}
