//! Games and matches in PostgreSQL: a write is one transaction that locks its game's row (and
//! holds its lease, with several nodes); its statements are shared (`store::game_sql`).

use crate::store::game_end::RatingPolicy;
use async_trait::async_trait;
use sqlx::postgres::PgRow;

use crate::store::common::{check_versions, game_not_found, seat_tokens};
use crate::store::game_sql::{
    GameDialect, GameWrite, SELECT_EVENTS, SELECT_GAME, event_row, game_row, insert_event,
    new_game, save_match, update_row,
};
use crate::store::postgres::appends::batched;
use crate::store::postgres::leases::grant;
use crate::store::postgres::sql::run;
use crate::store::postgres::{LeaseHolder, PostgresStore};
use crate::store::sql::{Sql, Statement, args, map_rows};
use crate::store::{EventRow, GameRow, GameSummary, RowUpdate, StoreError};

/// Inserts a game row and its first events, inside the caller's transaction.
pub(crate) async fn create_game_in(
    conn: &mut sqlx::PgConnection,
    game: &GameRow,
    events: &[EventRow],
    lease: Option<&LeaseHolder>,
) -> Result<(), StoreError> {
    for statement in new_game(game, events)? {
        run(&mut *conn, statement).await?;
    }
    if let Some(holder) = lease {
        run(conn, grant(&game.id, holder)).await?;
    }
    Ok(())
}

/// Appends events to a game and updates its row, inside the caller's transaction.
pub(crate) async fn append_in(
    conn: &mut sqlx::PgConnection,
    game: &str,
    events: &[EventRow],
    update: &RowUpdate,
    lease: Option<&LeaseHolder>,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let tokens = seat_tokens(update)?;
    let found = sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(game)
        .fetch_optional(&mut *conn)
        .await?;
    if found.is_none() {
        return Err(game_not_found(game));
    }
    // With several nodes, only the lease's holder writes; the lease stays locked until commit.
    if let Some(holder) = lease {
        crate::store::postgres::leases::check_in(conn, game, holder).await?;
    }
    let last: Option<i64> =
        sqlx::query_scalar("SELECT MAX(version) FROM game_events WHERE game_id = $1")
            .bind(game)
            .fetch_one(&mut *conn)
            .await?;
    check_versions(game, last.unwrap_or(0), events)?;
    for event in events {
        run(&mut *conn, insert_event(game, event)).await?;
    }
    if let Some(row) = update_row(game, events, update, tokens) {
        run(&mut *conn, row).await?;
    }
    if let Some(end) = &update.ended {
        super::game_end::write_end(conn, end, rating).await?;
    }
    Ok(())
}

#[async_trait]
impl GameDialect for PostgresStore {
    async fn close_games(&self) {
        PostgresStore::close(self).await;
    }

    async fn write_games(&self, write: GameWrite) -> Result<(), StoreError> {
        let lease = self.lease.as_ref();
        // A move goes with the others waiting, in one statement (`appends`).
        if let GameWrite::Append(game, events, update) = &write
            && batched(events, update)
            && let Some(done) = self.appender.append(game, events, update, lease).await
        {
            return done;
        }
        let mut tx = self.pool.begin().await?;
        match &write {
            GameWrite::CreateGame(game, events) => {
                create_game_in(&mut tx, game, events, lease).await?;
            }
            GameWrite::Append(game, events, update) => {
                append_in(&mut tx, game, events, update, lease, self.rating).await?;
            }
            GameWrite::SaveMatch(m) => {
                run(&mut tx, save_match(m)).await?;
            }
            GameWrite::Step(step) => {
                if let Some((game, events)) = &step.new_game {
                    create_game_in(&mut tx, game, events, lease).await?;
                }
                if let Some(a) = &step.append {
                    append_in(&mut tx, &a.game, &a.events, &a.update, lease, self.rating).await?;
                }
                run(&mut tx, save_match(&step.state)).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn read_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        // One snapshot for the row and the events.
        let read = self
            .fetch_together(vec![
                (SELECT_GAME, args![game]),
                (SELECT_EVENTS, args![game]),
            ])
            .await?;
        let [row, events] = <[Vec<PgRow>; 2]>::try_from(read)
            .map_err(|_| StoreError::Write("a read of a game lost its parts".into()))?;
        let row = row.first().ok_or_else(|| game_not_found(game))?;
        Ok((game_row(row)?, map_rows(&events, event_row)?))
    }

    fn overlay_turns(&self, _games: &mut [GameSummary]) {
        // The row always holds the turns: nothing waits elsewhere.
    }

    fn claim_new_game(&self, game: &str) -> Option<Statement> {
        self.lease.as_ref().map(|holder| grant(game, holder))
    }
}
