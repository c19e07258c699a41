//! Games and matches in SQLite: writes run on the writer thread, reads on the pool.

use crate::store::game_end::RatingPolicy;
use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use sqlx::Row;
use sqlx::sqlite::SqliteRow;

use crate::store::common::{
    account_sql, changes_turns_only, check_versions, conflict, find_games_sql, game_not_found,
    limit as clamp_limit, match_not_found, seat_accounts, seat_names, seat_tokens,
};
use crate::store::sqlite::recent::{self, Recent};
use crate::store::sqlite::{SqliteStore, Write, is_unique_violation, write_error};
use crate::store::{
    Cursor, EventRow, GameQuery, GameRow, GameStore, GameSummary, MatchRow, MatchStep, RowUpdate,
    StoreError,
};

pub(crate) fn create_game(
    conn: &rusqlite::Connection,
    game: &GameRow,
    events: &[EventRow],
) -> Result<(), StoreError> {
    check_versions(&game.id, 0, events)?;
    conn.prepare_cached(
        "INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, \
         result, updated_ms, account_one, account_two, name_one, name_two, board, rules, \
         invite_one, invite_two, lobby) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .and_then(|mut insert| {
        insert.execute(params![
            game.id,
            game.match_id,
            game.created_ms,
            game.settings,
            game.tokens[0],
            game.tokens[1],
            game.status,
            game.result,
            game.updated_ms,
            game.accounts[0],
            game.accounts[1],
            game.names[0],
            game.names[1],
            game.board,
            game.rules,
            game.invites[0],
            game.invites[1],
            game.lobby
        ])
    })
    .map_err(|e| {
        if is_unique_violation(&e) {
            conflict(&game.id, events.first().map_or(1, |e| e.version))
        } else {
            write_error(e)
        }
    })?;
    insert_events(conn, &game.id, events)
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
    let accounts = seat_accounts(update);
    let names = seat_names(update);
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
    } else if changes_turns_only(update) {
        if let Some(turns) = update.turns {
            conn.prepare_cached("UPDATE games SET turns = ? WHERE id = ?")
                .and_then(|mut set| set.execute(params![turns, game]))
                .map_err(write_error)?;
        }
        return Ok(());
    }
    conn.prepare_cached(
        "UPDATE games SET status = COALESCE(?, status), result = COALESCE(?, result), \
         token_one = COALESCE(?, token_one), token_two = COALESCE(?, token_two), \
         account_one = COALESCE(?, account_one), account_two = COALESCE(?, account_two), \
         name_one = COALESCE(?, name_one), name_two = COALESCE(?, name_two), \
         turns = COALESCE(?, turns), updated_ms = COALESCE(?, updated_ms) WHERE id = ?",
    )
    .and_then(|mut set| {
        set.execute(params![
            update.status,
            update.result,
            tokens[0],
            tokens[1],
            accounts[0],
            accounts[1],
            names[0],
            names[1],
            update.turns,
            events.last().map(|e| e.at_ms),
            game
        ])
    })
    .map_err(write_error)?;
    if let Some(end) = &update.ended {
        super::game_end::write_end(conn, end, rating)?;
    }
    Ok(())
}

/// Inserts the events of `game`, mapping a taken version to a conflict.
fn insert_events(
    conn: &rusqlite::Connection,
    game: &str,
    events: &[EventRow],
) -> Result<(), StoreError> {
    let mut insert = conn
        .prepare_cached(
            "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES (?, ?, ?, ?)",
        )
        .map_err(write_error)?;
    for event in events {
        insert
            .execute(params![game, event.version, event.at_ms, event.payload])
            .map_err(|e| {
                if is_unique_violation(&e) {
                    conflict(game, event.version)
                } else {
                    write_error(e)
                }
            })?;
    }
    Ok(())
}

pub(crate) fn save_match(conn: &rusqlite::Connection, m: &MatchRow) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO matches (id, created_ms, state, status, updated_ms, account_one, \
         account_two) VALUES (?, ?, ?, ?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET created_ms = excluded.created_ms, \
         state = excluded.state, status = excluded.status, updated_ms = excluded.updated_ms, \
         account_one = excluded.account_one, account_two = excluded.account_two",
    )
    .and_then(|mut upsert| {
        upsert.execute(params![
            m.id,
            m.created_ms,
            m.state,
            m.status,
            m.updated_ms,
            m.accounts[0],
            m.accounts[1]
        ])
    })
    .map_err(write_error)?;
    Ok(())
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

/// How a query's n-th parameter is written.
const PARAM: fn(usize) -> String = |_| "?".to_string();

