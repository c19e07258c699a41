//! The tournaments' storage written once for both databases (see `store::sql`).
//!
//! A change that depends on what is stored (a join while the event registers and has room, a
//! round stored once) is one write whose statements carry their conditions: the first
//! statement of a change to an event updates the event's row, which on PostgreSQL locks it
//! until the end of the transaction (joins, withdrawals and the start of one event take turns,
//! on one node or several; each later statement reads what the one before committed), and on
//! SQLite runs on the one writer thread anyway. A statement whose condition fails changes no
//! row and stops the write ([`Statement::must_change`]): nothing of it is written, and the
//! statement tells why ([`Stop`]). A round is stored once by its key (event, round):
//! `INSERT … ON CONFLICT DO NOTHING` on both, where a second try (on PostgreSQL waiting for
//! the first to commit) inserts nothing and stops, its games and pairings rolled back with it.
//!
//! The games of a round are created in the same write by the statements the store gives
//! (`GameDialect::create_game_statements`: on PostgreSQL with several nodes they include the
//! game's lease to this node), so nothing of the tournaments differs between the dialects.

use async_trait::async_trait;

use crate::store::game_sql::GameDialect;
use crate::store::sql::{Row, Sql, Statement, args, map_rows};
use crate::store::{EventRow, GameRow, MatchRow, StoreError};
use crate::tournaments::model::{
    ByeAsked, ByeRow, Chosen, EntryRow, Joined, PairingRow, Played, Stored, TournamentRow,
    Withdrawn, status,
};
use crate::tournaments::store::TournamentStore;

/// The columns of a [`TournamentRow`].
const TOURNAMENT_COLUMNS: &str = "id, name, format, settings, starts_ms, max_players, \
     organiser, organiser_name, status, round, created_ms, updated_ms";

/// Why a guarded write stopped: its statement of that condition changed no row, and nothing
/// of the write was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// No such event.
    NoEvent,
    /// The event no longer registers (or, for a start, was started already).
    NotRegistering,
    /// The player is entered already.
    Entered,
    /// The event has its most players.
    Full,
    /// The player is not entered.
    NotEntered,
    /// The round is stored already.
    Paired,
}

impl Stop {
    const ALL: [Stop; 6] = [
        Stop::NoEvent,
        Stop::NotRegistering,
        Stop::Entered,
        Stop::Full,
        Stop::NotEntered,
        Stop::Paired,
    ];

    /// The text the write fails with (`StoreError::NotFound`) when it stops here.
    fn key(self) -> String {
        format!("tournament write stopped: {self:?}")
    }

    /// `statement`, which stops the write with this reason when it changes no row.
    fn unless_changed(self, statement: Statement) -> Statement {
        statement.must_change(self.key())
    }

    /// The reason `e` says the write stopped for, if it is one.
    fn of(e: &StoreError) -> Option<Stop> {
        match e {
            StoreError::NotFound(what) => Stop::ALL.into_iter().find(|s| s.key() == *what),
            _ => None,
        }
    }
}

/// Runs `statements` in one transaction: `Ok(None)` when all were written, `Ok(Some(stop))`
/// when a guard stopped them (and nothing was written).
async fn write_guarded<S: Sql>(
    store: &S,
    statements: Vec<Statement>,
) -> Result<Option<Stop>, StoreError> {
    match store.write(statements).await {
        Ok(_) => Ok(None),
        Err(e) => Stop::of(&e).map(Some).ok_or(e),
    }
}

/// The update of event `id`'s row that every change to it begins with: it stamps the change
/// (rolled back with the rest if the change stops) and, on PostgreSQL, locks the row until
/// the end of the transaction. Stops when there is no such event.
fn touch(id: &str, now_ms: i64) -> Statement {
    Stop::NoEvent.unless_changed(Statement::new(
        "UPDATE tournaments SET updated_ms = ? WHERE id = ?",
        args![now_ms, id],
    ))
}

