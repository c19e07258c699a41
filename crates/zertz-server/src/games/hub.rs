//! The service: live games in memory, each behind its own lock, every change stored before it
//! is acknowledged and then broadcast to the game's connections; clocks that flag on time;
//! engine seats that move off the async runtime.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use tokio::sync::{Mutex, broadcast};
use tokio::task::AbortHandle;
use zertz::Player;

use crate::config::Config;
use crate::fair_slots::FairSlots;
use crate::games::ended::{Announcer, GameEnded};
use crate::games::invitation::{self, Key};
use crate::games::matches::state::MatchState;
use crate::games::model::{
    Credential, Event, GameSettings, RATED_NEEDS_ACCOUNTS, SeatKind, Seated, seat_number,
};
use crate::games::quota::{Limits as QuotaLimits, Quotas};
use crate::games::room::{Refusal, Room, status};
use crate::games::watchers::Watchers;
use crate::games::wire::broadcast::{Broadcast, Outgoing};
use crate::games::wire::changes::Changes;
use crate::games::wire::compact::Legal;
use crate::games::wire::view::{GameView, Presence};
use crate::store::{EventRow, GameRow, GameStore, StoreError};
use crate::token;
use crate::util::{clean_name, now_ms};

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// No such game or match.
    #[error("{0}")]
    NotFound(String),
    /// The token holds no seat of this game.
    #[error("{0}")]
    Forbidden(String),
    /// The action was refused by the rules or the game's state.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Bad settings or input.
    #[error("{0}")]
    BadRequest(String),
    /// Storage failed; nothing was changed.
    #[error("storage failed, nothing was changed: {0}")]
    Storage(String),
    /// Another node plays this game now (several nodes on PostgreSQL): ask again shortly.
    #[error("{0}")]
    Elsewhere(String),
    /// The client has used its allowance (of new custom boards): ask again later.
    #[error("{0}")]
    TooMany(String),
    /// This node has too many moves waiting to be stored (`games::load`): nothing was done;
    /// ask again in a second.
    #[error("{0}")]
    Busy(String),
}

impl From<StoreError> for HubError {
    fn from(e: StoreError) -> HubError {
        match e {
            StoreError::NotFound(what) => HubError::NotFound(what),
            StoreError::NotOwner(game) => HubError::Elsewhere(crate::cluster::moved(&game)),
            other => HubError::Storage(other.to_string()),
        }
    }
}

pub(crate) struct LiveGame {
    pub(crate) room: Room,
    pub(super) tokens: [Option<String>; 2],
    pub(super) invites: [Option<String>; 2],
    pub(crate) presence: Presence,
    pub(super) legal: Legal,
    /// The state (as a spectator sees it) the last message to the connections brought them to,
    /// from which the next one says what changed; `None` when nobody was listening (the next
    /// connection sets it when it subscribes).
    pub(super) shown: Option<GameView>,
    pub(crate) timer: Option<AbortHandle>,
    pub(crate) engine_thinking: bool,
}

/// One game in memory.
pub struct Live {
    pub(super) id: String,
    pub(crate) state: Mutex<LiveGame>,
    pub(super) sender: broadcast::Sender<Outgoing>,
    /// When the game was last asked for (ms since the epoch), for eviction.
    pub(crate) last_used: AtomicI64,
    /// Set when this copy went stale (its lease lost, see `cluster::own`): its sockets close.
    pub(crate) stale: tokio::sync::watch::Sender<bool>,
}

/// A game made but not stored yet (see [`Hub::prepare_game`]).
pub(crate) struct NewGame {
    room: Room,
    /// Its row.
    pub(crate) row: GameRow,
    /// Its first events.
    pub(crate) events: Vec<EventRow>,
    tokens: [Option<String>; 2],
    invites: [Option<String>; 2],
}

/// What a game's creator gets back.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Created {
    /// The game.
    pub id: String,
    /// The creator's seat (1 or 2).
    pub seat: u8,
    /// The creator's secret seat token.
    pub token: String,
    /// For an invitation: the other seat's token, to put in the link sent to the friend.
    pub invite_token: Option<String>,
}

