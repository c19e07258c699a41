//! The opening explorer in SQLite: a batch is one closure on the writer's connection (one
//! transaction, statements prepared once), its leaves inserted and its rows upserted in key
//! order so that the B-trees are written page after page (a fresh import appends); reads run
//! on the rusqlite readers.

use std::sync::Arc;

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::explorer::leaf_buckets;
use crate::explorer::store::{
    ExplorerBatch, ExplorerGame, ExplorerStore, MoveRow, join_examples, leaf_row, split_examples,
};
use crate::store::StoreError;
use crate::store::sqlite::{SqliteStore, write_error};

const GAME_COLUMNS: &str =
    "id, source, name, player_one, player_two, rating_one, rating_two, date, result, plies";

fn game(row: &SqliteRow, with_record: bool) -> Result<ExplorerGame, sqlx::Error> {
    Ok(ExplorerGame {
        id: row.try_get("id")?,
        source: row.try_get("source")?,
        name: row.try_get("name")?,
        players: [row.try_get("player_one")?, row.try_get("player_two")?],
        ratings: [row.try_get("rating_one")?, row.try_get("rating_two")?],
        date: row.try_get("date")?,
        result: row.try_get("result")?,
        record: if with_record {
            row.try_get("record")?
        } else {
            String::new()
        },
        plies: row.try_get("plies")?,
    })
}

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
    let mut get = conn
        .prepare_cached("SELECT leaves FROM explorer_leaf_buckets WHERE bucket = ?")
        .map_err(write_error)?;
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
        .prepare_cached(
            "INSERT INTO explorer_moves (position, source, band, move, games, first_wins, \
             second_wins, draws, rating_sum, rating_count, last_date, examples) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (position, source, band, move) DO UPDATE SET \
             games = games + excluded.games, \
             first_wins = first_wins + excluded.first_wins, \
             second_wins = second_wins + excluded.second_wins, \
             draws = draws + excluded.draws, \
             rating_sum = rating_sum + excluded.rating_sum, \
             rating_count = rating_count + excluded.rating_count, \
             last_date = CASE WHEN excluded.last_date IS NOT NULL AND \
                 (explorer_moves.last_date IS NULL OR excluded.last_date > explorer_moves.last_date) \
                 THEN excluded.last_date ELSE explorer_moves.last_date END, \
             examples = CASE WHEN length(explorer_moves.examples) \
                 - length(replace(explorer_moves.examples, ' ', '')) + 1 >= 5 \
                 THEN explorer_moves.examples \
                 ELSE explorer_moves.examples || ' ' || excluded.examples END",
        )
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
impl ExplorerStore for SqliteStore {
    async fn explorer_game_ids(&self, source: &str) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT id FROM explorer_games WHERE source = ?")
                .bind(source)
                .fetch_all(self.pool())
                .await?,
        )
    }

    async fn add_explorer_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError> {
        let batch = Arc::new(batch);
        self.write_with(move |conn| write_batch(conn, &batch)).await
    }

    async fn explorer_rows(&self, position: i64) -> Result<Vec<MoveRow>, StoreError> {
        self.readers()
            .read(move |conn| {
                let mut select = conn.prepare_cached(
                    "SELECT source, band, move, games, first_wins, second_wins, draws, \
                     rating_sum, rating_count, last_date, examples \
                     FROM explorer_moves WHERE position = ?",
                )?;
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
                let mut bucket = conn
                    .prepare_cached("SELECT leaves FROM explorer_leaf_buckets WHERE bucket = ?")?;
                let bytes: Option<Vec<u8>> = bucket
                    .query_row([leaf_buckets::bucket_of(position)], |row| row.get(0))
                    .optional()?;
                let leaf = match &bytes {
                    Some(bytes) => leaf_buckets::find(bytes, position)
                        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
                    None => None,
                };
                let mut game = conn.prepare_cached(
                    "SELECT id, source, rating_one, rating_two, result, date \
                     FROM explorer_games WHERE num = ?",
                )?;
                let found = match leaf {
                    // A leaf whose game is gone is left out.
                    Some(leaf) => game
                        .query_row([leaf.game], |row| {
                            let game = ExplorerGame {
                                id: row.get(0)?,
                                source: row.get(1)?,
                                name: String::new(),
                                players: Default::default(),
                                ratings: [row.get(2)?, row.get(3)?],
                                date: row.get(5)?,
                                result: row.get(4)?,
                                record: String::new(),
                                plies: 0,
                            };
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

    async fn explorer_game(&self, id: &str) -> Result<Option<ExplorerGame>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, record FROM explorer_games WHERE id = ?"
        ))
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(|r| game(r, true)).transpose()?)
    }

    async fn explorer_game_named(
        &self,
        source: &str,
        name: &str,
    ) -> Result<Option<ExplorerGame>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, record FROM explorer_games WHERE source = ? AND name = ? \
             ORDER BY id LIMIT 1"
        ))
        .bind(source)
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(|r| game(r, true)).transpose()?)
    }

    async fn explorer_games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError> {
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
