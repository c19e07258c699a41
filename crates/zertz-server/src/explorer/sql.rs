//! The opening explorer's storage written once for both databases (see `store::sql`): its
//! games' reads and the SQL both dialects share. A batch (SQLite: one closure on the writer,
//! in key order; PostgreSQL: whole columns as arrays), a position's rows (SQLite: the rusqlite
//! readers) and many games at once differ, and are in `sqlite.rs` and `postgres.rs`.

use async_trait::async_trait;

use crate::explorer::store::{ExplorerBatch, ExplorerGame, ExplorerStore, MoveRow};
use crate::store::StoreError;
use crate::store::sql::{Row, Sql, args, map_rows};

/// The columns of an [`ExplorerGame`] but its record.
pub(crate) const GAME_COLUMNS: &str =
    "id, source, name, player_one, player_two, rating_one, rating_two, date, result, plies";

/// The columns of a [`MoveRow`] but its position, as a position's rows are read.
pub(crate) const MOVE_COLUMNS: &str = "source, band, move, games, first_wins, second_wins, \
     draws, rating_sum, rating_count, last_date, examples";

/// The leaves of one bucket.
pub(crate) const SELECT_BUCKET: &str = "SELECT leaves FROM explorer_leaf_buckets WHERE bucket = ?";

/// What a leaf's row shows of its game, by the game's number.
pub(crate) const SELECT_LEAF_GAME: &str =
    "SELECT id, source, rating_one, rating_two, result, date FROM explorer_games WHERE num = ?";

/// The game of a leaf as [`SELECT_LEAF_GAME`] reads it: what `store::leaf_row` needs of it,
/// nothing else.
pub(crate) fn leaf_game(
    id: String,
    source: String,
    ratings: [Option<f64>; 2],
    result: String,
    date: Option<String>,
) -> ExplorerGame {
    ExplorerGame {
        id,
        source,
        name: String::new(),
        players: Default::default(),
        ratings,
        date,
        result,
        record: String::new(),
        plies: 0,
    }
}

/// How an upserted move row keeps its last date and adds its examples (up to 5), the same in
/// both databases (their sums differ: PostgreSQL names the table's side).
pub(crate) const MERGE_DATE_AND_EXAMPLES: &str = "last_date = CASE WHEN excluded.last_date IS NOT NULL AND \
     (explorer_moves.last_date IS NULL OR excluded.last_date > explorer_moves.last_date) \
     THEN excluded.last_date ELSE explorer_moves.last_date END, \
     examples = CASE WHEN length(explorer_moves.examples) \
     - length(replace(explorer_moves.examples, ' ', '')) + 1 >= 5 \
     THEN explorer_moves.examples \
     ELSE explorer_moves.examples || ' ' || excluded.examples END";

/// What the databases do differently for the explorer.
#[async_trait]
pub(crate) trait ExplorerDialect {
    /// [`ExplorerStore::add_explorer_batch`].
    async fn write_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError>;

    /// [`ExplorerStore::explorer_rows`].
    async fn rows_at(&self, position: i64) -> Result<Vec<MoveRow>, StoreError>;

    /// [`ExplorerStore::explorer_games_brief`].
    async fn games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError>;
}

/// A game of a row holding [`GAME_COLUMNS`], and its `record` too when `with_record`.
fn game(row: &impl Row, with_record: bool) -> Result<ExplorerGame, sqlx::Error> {
    Ok(ExplorerGame {
        id: row.get("id")?,
        source: row.get("source")?,
        name: row.get("name")?,
        players: [row.get("player_one")?, row.get("player_two")?],
        ratings: [row.get("rating_one")?, row.get("rating_two")?],
        date: row.get("date")?,
        result: row.get("result")?,
        record: if with_record {
            row.get("record")?
        } else {
            String::new()
        },
        plies: row.get("plies")?,
    })
}

/// A game of a row holding [`GAME_COLUMNS`], without its record.
pub(crate) fn brief_game(row: &impl Row) -> Result<ExplorerGame, sqlx::Error> {
    game(row, false)
}

#[async_trait]
impl<S: Sql + ExplorerDialect> ExplorerStore for S {
    async fn explorer_game_ids(&self, source: &str) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT id FROM explorer_games WHERE source = ?";
        let rows = self.fetch_all(sql, args![source]).await?;
        map_rows(&rows, |row| row.get("id"))
    }

    async fn add_explorer_batch(&self, batch: ExplorerBatch) -> Result<(), StoreError> {
        self.write_batch(batch).await
    }

    async fn explorer_rows(&self, position: i64) -> Result<Vec<MoveRow>, StoreError> {
        self.rows_at(position).await
    }

    async fn explorer_game(&self, id: &str) -> Result<Option<ExplorerGame>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS}, record FROM explorer_games WHERE id = ?");
        let row = self.fetch_optional(&sql, args![id]).await?;
        Ok(row.as_ref().map(|r| game(r, true)).transpose()?)
    }

    async fn explorer_game_named(
        &self,
        source: &str,
        name: &str,
    ) -> Result<Option<ExplorerGame>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, record FROM explorer_games WHERE source = ? AND name = ? \
             ORDER BY id LIMIT 1"
        );
        let row = self.fetch_optional(&sql, args![source, name]).await?;
        Ok(row.as_ref().map(|r| game(r, true)).transpose()?)
    }

    async fn explorer_games_brief(&self, ids: &[String]) -> Result<Vec<ExplorerGame>, StoreError> {
        self.games_brief(ids).await
    }
}