/// The service.
pub struct Hub {
    pub(super) store: Arc<dyn GameStore>,
    /// The games in memory (see `evict` for which leave it).
    pub(crate) live: StdMutex<HashMap<String, Arc<Live>>>,
    pub(super) config: Config,
    pub(crate) engine_slots: Arc<FairSlots>,
    pub(super) match_mutex: Mutex<()>,
    /// Who hears of finished games (see `ended`).
    pub(super) ended: Announcer,
    /// Who hears of decided matches (a tournament's knockout).
    pub(super) match_ended: Announcer<MatchState>,
    /// What each client may hold at once, and the new boards it may bring.
    pub(super) quotas: Arc<Quotas>,
    /// The channels of the matches someone watches (see `matches`).
    pub(crate) match_watchers: Watchers<Arc<MatchState>>,
    /// With several nodes on PostgreSQL: this node's place among them (see `cluster`).
    pub(crate) cluster: std::sync::OnceLock<Arc<crate::cluster::Cluster>>,
    /// The commits in flight: whether the node is behind (see `load`).
    pub(super) load: crate::games::load::Load,
    pub(super) me: std::sync::Weak<Hub>,
}

impl Hub {
    /// A service on `store`.
    pub fn new(store: Arc<dyn GameStore>, config: Config) -> Arc<Hub> {
        crate::games::design::hold_placeholder();
        let quotas = Quotas::new(QuotaLimits {
            engine_games: config.engine_games_per_client,
            seeks: config.seeks_per_client,
            invitations: config.invitations_per_client,
            new_boards_per_hour: config.new_boards_per_client,
        });
        let load = crate::games::load::Load::new(config.busy_commits, config.max_commits);
        Arc::new_cyclic(|me| Hub {
            store,
            live: StdMutex::new(HashMap::new()),
            engine_slots: FairSlots::new(config.engine_slots),
            config,
            match_mutex: Mutex::new(()),
            ended: Announcer::default(),
            match_ended: Announcer::default(),
            quotas,
            match_watchers: Watchers::new(16),
            cluster: std::sync::OnceLock::new(),
            load,
            me: me.clone(),
        })
    }