/// Stops unless event `id` is not over (registering, running or paused).
fn not_over(id: &str) -> Statement {
    Stop::NotRegistering.unless_changed(Statement::new(
        "UPDATE tournaments SET updated_ms = updated_ms WHERE id = ? AND status <> ?",
        args![id, status::FINISHED],
    ))
}

/// Stops unless event `id` registers players.
fn registering(id: &str) -> Statement {
    Stop::NotRegistering.unless_changed(Statement::new(
        "UPDATE tournaments SET updated_ms = updated_ms WHERE id = ? AND status = ?",
        args![id, status::REGISTERING],
    ))
}

/// Stops unless event `id`, with the entry just written, has at most its most players: there
/// was room for it (the entry is then rolled back).
fn room_for_it(id: &str) -> Statement {
    Stop::Full.unless_changed(Statement::new(
        "UPDATE tournaments SET updated_ms = updated_ms WHERE id = ? \
         AND max_players >= (SELECT COUNT(*) FROM tournament_entries \
         WHERE tournament_id = ? AND NOT withdrawn)",
        args![id, id],
    ))
}

/// What a join came to, by the statement that stopped it.
fn joined(stopped: Option<Stop>) -> Joined {
    match stopped {
        None => Joined::Joined,
        Some(Stop::NoEvent) => Joined::NotFound,
        Some(Stop::Entered) => Joined::Already,
        Some(Stop::Full) => Joined::Full,
        Some(_) => Joined::Closed,
    }
}

fn tournament_row(r: &impl Row) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: r.get("id")?,
        name: r.get("name")?,
        format: r.get("format")?,
        settings: r.get("settings")?,
        starts_ms: r.get("starts_ms")?,
        max_players: r.get("max_players")?,
        organiser: r.get("organiser")?,
        organiser_name: r.get("organiser_name")?,
        status: r.get("status")?,
        round: r.get("round")?,
        created_ms: r.get("created_ms")?,
        updated_ms: r.get("updated_ms")?,
    })
}

fn entry_row(r: &impl Row) -> Result<EntryRow, sqlx::Error> {
    Ok(EntryRow {
        account_id: r.get("account_id")?,
        name: r.get("name")?,
        rating: r.get("rating")?,
        number: r.get("number")?,
        withdrawn: r.get("withdrawn")?,
        joined_ms: r.get("joined_ms")?,
        gives_first: r.get("gives_first")?,
    })
}

fn pairing_row(r: &impl Row) -> Result<PairingRow, sqlx::Error> {
    Ok(PairingRow {
        round: r.get("round")?,
        board: r.get("board")?,
        white: r.get("white")?,
        black: r.get("black")?,
        game_id: r.get("game_id")?,
        result: r.get("result")?,
        berserk: r.get("berserk")?,
        turns: r.get("turns")?,
    })
}

