//! The service: creating events, entries, the start, and each round paired as soon as the
//! previous one's games are all over. It keeps nothing of an event in memory: every step
//! reads the event from the store and writes what it decides there, so a restarted server
//! (or another node on the same PostgreSQL database) carries on from where it stands.
//!
//! What moves an event on: the finished-game announcement (a result recorded), a tick every
//! second (the events whose start time has come, and any running event whose round is
//! complete), and, at start and every few ticks, a catch-up that reads the games of the
//! current rounds whose results were never recorded (a game that ended just before the
//! process was killed, or on another node that was).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use zertz::Player as Seat;

use crate::accounts::Account;
use crate::accounts::engine;
use crate::accounts::shared_limit::SharedLimit;
use crate::accounts::store::AccountStore;
use crate::games::ended::GameEnded;
use crate::games::engine_ratings;
use crate::games::hub::{Hub, HubError, NewGame};
use crate::games::model::{SeatKind, Seated};
use crate::games::room::{Room, status as game_status};
use crate::ratings::store::RatingStore;
use crate::store::{EventRow, GameRow, StoreError};
use crate::tournaments::model::{
    ByeAsked, Chosen, Format, Joined, PairingRow, Played, Settings, Stored, TournamentRow,
    Withdrawn, bye, result, status,
};
use crate::tournaments::new_event::{NewEvent, game_settings};
use crate::tournaments::pair;
use crate::tournaments::store::TournamentStore;
use crate::util::now_ms;

/// Events one account may organise at once (registering or running): each one's tick reads
/// it every second.
pub const MAX_OPEN_EVENTS: i64 = 3;

/// How often the events are looked at.
pub const TICK: Duration = Duration::from_secs(1);
/// Every how many ticks the unrecorded games of the running events are read.
const CATCH_UP_EVERY: u64 = 10;

/// Why a request about an event failed.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// No such event (404).
    #[error("{0}")]
    NotFound(String),
    /// A bad request (400).
    #[error("{0}")]
    Invalid(String),
    /// Not the organiser (403).
    #[error("{0}")]
    Forbidden(String),
    /// Not possible now: full, closed, already in… (409).
    #[error("{0}")]
    Conflict(String),
    /// Too many events created (429).
    #[error("{0}")]
    TooMany(String),
    /// Storage failed (503).
    #[error("storage failed, nothing was changed: {0}")]
    Storage(String),
}

/// The engine's levels an event takes at most (`Tournaments::enter_engine`).
pub const MAX_ENGINES: usize = 4;

impl From<StoreError> for TournamentError {
    fn from(e: StoreError) -> TournamentError {
        TournamentError::Storage(e.to_string())
    }
}

impl From<HubError> for TournamentError {
    fn from(e: HubError) -> TournamentError {
        TournamentError::Storage(e.to_string())
    }
}

/// How many events one account, and one address, may create: kept in the database, where
/// every node counts the same (the events are stored there too), and a restart forgets none.
#[derive(Clone, Copy, Debug)]
pub struct CreationLimits {
    /// Per account.
    pub per_account: SharedLimit,
    /// Per address.
    pub per_address: SharedLimit,
}

impl Default for CreationLimits {
    /// Five events an hour per account, twenty per address (an office or a club behind one
    /// address).
    fn default() -> CreationLimits {
        CreationLimits {
            per_account: SharedLimit { per_hour: 5 },
            per_address: SharedLimit { per_hour: 20 },
        }
    }
}

/// The events of this server.
pub struct Tournaments {
    pub(super) store: Arc<dyn TournamentStore>,
    ratings: Arc<dyn RatingStore>,
    pub(super) hub: Arc<Hub>,
    /// One event step at a time on this node (other nodes are kept off by the round's key).
    step: tokio::sync::Mutex<()>,
    /// Where the creation limits are kept.
    limits_store: Arc<dyn AccountStore>,
    limits: CreationLimits,
}

/// The result a finished game gives its pairing; `None` for a game not over.
pub fn result_of(room: &Room) -> Option<&'static str> {
    if room.aborted {
        // An aborted game is a forfeit of whoever aborted it.
        return Some(match room.aborted_by() {
            Some(Seat::One) => result::BLACK_FORFEIT_WIN,
            Some(Seat::Two) => result::WHITE_FORFEIT_WIN,
            None => result::DOUBLE_FORFEIT,
        });
    }
    match room.result()?.as_str() {
        "1-0" => Some(result::WHITE),
        "0-1" => Some(result::BLACK),
        "1/2-1/2" => Some(result::DRAW),
        _ => None,
    }
}

/// What else a finished game tells its pairing: who went berserk, the turns played.
pub fn played_of(room: &Room) -> Played {
    Played {
        berserk: crate::tournaments::model::berserk::word(room.berserk),
        turns: room.game.turns().len().saturating_sub(room.history_turns) as i64,
    }
}

