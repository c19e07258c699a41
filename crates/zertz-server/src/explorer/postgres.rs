//! The opening explorer in PostgreSQL: a batch is one transaction of a few statements, each
//! taking whole columns as arrays (`UNNEST`), so that tens of thousands of rows cost a handful
//! of round trips. The rest is written once for both databases (`explorer::sql`).

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::Row;

use crate::explorer::leaf_buckets;
use crate::explorer::sql::{
    ExplorerDialect, GAME_COLUMNS, MERGE_DATE_AND_EXAMPLES, MOVE_COLUMNS, SELECT_BUCKET,
    SELECT_LEAF_GAME, brief_game, leaf_game,
};
use crate::explorer::store::{
    ExplorerBatch, ExplorerGame, MoveRow, join_examples, leaf_row, split_examples,
};
use crate::store::StoreError;
use crate::store::postgres::PostgresStore;
use crate::store::sql::{map_rows, numbered};

/// The advisory lock that makes explorer batches one at a time (`"zertz-ex"` in ASCII).
const EXPLORER_WRITE_LOCK: i64 = 0x7a65_7274_7a2d_6578;

/// Rows per upsert statement (each a set of arrays).
const CHUNK: usize = 20_000;

fn taken(id: &str) -> StoreError {
    StoreError::Taken(format!("explorer game {id} is already stored"))
}

#[async_trait]
impl ExplorerDialect for PostgresStore {
    async fn write_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError> {
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
            sqlx::query(&format!(
                "INSERT INTO explorer_moves (position, {MOVE_COLUMNS}) \
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
                 {MERGE_DATE_AND_EXAMPLES}"
            ))
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

    async fn rows_at(&self, position: i64) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {MOVE_COLUMNS} FROM explorer_moves WHERE position = $1"
        ))
        .bind(position)
        .fetch_all(self.pool())
        .await?;
        let bytes: Option<Vec<u8>> = sqlx::query_scalar(&numbered(SELECT_BUCKET))
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
            let row = sqlx::query(&numbered(SELECT_LEAF_GAME))
                .bind(leaf.game)
                .fetch_optional(self.pool())
                .await?;
            if let Some(row) = row {
                let game = leaf_game(
                    row.try_get("id")?,
                    row.try_get("source")?,
                    [row.try_get("rating_one")?, row.try_get("rating_two")?],
                    row.try_get("result")?,
                    row.try_get("date")?,
                );
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

    async fn games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError> {
        // The ids bound as one array.
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM explorer_games WHERE id = ANY($1)"
        ))
        .bind(ids)
        .fetch_all(self.pool())
        .await?;
        Ok(map_rows(&rows, brief_game)?)
    }
}