    /// Serialises changes to matches (they are rare; one lock is enough).
    pub(crate) async fn match_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.match_mutex.lock().await
    }

    /// Stores and broadcasts one event the server itself decided (no seat acted).
    pub(crate) async fn append_event(
        &self,
        live: &Arc<Live>,
        event: Event,
    ) -> Result<(), HubError> {
        let mut state = live.state.lock().await;
        self.commit(live, &mut state, vec![event], None).await
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The games' and matches' storage.
    pub fn store(&self) -> &dyn GameStore {
        self.store.as_ref()
    }

    /// The games' and matches' storage, shared (for work that outlives a request).
    pub fn store_handle(&self) -> Arc<dyn GameStore> {
        Arc::clone(&self.store)
    }

    /// What each client may hold at once (engine games, seeks) and the custom boards new to
    /// the server it may still bring.
    pub fn quotas(&self) -> &Arc<Quotas> {
        &self.quotas
    }

    /// Calls `listener` with each game that ends from now on, once, after its end is stored
    /// (see `ended`).
    pub fn on_game_end(&self, listener: impl Fn(&Arc<GameEnded>) + Send + Sync + 'static) {
        self.ended.subscribe(listener);
    }

    /// Calls `listener` with each match that is decided from now on, after its winner is
    /// stored (more than once for one match is possible: listeners do their work once).
    pub fn on_match_end(&self, listener: impl Fn(&Arc<MatchState>) + Send + Sync + 'static) {
        self.match_ended.subscribe(listener);
    }

    /// Brings every unfinished game back after a start: clocks re-armed, engines to move
    /// restarted. Returns how many games were resumed.
    pub async fn resume(&self) -> Result<usize, HubError> {
        let mut n = 0;
        for s in [status::LIVE, status::OPEN] {
            for g in self.store.list_games(Some(s), None, i64::MAX).await? {
                let live = match self.get(&g.id).await {
                    Ok(live) => live,
                    // Another node plays it (see `cluster`).
                    Err(HubError::Elsewhere(_)) => continue,
                    Err(e) => return Err(e),
                };
                let mut state = live.state.lock().await;
                self.after_change(&live, &mut state);
                n += 1;
            }
        }
        Ok(n)
    }

    /// Creates a game. Each human seat with someone `seated` in it is taken at once (a token
    /// is made for it unless one is given); the other seats wait for someone to join (a token
    /// given for one is its invitation, see `invitation`). The game starts when every human
    /// seat is taken.
    pub async fn create_game(
        &self,
        settings: GameSettings,
        seated: [Option<Seated>; 2],
        tokens: [Option<String>; 2],
        match_id: Option<String>,
    ) -> Result<(String, [Option<String>; 2]), HubError> {
        let new = self.prepare_game(settings, seated, tokens, match_id)?;
        self.store.create_game(&new.row, &new.events).await?;
        Ok(self.open_game(new).await)
    }

    /// A new game, made but not stored yet: its room, its row and first events, its tokens.
    pub(crate) fn prepare_game(
        &self,
        settings: GameSettings,
        seated: [Option<Seated>; 2],
        tokens: [Option<String>; 2],
        match_id: Option<String>,
    ) -> Result<NewGame, HubError> {
        if let [
            Some(Seated {
                account: Some(a), ..
            }),
            Some(Seated {
                account: Some(b), ..
            }),
        ] = &seated
            && a == b
        {
            return Err(HubError::BadRequest(
                "both seats of a game cannot be the same account".into(),
            ));
        }
        let id = token::game_id();
        let now = now_ms();
        let mut room = Room::new(&id, settings.clone(), now).map_err(HubError::BadRequest)?;
        let mut events = vec![Event::Created {
            settings: settings.clone(),
        }];
        let (tokens, invites) = invitation::split(&settings.seats, &seated, tokens);
        let mut all_seated = true;
        for (i, sitting) in seated.iter().enumerate() {
            if settings.seats[i] != SeatKind::Human {
                continue;
            }
            match sitting {
                Some(who) => {
                    events.push(Event::Joined {
                        seat: i as u8 + 1,
                        name: seat_name(who)?,
                        account: who.account.clone(),
                    });
                }
                None => all_seated = false,
            }
        }
        if all_seated {
            events.push(Event::Started);
        }
        for e in events.iter().skip(1) {
            room.apply(e.clone(), now).map_err(HubError::BadRequest)?;
        }
        let rows: Vec<EventRow> = events
            .iter()
            .enumerate()
            .map(|(i, e)| EventRow {
                version: i as i64 + 1,
                at_ms: now,
                payload: serde_json::to_string(e).unwrap_or_default(),
            })
            .collect();
        let row = GameRow {
            id: id.clone(),
            lobby: settings.open && match_id.is_none(),
            match_id,
            created_ms: now,
            settings: serde_json::to_string(&settings).unwrap_or_default(),
            tokens: tokens.clone(),
            invites: invites.clone(),
            accounts: room.accounts.clone(),
            names: room.names.clone(),
            board: room.game.position().layout().kind().name().to_string(),
            rules: room.game.position().rule_set().to_string(),
            status: room.status().to_string(),
            result: None,
            updated_ms: now,
        };
        Ok(NewGame {
            room,
            row,
            events: rows,
            tokens,
            invites,
        })
    }

    /// Puts a game that is stored into memory and sets it going (clock, engine). Returns its id
    /// and tokens.
    pub(crate) async fn open_game(&self, new: NewGame) -> (String, [Option<String>; 2]) {
        let id = new.row.id;
        let live = self.install(new.room, new.tokens.clone(), new.invites);
        let mut state = live.state.lock().await;
        self.after_change(&live, &mut state);
        (id, new.tokens)
    }

    fn install(
        &self,
        room: Room,
        tokens: [Option<String>; 2],
        invites: [Option<String>; 2],
    ) -> Arc<Live> {
        let (sender, _) = broadcast::channel(256);
        let legal = Legal::of(&room.game);
        let live = Arc::new(Live {
            id: room.id.clone(),
            state: Mutex::new(LiveGame {
                room,
                tokens,
                invites,
                presence: Presence::loaded_at(now_ms()),
                legal,
                shown: None,
                timer: None,
                engine_thinking: false,
            }),
            sender,
            last_used: AtomicI64::new(now_ms()),
            stale: tokio::sync::watch::Sender::new(false),
        });
        let mut map = self.live.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(live.id.clone()).or_insert(live).clone()
    }

    /// The live game `id`, loading it from storage if it is not in memory.
    pub async fn get(&self, id: &str) -> Result<Arc<Live>, HubError> {
        if let Some(live) = self.live.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            live.last_used.store(now_ms(), Ordering::Relaxed);
            return Ok(live.clone());
        }
        if !token::is_plausible_id(id) {
            return Err(HubError::NotFound(format!("game {id} not found")));
        }
        // With several nodes, an unfinished game is loaded under this node's lease.
        let (row, events, leased) = self.load_leased(id).await?;
        let mut room = Room::from_stored(id, &events).map_err(HubError::Storage)?;
        // Time while the server was down is not charged: the turn in progress restarts now.
        room.restart_clocks(now_ms());
        let live = self.install(room, row.tokens, row.invites);
        if leased {
            // Taken from a node that died: its clock and engine go on here, as after a restart.
            let mut state = live.state.lock().await;
            self.after_change(&live, &mut state);
        }
        Ok(live)
    }

    /// Whether game `id` exists, in memory or in storage, without loading it (no lease is taken,
    /// so any node can answer). A storage error counts as "exists": only a game storage does not
    /// have is called unknown.
    pub async fn exists(&self, id: &str) -> bool {
        if self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(id)
        {
            return true;
        }
        if !token::is_plausible_id(id) {
            return false;
        }
        !matches!(
            self.store().load_game(id).await,
            Err(StoreError::NotFound(_))
        )
    }

    /// The seat `who` holds in `live`, or `None` for a spectator.
    async fn seat_of(&self, live: &Live, who: Option<Credential<'_>>) -> Option<Player> {
        let who = who?;
        let state = live.state.lock().await;
        state.seat_of(who)
    }

    /// The state of a game for `who` (a spectator without a seat or a credential); with the
    /// legal moves spelled out as well as compact when `list`.
    pub async fn view(
        &self,
        id: &str,
        who: Option<Credential<'_>>,
        list: bool,
    ) -> Result<GameView, HubError> {
        let live = self.get(id).await?;
        let mut state = live.state.lock().await;
        let seat = who.and_then(|w| state.seat_of(w));
        if let Some(p) = seat {
            state.presence.heard_from(p.index(), now_ms());
        }
        let view = self.make_view(&state, seat);
        Ok(if list {
            view.with_list(&state.room)
        } else {
            view
        })
    }

    pub(super) fn make_view(&self, state: &LiveGame, seat: Option<Player>) -> GameView {
        GameView::of(
            &state.room,
            seat,
            &state.presence,
            now_ms(),
            self.config.claim_after.as_millis() as i64,
            &state.legal,
        )
    }

    /// Takes the open seat of a game (an open seek or an invitation without a token). With an
    /// invitation, takes the seat it names, once: the seat gets a token of its own. `joiner` is who sits down: a guest with a
    /// name, or an account. An account that already holds a seat of the game gets it back, from
    /// any device. Returns the seat and its token.
    pub async fn join(
        &self,
        id: &str,
        token_given: Option<&str>,
        joiner: &Seated,
    ) -> Result<(u8, String), HubError> {
        let live = self.get(id).await?;
        let mut state = live.state.lock().await;
        let name = seat_name(joiner)?;
        let own = joiner
            .account
            .as_deref()
            .and_then(|a| state.seat_of(Credential::Account(a)));
        let seat = match (token_given, own) {
            (Some(t), _) => match invitation::key_of(&state.tokens, &state.invites, t)? {
                Key::Seat(seat) => seat,
                Key::Invite(seat) if state.room.names[seat.index()].is_some() => {
                    return Err(invitation::used());
                }
                Key::Invite(seat) => seat,
            },
            (None, Some(seat)) => seat,
            (None, None) => {
                if !state.room.settings.open {
                    return Err(HubError::Forbidden(
                        "this game is by invitation: use the link you were sent".into(),
                    ));
                }
                let free = (0..2).find(|&i| {
                    state.room.settings.seats[i] == SeatKind::Human && state.room.names[i].is_none()
                });
                let Some(i) = free else {
                    return Err(HubError::Refused(Refusal::NotNow(
                        "both seats are taken".into(),
                    )));
                };
                Player::from_index(i).unwrap_or(Player::One)
            }
        };
        let i = seat.index();
        if state.room.names[i].is_some() {
            // Already joined: joining again is harmless and returns the seat.
            let token = state.tokens[i].clone().unwrap_or_default();
            return Ok((seat_number(seat), token));
        }
        if state.room.is_over() {
            return Err(HubError::Refused(Refusal::NotNow(
                "the game is over".into(),
            )));
        }
        if state.room.settings.rated && joiner.account.is_none() {
            return Err(HubError::BadRequest(RATED_NEEDS_ACCOUNTS.into()));
        }
        if joiner.account.is_some() && state.room.accounts[1 - i] == joiner.account {
            return Err(HubError::Refused(Refusal::NotNow(
                "you hold the other seat of this game: you cannot play yourself".into(),
            )));
        }
        let token = state.tokens[i].clone().unwrap_or_else(token::seat_token);
        let mut events = vec![Event::Joined {
            seat: seat_number(seat),
            name,
            account: joiner.account.clone(),
        }];
        let others_seated = (0..2).filter(|&j| j != i).all(|j| {
            state.room.settings.seats[j] != SeatKind::Human || state.room.names[j].is_some()
        });
        if others_seated && !state.room.started {
            events.push(Event::Started);
        }
        let update_seat = Some((i, token.clone()));
        self.commit(&live, &mut state, events, update_seat).await?;
        state.tokens[i] = Some(token.clone());
        Ok((seat_number(seat), token))
    }

    /// Subscribes a connection to a game: its seat, the receiver of new messages, and the
    /// state now. The seat's presence counts from here until [`Hub::leave`]. A token that holds
    /// no seat is refused; an account that holds none watches as a spectator.
    pub async fn connect(
        &self,
        id: &str,
        who: Option<Credential<'_>>,
    ) -> Result<(Arc<Live>, Option<Player>, broadcast::Receiver<Outgoing>), HubError> {
        let live = self.get(id).await?;
        let mut state = live.state.lock().await;
        let seat = who.and_then(|w| state.seat_of(w));
        if matches!(who, Some(Credential::Token(_))) && seat.is_none() {
            return Err(HubError::Forbidden(
                "this token holds no seat of the game".into(),
            ));
        }
        let receiver = live.sender.subscribe();
        // What the next message changes is from here, unless a message already went out
        // since the last change (then it is from there).
        if state.shown.is_none() {
            state.shown = Some(self.make_view(&state, None));
        }
        if let Some(p) = seat {
            state.presence.connect(p.index());
            self.presence_changed(&live, &mut state);
        }
        drop(state);
        Ok((live, seat, receiver))
    }

    /// A connection of `seat` closed; its peer was last heard from at `heard_ms` (ms since
    /// the epoch: now, unless the connection was given up for its silence).
    pub async fn leave(&self, live: &Arc<Live>, seat: Option<Player>, heard_ms: i64) {
        let Some(p) = seat else { return };
        let mut state = live.state.lock().await;
        state.presence.disconnect(p.index(), heard_ms);
        self.presence_changed(live, &mut state);
    }

    fn presence_changed(&self, live: &Live, state: &mut LiveGame) {
        if live.sender.receiver_count() == 0 {
            state.shown = None;
            return;
        }
        let view = self.make_view(state, None);
        self.send_changes(live, state, "presence", None, view);
    }

    /// Sends the connections what changed from the state they were last brought to to `view`
    /// (a spectator's), which becomes that state.
    pub(super) fn send_changes(
        &self,
        live: &Live,
        state: &mut LiveGame,
        kind: &str,
        event: Option<&Event>,
        view: GameView,
    ) {
        // Listening connections always find a state here (set when they subscribed). Were it
        // missing, nothing is sent: the clients see a gap in the versions at the next event
        // and ask for a full state.
        debug_assert!(
            state.shown.is_some(),
            "a message to send without a state before it"
        );
        if let Some(old) = &state.shown {
            let changes = Changes::between(old, &view);
            let outgoing = Arc::new(Broadcast::new(kind, event, &changes, view.version));
            let _ = live.sender.send(match event {
                Some(_) => Outgoing::Event(outgoing),
                None => Outgoing::Presence(outgoing),
            });
        }
        state.shown = Some(view);
    }

    /// The state and the events after `since` (all if `since` is 0), for a (re)connecting
    /// client. `None` for the events when the gap cannot be filled (then the state alone is a
    /// full resync).
    pub async fn catch_up(
        &self,
        live: &Live,
        seat: Option<Player>,
        since: Option<i64>,
    ) -> (GameView, Option<Vec<(i64, Event)>>) {
        let state = live.state.lock().await;
        let view = self.make_view(&state, seat);
        let missed = since.and_then(|v| {
            let v = usize::try_from(v).ok()?;
            let log = &state.room.log;
            (v <= log.len() && log.len() - v <= 500).then(|| {
                log[v..]
                    .iter()
                    .enumerate()
                    .map(|(i, (_, e))| ((v + i + 1) as i64, e.clone()))
                    .collect()
            })
        });
        (view, missed)
    }

    /// The seat of `token` in the game, if any (for the HTTP layer).
    pub async fn seat(
        &self,
        id: &str,
        who: Option<Credential<'_>>,
    ) -> Result<Option<Player>, HubError> {
        let live = self.get(id).await?;
        Ok(self.seat_of(&live, who).await)
    }

    /// The room of a game, as it is now (for records and analysis).
    pub async fn room(&self, id: &str) -> Result<Room, HubError> {
        let live = self.get(id).await?;
        let state = live.state.lock().await;
        Ok(state.room.clone())
    }

    /// Who sits in `seat` of `live`: the name shown and the account.
    pub async fn seated(&self, live: &Live, seat: Player) -> Seated {
        let state = live.state.lock().await;
        let i = seat.index();
        Seated {
            name: state.room.names[i].clone().unwrap_or_default(),
            account: state.room.accounts[i].clone(),
        }
    }

    /// Where a game stands now: its position, turns played, whether it is being played, and who
    /// is to move.
    pub async fn snapshot(&self, live: &Live) -> Snapshot {
        let state = live.state.lock().await;
        let room = &state.room;
        Snapshot {
            position: room.game.position().clone(),
            turns: room.game.turns().len(),
            live: room.started && !room.is_over(),
            to_move: room.game.to_move(),
        }
    }
}