fn not_found(id: &str) -> TournamentError {
    TournamentError::NotFound(format!("tournament {id} not found"))
}

impl Tournaments {
    /// The service on `store`, its games played on `hub`.
    pub fn new(
        store: Arc<dyn TournamentStore>,
        ratings: Arc<dyn RatingStore>,
        hub: Arc<Hub>,
        limits_store: Arc<dyn AccountStore>,
        limits: CreationLimits,
    ) -> Arc<Tournaments> {
        Arc::new(Tournaments {
            store,
            ratings,
            hub,
            step: tokio::sync::Mutex::new(()),
            limits_store,
            limits,
        })
    }

    /// Catches up at once (events due, games that ended unheard) and then every [`TICK`].
    pub fn start(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(TICK);
            let mut n: u64 = 0;
            loop {
                tick.tick().await;
                let Some(me) = weak.upgrade() else { break };
                me.tick(n.is_multiple_of(CATCH_UP_EVERY)).await;
                n += 1;
            }
        });
    }

    /// Looks at every event due to start or running; with `catch_up`, reads the games whose
    /// results were not recorded first.
    pub async fn tick(&self, catch_up: bool) {
        let events = match self.store.tournaments_to_run(now_ms()).await {
            Ok(events) => events,
            Err(e) => {
                tracing::warn!("tournaments: the events to run were not read: {e}");
                return;
            }
        };
        for (id, now) in events {
            let done = if now == status::REGISTERING {
                self.start_now(&id).await.map(drop)
            } else if catch_up {
                self.catch_up(&id).await
            } else {
                self.advance(&id).await
            };
            if let Err(e) = done {
                tracing::warn!("tournament {id}: {e}");
            }
        }
    }

    /// Hears a finished game (called with the game's lock held: the work is a task).
    pub fn game_ended(self: &Arc<Self>, ended: &Arc<GameEnded>) {
        let Some(result) = result_of(&ended.room) else {
            return;
        };
        let game = ended.room.id.clone();
        let played = played_of(&ended.room);
        let me = Arc::clone(self);
        tokio::spawn(async move {
            if let Err(e) = me.record(&game, result, &played).await {
                // The catch-up of a later tick reads the game again.
                tracing::warn!("tournaments: the result of game {game} was not recorded: {e}");
            }
        });
    }

    /// Records the result of `game` if it is an event's, and moves its event on.
    pub(super) async fn record(
        &self,
        game: &str,
        result: &str,
        played: &Played,
    ) -> Result<(), TournamentError> {
        // Most games are no event's: a read spares the writer.
        let Some(event) = self.store.tournament_of_game(game).await? else {
            return Ok(());
        };
        self.store.record_result(game, result, played).await?;
        self.advance(&event).await
    }

    /// Records the results of event `id`'s finished games that were not recorded, then moves
    /// it on.
    pub async fn catch_up(&self, id: &str) -> Result<(), TournamentError> {
        let Some(stored) = self.store.tournament(id).await? else {
            return Ok(());
        };
        let knockout = Format::parse(&stored.row.format) == Some(Format::Knockout);
        for p in stored.pairings.iter().filter(|p| p.result.is_none()) {
            let Some(game) = &p.game_id else { continue };
            if knockout {
                // A knockout's board is a match.
                if let Some(result) = self.decided_match(game).await?
                    && self
                        .store
                        .record_result(game, result, &Played::default())
                        .await?
                        .is_some()
                {
                    tracing::info!("tournament {id}: match {game} ({result}) recorded late");
                }
                continue;
            }
            let (row, events) = self.hub.store().load_game(game).await?;
            if row.status != game_status::FINISHED {
                continue;
            }
            let room = Room::from_stored(game, &events).map_err(TournamentError::Storage)?;
            if let Some(result) = result_of(&room)
                && self
                    .store
                    .record_result(game, result, &played_of(&room))
                    .await?
                    .is_some()
            {
                tracing::info!("tournament {id}: game {game} ({result}) recorded late");
            }
        }
        self.advance(id).await
    }

    /// Creates an event organised by `account` (from `address`); returns its id.
    pub async fn create(
        &self,
        account: &Account,
        address: Option<IpAddr>,
        body: &NewEvent,
    ) -> Result<String, TournamentError> {
        let now = now_ms();
        let checked = body.check(now).map_err(TournamentError::Invalid)?;
        let open = self.store.open_events_of(&account.id).await?;
        if open >= MAX_OPEN_EVENTS {
            return Err(TournamentError::Conflict(format!(
                "you organise {open} events that are not over, the most at once: end or finish \
                 one first"
            )));
        }
        // Only events that would be made count against the limits.
        let too_many = |who: &str, wait: Duration| {
            TournamentError::TooMany(format!(
                "too many events created {who}: try again in {} s",
                wait.as_secs().max(1)
            ))
        };
        // The address's first, so that a refusal there leaves the account's allowance whole.
        let store = self.limits_store.as_ref();
        if let Some(address) = address {
            let key = format!("new-event at:{address}");
            if let Err(wait) = self.limits.per_address.take(store, &key, now).await? {
                return Err(too_many("from your address", wait));
            }
        }
        let key = format!("new-event account:{}", account.id);
        if let Err(wait) = self.limits.per_account.take(store, &key, now).await? {
            return Err(too_many("by your account", wait));
        }
        let row = TournamentRow {
            id: crate::token::game_id(),
            name: checked.name,
            format: checked.format.key().into(),
            settings: serde_json::to_string(&checked.settings)
                .map_err(|e| TournamentError::Invalid(e.to_string()))?,
            starts_ms: checked.start_ms,
            max_players: i64::from(checked.max_players),
            organiser: account.id.clone(),
            organiser_name: account.name.clone(),
            status: status::REGISTERING.into(),
            round: 0,
            created_ms: now,
            updated_ms: now,
        };
        self.store.create_tournament(&row).await?;
        tracing::info!("tournament {} created by {}", row.id, account.name);
        Ok(row.id)
    }

    /// Event `id` with its entries and pairings.
    pub async fn get(&self, id: &str) -> Result<Stored, TournamentError> {
        if !crate::token::is_plausible_id(id) {
            return Err(not_found(id));
        }
        self.store
            .tournament(id)
            .await?
            .ok_or_else(|| not_found(id))
    }

    /// Events, newest first (those of `status` when given), with their numbers of players.
    pub async fn list(
        &self,
        status: Option<&str>,
    ) -> Result<Vec<(TournamentRow, i64)>, TournamentError> {
        Ok(self.store.list_tournaments(status, 100).await?)
    }

    /// The rating of `account` in the pool of an event with `settings`.
    async fn rating(&self, settings: &Settings, account: &str) -> Result<f64, TournamentError> {
        // An engine level has its published rating, measured against the other levels.
        if let Some(level) = engine::level_of(account) {
            return Ok(engine_ratings::rating(level).map_or(0.0, f64::from));
        }
        let pool = game_settings(settings)
            .ok()
            .and_then(|g| g.pool)
            .unwrap_or_default();
        Ok(self
            .ratings
            .ratings_of(account)
            .await?
            .into_iter()
            .find(|r| r.pool == pool)
            .map_or(crate::ratings::glicko::START_RATING, |r| r.rating))
    }

    fn settings(stored: &Stored) -> Result<(Format, Settings), TournamentError> {
        let format = Format::parse(&stored.row.format).ok_or_else(|| {
            TournamentError::Storage(format!("unknown format `{}`", stored.row.format))
        })?;
        let settings = serde_json::from_str(&stored.row.settings)
            .map_err(|e| TournamentError::Storage(format!("stored settings: {e}")))?;
        Ok((format, settings))
    }

    /// Enters `account` (made at `created_ms`) in event `id`, within its entry limits.
    pub async fn join(
        &self,
        id: &str,
        account: &Account,
        created_ms: i64,
    ) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        let (format, settings) = Self::settings(&stored)?;
        let rating = self.rating(&settings, &account.id).await?;
        if let Some(why) = settings.entry_refusal(rating, now_ms() - created_ms) {
            return Err(TournamentError::Forbidden(why));
        }
        let entry = crate::tournaments::model::EntryRow {
            account_id: account.id.clone(),
            name: account.name.clone(),
            rating,
            number: None,
            withdrawn: false,
            joined_ms: now_ms(),
            gives_first: false,
        };
        match self.add_entry(&stored, format, &entry).await? {
            Joined::Joined => Ok(()),
            Joined::Already => Err(TournamentError::Conflict(
                "you are already entered in this event".into(),
            )),
            Joined::Full => Err(TournamentError::Conflict(format!(
                "this event is full: it takes {} players",
                stored.row.max_players
            ))),
            Joined::Closed => Err(closed(&stored.row.status, "joining")),
            Joined::NotFound => Err(not_found(id)),
        }
    }

    /// Stores `entry` in event `stored`: while it registers, or late while an arena runs (an
    /// arena takes players while it runs, and those who left back).
    async fn add_entry(
        &self,
        stored: &Stored,
        format: Format,
        entry: &crate::tournaments::model::EntryRow,
    ) -> Result<Joined, TournamentError> {
        let id = &stored.row.id;
        let late = format == Format::Arena
            && [status::RUNNING, status::PAUSED].contains(&stored.row.status.as_str());
        Ok(if late {
            self.store.join_running(id, entry).await?
        } else {
            self.store.join_tournament(id, entry).await?
        })
    }

    /// Enters engine level `engine` (its account, `accounts::engine`) in event `id`, asked by
    /// `account`, which must be its organiser: before the start, or while an arena runs. At
    /// most [`MAX_ENGINES`] levels in an event (each game of theirs takes engine time from
    /// everyone). The entry limits (rating, account age) are for people and do not apply.
    pub async fn enter_engine(
        &self,
        id: &str,
        account: &Account,
        engine: &Account,
    ) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        Self::organiser(&stored, account, "enter the engine")?;
        let (format, settings) = Self::settings(&stored)?;
        let engines = stored
            .entries
            .iter()
            .filter(|e| !e.withdrawn && engine::level_of(&e.account_id).is_some())
            .count();
        if engines >= MAX_ENGINES {
            return Err(TournamentError::Conflict(format!(
                "an event takes at most {MAX_ENGINES} of the engine's levels"
            )));
        }
        let entry = crate::tournaments::model::EntryRow {
            account_id: engine.id.clone(),
            name: engine.name.clone(),
            rating: self.rating(&settings, &engine.id).await?,
            number: None,
            withdrawn: false,
            joined_ms: now_ms(),
            gives_first: false,
        };
        match self.add_entry(&stored, format, &entry).await? {
            Joined::Joined => {
                tracing::info!("tournament {id}: {} entered by the organiser", engine.name);
                Ok(())
            }
            Joined::Already => Err(TournamentError::Conflict(format!(
                "{} is already entered in this event",
                engine.name
            ))),
            Joined::Full => Err(TournamentError::Conflict(format!(
                "this event is full: it takes {} players",
                stored.row.max_players
            ))),
            Joined::Closed => Err(closed(&stored.row.status, "entering a player")),
            Joined::NotFound => Err(not_found(id)),
        }
    }

    /// Withdraws `account` from event `id`: while it registers the entry is dropped; once it
    /// runs the player is paired no more (a game under way is played on) and their results
    /// stand.
    pub async fn withdraw(&self, id: &str, account: &Account) -> Result<(), TournamentError> {
        self.get(id).await?;
        match self
            .store
            .withdraw_from_tournament(id, &account.id, now_ms())
            .await?
        {
            Withdrawn::Withdrawn => Ok(()),
            Withdrawn::NotEntered => Err(TournamentError::Conflict(
                "you are not entered in this event".into(),
            )),
            Withdrawn::Closed => Err(TournamentError::Conflict(
                "this event is over: there is nothing to withdraw from".into(),
            )),
            Withdrawn::NotFound => Err(not_found(id)),
        }
    }

    /// Records what `account` chooses when it is theirs to say who begins a match's first game
    /// in knockout `id` (the seed the organiser named: `first_mover`): to begin, or with
    /// `gives_first` to let the opponent begin. Kept for every match of theirs not paired yet.
    pub async fn choose_first(
        &self,
        id: &str,
        account: &Account,
        gives_first: bool,
    ) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        let (format, _) = Self::settings(&stored)?;
        if format != Format::Knockout {
            return Err(TournamentError::Invalid(
                "only a knockout's players choose who begins a match".into(),
            ));
        }
        match self
            .store
            .choose_first(id, &account.id, gives_first, now_ms())
            .await?
        {
            Chosen::Chosen => Ok(()),
            Chosen::NotEntered => Err(TournamentError::Conflict(
                "you are not playing in this event".into(),
            )),
            Chosen::Closed => Err(TournamentError::Conflict(
                "this event is over: there is no match left to begin".into(),
            )),
            Chosen::NotFound => Err(not_found(id)),
        }
    }

    /// Asks for `account` to sit out round `round` of Swiss event `id` for `points`
    /// ([`bye::HALF`] or [`bye::ZERO`]), or with `None` takes the request back. A round not
    /// paired yet; at most one half-point bye per player, and not in the last round (it
    /// would decide the standings without a game).
    pub async fn ask_bye(
        &self,
        id: &str,
        account: &Account,
        round: u32,
        points: Option<&str>,
    ) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        let (format, settings) = Self::settings(&stored)?;
        if format != Format::Swiss {
            return Err(TournamentError::Invalid(
                "a round robin's games are fixed: byes are asked for in a Swiss (withdraw to \
                 leave)"
                    .into(),
            ));
        }
        let last = settings.rounds.unwrap_or(1);
        if !(1..=last).contains(&round) {
            return Err(TournamentError::Invalid(format!(
                "round: this event has rounds 1 to {last}, not {round}"
            )));
        }
        if i64::from(round) <= stored.row.round {
            return Err(TournamentError::Conflict(format!(
                "round {round} is paired already: a bye is asked for before its round"
            )));
        }
        if points == Some(bye::HALF) {
            if round == last {
                return Err(TournamentError::Invalid(
                    "a half-point bye cannot be taken in the last round; a zero-point one can"
                        .into(),
                ));
            }
            let asked = stored.byes.iter().any(|b| {
                b.account_id == account.id && b.points == bye::HALF && b.round != i64::from(round)
            });
            let taken = stored
                .pairings
                .iter()
                .any(|p| p.white == account.id && p.result.as_deref() == Some(result::HALF_BYE));
            if asked || taken {
                return Err(TournamentError::Conflict(
                    "you have a half-point bye already: one per event (a zero-point one is \
                     always possible)"
                        .into(),
                ));
            }
        }
        match self
            .store
            .ask_bye(id, &account.id, i64::from(round), points, now_ms())
            .await?
        {
            ByeAsked::Done => Ok(()),
            ByeAsked::TooLate => Err(TournamentError::Conflict(format!(
                "round {round} has just been paired, or the event is over: too late for a bye"
            ))),
            ByeAsked::NotEntered => Err(TournamentError::Conflict(
                "you are not playing in this event".into(),
            )),
            ByeAsked::NotFound => Err(not_found(id)),
        }
    }

    /// Refuses `account` unless it organises `stored`.
    fn organiser(stored: &Stored, account: &Account, doing: &str) -> Result<(), TournamentError> {
        if stored.row.organiser == account.id {
            return Ok(());
        }
        Err(TournamentError::Forbidden(format!(
            "only the organiser ({}) may {doing}",
            stored.row.organiser_name
        )))
    }

    /// Takes the player called `name` out of event `id`, asked by its organiser: as the
    /// player's own withdrawal (paired no more, a game under way goes on, results stand).
    pub async fn remove_by(
        &self,
        id: &str,
        account: &Account,
        name: &str,
    ) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        Self::organiser(&stored, account, "remove a player")?;
        let Some(entry) = stored
            .entries
            .iter()
            .find(|e| e.name == name && !e.withdrawn)
        else {
            return Err(TournamentError::Conflict(format!(
                "{name} is not playing in this event"
            )));
        };
        match self
            .store
            .withdraw_from_tournament(id, &entry.account_id, now_ms())
            .await?
        {
            Withdrawn::Withdrawn => {
                tracing::info!("tournament {id}: {name} removed by the organiser");
                Ok(())
            }
            Withdrawn::NotEntered => Err(TournamentError::Conflict(format!(
                "{name} is not playing in this event"
            ))),
            Withdrawn::Closed => Err(TournamentError::Conflict(
                "this event is over: nobody can be removed".into(),
            )),
            Withdrawn::NotFound => Err(not_found(id)),
        }
    }

    /// Ends event `id` now, asked by its organiser: no round is paired after this; the games
    /// under way are played on and their results count. An event that had not started is
    /// over without a game.
    pub async fn end_by(&self, id: &str, account: &Account) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        Self::organiser(&stored, account, "end this event")?;
        // One step at a time: a round being paired now is stored before the end.
        let _step = self.step.lock().await;
        if !self.store.finish_tournament(id, now_ms()).await? {
            return Err(TournamentError::Conflict(
                "this event is over already".into(),
            ));
        }
        tracing::info!("tournament {id} ended by its organiser");
        Ok(())
    }

    /// Pauses running event `id` (or, with `paused` false, lets it run again), asked by
    /// `account`, which must be its organiser. While paused the games under way go on and
    /// their results are recorded, but no round is paired and no first move is forfeited.
    pub async fn pause_by(
        &self,
        id: &str,
        account: &Account,
        paused: bool,
    ) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        let doing = if paused {
            "pause this event"
        } else {
            "resume this event"
        };
        Self::organiser(&stored, account, doing)?;
        let _step = self.step.lock().await;
        if !self.store.set_paused(id, paused, now_ms()).await? {
            return Err(TournamentError::Conflict(if paused {
                "only a running event can be paused".into()
            } else {
                "this event is not paused".into()
            }));
        }
        tracing::info!(
            "tournament {id} {} by its organiser",
            if paused { "paused" } else { "resumed" }
        );
        Ok(())
    }

    /// Starts event `id` now, asked by `account`, which must be its organiser.
    pub async fn start_by(&self, id: &str, account: &Account) -> Result<(), TournamentError> {
        let stored = self.get(id).await?;
        Self::organiser(&stored, account, "start this event")?;
        if stored.row.status != status::REGISTERING {
            return Err(TournamentError::Conflict(format!(
                "this event {}: it starts only once",
                if stored.row.status == status::FINISHED {
                    "is over"
                } else {
                    "has started already"
                }
            )));
        }
        let players = stored.entries.iter().filter(|e| !e.withdrawn).count();
        if players < 2 {
            return Err(TournamentError::Conflict(format!(
                "an event needs at least 2 players to start; this one has {players}"
            )));
        }
        if !self.start_now(id).await? {
            return Err(TournamentError::Conflict(
                "this event has just been started".into(),
            ));
        }
        Ok(())
    }

    /// Starts event `id` if it still registers (its organiser asked, or its time came) and
    /// pairs round 1; an event with fewer than two players at its start time is over at once.
    /// Returns whether this call started it.
    async fn start_now(&self, id: &str) -> Result<bool, TournamentError> {
        let Some(stored) = self.store.tournament(id).await? else {
            return Ok(false);
        };
        if stored.row.status != status::REGISTERING {
            return Ok(false);
        }
        let entered: Vec<_> = stored.entries.iter().filter(|e| !e.withdrawn).collect();
        if entered.len() < 2 {
            tracing::info!(
                "tournament {id}: {} player at its start: it is over",
                entered.len()
            );
            self.store.finish_tournament(id, now_ms()).await?;
            return Ok(false);
        }
        let (_, settings) = Self::settings(&stored)?;
        let mut ratings = Vec::with_capacity(entered.len());
        for e in entered {
            ratings.push((
                e.account_id.clone(),
                self.rating(&settings, &e.account_id).await?,
            ));
        }
        let started = self.store.start_tournament(id, &ratings, now_ms()).await?;
        if started {
            tracing::info!("tournament {id} started");
        }
        self.advance(id).await?;
        Ok(started)
    }

    /// Moves running event `id` on: when its current round is complete, pairs the next one
    /// (or finishes the event after its last). Several calls at once do it once: on this node
    /// they take turns, and a round another node stored first is read, not paired again.
    pub async fn advance(&self, id: &str) -> Result<(), TournamentError> {
        let _step = self.step.lock().await;
        let Some(stored) = self.store.tournament(id).await? else {
            return Ok(());
        };
        if stored.row.status != status::RUNNING {
            return Ok(());
        }
        let (format, settings) = Self::settings(&stored)?;
        if format == Format::Arena {
            return self.advance_arena(&stored, &settings).await;
        }
        let players = pair::players(&stored);
        let paired = u32::try_from(stored.row.round).unwrap_or(0);
        if paired > 0 && !pair::round_complete(&stored, paired) {
            self.forfeit_first_moves(&stored, &settings, Some(paired))
                .await;
            return Ok(());
        }
        let total = pair::total_rounds(format, &settings, players.len() as u32);
        if paired >= total {
            if self.store.finish_tournament(id, now_ms()).await? {
                tracing::info!("tournament {id} finished after round {paired}");
            }
            return Ok(());
        }
        let next = paired + 1;
        if format == Format::Knockout {
            return self.pair_knockout(&stored, &settings, next, total).await;
        }
        let number: HashMap<&str, u32> = players
            .iter()
            .map(|p| (p.account.as_str(), p.number))
            .collect();
        let asked: Vec<(u32, &'static str)> = stored
            .byes
            .iter()
            .filter(|b| b.round == i64::from(next))
            .filter_map(|b| {
                let result = match b.points.as_str() {
                    bye::HALF => result::HALF_BYE,
                    bye::ZERO => result::ZERO_BYE,
                    _ => return None,
                };
                Some((*number.get(b.account_id.as_str())?, result))
            })
            .collect();
        let round =
            match pair::next_round(format, &settings, &players, &stored.pairings, next, &asked) {
                Ok(round) => round,
                Err(why) => {
                    // No pairing obeys the rules (a Swiss whose players have all met): the
                    // event ends with the rounds played.
                    tracing::info!("tournament {id}: no round {next} ({why}): the event is over");
                    self.store.finish_tournament(id, now_ms()).await?;
                    return Ok(());
                }
            };
        let (mut rows, made) = self.prepare_boards(&settings, &players, next, &round.pairs)?;
        // The players without a game: the pairing's bye (or a round robin's rest), then
        // those who asked to sit the round out.
        let bye = match format {
            Format::Swiss | Format::Knockout | Format::Arena => result::BYE,
            Format::RoundRobin => result::REST,
        };
        let idle = round.bye.map(|n| (n, bye)).into_iter();
        for (n, result) in idle.chain(round.asked.iter().copied()) {
            rows.push(no_game(next, &numbered(&players, n)?.account, result));
        }
        for (board, row) in rows.iter_mut().enumerate() {
            row.board = board as i64 + 1;
        }
        self.store_and_open(id, next, &rows, made).await
    }
}

