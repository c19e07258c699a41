//! Games and matches in SQLite: writes run on the writer thread (their statements are shared,
//! `store::game_sql`), a whole game is read with the events the writer has not folded yet.

use crate::store::game_end::RatingPolicy;
use async_trait::async_trait;
use rusqlite::OptionalExtension;

use crate::store::common::{changes_turns_only, check_versions, game_not_found, seat_tokens};
use crate::store::game_sql::{
    GameDialect, GameWrite, SELECT_EVENTS, SELECT_GAME, event_row, game_row, new_game,
    save_match as match_upsert, update_row,
};
use crate::store::sql::{Statement, map_rows};
use crate::store::sqlite::recent::{self, Recent};
use crate::store::sqlite::sql::run;
use crate::store::sqlite::{SqliteStore, Write, write_error};
use crate::store::{EventRow, GameRow, GameSummary, MatchRow, MatchStep, RowUpdate, StoreError};

pub(crate) fn create_game(
    conn: &rusqlite::Connection,
    game: &GameRow,
    events: &[EventRow],
) -> Result<(), StoreError> {
    for statement in new_game(game, events)? {
        run(conn, &statement)?;
    }
    Ok(())
}

pub(crate) fn append(
    conn: &rusqlite::Connection,
    recent: &mut Recent,
    game: &str,
    events: &[EventRow],
    update: &RowUpdate,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let tokens = seat_tokens(update)?;
    let last = match recent.last_version(game) {
        Some(last) => last,
        None => {
            let last: Option<Option<i64>> = conn
                .prepare_cached(
                    "SELECT (SELECT MAX(version) FROM game_events WHERE game_id = games.id) \
                     FROM games WHERE id = ?",
                )
                .and_then(|mut select| select.query_row([game], |row| row.get(0)).optional())
                .map_err(write_error)?;
            let Some(last) = last else {
                return Err(game_not_found(game));
            };
            last.unwrap_or(0)
        }
    };
    check_versions(game, last, events)?;
    if !events.is_empty() {
        // The events wait in the recent table, and the turns with them (see `recent`).
        recent.append(conn, game, events, update.turns)?;
        if changes_turns_only(update) {
            return Ok(());
        }
    }
    if let Some(row) = update_row(game, events, update, tokens) {
        run(conn, &row)?;
    }
    if let Some(end) = &update.ended {
        super::game_end::write_end(conn, end, rating)?;
    }
    Ok(())
}

pub(crate) fn save_match(conn: &rusqlite::Connection, m: &MatchRow) -> Result<(), StoreError> {
    run(conn, &match_upsert(m)).map(|_| ())
}

/// A match step's writes, in the batch's transaction.
pub(crate) fn step(
    conn: &rusqlite::Connection,
    recent: &mut Recent,
    step: &MatchStep,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    if let Some((game, events)) = &step.new_game {
        create_game(conn, game, events)?;
    }
    if let Some(a) = &step.append {
        append(conn, recent, &a.game, &a.events, &a.update, rating)?;
    }
    save_match(conn, &step.state)
}

#[async_trait]
impl GameDialect for SqliteStore {
    async fn close_games(&self) {
        SqliteStore::close(self).await;
    }

    async fn write_games(&self, write: GameWrite) -> Result<(), StoreError> {
        self.write(Write::Game(write)).await
    }

    async fn read_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        // The events not folded yet, taken before the snapshot: one folded meanwhile is in
        // the snapshot too (it leaves memory only once committed), and is taken once.
        let unfolded = self.recent.events_of(game);
        // One read transaction: the row and the events come from the same snapshot.
        let mut tx = self.pool.begin().await?;
        let owner: Option<String> = sqlx::query_scalar(recent::OWNER)
            .fetch_optional(&mut *tx)
            .await?;
        let row = sqlx::query(SELECT_GAME)
            .bind(game)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| game_not_found(game))?;
        let game_row = game_row(&row)?;
        let events = sqlx::query(SELECT_EVENTS)
            .bind(game)
            .fetch_all(&mut *tx)
            .await?;
        let events = map_rows(&events, event_row)?;
        // Another store owns the recent tables (and their events are not in this one's
        // memory): read them.
        let theirs = if owner.as_deref() == Some(self.recent.store()) {
            Vec::new()
        } else {
            let rows = sqlx::query(recent::EVENTS_OF_GAME)
                .bind(game)
                .fetch_all(&mut *tx)
                .await?;
            map_rows(&rows, event_row)?
        };
        tx.commit().await?;
        let events = recent::merge(events, unfolded.into_iter().chain(theirs).collect());
        Ok((game_row, events))
    }

    fn overlay_turns(&self, games: &mut [GameSummary]) {
        self.recent.overlay_turns(games);
    }

    fn claim_new_game(&self, _game: &str) -> Option<Statement> {
        // No leases: the one process plays every game of the file.
        None
    }
}
