//! The opening explorer in SQLite: a batch is one closure on the writer's connection (one
//! transaction, statements prepared once), its leaves inserted and its rows upserted in key
//! order so that the B-trees are written page after page (a fresh import appends); reads run
//! on the rusqlite readers. The rest is written once for both databases (`explorer::sql`).

use std::sync::Arc;

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use crate::explorer::leaf_buckets;
use crate::explorer::sql::{
    ExplorerDialect, GAME_COLUMNS, MERGE_DATE_AND_EXAMPLES, MOVE_COLUMNS, SELECT_BUCKET,
    SELECT_LEAF_GAME, leaf_game,
};
use crate::explorer::store::{
    ExplorerBatch, ExplorerGame, MoveRow, join_examples, leaf_row, split_examples,
};
use crate::store::StoreError;
use crate::store::sqlite::{SqliteStore, write_error};

/// Writes a batch on the writer's connection (inside its transaction).
fn write_batch(conn: &rusqlite::Connection, batch: &ExplorerBatch) -> Result<(), StoreError> {
    let mut insert = conn
        .prepare_cached(&format!(
            "INSERT INTO explorer_games ({GAME_COLUMNS}, record) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        ))
        .map_err(write_error)?;
    // The games' numbers, by their index in the batch (what the leaves hold).
    let mut nums = Vec::with_capacity(batch.games.len());
    for g in &batch.games {
        insert
            .execute(params![
                g.id,
                g.source,
                g.name,
                g.players[0],
                g.players[1],
                g.ratings[0],
                g.ratings[1],
                g.date,
                g.result,
                g.plies,
                g.record
            ])
            .map_err(|e| match &e {
                // The id is the table's only unique column besides its number: a game already
                // stored. The batch's transaction is rolled back whole.
                rusqlite::Error::SqliteFailure(f, _)
                    if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
                {
                    StoreError::Taken(format!("explorer game {} is already stored", g.id))
                }
                _ => write_error(e),
            })?;
        nums.push(conn.last_insert_rowid());
    }
    // A position that already has a leaf keeps it; this batch's game there becomes a row.
    let mut get = conn.prepare_cached(SELECT_BUCKET).map_err(write_error)?;
    let mut put = conn
        .prepare_cached(
            "INSERT INTO explorer_leaf_buckets (bucket, leaves) VALUES (?, ?) \
             ON CONFLICT (bucket) DO UPDATE SET leaves = excluded.leaves",
        )
        .map_err(write_error)?;
    let mut extra = Vec::new();
    for run in leaf_buckets::runs(&batch.leaves, |i| nums.get(i as usize).copied())? {
        let stored: Option<Vec<u8>> = get
            .query_row([run.bucket], |row| row.get(0))
            .optional()
            .map_err(write_error)?;
        let (bytes, taken) = leaf_buckets::merge(stored.as_deref().unwrap_or(&[]), &run.leaves)?;
        put.execute(params![run.bucket, bytes])
            .map_err(write_error)?;
        extra.extend(run.taken_rows(&taken, &batch.games));
    }
    let mut upsert = conn
        .prepare_cached(&format!(
            "INSERT INTO explorer_moves (position, {MOVE_COLUMNS}) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (position, source, band, move) DO UPDATE SET \
             games = games + excluded.games, \
             first_wins = first_wins + excluded.first_wins, \
             second_wins = second_wins + excluded.second_wins, \
             draws = draws + excluded.draws, \
             rating_sum = rating_sum + excluded.rating_sum, \
             rating_count = rating_count + excluded.rating_count, \
             {MERGE_DATE_AND_EXAMPLES}"
        ))
        .map_err(write_error)?;
    // Key order: the inserts walk the table's B-tree from one end to the other.
    let mut order: Vec<&MoveRow> = batch.moves.iter().chain(&extra).collect();
    order.sort_unstable_by(|a, b| {
        (a.position, &a.source, a.band, &a.mv).cmp(&(b.position, &b.source, b.band, &b.mv))
    });
    for m in order {
        upsert
            .execute(params![
                m.position,
                m.source,
                m.band,
                m.mv,
                m.games,
                m.first_wins,
                m.second_wins,
                m.draws,
                m.rating_sum,
                m.rating_count,
                m.last_date,
                join_examples(&m.examples)
            ])
            .map_err(write_error)?;
    }
    Ok(())
}

#[async_trait]
impl ExplorerDialect for SqliteStore {
    async fn write_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError> {
        let batch = Arc::new(batch);
        self.write_with(move |conn| write_batch(conn, &batch)).await
    }

    async fn rows_at(&self, position: i64) -> Result<Vec<MoveRow>, StoreError> {
        self.readers()
            .read(move |conn| {
                let mut select = conn.prepare_cached(&format!(
                    "SELECT {MOVE_COLUMNS} FROM explorer_moves WHERE position = ?"
                ))?;
                let mut rows = select
                    .query_map([position], |row| {
                        Ok(MoveRow {
                            position,
                            source: row.get(0)?,
                            band: row.get(1)?,
                            mv: row.get(2)?,
                            games: row.get(3)?,
                            first_wins: row.get(4)?,
                            second_wins: row.get(5)?,
                            draws: row.get(6)?,
                            rating_sum: row.get(7)?,
                            rating_count: row.get(8)?,
                            last_date: row.get(9)?,
                            examples: split_examples(row.get_ref(10)?.as_str()?),
                        })
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                let mut bucket = conn.prepare_cached(SELECT_BUCKET)?;
                let bytes: Option<Vec<u8>> = bucket
                    .query_row([leaf_buckets::bucket_of(position)], |row| row.get(0))
                    .optional()?;
                let leaf = match &bytes {
                    Some(bytes) => leaf_buckets::find(bytes, position)
                        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
                    None => None,
                };
                let mut game = conn.prepare_cached(SELECT_LEAF_GAME)?;
                let found = match leaf {
                    // A leaf whose game is gone is left out.
                    Some(leaf) => game
                        .query_row([leaf.game], |row| {
                            let ratings = [row.get(2)?, row.get(3)?];
                            let game = leaf_game(
                                row.get(0)?,
                                row.get(1)?,
                                ratings,
                                row.get(4)?,
                                row.get(5)?,
                            );
                            Ok(leaf_row(position, leaf.mover, leaf.mv, &game))
                        })
                        .optional()?,
                    None => None,
                };
                rows.extend(found);
                Ok(rows)
            })
            .await
    }

    async fn games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError> {
        let ids = ids.to_vec();
        self.readers()
            .read(move |conn| {
                let mut select = conn.prepare_cached(&format!(
                    "SELECT {GAME_COLUMNS} FROM explorer_games WHERE id = ?"
                ))?;
                let mut out = Vec::with_capacity(ids.len());
                // One lookup per id on a prepared statement: as fast as `IN (…)` here, and
                // no limit on the number of ids.
                for id in &ids {
                    let found = select
                        .query_row([id], |row| {
                            Ok(ExplorerGame {
                                id: row.get(0)?,
                                source: row.get(1)?,
                                name: row.get(2)?,
                                players: [row.get(3)?, row.get(4)?],
                                ratings: [row.get(5)?, row.get(6)?],
                                date: row.get(7)?,
                                result: row.get(8)?,
                                record: String::new(),
                                plies: row.get(9)?,
                            })
                        })
                        .optional()?;
                    out.extend(found);
                }
                Ok(out)
            })
            .await
    }
}