impl Tournaments {
    /// The boards of round `next` for `pairs` (first mover, second mover, by pairing numbers),
    /// in order: a game prepared for each (not stored yet), or for a pair with a player who
    /// withdrew (a round robin's fixed board), its forfeit without a game.
    pub(super) fn prepare_boards(
        &self,
        settings: &Settings,
        players: &[pair::Player],
        next: u32,
        pairs: &[(u32, u32)],
    ) -> Result<(Vec<PairingRow>, Vec<NewGame>), TournamentError> {
        let games = game_settings(settings).map_err(TournamentError::Storage)?;
        let mut rows = Vec::new();
        let mut made = Vec::new();
        for (i, &(w, b)) in pairs.iter().enumerate() {
            let (white, black) = (numbered(players, w)?, numbered(players, b)?);
            if let Some(forfeit) = pair::Round::forfeit(players, (w, b)) {
                rows.push(PairingRow {
                    black: Some(black.account.clone()),
                    ..no_game(next, &white.account, forfeit)
                });
                continue;
            }
            // An engine level entered as a player takes its seat as the engine; a game it
            // plays is not rated (the engine's levels have fixed ratings of their own).
            let mut settings = games.clone();
            let seated = [white, black].map(|p| {
                Some(Seated {
                    name: p.name.clone(),
                    account: Some(p.account.clone()),
                })
            });
            for (seat, player) in [white, black].iter().enumerate() {
                if let Some(level) = engine::level_of(&player.account) {
                    settings.seats[seat] = SeatKind::Engine { level };
                    settings.rated = false;
                }
            }
            let new = self
                .hub
                .prepare_game(settings, seated, [None, None], None)?;
            rows.push(PairingRow {
                round: i64::from(next),
                board: i as i64 + 1,
                white: white.account.clone(),
                black: Some(black.account.clone()),
                game_id: Some(new.row.id.clone()),
                result: None,
                berserk: None,
                turns: None,
            });
            made.push(new);
        }
        Ok((rows, made))
    }

