//! Games and matches in PostgreSQL.

use crate::store::game_end::RatingPolicy;
use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::store::common::{
    account_sql, changes_turns_only, check_versions, find_games_sql, game_not_found,
    insert_event_error, insert_game_error, limit as clamp_limit, match_not_found, seat_accounts,
    seat_names, seat_tokens,
};
use crate::store::postgres::{LeaseHolder, PostgresStore};
use crate::store::{
    Cursor, EventRow, GameQuery, GameRow, GameStore, GameSummary, MatchRow, MatchStep, RowUpdate,
    StoreError,
};

/// Inserts the events of `game`, mapping a taken version to a conflict.
async fn insert_events(
    conn: &mut sqlx::PgConnection,
    game: &str,
    events: &[EventRow],
) -> Result<(), StoreError> {
    for event in events {
        sqlx::query(
            "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES ($1, $2, $3, $4)",
        )
        .bind(game)
        .bind(event.version)
        .bind(event.at_ms)
        .bind(&event.payload)
        .execute(&mut *conn)
        .await
        .map_err(|e| insert_event_error(e, game, event.version))?;
    }
    Ok(())
}

/// Inserts a game row and its first events, inside the caller's transaction.
pub(crate) async fn create_game_in(
    conn: &mut sqlx::PgConnection,
    game: &GameRow,
    events: &[EventRow],
    lease: Option<&LeaseHolder>,
) -> Result<(), StoreError> {
    check_versions(&game.id, 0, events)?;
    sqlx::query(
        "INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, \
         result, updated_ms, account_one, account_two, name_one, name_two, board, rules, \
         invite_one, invite_two, lobby) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
    )
    .bind(&game.id)
    .bind(&game.match_id)
    .bind(game.created_ms)
    .bind(&game.settings)
    .bind(&game.tokens[0])
    .bind(&game.tokens[1])
    .bind(&game.status)
    .bind(&game.result)
    .bind(game.updated_ms)
    .bind(&game.accounts[0])
    .bind(&game.accounts[1])
    .bind(&game.names[0])
    .bind(&game.names[1])
    .bind(&game.board)
    .bind(&game.rules)
    .bind(&game.invites[0])
    .bind(&game.invites[1])
    .bind(game.lobby)
    .execute(&mut *conn)
    .await
    .map_err(|e| insert_game_error(e, &game.id, events))?;
    insert_events(conn, &game.id, events).await?;
    if let Some(holder) = lease {
        crate::store::postgres::leases::grant_in(conn, &game.id, holder).await?;
    }
    Ok(())
}

/// Appends events to a game and updates its row, inside the caller's transaction.
async fn append_in(
    conn: &mut sqlx::PgConnection,
    game: &str,
    events: &[EventRow],
    update: &RowUpdate,
    lease: Option<&LeaseHolder>,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let tokens = seat_tokens(update)?;
    let accounts = seat_accounts(update);
    let names = seat_names(update);
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
    insert_events(conn, game, events).await?;
    if changes_turns_only(update) {
        // `turns` is in no index: PostgreSQL can write the new row version without touching
        // an index (a HOT update, when the page has room).
        if let Some(turns) = update.turns {
            sqlx::query("UPDATE games SET turns = $1 WHERE id = $2")
                .bind(turns)
                .bind(game)
                .execute(&mut *conn)
                .await?;
        }
        return Ok(());
    }
    sqlx::query(
        "UPDATE games SET status = COALESCE($1, status), result = COALESCE($2, result), \
         token_one = COALESCE($3, token_one), token_two = COALESCE($4, token_two), \
         account_one = COALESCE($5, account_one), account_two = COALESCE($6, account_two), \
         name_one = COALESCE($7, name_one), name_two = COALESCE($8, name_two), \
         turns = COALESCE($9, turns), updated_ms = COALESCE($10, updated_ms) WHERE id = $11",
    )
    .bind(&update.status)
    .bind(&update.result)
    .bind(tokens[0])
    .bind(tokens[1])
    .bind(accounts[0])
    .bind(accounts[1])
    .bind(names[0])
    .bind(names[1])
    .bind(update.turns)
    .bind(events.last().map(|e| e.at_ms))
    .bind(game)
    .execute(&mut *conn)
    .await?;
    if let Some(end) = &update.ended {
        super::game_end::write_end(conn, end, rating).await?;
    }
    Ok(())
}

