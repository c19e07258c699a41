//! Games and matches in PostgreSQL: a write is one transaction that locks its game's row (and
//! holds its lease, with several nodes); its statements are shared (`store::game_sql`).

use crate::store::game_end::RatingPolicy;
use async_trait::async_trait;
use sqlx::postgres::PgRow;

use crate::store::common::{check_versions, conflict, game_not_found, seat_tokens};
use crate::store::game_sql::{
    GameDialect, GameWrite, SELECT_EVENTS, SELECT_GAME, event_row, game_row, insert_game,
    save_match, update_row,
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
    check_versions(&game.id, 0, events)?;
    run(&mut *conn, insert_game(game, events)).await?;
    insert_events(&mut *conn, &game.id, events, None).await?;
    if let Some(holder) = lease {
        run(conn, grant(&game.id, holder)).await?;
    }
    Ok(())
}

/// Inserts `events` of `game` in one statement, however many, with the game's `turns` after
/// them when they change (a version taken is a conflict on the first of them: the versions were
/// checked to follow the last one, so only an append racing this one can have taken it).
async fn insert_events(
    conn: &mut sqlx::PgConnection,
    game: &str,
    events: &[EventRow],
    turns: Option<i64>,
) -> Result<(), StoreError> {
    let Some(first) = events.first() else {
        return Ok(());
    };
    let versions: Vec<i64> = events.iter().map(|e| e.version).collect();
    let times: Vec<i64> = events.iter().map(|e| e.at_ms).collect();
    let payloads: Vec<&str> = events.iter().map(|e| e.payload.as_str()).collect();
    let done = sqlx::query(
        "INSERT INTO game_events (game_id, version, at_ms, payload, turns) \
         SELECT $1, e.version, e.at_ms, e.payload, $5 \
         FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS e(version, at_ms, payload)",
    )
    .bind(game)
    .bind(versions)
    .bind(times)
    .bind(payloads)
    .bind(turns)
    .execute(conn)
    .await;
    match done {
        Ok(_) => Ok(()),
        Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
            Err(conflict(game, first.version))
        }
        Err(e) => Err(e.into()),
    }
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
    let last = match lease {
        Some(holder) => crate::store::postgres::leases::check_in(conn, game, holder).await?,
        None => {
            sqlx::query_scalar(
                "SELECT COALESCE(MAX(version), 0) FROM game_events WHERE game_id = $1",
            )
            .bind(game)
            .fetch_one(&mut *conn)
            .await?
        }
    };
    check_versions(game, last, events)?;
    insert_events(&mut *conn, game, events, update.turns).await?;
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
        // The listings read the turns from the events (`game_sql`): nothing waits elsewhere.
    }

    fn claim_new_game(&self, game: &str) -> Option<Statement> {
        self.lease.as_ref().map(|holder| grant(game, holder))
    }
}

/// The events' cascade on PostgreSQL (`ZERTZ_TEST_POSTGRES`; NOT RUN without it).
#[cfg(test)]
mod tests {
    use crate::store::postgres::PostgresStore;
    use crate::store::postgres::fixtures::{event, game};
    use crate::store::{EventRow, GameStore, RowUpdate, StoreError, scratch};

    fn events(versions: std::ops::RangeInclusive<i64>) -> Vec<EventRow> {
        versions.map(event).collect()
    }

    async fn deleted_game_takes_its_events(url: String) {
        let store = PostgresStore::open(&url, |_, _| Default::default())
            .await
            .unwrap();
        for id in ["gone", "kept"] {
            store
                .create_game(&game(id, "open"), &events(1..=2))
                .await
                .unwrap();
            // Several events and a change of the row: one append, outside the moves' batches.
            let joined = RowUpdate {
                status: Some("live".into()),
                ..RowUpdate::default()
            };
            store.append(id, &events(3..=5), &joined).await.unwrap();
        }
        // A version taken is refused, and nothing of that append written.
        let again = store
            .append("kept", &events(5..=6), &RowUpdate::default())
            .await;
        assert!(
            matches!(again, Err(StoreError::Conflict { version: 5, .. })),
            "{again:?}"
        );
        let pool = store.pool();
        sqlx::query("DELETE FROM games WHERE id = 'gone'")
            .execute(pool)
            .await
            .unwrap();
        let left: Vec<(String, i64)> = sqlx::query_as(
            "SELECT game_id, COUNT(*) FROM game_events GROUP BY game_id ORDER BY game_id",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        assert_eq!(left, [("kept".to_string(), 5)]);
        let (row, kept) = store.load_game("kept").await.unwrap();
        assert_eq!((row.status.as_str(), kept), ("live", events(1..=5)));
        // A game that is not there takes no event.
        let missing = store
            .append("gone", &events(6..=6), &RowUpdate::default())
            .await;
        assert!(
            matches!(missing, Err(StoreError::NotFound(_))),
            "{missing:?}"
        );
        store.close().await;
    }

    #[tokio::test]
    async fn a_game_deleted_by_hand_takes_its_events_with_it() {
        if let Some(database) = scratch::create("a_game_deleted_takes_its_events").await {
            database.run(deleted_game_takes_its_events).await;
        }
    }
}