    /// Stores round `next` of event `id` (its boards and the games made for them) and opens
    /// the games, unless another node or an earlier try stored it first.
    pub(super) async fn store_and_open(
        &self,
        id: &str,
        next: u32,
        rows: &[PairingRow],
        made: Vec<NewGame>,
    ) -> Result<(), TournamentError> {
        let stored_games: Vec<(GameRow, Vec<EventRow>)> = made
            .iter()
            .map(|n| (n.row.clone(), n.events.clone()))
            .collect();
        if self
            .store
            .store_round(id, i64::from(next), rows, &stored_games, &[], now_ms())
            .await?
        {
            for new in made {
                self.hub.open_game(new).await;
            }
            tracing::info!("tournament {id}: round {next} paired");
        } else {
            // Another node (or an earlier try) stored it: that pairing stands, and its games
            // are played there. Or the event was ended meanwhile: nothing was written.
            tracing::info!("tournament {id}: round {next} was paired already, or the event ended");
        }
        Ok(())
    }
}

/// The player of pairing number `n`.
fn numbered(players: &[pair::Player], n: u32) -> Result<&pair::Player, TournamentError> {
    players
        .iter()
        .find(|p| p.number == n)
        .ok_or_else(|| TournamentError::Storage(format!("no player number {n}")))
}

