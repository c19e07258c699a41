//! Games and matches written once for both databases (see `store::sql`): the statements of a
//! game's row, its events and a match, the rows' mappers, and every listing. How a write is
//! run (SQLite's writer thread and its recent events; PostgreSQL's row locks and leases) and
//! how a whole game is read differ, and are the backends' [`GameDialect`].

use async_trait::async_trait;

use crate::store::common::{
    changes_turns_only, check_versions, limit as clamp_limit, match_not_found, seat_accounts,
    seat_names,
};
use crate::store::sql::{Arg, Row, Sql, Statement, args, map_rows, placeholders};
use crate::store::{
    Cursor, EventRow, GameQuery, GameRow, GameStore, GameSummary, MatchRow, MatchStep, RowUpdate,
    StoreError,
};

/// The columns of a [`GameSummary`] but its turns (a macro, for `concat!`).
macro_rules! summary_columns_but_turns {
    () => {
        "id, match_id, settings, status, result, created_ms, updated_ms, account_one, \
         account_two, name_one, name_two, board, rules, "
    };
}

/// The columns of a [`GameSummary`] on SQLite, where the row holds the turns (and the recent
/// events not yet folded into it: `overlay_turns`).
const SQLITE_SUMMARY_COLUMNS: &str = concat!(summary_columns_but_turns!(), "turns");

/// The columns of a [`GameSummary`] on PostgreSQL, where the moves write the turns on their
/// events, not on the game's row (`postgres::appends`): a game's turns are those of its last
/// event that has them, else the row's (games played before migration 0027, and games without
/// a move).
const POSTGRES_SUMMARY_COLUMNS: &str = concat!(
    summary_columns_but_turns!(),
    "COALESCE((SELECT e.turns FROM game_events e WHERE e.game_id = games.id \
     AND e.turns IS NOT NULL ORDER BY e.version DESC LIMIT 1), turns) AS turns"
);

/// The columns of a [`GameSummary`] in the dialect of `S`.
fn summary_columns<S: Sql>() -> &'static str {
    S::pick(SQLITE_SUMMARY_COLUMNS, POSTGRES_SUMMARY_COLUMNS)
}

/// The columns of a [`MatchRow`].
const MATCH_COLUMNS: &str = "id, created_ms, state, status, updated_ms, account_one, account_two";

/// The columns of a [`GameRow`] (a macro, for `concat!`).
macro_rules! game_columns {
    () => {
        "id, match_id, created_ms, settings, token_one, token_two, status, result, updated_ms, \
         account_one, account_two, name_one, name_two, board, rules, invite_one, invite_two, \
         lobby"
    };
}

/// The columns of a [`GameRow`].
const GAME_COLUMNS: &str = game_columns!();

/// The row of one game.
pub(crate) const SELECT_GAME: &str =
    concat!("SELECT ", game_columns!(), " FROM games WHERE id = ?");

/// The events of one game, in order.
pub(crate) const SELECT_EVENTS: &str =
    "SELECT version, at_ms, payload FROM game_events WHERE game_id = ? ORDER BY version";

/// A write of games and matches, owned (SQLite hands it to its writer thread).
#[derive(Clone, Debug)]
pub(crate) enum GameWrite {
    /// [`GameStore::create_game`], its versions checked.
    CreateGame(GameRow, Vec<EventRow>),
    /// [`GameStore::append`] to a game, its seat checked.
    Append(String, Vec<EventRow>, RowUpdate),
    /// [`GameStore::save_match`].
    SaveMatch(MatchRow),
    /// [`GameStore::advance_match`]. Boxed: a step is several times larger than the other
    /// writes.
    Step(Box<MatchStep>),
}

/// What the databases do differently for games and matches: every write, and the read of a
/// whole game.
#[async_trait]
pub(crate) trait GameDialect {
    /// [`GameStore::close`].
    async fn close_games(&self);

    /// Runs `write` as one transaction.
    async fn write_games(&self, write: GameWrite) -> Result<(), StoreError>;

    /// [`GameStore::load_game`].
    async fn read_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError>;

    /// Brings listed games' turns up to date (SQLite keeps the last moves' turns apart for a
    /// while: see `store::sqlite::recent`).
    fn overlay_turns(&self, games: &mut [GameSummary]);

    /// What gives a game created in a write of this node's to this node: with several nodes
    /// on PostgreSQL, the insert of its lease (`store::postgres::leases`); nothing otherwise
    /// (one process plays every game of a SQLite file).
    fn claim_new_game(&self, game: &str) -> Option<Statement>;