/// Where a game stands (see [`Hub::snapshot`]).
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The position.
    pub position: zertz::Position,
    /// Turns played.
    pub turns: usize,
    /// Started and not over.
    pub live: bool,
    /// The player to move.
    pub to_move: Player,
}

impl LiveGame {
    /// The seat `who` holds, if any.
    pub(crate) fn seat_of(&self, who: Credential<'_>) -> Option<Player> {
        self.room.seat_of(&self.tokens, who)
    }
}

impl Live {
    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// The name shown for someone taking a seat: a guest's name as given (trimmed, checked), an
/// account's as it is.
fn seat_name(who: &Seated) -> Result<String, HubError> {
    match who.account {
        Some(_) => Ok(who.name.clone()),
        None => clean_name(&who.name).map_err(HubError::BadRequest),
    }
}

/// A hub for the unit tests on a fresh SQLite file in a temporary directory, which lasts as
/// long as the directory returned with it.
#[cfg(test)]
pub(crate) async fn temporary_hub(config: Config) -> (tempfile::TempDir, Arc<Hub>) {
    // The games' own tests rate nobody (the ratings are tested in `ratings`).
    let (dir, store) = crate::store::temporary_sqlite().await;
    (dir, Hub::new(Arc::new(store), config))
}

/// A game of two guests, Ann and Ben, created on `hub` with `settings`: its id and the two
/// seats' tokens (for the unit tests).
#[cfg(test)]
pub(crate) async fn guests_game(
    hub: &Hub,
    settings: crate::games::model::GameSettings,
) -> (String, [String; 2]) {
    use crate::games::model::Seated;
    let (id, tokens) = hub
        .create_game(
            settings,
            [Some(Seated::guest("Ann")), Some(Seated::guest("Ben"))],
            [None, None],
            None,
        )
        .await
        .unwrap();
    (id, tokens.map(|t| t.unwrap()))
}

#[cfg(test)]
mod clock_tests {
    use super::*;
    use crate::accounts::viewer::Payer;
    use std::time::Duration;