impl Tournaments {
    /// Ends by forfeit each game of round `round` (of every round with `None`: an arena's)
    /// whose player to move has let one of the first two moves wait longer than the event
    /// allows: the game is aborted in that player's name, which the result records as their
    /// forfeit (`-+` or `+-`). Before the first move no clock runs, so without this a player
    /// who never came would hold the round up. In an arena the player is then away (paired no
    /// more until they join again). A game another node holds is left to that node's tick.
    pub(super) async fn forfeit_first_moves(
        &self,
        stored: &Stored,
        settings: &Settings,
        round: Option<u32>,
    ) {
        let limit = i64::from(settings.first_move_s) * 1000;
        let knockout = Format::parse(&stored.row.format) == Some(Format::Knockout);
        let arena = Format::parse(&stored.row.format) == Some(Format::Arena);
        let boards = stored
            .pairings
            .iter()
            .filter(|p| round.is_none_or(|r| p.round == i64::from(r)) && p.result.is_none())
            .filter_map(|p| p.game_id.as_deref());
        for board in boards {
            // A knockout's board is a match: its game under way is the one to watch, and a
            // forfeit loses the match.
            let game = if knockout {
                match self.current_game(board).await {
                    Some(g) => g,
                    None => continue,
                }
            } else {
                board.to_string()
            };
            let game = game.as_str();
            let Ok(live) = self.hub.get(game).await else {
                continue;
            };
            let mut state = live.state.lock().await;
            let room = &state.room;
            let moved = room.game.turns().len().saturating_sub(room.history_turns);
            if !room.started
                || room.is_over()
                || moved >= 2
                || now_ms() - room.turn_started_ms < limit
            {
                continue;
            }
            let idle = room.game.to_move();
            if knockout {
                let Some(account) = room.accounts[idle.index()].clone() else {
                    continue;
                };
                drop(state);
                match self.forfeit_match(board, &account).await {
                    Ok(()) => tracing::info!(
                        "tournament {}: match {board} lost by forfeit: no move in {} s",
                        stored.row.id,
                        settings.first_move_s
                    ),
                    Err(e) => tracing::warn!(
                        "tournament {}: match {board} not forfeited: {e}",
                        stored.row.id
                    ),
                }
                continue;
            }
            let idle_account = state.room.accounts[idle.index()].clone();
            match self
                .hub
                .act_locked(
                    &live,
                    &mut state,
                    idle,
                    &crate::games::model::Action::Abort {},
                )
                .await
            {
                Ok(_) => {
                    tracing::info!(
                        "tournament {}: game {game} lost by forfeit: no move in {} s",
                        stored.row.id,
                        settings.first_move_s
                    );
                    if arena
                        && let Some(account) = idle_account
                        && let Err(e) = self
                            .store
                            .withdraw_from_tournament(&stored.row.id, &account, now_ms())
                            .await
                    {
                        tracing::warn!("tournament {}: {account} not set away: {e}", stored.row.id);
                    }
                }
                Err(e) => tracing::warn!(
                    "tournament {}: game {game} not forfeited: {e}",
                    stored.row.id
                ),
            }
        }
    }
}