    /// The statements that create `game` with its first `events` within a feature's own write
    /// (a tournament's round: its games with its pairings, in one transaction): its row, its
    /// events and, on PostgreSQL with several nodes, its lease. The versions are checked first.
    fn create_game_statements(
        &self,
        game: &GameRow,
        events: &[EventRow],
    ) -> Result<Vec<Statement>, StoreError> {
        let mut statements = new_game(game, events)?;
        statements.extend(self.claim_new_game(&game.id));
        Ok(statements)
    }
}

/// The statements that store a new game: its row and its first events (which must be versions
/// 1, 2, 3, …: checked here, before anything is written).
pub(crate) fn new_game(game: &GameRow, events: &[EventRow]) -> Result<Vec<Statement>, StoreError> {
    check_versions(&game.id, 0, events)?;
    let mut statements = Vec::with_capacity(events.len() + 1);
    statements.push(insert_game(game, events));
    statements.extend(events.iter().map(|event| insert_event(&game.id, event)));
    Ok(statements)
}

/// The insert of a new game's row (a taken id is a conflict on its first version).
pub(crate) fn insert_game(game: &GameRow, events: &[EventRow]) -> Statement {
    Statement::new(
        format!(
            "INSERT INTO games ({GAME_COLUMNS}) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        ),
        args![
            &game.id,
            &game.match_id,
            game.created_ms,
            &game.settings,
            &game.tokens[0],
            &game.tokens[1],
            &game.status,
            &game.result,
            game.updated_ms,
            &game.accounts[0],
            &game.accounts[1],
            &game.names[0],
            &game.names[1],
            &game.board,
            &game.rules,
            &game.invites[0],
            &game.invites[1],
            game.lobby
        ],
    )
    .conflict(&game.id, events.first().map_or(1, |e| e.version))
}

/// The insert of one event of `game` (a taken version is a conflict).
pub(crate) fn insert_event(game: &str, event: &EventRow) -> Statement {
    Statement::new(
        "INSERT INTO game_events (game_id, version, at_ms, payload) VALUES (?, ?, ?, ?)",
        args![game, event.version, event.at_ms, &event.payload],
    )
    .conflict(game, event.version)
}

/// The update of a game's row that `update` asks for along with `events` (none when it
/// changes nothing); `tokens` are the seat tokens it sets (`common::seat_tokens`, checked
/// before). An update of the turns alone writes them alone (see `common::changes_turns_only`):
/// on PostgreSQL `turns`, in no index, then changes no index (a HOT update, when the page has
/// room).
pub(crate) fn update_row(
    game: &str,
    events: &[EventRow],
    update: &RowUpdate,
    tokens: [Option<&str>; 2],
) -> Option<Statement> {
    if !changes_turns_only(update) {
        return Some(update_game(game, events, update, tokens));
    }
    let turns = update.turns?;
    Some(Statement::new(
        "UPDATE games SET turns = ? WHERE id = ?",
        args![turns, game],
    ))
}

fn update_game(
    game: &str,
    events: &[EventRow],
    update: &RowUpdate,
    tokens: [Option<&str>; 2],
) -> Statement {
    let accounts = seat_accounts(update);
    let names = seat_names(update);
    Statement::new(
        "UPDATE games SET status = COALESCE(?, status), result = COALESCE(?, result), \
         token_one = COALESCE(?, token_one), token_two = COALESCE(?, token_two), \
         account_one = COALESCE(?, account_one), account_two = COALESCE(?, account_two), \
         name_one = COALESCE(?, name_one), name_two = COALESCE(?, name_two), \
         turns = COALESCE(?, turns), updated_ms = COALESCE(?, updated_ms) WHERE id = ?",
        args![
            &update.status,
            &update.result,
            tokens[0],
            tokens[1],
            accounts[0],
            accounts[1],
            names[0],
            names[1],
            update.turns,
            events.last().map(|e| e.at_ms),
            game
        ],
    )
}

/// The upsert of a match.
pub(crate) fn save_match(m: &MatchRow) -> Statement {
    Statement::new(
        format!(
            "INSERT INTO matches ({MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET created_ms = excluded.created_ms, \
             state = excluded.state, status = excluded.status, \
             updated_ms = excluded.updated_ms, account_one = excluded.account_one, \
             account_two = excluded.account_two"
        ),
        args![
            &m.id,
            m.created_ms,
            &m.state,
            &m.status,
            m.updated_ms,
            &m.accounts[0],
            &m.accounts[1]
        ],
    )
}

/// A game's row as [`SELECT_GAME`] reads it.
pub(crate) fn game_row(row: &impl Row) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.get("id")?,
        match_id: row.get("match_id")?,
        created_ms: row.get("created_ms")?,
        settings: row.get("settings")?,
        tokens: [row.get("token_one")?, row.get("token_two")?],
        invites: [row.get("invite_one")?, row.get("invite_two")?],
        lobby: row.get("lobby")?,
        accounts: [row.get("account_one")?, row.get("account_two")?],
        names: [row.get("name_one")?, row.get("name_two")?],
        board: row.get::<Option<String>>("board")?.unwrap_or_default(),
        rules: row.get::<Option<String>>("rules")?.unwrap_or_default(),
        status: row.get("status")?,
        result: row.get("result")?,
        updated_ms: row.get("updated_ms")?,
    })
}

