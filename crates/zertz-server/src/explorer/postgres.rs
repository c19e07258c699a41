//! The opening explorer in PostgreSQL: a batch is one transaction of a few statements, each
//! taking whole columns as arrays (`UNNEST`), so that tens of thousands of rows cost a handful
//! of round trips.

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::explorer::leaf_buckets;
use crate::explorer::store::{
    ExplorerBatch, ExplorerGame, ExplorerStore, MoveRow, join_examples, leaf_row, split_examples,
};
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;

/// The advisory lock that makes explorer batches one at a time (`"zertz-ex"` in ASCII).
const EXPLORER_WRITE_LOCK: i64 = 0x7a65_7274_7a2d_6578;

const GAME_COLUMNS: &str =
    "id, source, name, player_one, player_two, rating_one, rating_two, date, result, plies";

/// Rows per upsert statement (each a set of arrays).
const CHUNK: usize = 20_000;

fn game(row: &PgRow, with_record: bool) -> Result<ExplorerGame, sqlx::Error> {
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

fn taken(id: &str) -> StoreError {
    StoreError::Taken(format!("explorer game {id} is already stored"))
}

#[async_trait]
impl ExplorerStore for PostgresStore {
    async fn explorer_game_ids(&self, source: &str) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT id FROM explorer_games WHERE source = $1")
                .bind(source)
                .fetch_all(self.pool())
                .await?,
        )
    }

    async fn add_explorer_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        let ids: Vec<&str> = batch.games.iter().map(|g| g.id.as_str()).collect();
        let stored: Option<String> =
            sqlx::query_scalar("SELECT id FROM explorer_games WHERE id = ANY($1) LIMIT 1")
                .bind(&ids)
                .fetch_optional(&mut *tx)
                .await?;
        if let Some(id) = stored {
            return Err(taken(&id));
        }
        let col = |f: fn(&ExplorerGame) -> String| batch.games.iter().map(f).collect::<Vec<_>>();
        let inserted: Result<Vec<(String, i64)>, _> = sqlx::query_as(&format!(
            "INSERT INTO explorer_games ({GAME_COLUMNS}, record) \
             SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], \
             $6::float8[], $7::float8[], $8::text[], $9::text[], $10::int8[], $11::text[]) \
             RETURNING id, num"
        ))
        .bind(col(|g| g.id.clone()))
        .bind(col(|g| g.source.clone()))
        .bind(col(|g| g.name.clone()))
        .bind(col(|g| g.players[0].clone()))
        .bind(col(|g| g.players[1].clone()))
        .bind(batch.games.iter().map(|g| g.ratings[0]).collect::<Vec<_>>())
        .bind(batch.games.iter().map(|g| g.ratings[1]).collect::<Vec<_>>())
        .bind(
            batch
                .games
                .iter()
                .map(|g| g.date.clone())
                .collect::<Vec<_>>(),
        )
        .bind(col(|g| g.result.clone()))
        .bind(batch.games.iter().map(|g| g.plies).collect::<Vec<_>>())
        .bind(col(|g| g.record.clone()))
        .fetch_all(&mut *tx)
        .await;
        let numbered = match inserted {
            Ok(numbered) => numbered,
            // Another writer stored one of these games since the check.
            Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
                return Err(taken(ids.first().copied().unwrap_or("?")));
            }
            Err(e) => return Err(e.into()),
        };
        let nums: HashMap<String, i64> = numbered.into_iter().collect();
        let runs = leaf_buckets::runs(&batch.leaves, |i| {
            batch
                .games
                .get(i as usize)
                .and_then(|g| nums.get(&g.id))
                .copied()
        })?;
        // Buckets are read, merged and written back: one writer at a time (nodes sharing the
        // database included), or two batches could each write a bucket without the other's
        // leaves. Explorer writes are rare (an import, or a game's end).
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(EXPLORER_WRITE_LOCK)
            .execute(&mut *tx)
            .await?;
        let buckets: Vec<i64> = runs.iter().map(|r| r.bucket).collect();
        let mut stored: HashMap<i64, Vec<u8>> = HashMap::with_capacity(buckets.len());
        for chunk in buckets.chunks(CHUNK) {
            let found: Vec<(i64, Vec<u8>)> = sqlx::query_as(
                "SELECT bucket, leaves FROM explorer_leaf_buckets WHERE bucket = ANY($1)",
            )
            .bind(chunk)
            .fetch_all(&mut *tx)
            .await?;
            stored.extend(found);
        }
        // A position that already has a leaf keeps it; this batch's game there becomes a row.
        let mut extra = Vec::new();
        let mut merged = Vec::with_capacity(runs.len());
        for run in &runs {
            let old = stored.get(&run.bucket).map_or(&[][..], Vec::as_slice);
            let (bytes, taken) = leaf_buckets::merge(old, &run.leaves)?;
            merged.push(bytes);
            extra.extend(run.taken_rows(&taken, &batch.games));
        }
        for (buckets, bytes) in buckets.chunks(CHUNK).zip(merged.chunks(CHUNK)) {
            sqlx::query(
                "INSERT INTO explorer_leaf_buckets (bucket, leaves) \
                 SELECT * FROM UNNEST($1::int8[], $2::bytea[]) \
                 ON CONFLICT (bucket) DO UPDATE SET leaves = excluded.leaves",
            )
            .bind(buckets)
            .bind(bytes)
            .execute(&mut *tx)
            .await?;
        }
        let rows: Vec<&MoveRow> = batch.moves.iter().chain(&extra).collect();
        for chunk in rows.chunks(CHUNK) {
            sqlx::query(
                "INSERT INTO explorer_moves (position, source, band, move, games, first_wins, \
                 second_wins, draws, rating_sum, rating_count, last_date, examples) \
                 SELECT * FROM UNNEST($1::int8[], $2::text[], $3::int8[], $4::text[], \
                 $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::float8[], $10::int8[], \
                 $11::text[], $12::text[]) \
                 ON CONFLICT (position, source, band, move) DO UPDATE SET \
                 games = explorer_moves.games + excluded.games, \
                 first_wins = explorer_moves.first_wins + excluded.first_wins, \
                 second_wins = explorer_moves.second_wins + excluded.second_wins, \
                 draws = explorer_moves.draws + excluded.draws, \
                 rating_sum = explorer_moves.rating_sum + excluded.rating_sum, \
                 rating_count = explorer_moves.rating_count + excluded.rating_count, \
                 last_date = CASE WHEN excluded.last_date IS NOT NULL AND \
                     (explorer_moves.last_date IS NULL \
                      OR excluded.last_date > explorer_moves.last_date) \
                     THEN excluded.last_date ELSE explorer_moves.last_date END, \
                 examples = CASE WHEN length(explorer_moves.examples) \
                     - length(replace(explorer_moves.examples, ' ', '')) + 1 >= 5 \
                     THEN explorer_moves.examples \
                     ELSE explorer_moves.examples || ' ' || excluded.examples END",
            )
            .bind(chunk.iter().map(|m| m.position).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.source.clone()).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.band).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.mv.clone()).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.games).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.first_wins).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.second_wins).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.draws).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.rating_sum).collect::<Vec<_>>())
            .bind(chunk.iter().map(|m| m.rating_count).collect::<Vec<_>>())
            .bind(
                chunk
                    .iter()
                    .map(|m| m.last_date.clone())
                    .collect::<Vec<_>>(),
            )
            .bind(
                chunk
                    .iter()
                    .map(|m| join_examples(&m.examples))
                    .collect::<Vec<_>>(),
            )
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn explorer_rows(&self, position: i64) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT source, band, move, games, first_wins, second_wins, draws, rating_sum, \
             rating_count, last_date, examples FROM explorer_moves WHERE position = $1",
        )
        .bind(position)
        .fetch_all(self.pool())
        .await?;
        let bytes: Option<Vec<u8>> =
            sqlx::query_scalar("SELECT leaves FROM explorer_leaf_buckets WHERE bucket = $1")
                .bind(leaf_buckets::bucket_of(position))
                .fetch_optional(self.pool())
                .await?;
        let leaf = match &bytes {
            Some(bytes) => leaf_buckets::find(bytes, position)?,
            None => None,
        };
        let mut found = None;
        if let Some(leaf) = leaf {
            // A leaf whose game is gone is left out.
            let row = sqlx::query(
                "SELECT id, source, rating_one, rating_two, result, date FROM explorer_games \
                 WHERE num = $1",
            )
            .bind(leaf.game)
            .fetch_optional(self.pool())
            .await?;
            if let Some(row) = row {
                let game = ExplorerGame {
                    id: row.try_get("id")?,
                    source: row.try_get("source")?,
                    name: String::new(),
                    players: Default::default(),
                    ratings: [row.try_get("rating_one")?, row.try_get("rating_two")?],
                    date: row.try_get("date")?,
                    result: row.try_get("result")?,
                    record: String::new(),
                    plies: 0,
                };
                found = Some(leaf_row(position, leaf.mover, leaf.mv, &game));
            }
        }
        Ok(rows
            .iter()
            .map(|row| {
                Ok(MoveRow {
                    position,
                    source: row.try_get("source")?,
                    band: row.try_get("band")?,
                    mv: row.try_get("move")?,
                    games: row.try_get("games")?,
                    first_wins: row.try_get("first_wins")?,
                    second_wins: row.try_get("second_wins")?,
                    draws: row.try_get("draws")?,
                    rating_sum: row.try_get("rating_sum")?,
                    rating_count: row.try_get("rating_count")?,
                    last_date: row.try_get("last_date")?,
                    examples: split_examples(&row.try_get::<String, _>("examples")?),
                })
            })
            .chain(found.map(Ok))
            .collect::<Result<_, sqlx::Error>>()?)
    }

    async fn explorer_game(&self, id: &str) -> Result<Option<ExplorerGame>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, record FROM explorer_games WHERE id = $1"
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
            "SELECT {GAME_COLUMNS}, record FROM explorer_games WHERE source = $1 AND name = $2 \
             ORDER BY id LIMIT 1"
        ))
        .bind(source)
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(|r| game(r, true)).transpose()?)
    }

    async fn explorer_games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM explorer_games WHERE id = ANY($1)"
        ))
        .bind(ids)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| game(r, false))
            .collect::<Result<_, sqlx::Error>>()?)
    }
}