impl Tournaments {
    /// Event `id` as a TRF file (see [`pair::trf`]).
    pub async fn trf(&self, id: &str) -> Result<String, TournamentError> {
        let stored = self.get(id).await?;
        let (format, settings) = Self::settings(&stored)?;
        if format == Format::Knockout {
            return Err(TournamentError::Conflict(
                "a knockout has no TRF report (the format is for Swiss and round-robin \
                 events): its bracket is on the event's page, its games in games.sgf"
                    .into(),
            ));
        }
        if format == Format::Arena {
            return Err(TournamentError::Conflict(
                "an arena has no TRF report (the format is for Swiss and round-robin events): \
                 its table is on the event's page, its games in games.sgf"
                    .into(),
            ));
        }
        if stored.row.status == status::REGISTERING {
            return Err(TournamentError::Conflict(
                "this event has not started: there is nothing to report yet".into(),
            ));
        }
        let start = stored.row.starts_ms.unwrap_or(stored.row.created_ms);
        let end = (stored.row.status == status::FINISHED).then_some(stored.row.updated_ms);
        Ok(pair::trf(&stored, format, &settings, start, end).write("\n"))
    }

    /// The finished games of event `id`, round by round, as one SGF collection (BoardSpace's
    /// format, as each game's own download).
    pub async fn games_sgf(&self, id: &str) -> Result<String, TournamentError> {
        let stored = self.get(id).await?;
        let knockout = Format::parse(&stored.row.format) == Some(Format::Knockout);
        let mut games = Vec::new();
        for p in stored.pairings.iter().filter(|p| p.result.is_some()) {
            let Some(game) = &p.game_id else { continue };
            if knockout {
                games.extend(self.match_games(game).await?);
            } else {
                games.push(game.clone());
            }
        }
        let mut out = String::new();
        for game in &games {
            let (_, events) = self.hub.store().load_game(game).await?;
            let room = Room::from_stored(game, &events).map_err(TournamentError::Storage)?;
            match crate::games::export::sgf_text(&room) {
                Ok(text) => {
                    out.push_str(text.trim_end());
                    out.push('\n');
                }
                Err(e) => tracing::warn!("tournament {id}: game {game} has no SGF: {e}"),
            }
        }
        Ok(out)
    }
}

/// A board of round `round` without a game: `account` alone (a bye), with `result`. Its
/// board number is set where the round is put together.
fn no_game(round: u32, account: &str, result: &str) -> PairingRow {
    PairingRow {
        round: i64::from(round),
        board: 0,
        white: account.to_string(),
        black: None,
        game_id: None,
        result: Some(result.into()),
        berserk: None,
        turns: None,
    }
}

/// The refusal of `doing` on an event that no longer registers.
fn closed(now: &str, doing: &str) -> TournamentError {
    let state = match now {
        status::FINISHED => "is over",
        status::REGISTERING => "has just changed",
        _ => "has started",
    };
    TournamentError::Conflict(format!(
        "this event {state}: {doing} is possible only while it registers players"
    ))
}