/// An event as [`SELECT_EVENTS`] reads it.
pub(crate) fn event_row(row: &impl Row) -> Result<EventRow, sqlx::Error> {
    Ok(EventRow {
        version: row.get("version")?,
        at_ms: row.get("at_ms")?,
        payload: row.get("payload")?,
    })
}

fn game_summary(row: &impl Row) -> Result<GameSummary, sqlx::Error> {
    Ok(GameSummary {
        id: row.get("id")?,
        match_id: row.get("match_id")?,
        settings: row.get("settings")?,
        status: row.get("status")?,
        result: row.get("result")?,
        created_ms: row.get("created_ms")?,
        updated_ms: row.get("updated_ms")?,
        accounts: [row.get("account_one")?, row.get("account_two")?],
        names: [row.get("name_one")?, row.get("name_two")?],
        board: row.get("board")?,
        rules: row.get("rules")?,
        turns: row.get("turns")?,
    })
}

fn match_row(row: &impl Row) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        id: row.get("id")?,
        created_ms: row.get("created_ms")?,
        state: row.get("state")?,
        accounts: [row.get("account_one")?, row.get("account_two")?],
        status: row.get("status")?,
        updated_ms: row.get("updated_ms")?,
    })
}

/// The query of `find_games` for `query` and a cursor or none, newest change first, with its
/// values. (Texts built for the filters given rather than one with `? IS NULL OR …`, which
/// would keep the database from using its indexes.)
fn find_games_query(
    columns: &str,
    query: &GameQuery<'_>,
    before: Option<&Cursor>,
    limit: i64,
) -> (String, Vec<Arg>) {
    let mut conditions = Vec::new();
    let mut values = Vec::new();
    if let Some(status) = query.status {
        conditions.push("status = ?");
        values.push(Arg::from(status));
    }
    if query.lobby {
        conditions.push("lobby = TRUE");
    } else {
        // An open game that is not a seek waits for the one player invited to it: it is
        // nobody else's business until it starts (issue 39, F15).
        conditions.push("(status <> 'open' OR lobby = TRUE)");
    }
    if let Some(player) = query.player {
        conditions.push("(lower(name_one) = ? OR lower(name_two) = ?)");
        let player = player.to_lowercase();
        values.extend(args![player.clone(), player]);
    }
    for (value, condition) in [
        (query.board, "board = ?"),
        (query.rules, "rules = ?"),
        (query.result, "result = ?"),
    ] {
        if let Some(value) = value {
            conditions.push(condition);
            values.push(Arg::from(value));
        }
    }
    if let Some(c) = before {
        conditions.push("(updated_ms, id) < (?, ?)");
        values.extend(args![c.updated_ms, &c.id]);
    }
    let filter = if conditions.is_empty() {
        String::new()
    } else {
        format!("WHERE {} ", conditions.join(" AND "))
    };
    values.push(Arg::from(clamp_limit(limit)));
    let sql = format!(
        "SELECT {columns} FROM games \
         {filter}ORDER BY updated_ms DESC, id DESC LIMIT ?"
    );
    (sql, values)
}

/// The query of `account_games` (`Some` of the games' summary columns) or `account_matches`
/// (`None`), with its values: the account twice, the statuses, the limit.
fn account_query(
    games: Option<&str>,
    account: &str,
    statuses: &[&str],
    limit: i64,
) -> (String, Vec<Arg>) {
    let (columns, table) = match games {
        Some(columns) => (columns, "games"),
        None => (MATCH_COLUMNS, "matches"),
    };
    let statuses_in = if statuses.is_empty() {
        "NULL".to_string()
    } else {
        placeholders(statuses.len())
    };
    let sql = format!(
        "SELECT {columns} FROM {table} WHERE (account_one = ? OR account_two = ?) \
         AND status IN ({statuses_in}) ORDER BY updated_ms DESC, id DESC LIMIT ?"
    );
    let mut values = args![account, account];
    values.extend(statuses.iter().map(|s| Arg::from(*s)));
    values.push(Arg::from(clamp_limit(limit)));
    (sql, values)
}