fn game_summary(row: &SqliteRow) -> Result<GameSummary, sqlx::Error> {
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

fn event_row(row: &SqliteRow) -> Result<EventRow, sqlx::Error> {
    Ok(EventRow {
        version: row.try_get("version")?,
        at_ms: row.try_get("at_ms")?,
        payload: row.try_get("payload")?,
    })
}

fn match_row(row: &SqliteRow) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        id: row.try_get("id")?,
        created_ms: row.try_get("created_ms")?,
        state: row.try_get("state")?,
        accounts: [row.try_get("account_one")?, row.try_get("account_two")?],
        status: row.try_get("status")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

impl SqliteStore {
    /// Listed games, each with its turns as of its last move (a game's waiting events are not
    /// on its row yet: see `recent`).
    fn summaries(&self, rows: &[SqliteRow]) -> Result<Vec<GameSummary>, StoreError> {
        let mut games = rows
            .iter()
            .map(game_summary)
            .collect::<Result<Vec<_>, _>>()?;
        self.recent.overlay_turns(&mut games);
        Ok(games)
    }
}

#[async_trait]
impl GameStore for SqliteStore {
    async fn close(&self) {
        SqliteStore::close(self).await;
    }

    async fn create_game(&self, game: &GameRow, events: &[EventRow]) -> Result<(), StoreError> {
        check_versions(&game.id, 0, events)?;
        self.write(Write::CreateGame(game.clone(), events.to_vec()))
            .await
    }

    async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
    ) -> Result<(), StoreError> {
        seat_tokens(update)?;
        self.write(Write::Append(
            game.to_string(),
            events.to_vec(),
            update.clone(),
        ))
        .await
    }

    async fn load_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        // The events not folded yet, taken before the snapshot: one folded meanwhile is in
        // the snapshot too (it leaves memory only once committed), and is taken once.
        let unfolded = self.recent.events_of(game);
        // One read transaction: the row and the events come from the same snapshot.
        let mut tx = self.pool.begin().await?;
        let owner: Option<String> = sqlx::query_scalar(recent::OWNER)
            .fetch_optional(&mut *tx)
            .await?;
        let row = sqlx::query(
            "SELECT id, match_id, created_ms, settings, token_one, token_two, status, result, \
             updated_ms, account_one, account_two, name_one, name_two, board, rules, invite_one, \
             invite_two, lobby FROM games WHERE id = ?",
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
            "SELECT version, at_ms, payload FROM game_events WHERE game_id = ? ORDER BY version",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(event_row)
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // Another store owns the recent tables (and their events are not in this one's
        // memory): read them.
        let theirs = if owner.as_deref() == Some(self.recent.store()) {
            Vec::new()
        } else {
            sqlx::query(recent::EVENTS_OF_GAME)
                .bind(game)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(event_row)
                .collect::<Result<Vec<_>, sqlx::Error>>()?
        };
        tx.commit().await?;
        let events = recent::merge(events, unfolded.into_iter().chain(theirs).collect());
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
        self.summaries(&rows)
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
        self.summaries(&rows)
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
        self.write(Write::SaveMatch(m.clone())).await
    }

    async fn advance_match(&self, step: &MatchStep) -> Result<(), StoreError> {
        self.write(Write::Step(Box::new(step.clone()))).await
    }

    async fn load_match(&self, id: &str) -> Result<MatchRow, StoreError> {
        let row = sqlx::query(
            "SELECT id, created_ms, state, status, updated_ms, account_one, account_two FROM matches WHERE id = ?",
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
                     WHERE status = ? ORDER BY updated_ms DESC, id DESC LIMIT ?",
                )
                .bind(status)
                .bind(clamp_limit(limit))
                .fetch_all(self.pool())
                .await?
            }
            None => {
                sqlx::query(
                    "SELECT id, created_ms, state, status, updated_ms, account_one, account_two FROM matches \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?",
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
                    FROM matches WHERE status = 'open' AND json_extract(state, '$.open') = 1";
        let rows = match before {
            Some(c) => {
                sqlx::query(&format!(
                    "{open} AND (updated_ms, id) < (?, ?) \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?"
                ))
                .bind(c.updated_ms)
                .bind(&c.id)
                .bind(clamp_limit(limit))
                .fetch_all(self.pool())
                .await?
            }
            None => {
                sqlx::query(&format!("{open} ORDER BY updated_ms DESC, id DESC LIMIT ?"))
                    .bind(clamp_limit(limit))
                    .fetch_all(self.pool())
                    .await?
            }
        };
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }
}