    use crate::games::clock::ClockSpec;
    use crate::games::model::Action;

    /// On this test's runtime (one thread) the flag timer cannot run before the late move is
    /// handled: the refusal comes from the check of the move itself, not from the timer.
    #[tokio::test]
    async fn a_move_after_the_time_ran_out_is_refused_and_the_flag_stored() {
        let (_dir, hub) = temporary_hub(Config::default()).await;
        let settings = GameSettings::for_tests(ClockSpec::SuddenDeath { total_ms: 50 });
        let (id, [ann, ben]) = guests_game(&hub, settings).await;
        // Ann's first move costs no time; Ben's clock runs from it.
        let first = Action::Move {
            text: "Wd4,a1".into(),
        };
        hub.act(&id, Credential::Token(&ann), first, &Payer::named("test"))
            .await
            .unwrap();
        // Blocks the runtime's only thread past the end of Ben's time.
        std::thread::sleep(Duration::from_millis(120));
        let move_text = "Bd5,g4".to_string();
        let e = hub
            .act(
                &id,
                Credential::Token(&ben),
                Action::Move { text: move_text },
                &Payer::named("test"),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&e, HubError::Refused(Refusal::NotNow(m)) if m.contains("time ran out")),
            "{e:?}"
        );
        let room = hub.room(&id).await.unwrap();
        assert!(matches!(
            room.log.last(),
            Some((_, Event::Flagged { seat: 2 }))
        ));
        assert_eq!(room.game.turns().len(), 1, "the late move was not played");
        assert_eq!(room.result().as_deref(), Some("1-0"));
        // Stored, not only in memory.
        let (row, events) = hub.store().load_game(&id).await.unwrap();
        assert_eq!(row.result.as_deref(), Some("1-0"));
        let last: Event = serde_json::from_str(&events.last().unwrap().payload).unwrap();
        assert_eq!(last, Event::Flagged { seat: 2 });
    }