/// The condition that a match's state is open to anyone (a seek), not kept for the player
/// invited to it: its `open` flag, read from the JSON as each database does it.
fn open_match<S: Sql>() -> &'static str {
    S::pick(
        "json_extract(state, '$.open') = 1",
        "(state::json ->> 'open') = 'true'",
    )
}

#[async_trait]
impl<S: Sql + GameDialect> GameStore for S {
    async fn close(&self) {
        self.close_games().await;
    }

    async fn create_game(&self, game: &GameRow, events: &[EventRow]) -> Result<(), StoreError> {
        check_versions(&game.id, 0, events)?;
        self.write_games(GameWrite::CreateGame(game.clone(), events.to_vec()))
            .await
    }

    async fn append(
        &self,
        game: &str,
        events: &[EventRow],
        update: &RowUpdate,
    ) -> Result<(), StoreError> {
        // A wrong seat is refused before anything is written.
        crate::store::common::seat_tokens(update)?;
        let append = GameWrite::Append(game.to_string(), events.to_vec(), update.clone());
        self.write_games(append).await
    }

    async fn load_game(&self, game: &str) -> Result<(GameRow, Vec<EventRow>), StoreError> {
        self.read_game(game).await
    }

    async fn find_games(
        &self,
        query: &GameQuery<'_>,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let (sql, values) = find_games_query(summary_columns::<S>(), query, before, limit);
        let rows = self.fetch_all(&sql, values).await?;
        let mut games = map_rows(&rows, game_summary)?;
        self.overlay_turns(&mut games);
        Ok(games)
    }

    async fn account_games(
        &self,
        account: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let (sql, values) = account_query(Some(summary_columns::<S>()), account, statuses, limit);
        let rows = self.fetch_all(&sql, values).await?;
        let mut games = map_rows(&rows, game_summary)?;
        self.overlay_turns(&mut games);
        Ok(games)
    }

    async fn account_matches(
        &self,
        account: &str,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        let (sql, values) = account_query(None, account, statuses, limit);
        let rows = self.fetch_all(&sql, values).await?;
        map_rows(&rows, match_row)
    }

    async fn save_match(&self, m: &MatchRow) -> Result<(), StoreError> {
        self.write_games(GameWrite::SaveMatch(m.clone())).await
    }

    async fn advance_match(&self, step: &MatchStep) -> Result<(), StoreError> {
        self.write_games(GameWrite::Step(Box::new(step.clone())))
            .await
    }

    async fn load_match(&self, id: &str) -> Result<MatchRow, StoreError> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?");
        let row = self
            .fetch_optional(&sql, args![id])
            .await?
            .ok_or_else(|| match_not_found(id))?;
        Ok(match_row(&row)?)
    }

    async fn list_matches(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        // An open match taken by invitation only is listed once it starts (issue 39, F15).
        let shown = format!("(status <> 'open' OR {})", open_match::<Self>());
        let rows = match status {
            Some(status) => {
                let sql = format!(
                    "SELECT {MATCH_COLUMNS} FROM matches \
                     WHERE status = ? AND {shown} ORDER BY updated_ms DESC, id DESC LIMIT ?"
                );
                self.fetch_all(&sql, args![status, clamp_limit(limit)])
                    .await?
            }
            None => {
                let sql = format!(
                    "SELECT {MATCH_COLUMNS} FROM matches \
                     WHERE {shown} ORDER BY updated_ms DESC, id DESC LIMIT ?"
                );
                self.fetch_all(&sql, args![clamp_limit(limit)]).await?
            }
        };
        map_rows(&rows, match_row)
    }

    async fn lobby_matches(
        &self,
        before: Option<&Cursor>,
        limit: i64,
    ) -> Result<Vec<MatchRow>, StoreError> {
        // No index of its own: the open matches are few (each client may hold a few seeks).
        let open = format!(
            "SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'open' AND {}",
            open_match::<Self>()
        );
        let rows = match before {
            Some(c) => {
                let sql = format!(
                    "{open} AND (updated_ms, id) < (?, ?) \
                     ORDER BY updated_ms DESC, id DESC LIMIT ?"
                );
                self.fetch_all(&sql, args![c.updated_ms, &c.id, clamp_limit(limit)])
                    .await?
            }
            None => {
                let sql = format!("{open} ORDER BY updated_ms DESC, id DESC LIMIT ?");
                self.fetch_all(&sql, args![clamp_limit(limit)]).await?
            }
        };
        map_rows(&rows, match_row)
    }
}