#[async_trait]
impl<S: Sql + GameDialect> TournamentStore for S {
    async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        let sql = format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        );
        let values = args![
            &t.id,
            &t.name,
            &t.format,
            &t.settings,
            t.starts_ms,
            t.max_players,
            &t.organiser,
            &t.organiser_name,
            &t.status,
            t.round,
            t.created_ms,
            t.updated_ms
        ];
        self.execute(&sql, values).await?;
        Ok(())
    }

    async fn tournament(&self, id: &str) -> Result<Option<Stored>, StoreError> {
        let event = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?");
        // One snapshot of the four tables.
        let read = self
            .fetch_together(vec![
                (event.as_str(), args![id]),
                (
                    "SELECT account_id, name, rating, number, withdrawn, joined_ms, gives_first \
                     FROM tournament_entries WHERE tournament_id = ? \
                     ORDER BY joined_ms, account_id",
                    args![id],
                ),
                (
                    "SELECT round, board, white, black, game_id, result, berserk, turns \
                     FROM tournament_pairings WHERE tournament_id = ? ORDER BY round, board",
                    args![id],
                ),
                (
                    "SELECT account_id, round, points FROM tournament_byes \
                     WHERE tournament_id = ? ORDER BY round, account_id",
                    args![id],
                ),
            ])
            .await?;
        let [event, entries, pairings, byes] = <[Vec<S::Row>; 4]>::try_from(read)
            .map_err(|_| StoreError::Write("a read of a tournament lost its parts".into()))?;
        let Some(row) = event.first() else {
            return Ok(None);
        };
        Ok(Some(Stored {
            row: tournament_row(row)?,
            entries: map_rows(&entries, entry_row)?,
            pairings: map_rows(&pairings, pairing_row)?,
            byes: map_rows(&byes, |r| {
                Ok(ByeRow {
                    account_id: r.get("account_id")?,
                    round: r.get("round")?,
                    points: r.get("points")?,
                })
            })?,
        }))
    }

    async fn list_tournaments(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<(TournamentRow, i64)>, StoreError> {
        let select = format!(
            "SELECT {TOURNAMENT_COLUMNS}, (SELECT COUNT(*) FROM tournament_entries e \
             WHERE e.tournament_id = t.id AND NOT e.withdrawn) AS players FROM tournaments t"
        );
        let rows = match status {
            Some(status) => {
                let sql = format!("{select} WHERE status = ? ORDER BY created_ms DESC, id LIMIT ?");
                self.fetch_all(&sql, args![status, limit]).await?
            }
            None => {
                let sql = format!("{select} ORDER BY created_ms DESC, id LIMIT ?");
                self.fetch_all(&sql, args![limit]).await?
            }
        };
        map_rows(&rows, |r| Ok((tournament_row(r)?, r.get("players")?)))
    }

    async fn join_tournament(&self, id: &str, e: &EntryRow) -> Result<Joined, StoreError> {
        let statements = vec![
            touch(id, e.joined_ms),
            registering(id),
            // In, or back in after a withdrawal; an entry not withdrawn is left alone.
            Stop::Entered.unless_changed(Statement::new(
                "INSERT INTO tournament_entries (tournament_id, account_id, name, rating, \
                 number, withdrawn, joined_ms) VALUES (?, ?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (tournament_id, account_id) DO UPDATE \
                 SET withdrawn = excluded.withdrawn, rating = excluded.rating, \
                 joined_ms = excluded.joined_ms WHERE tournament_entries.withdrawn",
                args![
                    id,
                    &e.account_id,
                    &e.name,
                    e.rating,
                    None::<i64>,
                    false,
                    e.joined_ms
                ],
            )),
            room_for_it(id),
        ];
        Ok(joined(write_guarded(self, statements).await?))
    }

    async fn join_running(&self, id: &str, e: &EntryRow) -> Result<Joined, StoreError> {
        let statements = vec![
            // Locks the event's row: two late entries take their numbers in turn.
            touch(id, e.joined_ms),
            Stop::NotRegistering.unless_changed(Statement::new(
                "UPDATE tournaments SET updated_ms = updated_ms \
                 WHERE id = ? AND format = ? AND status IN (?, ?)",
                args![id, "arena", status::RUNNING, status::PAUSED],
            )),
            // In with the next number, or back in with one's own.
            Stop::Entered.unless_changed(Statement::new(
                "INSERT INTO tournament_entries (tournament_id, account_id, name, rating, \
                 number, withdrawn, joined_ms) VALUES (?, ?, ?, ?, \
                 (SELECT COALESCE(MAX(number), 0) + 1 FROM tournament_entries \
                 WHERE tournament_id = ?), ?, ?) \
                 ON CONFLICT (tournament_id, account_id) DO UPDATE \
                 SET withdrawn = excluded.withdrawn WHERE tournament_entries.withdrawn",
                args![id, &e.account_id, &e.name, e.rating, id, false, e.joined_ms],
            )),
            room_for_it(id),
        ];
        Ok(joined(write_guarded(self, statements).await?))
    }

    async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<Withdrawn, StoreError> {
        let statements = vec![
            touch(id, now_ms),
            not_over(id),
            Stop::NotEntered.unless_changed(Statement::new(
                "UPDATE tournament_entries SET withdrawn = ? \
                 WHERE tournament_id = ? AND account_id = ? AND NOT withdrawn",
                args![true, id, account],
            )),
        ];
        Ok(match write_guarded(self, statements).await? {
            None => Withdrawn::Withdrawn,
            Some(Stop::NoEvent) => Withdrawn::NotFound,
            Some(Stop::NotEntered) => Withdrawn::NotEntered,
            Some(_) => Withdrawn::Closed,
        })
    }

    async fn choose_first(
        &self,
        id: &str,
        account: &str,
        gives_first: bool,
        now_ms: i64,
    ) -> Result<Chosen, StoreError> {
        let statements = vec![
            touch(id, now_ms),
            not_over(id),
            Stop::NotEntered.unless_changed(Statement::new(
                "UPDATE tournament_entries SET gives_first = ? \
                 WHERE tournament_id = ? AND account_id = ? AND NOT withdrawn",
                args![gives_first, id, account],
            )),
        ];
        Ok(match write_guarded(self, statements).await? {
            None => Chosen::Chosen,
            Some(Stop::NoEvent) => Chosen::NotFound,
            Some(Stop::NotEntered) => Chosen::NotEntered,
            Some(_) => Chosen::Closed,
        })
    }

    async fn ask_bye(
        &self,
        id: &str,
        account: &str,
        round: i64,
        points: Option<&str>,
        now_ms: i64,
    ) -> Result<ByeAsked, StoreError> {
        let mut statements = vec![
            touch(id, now_ms),
            // The round is not paired yet (pairing it updates this row: they take turns).
            Stop::Paired.unless_changed(Statement::new(
                "UPDATE tournaments SET updated_ms = updated_ms \
                 WHERE id = ? AND status <> ? AND round < ?",
                args![id, status::FINISHED, round],
            )),
            Stop::NotEntered.unless_changed(Statement::new(
                "UPDATE tournament_entries SET joined_ms = joined_ms \
                 WHERE tournament_id = ? AND account_id = ? AND NOT withdrawn",
                args![id, account],
            )),
        ];
        statements.push(match points {
            Some(points) => Statement::new(
                "INSERT INTO tournament_byes (tournament_id, account_id, round, points) \
                 VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, account_id, round) \
                 DO UPDATE SET points = excluded.points",
                args![id, account, round, points],
            ),
            None => Statement::new(
                "DELETE FROM tournament_byes \
                 WHERE tournament_id = ? AND account_id = ? AND round = ?",
                args![id, account, round],
            ),
        });
        Ok(match write_guarded(self, statements).await? {
            None => ByeAsked::Done,
            Some(Stop::NoEvent) => ByeAsked::NotFound,
            Some(Stop::NotEntered) => ByeAsked::NotEntered,
            Some(_) => ByeAsked::TooLate,
        })
    }

    async fn start_tournament(
        &self,
        id: &str,
        ratings: &[(String, f64)],
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut statements = vec![Stop::NotRegistering.unless_changed(Statement::new(
            "UPDATE tournaments SET status = ?, updated_ms = ?, starts_ms = ? \
             WHERE id = ? AND status = ?",
            args![status::RUNNING, now_ms, now_ms, id, status::REGISTERING],
        ))];
        statements.extend(ratings.iter().map(|(account, rating)| {
            Statement::new(
                "UPDATE tournament_entries SET rating = ? \
                 WHERE tournament_id = ? AND account_id = ?",
                args![*rating, id, account],
            )
        }));
        // The pairing numbers: highest rating first, then by name (and account, so that no
        // two entries tie).
        statements.push(Statement::new(
            "UPDATE tournament_entries SET number = (SELECT n.number FROM (SELECT e.account_id, \
             ROW_NUMBER() OVER (ORDER BY e.rating DESC, e.name, e.account_id) AS number \
             FROM tournament_entries e WHERE e.tournament_id = ? AND NOT e.withdrawn) n \
             WHERE n.account_id = tournament_entries.account_id) \
             WHERE tournament_id = ? AND NOT withdrawn",
            args![id, id],
        ));
        Ok(write_guarded(self, statements).await?.is_none())
    }

    async fn store_round(
        &self,
        id: &str,
        round: i64,
        pairings: &[PairingRow],
        games: &[(GameRow, Vec<EventRow>)],
        matches: &[MatchRow],
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        // The key first: a second try stops here (on PostgreSQL after waiting for the first
        // to end) and writes none of its games or pairings.
        let mut statements = vec![Stop::Paired.unless_changed(Statement::new(
            "INSERT INTO tournament_rounds (tournament_id, round, paired_ms) VALUES (?, ?, ?) \
             ON CONFLICT (tournament_id, round) DO NOTHING",
            args![id, round, now_ms],
        ))];
        statements.extend(matches.iter().map(crate::store::game_sql::save_match));
        for (game, events) in games {
            statements.extend(self.create_game_statements(game, events)?);
        }
        statements.extend(pairings.iter().map(|p| {
            Statement::new(
                "INSERT INTO tournament_pairings (tournament_id, round, board, white, black, \
                 game_id, result) VALUES (?, ?, ?, ?, ?, ?, ?)",
                args![
                    id, p.round, p.board, &p.white, &p.black, &p.game_id, &p.result
                ],
            )
        }));
        // Still running: an event ended meanwhile (by its organiser, on any node) gets no
        // round, and the games above are rolled back with it.
        statements.push(Stop::Paired.unless_changed(Statement::new(
            "UPDATE tournaments SET round = ?, updated_ms = ? WHERE id = ? AND status = ?",
            args![round, now_ms, id, status::RUNNING],
        )));
        Ok(write_guarded(self, statements).await?.is_none())
    }

    async fn record_result(
        &self,
        game: &str,
        result: &str,
        played: &Played,
    ) -> Result<Option<String>, StoreError> {
        // A game's event never changes: read it first, and write nothing for a game of none.
        let Some(event) = self.tournament_of_game(game).await? else {
            return Ok(None);
        };
        let recorded = self
            .execute(
                "UPDATE tournament_pairings SET result = ?, berserk = ?, turns = ? \
                 WHERE game_id = ? AND result IS NULL",
                args![result, played.berserk.map(String::from), played.turns, game],
            )
            .await?;
        Ok((recorded > 0).then_some(event))
    }

    async fn tournament_of_game(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .fetch_optional(
                "SELECT tournament_id FROM tournament_pairings WHERE game_id = ?",
                args![game],
            )
            .await?;
        Ok(row.map(|r| r.get("tournament_id")).transpose()?)
    }

    async fn finish_tournament(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let finished = self
            .execute(
                "UPDATE tournaments SET status = ?, updated_ms = ? WHERE id = ? AND status <> ?",
                args![status::FINISHED, now_ms, id, status::FINISHED],
            )
            .await?;
        Ok(finished > 0)
    }

    async fn set_paused(&self, id: &str, paused: bool, now_ms: i64) -> Result<bool, StoreError> {
        let (to, from) = if paused {
            (status::PAUSED, status::RUNNING)
        } else {
            (status::RUNNING, status::PAUSED)
        };
        let changed = self
            .execute(
                "UPDATE tournaments SET status = ?, updated_ms = ? WHERE id = ? AND status = ?",
                args![to, now_ms, id, from],
            )
            .await?;
        Ok(changed > 0)
    }

    async fn open_events_of(&self, account: &str) -> Result<i64, StoreError> {
        let row = self
            .fetch_optional(
                "SELECT COUNT(*) AS n FROM tournaments WHERE organiser = ? AND status <> ?",
                args![account, status::FINISHED],
            )
            .await?;
        Ok(row.map(|r| r.get::<i64>("n")).transpose()?.unwrap_or(0))
    }

    async fn tournaments_to_run(&self, now_ms: i64) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self
            .fetch_all(
                "SELECT id, status FROM tournaments WHERE status = ? \
                 OR (status = ? AND starts_ms IS NOT NULL AND starts_ms <= ?) ORDER BY id",
                args![status::RUNNING, status::REGISTERING, now_ms],
            )
            .await?;
        map_rows(&rows, |r| Ok((r.get("id")?, r.get("status")?)))
    }
}