/// Creates or replaces a match, on `conn`.
async fn save_match_in(conn: &mut sqlx::PgConnection, m: &MatchRow) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO matches (id, created_ms, state, status, updated_ms, account_one, \
         account_two) VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (id) DO UPDATE SET created_ms = excluded.created_ms, \
         state = excluded.state, status = excluded.status, updated_ms = excluded.updated_ms, \
         account_one = excluded.account_one, account_two = excluded.account_two",
    )
    .bind(&m.id)
    .bind(m.created_ms)
    .bind(&m.state)
    .bind(&m.status)
    .bind(m.updated_ms)
    .bind(&m.accounts[0])
    .bind(&m.accounts[1])
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// How a query's n-th parameter is written.
const PARAM: fn(usize) -> String = |n| format!("${n}");

fn game_summary(row: &PgRow) -> Result<GameSummary, sqlx::Error> {
    Ok(GameSummary {
        id: row.try_get("id")?,
        match_id: row.try_get("match_id")?,
        settings: row.try_get("settings")?,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        accounts: [row.try_get("account_one")?, row.try_get("account_two")?],
        names: [row.try_get("name_one")?, row.try_get("name_two")?],
        board: row.try_get("board")?,
        rules: row.try_get("rules")?,
        turns: row.try_get("turns")?,
    })
}

fn match_row(row: &PgRow) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        id: row.try_get("id")?,
        created_ms: row.try_get("created_ms")?,
        state: row.try_get("state")?,
        accounts: [row.try_get("account_one")?, row.try_get("account_two")?],
        status: row.try_get("status")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

#[async_trait]
impl GameStore for PostgresStore {
    async fn close(&self) {
        PostgresStore::close(self).await;
    }