    /// A game is announced once when it ends, by a result or by an abort; what happens in the
    /// room after its end (a rematch asked for) is not an end again.
    #[tokio::test]
    async fn a_game_that_ends_is_announced_once() {
        let (_dir, hub) = temporary_hub(Config::default()).await;
        let heard = Arc::new(StdMutex::new(Vec::new()));
        let hearing = Arc::clone(&heard);
        hub.on_game_end(move |ended| {
            let mut heard = hearing.lock().unwrap();
            heard.push((ended.room.id.clone(), ended.room.result()));
        });
        let seated = || [Some(Seated::guest("Ann")), Some(Seated::guest("Ben"))];
        let settings = GameSettings::for_tests(ClockSpec::Unlimited {});
        let (won, tokens) = hub
            .create_game(settings.clone(), seated(), [None, None], None)
            .await
            .unwrap();
        let (ann, ben) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
        let first = Action::Move {
            text: "Wd4,a1".into(),
        };
        hub.act(&won, Credential::Token(&ann), first, &Payer::named("test"))
            .await
            .unwrap();
        hub.act(
            &won,
            Credential::Token(&ben),
            Action::Resign {},
            &Payer::named("test"),
        )
        .await
        .unwrap();
        hub.act(
            &won,
            Credential::Token(&ann),
            Action::Rematch {},
            &Payer::named("test"),
        )
        .await
        .unwrap();
        let (aborted, tokens) = hub
            .create_game(settings, seated(), [None, None], None)
            .await
            .unwrap();
        let ann = tokens[0].clone().unwrap();
        hub.act(
            &aborted,
            Credential::Token(&ann),
            Action::Abort {},
            &Payer::named("test"),
        )
        .await
        .unwrap();
        assert_eq!(
            *heard.lock().unwrap(),
            [
                (won, Some("1-0".to_string())),
                (aborted, Some("*".to_string()))
            ]
        );
    }
}