    async fn create_game(&self, game: &GameRow, events: &[EventRow]) -> Result<(), StoreError> {
        check_versions(&game.id, 0, events)?;
        let mut tx = self.pool.begin().await?;
        create_game_in(&mut tx, game, events, self.lease.as_ref()).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
    ) -> Result<(), StoreError> {
        seat_tokens(update)?;
        let mut tx = self.pool.begin().await?;
        append_in(
            &mut tx,
            game,
            events,
            update,
            self.lease.as_ref(),
            self.rating,
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        // One snapshot for the row and the events.
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .await?;
        let row = sqlx::query(
            "SELECT id, match_id, created_ms, settings, token_one, token_two, status, result, \
             updated_ms, account_one, account_two, name_one, name_two, board, rules, invite_one, \
             invite_two, lobby FROM games WHERE id = $1",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| game_not_found(game))?;
        let game_row = GameRow {
            id: row.try_get("id")?,
            match_id: row.try_get("match_id")?,
            created_ms: row.try_get("created_ms")?,
            settings: row.try_get("settings")?,
            tokens: [row.try_get("token_one")?, row.try_get("token_two")?],
            invites: [row.try_get("invite_one")?, row.try_get("invite_two")?],
            lobby: row.try_get("lobby")?,
            accounts: [row.try_get("account_one")?, row.try_get("account_two")?],
            names: [row.try_get("name_one")?, row.try_get("name_two")?],
            board: row
                .try_get::<Option<String>, _>("board")?
                .unwrap_or_default(),
            rules: row
                .try_get::<Option<String>, _>("rules")?
                .unwrap_or_default(),
            status: row.try_get("status")?,
            result: row.try_get("result")?,
            updated_ms: row.try_get("updated_ms")?,
        };
        let events = sqlx::query(
            "SELECT version, at_ms, payload FROM game_events WHERE game_id = $1 ORDER BY version",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|row| {
            Ok(EventRow {
                version: row.try_get("version")?,
                at_ms: row.try_get("at_ms")?,
                payload: row.try_get("payload")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        tx.commit().await?;
        Ok((game_row, events))
    }

    async fn find_games(
        &self,
        query: &GameQuery<'_>,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let sql = find_games_sql(query, before.is_some(), PARAM);
        let mut q = sqlx::query(&sql);
        if let Some(status) = query.status {
            q = q.bind(status);
        }
        if let Some(player) = query.player {
            let player = player.to_lowercase();
            q = q.bind(player.clone()).bind(player);
        }
        for value in [query.board, query.rules, query.result]
            .into_iter()
            .flatten()
        {
            q = q.bind(value);
        }
        if let Some(c) = before {
            q = q.bind(c.updated_ms).bind(&c.id);
        }
        let rows = q.bind(clamp_limit(limit)).fetch_all(self.pool()).await?;
        Ok(rows.iter().map(game_summary).collect::<Result<_, _>>()?)
    }

    async fn account_games(
        &self,
        account: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let sql = account_sql(false, statuses.len(), PARAM);
        let mut query = sqlx::query(&sql).bind(account).bind(account);
        for status in statuses {
            query = query.bind(*status);
        }
        let rows = query
            .bind(clamp_limit(limit))
            .fetch_all(self.pool())
            .await?;
        Ok(rows.iter().map(game_summary).collect::<Result<_, _>>()?)
    }

    async fn account_matches(
        &self,
        account: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        let sql = account_sql(true, statuses.len(), PARAM);
        let mut query = sqlx::query(&sql).bind(account).bind(account);
        for status in statuses {
            query = query.bind(*status);
        }
        let rows = query
            .bind(clamp_limit(limit))
            .fetch_all(self.pool())
            .await?;
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }

    async fn save_match(&self, m: &MatchRow) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        save_match_in(&mut conn, m).await
    }

    async fn advance_match(&self, step: &MatchStep) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some((game, events)) = &step.new_game {
            create_game_in(&mut tx, game, events, self.lease.as_ref()).await?;
        }
        if let Some(a) = &step.append {
            append_in(
                &mut tx,
                &a.game,
                &a.events,
                &a.update,
                self.lease.as_ref(),
                self.rating,
            )
            .await?;
        }
        save_match_in(&mut tx, &step.state).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load_match(&self, id: &str) -> Result<MatchRow, StoreError> {
        let row = sqlx::query(
            "SELECT id, created_ms, state, status, updated_ms, account_one, account_two FROM matches WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?
        .ok_or_else(|| match_not_found(id))?;
        Ok(match_row(&row)?)
    }

    async fn list_matches(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        let rows = match status {
            Some(status) => {
                sqlx::query(
                    "SELECT id, created_ms, state, status, updated_ms, account_one, account_two FROM matches \
                     WHERE status = $1 ORDER BY updated_ms DESC, id DESC LIMIT $2",
                )
                .bind(status)
                .bind(clamp_limit(limit))
                .fetch_all(self.pool())
                .await?
            }
            None => {
                sqlx::query(
                    "SELECT id, created_ms, state, status, updated_ms, account_one, account_two FROM matches \
                     ORDER BY updated_ms DESC, id DESC LIMIT $1",
                )
                .bind(clamp_limit(limit))
                .fetch_all(self.pool())
                .await?
            }
        };
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }

    async fn lobby_matches(
        &self,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        // No index of its own: the open matches are few (each client may hold a few seeks).
        let open = "SELECT id, created_ms, state, status, updated_ms, account_one, account_two \
                    FROM matches WHERE status = 'open' AND (state::json ->> 'open') = 'true'";
        let rows = match before {
            Some(c) => {
                sqlx::query(&format!(
                    "{open} AND (updated_ms, id) < ($1, $2) \
                     ORDER BY updated_ms DESC, id DESC LIMIT $3"
                ))
                .bind(c.updated_ms)
                .bind(&c.id)
                .bind(clamp_limit(limit))
                .fetch_all(self.pool())
                .await?
            }
            None => {
                sqlx::query(&format!(
                    "{open} ORDER BY updated_ms DESC, id DESC LIMIT $1"
                ))
                .bind(clamp_limit(limit))
                .fetch_all(self.pool())
                .await?
            }
        };
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }
}
