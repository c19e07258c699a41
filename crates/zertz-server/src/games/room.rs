//! One game in memory: its log replayed into a rules-library `Game`, the clocks, and the offers
//! in the air. [`Room::decide`] turns an action into the events it causes (or a refusal with
//! its reason) without changing anything; [`Room::apply`] applies an event once it is stored.
//! Replaying the stored events with `apply` rebuilds the room exactly, which is how games come
//! back after a restart.

use serde::Serialize;
use zertz::notation::{self, official};
use zertz::record::result_token;
use zertz::{Game, Marbles, Player, Position, Repetition, Rules};

use crate::games::clock::{ClockSpec, ClockState};
use crate::games::model::{
    Action, Credential, Event, GameSettings, SeatKind, seat_number, seat_player,
};

/// Why an action was refused. The message is for people; the kind picks the HTTP status.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The move is not legal (the rules library's reason).
    #[error("{0}")]
    IllegalMove(String),
    /// The action does not fit the game's state (not your turn, game over, nothing to
    /// accept…).
    #[error("{0}")]
    NotNow(String),
    /// The action is malformed.
    #[error("{0}")]
    BadRequest(String),
}

/// A game being played or kept.
#[derive(Clone, Debug)]
pub struct Room {
    /// The game's id.
    pub id: String,
    /// Settings from the `Created` event (shared: the room is copied for every move).
    pub settings: std::sync::Arc<GameSettings>,
    /// The rules-library game.
    pub game: Game,
    /// Stored events so far (the version of the room is their number).
    pub log: Vec<(i64, Event)>,
    /// Names of the people in the seats.
    pub names: [Option<String>; 2],
    /// The accounts bound to the seats (none for guests and engines).
    pub accounts: [Option<String>; 2],
    /// Both seats filled and the clocks started.
    pub started: bool,
    /// When the game started (ms since the epoch; 0 before).
    pub started_at_ms: i64,
    /// Each player's clock between turns.
    pub clocks: [ClockState; 2],
    /// Both clocks at the start of each turn: `clock_history[i]` before turn `i`.
    clock_history: Vec<[ClockState; 2]>,
    /// When the current turn began (ms since the epoch), for the clock of the player to move.
    /// While a bribe waits for its answer the proposer's clock is stopped: when the bribe is
    /// rejected, this moves forward by the time the answer took.
    pub turn_started_ms: i64,
    /// When the bribe waiting for its answer was proposed: the responder's clock runs from
    /// then (the decision is theirs), the proposer's is stopped.
    pub bribe_at_ms: Option<i64>,
    /// A draw offer waiting for an answer.
    pub draw_offer: Option<Player>,
    /// A takeback request waiting for an answer.
    pub takeback_request: Option<Player>,
    /// Who asked for a rematch.
    pub rematch: [bool; 2],
    /// The rematch or next match game, once it exists.
    pub next_game: Option<String>,
    /// The game was called off.
    pub aborted: bool,
    /// Bribes each player has proposed in this game, accepted or not. Kept here rather than
    /// counted in `game`, whose takebacks forget the bribes of the turns they undo: a
    /// proposal counts against the limit even when its turn is taken back (rules.md 7.3: "at
    /// most 3 bribes per match, accepted or not").
    pub bribes_proposed: [u32; 2],
    /// Turns of the history the game was created with (`settings.history`): played before
    /// the game came here, they cannot be taken back, and its bribes do not count.
    pub history_turns: usize,
    /// The board being designed or designed by the players (Zertz+xx games only).
    pub design: Option<crate::games::design::Design>,
    /// The seats that went berserk (an arena's games): half the clock, no increment.
    pub berserk: [bool; 2],
}

/// Status words used in storage and listings.
pub mod status {
    /// Waiting for a second player.
    pub const OPEN: &str = "open";
    /// Being played.
    pub const LIVE: &str = "live";
    /// Over (won, drawn or aborted).
    pub const FINISHED: &str = "finished";
}

impl Room {
    /// A room from its first event.
    pub fn new(id: &str, settings: GameSettings, at_ms: i64) -> Result<Room, String> {
        let start: Position = settings
            .start
            .parse()
            .map_err(|e| format!("start position: {e}"))?;
        let repetition = Repetition::from_name(&settings.repetition).ok_or_else(|| {
            format!(
                "repetition `{}`: expected threefold or forbidden",
                settings.repetition
            )
        })?;
        let rules = Rules {
            set: start.rule_set(),
            repetition,
            bribes: settings.bribes,
        };
        let game = match &settings.history {
            None => Game::from_position(start, rules),
            Some(text) => {
                let read =
                    crate::games::records::read(text).map_err(|e| format!("history: {e}"))?;
                let game = crate::games::records::replay_under(&read.game, rules)
                    .map_err(|e| format!("history: {e}"))?;
                if *game.start() != start {
                    return Err("history: it does not start from the start position".into());
                }
                game
            }
        };
        let history_turns = game.turns().len();
        let initial = settings.clock.initial();
        let mut names = [None, None];
        for (i, seat) in settings.seats.iter().enumerate() {
            if let SeatKind::Engine { level } = seat {
                names[i] = Some(format!("Engine level {level}"));
            }
        }
        Ok(Room {
            id: id.to_string(),
            settings: std::sync::Arc::new(settings.clone()),
            design: settings.design.then(Default::default),
            game,
            log: vec![(at_ms, Event::Created { settings })],
            names,
            accounts: [None, None],
            started: false,
            started_at_ms: 0,
            clocks: [initial; 2],
            clock_history: vec![[initial; 2]; history_turns + 1],
            turn_started_ms: at_ms,
            bribe_at_ms: None,
            draw_offer: None,
            takeback_request: None,
            rematch: [false; 2],
            next_game: None,
            aborted: false,
            bribes_proposed: [0, 0],
            history_turns,
            berserk: [false; 2],
        })
    }

    /// Rebuilds a room from its stored log (the first event must be `Created`).
    pub fn replay(id: &str, events: &[(i64, Event)]) -> Result<Room, String> {
        let Some((at, Event::Created { settings })) = events.first() else {
            return Err(format!("game {id}: the log does not start with `created`"));
        };
        let mut room = Room::new(id, settings.clone(), *at)?;
        for (i, (at, event)) in events.iter().enumerate().skip(1) {
            room.apply(event.clone(), *at)
                .map_err(|e| format!("game {id}, event {}: {e}", i + 1))?;
        }
        Ok(room)
    }

    /// Rebuilds a room from its events as the store keeps them (JSON payloads).
    pub fn from_stored(id: &str, events: &[crate::store::EventRow]) -> Result<Room, String> {
        let mut log = Vec::with_capacity(events.len());
        for e in events {
            let event: Event = serde_json::from_str(&e.payload)
                .map_err(|err| format!("game {id}, event {}: {err}", e.version))?;
            log.push((e.at_ms, event));
        }
        Room::replay(id, &log)
    }

    /// The number of stored events.
    pub fn version(&self) -> i64 {
        self.log.len() as i64
    }

    /// A copy of the room without its log: what [`Room::put_back`] needs to undo events
    /// applied after this (applying only appends to the log, so its length is enough).
    pub fn without_log(&mut self) -> Room {
        let log = std::mem::take(&mut self.log);
        let copy = self.clone();
        self.log = log;
        copy
    }

    /// Undoes the events applied since `before` was taken (with [`Room::without_log`]) when
    /// the log held `logged` events.
    pub fn put_back(&mut self, mut before: Room, logged: usize) {
        let mut log = std::mem::take(&mut self.log);
        log.truncate(logged);
        before.log = log;
        *self = before;
    }

    /// `open`, `live` or `finished`.
    pub fn status(&self) -> &'static str {
        if self.is_over() {
            status::FINISHED
        } else if self.started {
            status::LIVE
        } else {
            status::OPEN
        }
    }

    /// The game has ended (result or abort).
    pub fn is_over(&self) -> bool {
        self.aborted || self.game.is_over()
    }

    /// The result token for storage: `1-0`, `0-1`, `1/2-1/2`, or `*` when aborted.
    pub fn result(&self) -> Option<String> {
        if self.aborted {
            Some("*".into())
        } else {
            self.game
                .outcome()
                .map(|o| result_token(Some(o)).to_string())
        }
    }

    /// The seat `who` holds, if any: by its token (compared in constant time) or by the
    /// account bound to it. `tokens` are the seats' tokens.
    pub fn seat_of(&self, tokens: &[Option<String>; 2], who: Credential<'_>) -> Option<Player> {
        let mut found = None;
        for (i, (token, account)) in tokens.iter().zip(&self.accounts).enumerate() {
            let holds = match who {
                Credential::Token(t) => token
                    .as_deref()
                    .is_some_and(|mine| crate::token::same(mine, t)),
                Credential::Account(a) => account.as_deref() == Some(a),
            };
            if holds {
                found = Player::from_index(i);
            }
        }
        found
    }

    /// The seat whose engine must act now: to move (no bribe pending), or to answer a bribe.
    pub fn engine_to_act(&self) -> Option<(Player, u8)> {
        if !self.started || self.is_over() || self.designing() {
            return None;
        }
        let actor = match self.game.pending_bribe() {
            Some(b) => b.by.other(),
            None => self.game.to_move(),
        };
        match self.settings.seats[actor.index()] {
            SeatKind::Engine { level } => Some((actor, level)),
            SeatKind::Human => None,
        }
    }

    /// No clock runs before the first turn is played here: a player who has just taken an
    /// invitation sees the board before anyone's time starts, and the first player's first
    /// move costs no time (docs/server.md, "Clocks").
    pub fn before_first_turn(&self) -> bool {
        self.game.turns().len() <= self.history_turns
    }

    /// The player whose clock runs: the player to move, or, while a bribe waits for its
    /// answer, the player who must answer it. `None` before the start, before the first turn
    /// and after the end.
    pub fn clock_runner(&self) -> Option<Player> {
        if !self.started || self.is_over() || self.before_first_turn() {
            return None;
        }
        Some(match self.game.pending_bribe() {
            Some(b) => b.by.other(),
            None => self.game.to_move(),
        })
    }

    /// How long the running clock has been running at `now_ms`: since the turn began (less the
    /// time a rejected bribe waited), or since the pending bribe was proposed.
    pub fn running_ms(&self, now_ms: i64) -> i64 {
        if self.before_first_turn() {
            return 0;
        }
        let since = match (self.game.pending_bribe(), self.bribe_at_ms) {
            (Some(_), Some(at)) => at,
            _ => self.turn_started_ms,
        };
        (now_ms - since).max(0)
    }

    /// The time the mover had used of their turn when they proposed the pending bribe.
    fn used_before_bribe(&self) -> i64 {
        if self.before_first_turn() {
            return 0;
        }
        self.bribe_at_ms
            .map_or(0, |at| (at - self.turn_started_ms).max(0))
    }

    /// What `player`'s clock shows at `now_ms`, and whether it runs. The running clock counts
    /// down; a proposer waiting for the answer to a bribe shows the time used before it.
    pub fn clock_shown(&self, player: Player, now_ms: i64) -> (ClockState, bool) {
        let state = self.clocks[player.index()];
        let clock = &self.settings.clock;
        if self.clock_runner() == Some(player) {
            (clock.showing(&state, self.running_ms(now_ms)), true)
        } else if !self.is_over() && self.game.pending_bribe().is_some_and(|b| b.by == player) {
            (clock.showing(&state, self.used_before_bribe()), false)
        } else {
            (state, false)
        }
    }

    /// How long the player whose clock runs may still think, in ms from `now_ms` (`None`
    /// without a clock or when no clock runs).
    pub fn time_left(&self, now_ms: i64) -> Option<i64> {
        let runner = self.clock_runner()?;
        let allowance = self
            .settings
            .clock
            .allowance(&self.clocks[runner.index()])?;
        Some(allowance - self.running_ms(now_ms))
    }

    /// A restart: time while the server was down is not charged, so the turn in progress (and
    /// the wait for a bribe's answer) starts afresh at `now_ms`.
    pub fn restart_clocks(&mut self, now_ms: i64) {
        if self.is_over() {
            return;
        }
        self.turn_started_ms = now_ms;
        if self.game.pending_bribe().is_some() {
            self.bribe_at_ms = Some(now_ms);
        }
    }

    /// The bribes `player` may still propose, when bribes are on.
    pub fn bribes_left(&self, player: Player) -> Option<u32> {
        if !self.settings.bribes {
            return None;
        }
        let (used, limit) = self.bribe_allowance(player);
        Some(limit.saturating_sub(used + self.bribes_proposed[player.index()]))
    }

    /// The bribes `player` proposed in earlier games of the match, and the match's limit (a
    /// game on its own is a match of one game, with the limit of 3).
    fn bribe_allowance(&self, player: Player) -> (u32, u32) {
        match &self.settings.match_game {
            Some(m) => (m.bribes_used[player.index()], m.bribe_limit),
            None => (0, 3),
        }
    }

    /// The events `action` by `seat` causes at `now_ms`, or why it is refused. Changes nothing.
    pub fn decide(
        &self,
        seat: Player,
        action: &Action,
        now_ms: i64,
    ) -> Result<Vec<Event>, Refusal> {
        let n = seat_number(seat);
        let opponent = seat.other();
        if self.is_over() {
            if let Action::Rematch {} = action {
                return self.decide_rematch(seat);
            }
            return Err(Refusal::NotNow(match self.game.outcome() {
                Some(o) => format!("the game is over: {o}"),
                None => "the game was aborted".into(),
            }));
        }
        if !self.started && !matches!(action, Action::Abort {}) {
            return Err(Refusal::NotNow(
                "the game has not started: it is waiting for a second player".into(),
            ));
        }
        // A player whose running clock is out loses, whatever they send.
        if let Some(left) = self.time_left(now_ms)
            && left <= 0
            && self.clock_runner() == Some(seat)
        {
            return Ok(vec![Event::Flagged { seat: n }]);
        }
        if let Some(refusal) = self.design_refusal(action) {
            return Err(refusal);
        }
        match action {
            Action::Move { text } => {
                if self.game.to_move() != seat {
                    return Err(Refusal::NotNow(format!(
                        "it is not your turn: player {} is to move",
                        seat_number(opponent)
                    )));
                }
                if let Some(b) = self.game.pending_bribe() {
                    return Err(Refusal::NotNow(format!(
                        "your bribe of {} is waiting for the opponent's answer",
                        b.bribe
                    )));
                }
                let position = self.game.position();
                let mv = notation::parse_any(position, text.trim())
                    .map_err(|e| Refusal::IllegalMove(e.to_string()))?;
                self.game
                    .check(&mv)
                    .map_err(|e| Refusal::IllegalMove(format!("`{}`: {e}", text.trim())))?;
                let clock = self.charge(seat, now_ms).ok_or_else(|| {
                    Refusal::NotNow("your time ran out".into()) // unreachable: flagged above
                })?;
                Ok(vec![Event::Moved {
                    seat: n,
                    notation: official::move_text(position, &mv),
                    clock,
                }])
            }
            Action::Resign {} => Ok(vec![Event::Resigned { seat: n }]),
            Action::OfferDraw {} => {
                if self.draw_offer == Some(opponent) {
                    Ok(vec![Event::DrawAgreed])
                } else if self.draw_offer == Some(seat) {
                    Err(Refusal::NotNow("you have already offered a draw".into()))
                } else {
                    Ok(vec![Event::DrawOffered { seat: n }])
                }
            }
            Action::AcceptDraw {} => {
                if self.draw_offer == Some(opponent) {
                    Ok(vec![Event::DrawAgreed])
                } else {
                    Err(Refusal::NotNow("there is no draw offer to accept".into()))
                }
            }
            Action::DeclineDraw {} => {
                if self.draw_offer == Some(opponent) {
                    Ok(vec![Event::DrawDeclined { seat: n }])
                } else {
                    Err(Refusal::NotNow("there is no draw offer to decline".into()))
                }
            }
            Action::RequestTakeback {} => {
                if !self.settings.casual {
                    return Err(Refusal::NotNow(
                        "takebacks are for casual games; this game is rated".into(),
                    ));
                }
                if self.takeback_turns(seat) == 0 {
                    return Err(Refusal::NotNow("you have no move to take back".into()));
                }
                if self.takeback_request.is_some() {
                    return Err(Refusal::NotNow("a takeback is already asked for".into()));
                }
                Ok(vec![Event::TakebackRequested { seat: n }])
            }
            Action::AcceptTakeback {} => {
                if self.takeback_request != Some(opponent) {
                    return Err(Refusal::NotNow("there is no takeback to accept".into()));
                }
                let turns = self.takeback_turns(opponent);
                let back = self.game.turns().len() - turns;
                // Both clocks go back to what they showed before the turn taken back.
                let clocks = self.clock_history[back];
                Ok(vec![Event::TakenBack {
                    turns: turns as u32,
                    clocks,
                }])
            }
            Action::DeclineTakeback {} => {
                if self.takeback_request != Some(opponent) {
                    return Err(Refusal::NotNow("there is no takeback to decline".into()));
                }
                Ok(vec![Event::TakebackDeclined { seat: n }])
            }
            Action::Abort {} => {
                if self.game.turns().len() - self.history_turns >= 2 {
                    return Err(Refusal::NotNow(
                        "both players have moved: the game can no longer be aborted (resign instead)"
                            .into(),
                    ));
                }
                if self
                    .settings
                    .match_game
                    .as_ref()
                    .is_some_and(|m| m.aborted_before[seat.index()])
                {
                    return Err(Refusal::NotNow(
                        "you have already aborted a game of this match, and a player may abort \
                         only one (an aborted game is replayed): resign instead"
                            .into(),
                    ));
                }
                Ok(vec![Event::Aborted { seat: Some(n) }])
            }
            Action::Rematch {} => Err(Refusal::NotNow(
                "a rematch can be offered once the game is over".into(),
            )),
            Action::ClaimVictory {} => Err(Refusal::NotNow(
                "the opponent is here: there is nothing to claim".into(),
            )),
            Action::ProposeBribe { marbles } => {
                if !self.settings.bribes {
                    return Err(Refusal::NotNow(
                        "bribes are not allowed in this game".into(),
                    ));
                }
                if self.game.to_move() != seat {
                    return Err(Refusal::NotNow(
                        "only the player to move may propose a bribe".into(),
                    ));
                }
                if let Some(b) = self.game.pending_bribe() {
                    return Err(Refusal::NotNow(format!(
                        "your bribe of {} is waiting for the opponent's answer",
                        b.bribe
                    )));
                }
                if self.bribes_left(seat) == Some(0) {
                    let (_, limit) = self.bribe_allowance(seat);
                    let whole = if self.settings.match_game.is_some() {
                        "match"
                    } else {
                        "game"
                    };
                    return Err(Refusal::NotNow(format!(
                        "you have proposed all the bribes you may in this {whole}: at most \
                         {limit}, accepted or not (a takeback does not give one back)"
                    )));
                }
                let bribe = Marbles::parse_slashed(marbles.trim()).map_err(|e| {
                    Refusal::BadRequest(format!(
                        "bribe `{marbles}`: {e} (expected white/grey/black, e.g. 1/0/0)"
                    ))
                })?;
                let mut probe = self.game.clone();
                probe
                    .propose_bribe(bribe)
                    .map_err(|e| Refusal::IllegalMove(format!("bribe {bribe}: {e}")))?;
                Ok(vec![Event::BribeProposed {
                    seat: n,
                    marbles: slashed(bribe),
                }])
            }
            Action::AnswerBribe { accept } => {
                let Some(b) = self.game.pending_bribe() else {
                    return Err(Refusal::NotNow("no bribe is waiting for an answer".into()));
                };
                if b.by == seat {
                    return Err(Refusal::NotNow(
                        "the bribe is yours: the opponent answers it".into(),
                    ));
                }
                // The decision is charged to the responder like a turn of theirs.
                let answered_in = self.running_ms(now_ms);
                let Some(responder_clock) = self
                    .clock_of(seat)
                    .charge(&self.clocks[seat.index()], answered_in)
                else {
                    return Ok(vec![Event::Flagged { seat: n }]);
                };
                let clock = if *accept {
                    let mut probe = self.game.clone();
                    probe
                        .answer_bribe(true)
                        .map_err(|e| Refusal::IllegalMove(e.to_string()))?;
                    // The proposer's turn ends, charged the time used before proposing.
                    self.clock_of(b.by)
                        .charge(&self.clocks[b.by.index()], self.used_before_bribe())
                } else {
                    None
                };
                // (Without a clock there is nothing to record.)
                let responder_clock = (self.settings.clock
                    != crate::games::clock::ClockSpec::Unlimited {})
                .then_some(responder_clock);
                Ok(vec![Event::BribeAnswered {
                    seat: n,
                    accepted: *accept,
                    clock,
                    responder_clock,
                }])
            }
            Action::AddRing { .. }
            | Action::RemoveRing { .. }
            | Action::FinishDesign {}
            | Action::Swap {} => self.decide_design(seat, action),
            Action::Berserk {} => self.decide_berserk(seat),
        }
    }

    /// Going berserk: in a game that allows it, before one's first move, once; the clock
    /// (sudden death or Fischer) is halved, and the increment no longer added.
    fn decide_berserk(&self, seat: Player) -> Result<Vec<Event>, Refusal> {
        if !self.settings.berserk {
            return Err(Refusal::NotNow(
                "berserk is only for an arena's games".into(),
            ));
        }
        if self.berserk[seat.index()] {
            return Err(Refusal::NotNow("you have gone berserk already".into()));
        }
        if self.own_turns(seat) > 0 {
            return Err(Refusal::NotNow(
                "berserk is possible only before your first move".into(),
            ));
        }
        let mut clock = self.clocks[seat.index()];
        match self.settings.clock {
            ClockSpec::SuddenDeath { .. } | ClockSpec::Fischer { .. } => {
                clock.remaining_ms /= 2;
            }
            _ => {
                return Err(Refusal::NotNow(
                    "berserk halves a clock of one amount of time (sudden death or Fischer); \
                     this game's clock has none"
                        .into(),
                ));
            }
        }
        Ok(vec![Event::Berserk {
            seat: seat_number(seat),
            clock,
        }])
    }

    /// The turns `seat` has played in this game (not counting a history it was created
    /// with).
    pub fn own_turns(&self, seat: Player) -> usize {
        let turns = self.game.turns().len();
        // Turn i (from 0) of the whole game is the first player's when i is even.
        let first = self.game.start().to_move();
        (self.history_turns..turns)
            .filter(|&i| (i % 2 == 0) == (first == seat))
            .count()
    }

    /// The clock `seat` plays under: the game's, without the increment once berserk.
    fn clock_of(&self, seat: Player) -> ClockSpec {
        match self.settings.clock {
            ClockSpec::Fischer { base_ms, .. } if self.berserk[seat.index()] => {
                ClockSpec::Fischer {
                    base_ms,
                    increment_ms: 0,
                }
            }
            spec => spec,
        }
    }

    /// A claim when the opponent has been away long enough (checked by the caller).
    pub fn decide_claim(&self, seat: Player) -> Result<Vec<Event>, Refusal> {
        if self.is_over() {
            return Err(Refusal::NotNow("the game is over".into()));
        }
        if !self.started {
            return Err(Refusal::NotNow("the game has not started".into()));
        }
        Ok(vec![Event::Claimed {
            seat: seat_number(seat),
        }])
    }

    fn decide_rematch(&self, seat: Player) -> Result<Vec<Event>, Refusal> {
        if let Some(refusal) = self.design_rematch_refusal() {
            return Err(refusal);
        }
        if self.settings.match_game.is_some() {
            return Err(Refusal::NotNow(
                "games of a match are followed by the match's next game, not a rematch".into(),
            ));
        }
        if self.next_game.is_some() {
            return Err(Refusal::NotNow("the rematch already exists".into()));
        }
        if self.rematch[seat.index()] {
            return Err(Refusal::NotNow(
                "you have already asked for a rematch".into(),
            ));
        }
        Ok(vec![Event::RematchOffered {
            seat: seat_number(seat),
        }])
    }

    /// How many turns a takeback asked by `seat` undoes: back to before `seat`'s last move.
    /// Never into the history the game was created with.
    fn takeback_turns(&self, seat: Player) -> usize {
        let turns = self.game.turns().len();
        let positions = self.game.positions();
        (1..=(turns - self.history_turns).min(2))
            .find(|&k| positions[turns - k].to_move() == seat)
            .unwrap_or(0)
    }

    /// The mover's clock after ending their turn now, `None` if it ran out.
    fn charge(&self, mover: Player, now_ms: i64) -> Option<ClockState> {
        self.clock_of(mover)
            .charge(&self.clocks[mover.index()], self.running_ms(now_ms))
    }

    /// Applies a stored event.
    pub fn apply(&mut self, event: Event, at_ms: i64) -> Result<(), String> {
        let seat_of = |s: u8| seat_player(s).ok_or_else(|| format!("no seat {s}"));
        match &event {
            Event::Created { .. } => return Err("a second `created`".into()),
            Event::Joined {
                seat,
                name,
                account,
            } => {
                let i = seat_of(*seat)?.index();
                self.names[i] = Some(name.clone());
                self.accounts[i] = account.clone();
            }
            Event::Started => {
                self.started = true;
                self.started_at_ms = at_ms;
                self.turn_started_ms = at_ms;
            }
            Event::Moved {
                seat,
                notation,
                clock,
            } => {
                let p = seat_of(*seat)?;
                let mv =
                    official::parse(self.game.position(), notation).map_err(|e| e.to_string())?;
                self.game.play(&mv).map_err(|e| e.to_string())?;
                self.end_turn(p, *clock, at_ms);
            }
            Event::BribeProposed { seat, marbles } => {
                let p = seat_of(*seat)?;
                let bribe = Marbles::parse_slashed(marbles)?;
                self.game.propose_bribe(bribe).map_err(|e| e.to_string())?;
                self.bribes_proposed[p.index()] += 1;
                self.bribe_at_ms = Some(at_ms);
            }
            Event::BribeAnswered {
                accepted,
                clock,
                responder_clock,
                ..
            } => {
                let proposer = self.game.pending_bribe().ok_or("no bribe pending")?.by;
                self.game
                    .answer_bribe(*accepted)
                    .map_err(|e| e.to_string())?;
                if let Some(c) = responder_clock {
                    self.clocks[proposer.other().index()] = *c;
                }
                let waited = self
                    .bribe_at_ms
                    .take()
                    .map_or(0, |proposed| (at_ms - proposed).max(0));
                if *accepted {
                    let clock = clock.unwrap_or(self.clocks[proposer.index()]);
                    self.end_turn(proposer, clock, at_ms);
                } else {
                    // The proposer's turn goes on: their clock was stopped while they waited.
                    self.turn_started_ms += waited;
                }
            }
            Event::DrawOffered { seat } => self.draw_offer = Some(seat_of(*seat)?),
            Event::DrawDeclined { .. } => self.draw_offer = None,
            Event::DrawAgreed => {
                self.game.agree_draw().map_err(|e| e.to_string())?;
            }
            Event::TakebackRequested { seat } => self.takeback_request = Some(seat_of(*seat)?),
            Event::TakebackDeclined { .. } => self.takeback_request = None,
            Event::TakenBack { turns, clocks } => {
                for _ in 0..*turns {
                    self.game.undo().map_err(|e| e.to_string())?;
                }
                self.clock_history.truncate(self.game.turns().len() + 1);
                self.clocks = *clocks;
                self.bribe_at_ms = None;
                self.takeback_request = None;
                self.draw_offer = None;
                self.turn_started_ms = at_ms;
            }
            Event::Resigned { seat } => {
                self.game
                    .resign(seat_of(*seat)?)
                    .map_err(|e| e.to_string())?;
            }
            Event::Flagged { seat } => {
                let p = seat_of(*seat)?;
                self.game.lose_on_time(p).map_err(|e| e.to_string())?;
                self.clocks[p.index()] = self
                    .settings
                    .clock
                    .showing(&self.clocks[p.index()], i64::MAX / 4);
            }
            Event::Aborted { .. } => self.aborted = true,
            Event::Claimed { seat } => {
                let p = seat_of(*seat)?;
                self.game.forfeit(p.other()).map_err(|e| e.to_string())?;
            }
            Event::RematchOffered { seat } => self.rematch[seat_of(*seat)?.index()] = true,
            Event::NextGame { game_id } => self.next_game = Some(game_id.clone()),
            Event::RingAdded { .. }
            | Event::RingRemoved { .. }
            | Event::DesignFinished { .. }
            | Event::Swapped { .. } => self.apply_design(&event)?,
            Event::Berserk { seat, clock } => {
                let i = seat_of(*seat)?.index();
                self.berserk[i] = true;
                self.clocks[i] = *clock;
            }
        }
        if self.is_over() {
            // Frozen clocks: the player to move is charged up to the end.
            self.bribe_at_ms = None;
            self.draw_offer = None;
            self.takeback_request = None;
        }
        self.log.push((at_ms, event));
        Ok(())
    }

    fn end_turn(&mut self, mover: Player, clock: ClockState, at_ms: i64) {
        self.clocks[mover.index()] = clock;
        self.clock_history.truncate(self.game.turns().len());
        self.clock_history.push(self.clocks);
        self.turn_started_ms = at_ms;
        self.draw_offer = None;
        self.takeback_request = None;
    }

    /// The player who aborted the game, if one did.
    pub fn aborted_by(&self) -> Option<Player> {
        self.log.iter().find_map(|(_, e)| match e {
            Event::Aborted { seat: Some(s) } => seat_player(*s),
            _ => None,
        })
    }

    /// The moves so far in official notation (`-` for a pass bought with a bribe).
    pub fn move_list(&self) -> Vec<String> {
        crate::games::records::move_texts(&self.game)
    }

    /// The outcome in words, for people.
    pub fn result_text(&self) -> Option<String> {
        if self.aborted {
            return Some("The game was aborted.".into());
        }
        let o = self.game.outcome()?;
        let names = self.shown_names();
        Some(zertz::sentences::outcome(
            &o,
            [&names[0], &names[1]],
            self.game.position(),
        ))
    }

    /// The players' names as sentences give them (`player 1` for a seat nobody holds).
    pub fn shown_names(&self) -> [String; 2] {
        [0, 1].map(|i| {
            self.names[i]
                .clone()
                .unwrap_or_else(|| format!("player {}", i + 1))
        })
    }

    /// Seat `i`'s name as shown (see [`Room::shown_names`]), without copying a name.
    pub fn shown_name(&self, i: usize) -> std::borrow::Cow<'_, str> {
        match &self.names[i] {
            Some(name) => name.as_str().into(),
            None => format!("player {}", i + 1).into(),
        }
    }

    /// What the last turn did, in a sentence (the same words as the terminal's).
    pub fn last_turn_text(&self) -> Option<String> {
        let i = self.game.turns().len().checked_sub(1)?;
        let before = self.game.positions().get(i)?;
        let who = self.shown_name(before.to_move().index());
        Some(match self.game.turns()[i] {
            zertz::Turn::Move(mv) => zertz::sentences::turn(before, &mv, &who),
            zertz::Turn::Pass { bribe } => zertz::sentences::pass(bribe, &who),
        })
    }
}

/// A seat's clock as shown to clients.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClockView {
    /// Main time or reserve left, in ms (at the moment the state was sent).
    pub remaining_ms: i64,
    /// Periods left (periods clocks).
    pub periods_left: u32,
    /// This clock is running.
    pub running: bool,
}

/// `white/grey/black`.
pub fn slashed(m: Marbles) -> String {
    use zertz::Colour::{Black, Grey, White};
    format!("{}/{}/{}", m.get(White), m.get(Grey), m.get(Black))
}

#[cfg(test)]
impl Room {
    /// A room of `settings` with both seats taken by the guests `a` and `b`, and the game
    /// started (the tests' usual start).
    pub(crate) fn started_for_tests(settings: GameSettings) -> Room {
        let mut room = Room::new("g", settings, 0).unwrap();
        for e in [
            Event::Joined {
                seat: 1,
                name: "a".into(),
                account: None,
            },
            Event::Joined {
                seat: 2,
                name: "b".into(),
                account: None,
            },
            Event::Started,
        ] {
            room.apply(e, 0).unwrap();
        }
        room
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::ClockSpec;

    fn room(clock: ClockSpec) -> Room {
        let settings = GameSettings {
            bribes: true,
            ..GameSettings::for_tests(clock)
        };
        Room::started_for_tests(settings)
    }

    /// `room(clock)` after a first move each at time 0, so that the clocks run (none runs
    /// before the first turn): player one to move, their turn begun at 0.
    fn opened(clock: ClockSpec) -> Room {
        let mut r = room(clock);
        for (seat, text) in [(Player::One, "Wd4,a1"), (Player::Two, "Bd5,g4")] {
            act(&mut r, seat, Action::Move { text: text.into() }, 0);
        }
        r
    }

    #[test]
    fn no_clock_runs_before_the_first_turn() {
        let mut r = room(ClockSpec::SuddenDeath { total_ms: 60_000 });
        // Long after the start, nothing has been charged and nothing runs.
        assert_eq!(r.clock_runner(), None);
        assert_eq!(r.time_left(500_000), None);
        assert_eq!(r.clock_shown(Player::One, 500_000), (r.clocks[0], false));
        act(
            &mut r,
            Player::One,
            Action::Move {
                text: "Wd4,a1".into(),
            },
            500_000,
        );
        assert_eq!(r.clocks[0].remaining_ms, 60_000, "the first move is free");
        // From the first move on, the other clock runs.
        assert_eq!(r.clock_runner(), Some(Player::Two));
        assert_eq!(r.time_left(510_000), Some(50_000));
        act(
            &mut r,
            Player::Two,
            Action::Move {
                text: "Bd5,g4".into(),
            },
            510_000,
        );
        assert_eq!(r.clocks[1].remaining_ms, 50_000);
        assert_eq!(r.clock_runner(), Some(Player::One));
    }

    fn act(room: &mut Room, seat: Player, action: Action, at: i64) -> Vec<Event> {
        let events = room.decide(seat, &action, at).unwrap();
        for e in &events {
            room.apply(e.clone(), at).unwrap();
        }
        events
    }

    #[test]
    fn berserk_halves_the_clock_before_ones_first_move_and_drops_the_increment() {
        let fischer = ClockSpec::Fischer {
            base_ms: 60_000,
            increment_ms: 2_000,
        };
        let refused = |r: &Room, seat: Player| match r.decide(seat, &Action::Berserk {}, 0) {
            Err(Refusal::NotNow(why)) => why,
            other => panic!("{other:?}"),
        };
        // Not in a game that does not allow it.
        assert!(refused(&room(fischer), Player::One).contains("only for an arena"));
        let mut r = Room::started_for_tests(GameSettings {
            berserk: true,
            ..GameSettings::for_tests(fischer)
        });
        act(&mut r, Player::One, Action::Berserk {}, 0);
        assert_eq!(
            (r.berserk, r.clocks[0].remaining_ms),
            ([true, false], 30_000)
        );
        assert!(refused(&r, Player::One).contains("already"));
        // Moves at 0 start the clocks; then each player takes 1 s: the increment only for
        // the one who is not berserk.
        for (seat, text, at) in [
            (Player::One, "Wd4,a1", 0),
            (Player::Two, "Bb1,g4", 0),
            (Player::One, "Wg1,a2", 1_000),
            (Player::Two, "Ba4,g3", 2_000),
        ] {
            act(&mut r, seat, Action::Move { text: text.into() }, at);
        }
        assert_eq!(r.clocks[0].remaining_ms, 29_000);
        assert_eq!(r.clocks[1].remaining_ms, 60_000 + 2_000 * 2 - 1_000);
        // After one's first move it is too late.
        assert!(refused(&r, Player::Two).contains("before your first move"));
        assert_eq!(r.own_turns(Player::One), 2);
        // Replayed from its log, the room is the same.
        let again = Room::from_stored(
            "g",
            &r.log
                .iter()
                .enumerate()
                .map(|(i, (at, e))| crate::store::EventRow {
                    version: i as i64 + 1,
                    at_ms: *at,
                    payload: serde_json::to_string(e).unwrap(),
                })
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!((again.berserk, again.clocks), (r.berserk, r.clocks));
        // A clock of periods has nothing to halve.
        let periods = Room::started_for_tests(GameSettings {
            berserk: true,
            ..GameSettings::for_tests(ClockSpec::Periods {
                main_ms: 0,
                periods: 5,
                period_ms: 60_000,
            })
        });
        assert!(refused(&periods, Player::One).contains("sudden death or Fischer"));
    }

    fn bribe() -> Action {
        Action::ProposeBribe {
            marbles: "0/0/0".into(),
        }
    }

    #[test]
    fn put_back_undoes_what_was_applied_since_the_copy() {
        let clock = ClockSpec::SuddenDeath { total_ms: 60_000 };
        let actions = [
            (
                Player::One,
                Action::Move {
                    text: "Gf3,a4".into(),
                },
            ),
            (Player::One, bribe()),
            (Player::One, Action::OfferDraw {}),
            (Player::One, Action::RequestTakeback {}),
            (Player::Two, Action::Resign {}),
        ];
        for (seat, action) in actions {
            let mut r = room(clock);
            act(
                &mut r,
                Player::One,
                Action::Move {
                    text: "Wd4,a1".into(),
                },
                7_000,
            );
            act(
                &mut r,
                Player::Two,
                Action::Move {
                    text: "Bb2,g1".into(),
                },
                9_000,
            );
            let was = format!("{r:?}");
            let logged = r.log.len();
            let before = r.without_log();
            assert_eq!(r.log.len(), logged, "the copy leaves the log where it was");
            let events = act(&mut r, seat, action.clone(), 12_000);
            assert!(!events.is_empty());
            assert_ne!(format!("{r:?}"), was, "{action:?} changed nothing");
            r.put_back(before, logged);
            assert_eq!(format!("{r:?}"), was, "{action:?} was not undone");
        }
    }

    #[test]
    fn a_takeback_does_not_give_a_bribe_back() {
        let mut r = room(ClockSpec::Unlimited {});
        act(&mut r, Player::One, bribe(), 0);
        act(&mut r, Player::Two, Action::AnswerBribe { accept: true }, 0);
        assert_eq!(r.move_list(), ["-"]);
        assert_eq!(r.bribes_left(Player::One), Some(2));
        act(&mut r, Player::One, Action::RequestTakeback {}, 0);
        act(&mut r, Player::Two, Action::AcceptTakeback {}, 0);
        assert!(r.move_list().is_empty(), "the pass was taken back");
        assert!(r.game.bribes().is_empty(), "the library forgets the bribe");
        assert_eq!(r.bribes_left(Player::One), Some(2), "the server does not");
        for _ in 0..2 {
            act(&mut r, Player::One, bribe(), 0);
            act(
                &mut r,
                Player::Two,
                Action::AnswerBribe { accept: false },
                0,
            );
        }
        assert_eq!(r.bribes_left(Player::One), Some(0));
        assert_eq!(r.bribes_left(Player::Two), Some(3));
        let e = r.decide(Player::One, &bribe(), 0).unwrap_err();
        assert!(e.to_string().contains("at most 3"), "{e}");
        // Replayed from the log, the count is the same.
        let again = Room::replay("g", &r.log).unwrap();
        assert_eq!(again.bribes_proposed, [3, 0]);
    }

    #[test]
    fn the_answerer_s_clock_runs_while_a_bribe_waits() {
        let mut r = opened(ClockSpec::SuddenDeath { total_ms: 60_000 });
        act(&mut r, Player::One, bribe(), 10_000);
        // The proposer's clock stops at what it showed; the answerer's runs.
        assert_eq!(r.clock_runner(), Some(Player::Two));
        let (one, one_runs) = r.clock_shown(Player::One, 25_000);
        let (two, two_runs) = r.clock_shown(Player::Two, 25_000);
        assert_eq!((one.remaining_ms, one_runs), (50_000, false));
        assert_eq!((two.remaining_ms, two_runs), (45_000, true));
        assert_eq!(r.time_left(25_000), Some(45_000));

        // Rejected after 15 s: the answerer paid 15 s, the proposer goes on from 50 s.
        let events = act(
            &mut r,
            Player::Two,
            Action::AnswerBribe { accept: false },
            25_000,
        );
        assert!(matches!(
            events[..],
            [Event::BribeAnswered {
                accepted: false,
                clock: None,
                responder_clock: Some(ClockState {
                    remaining_ms: 45_000,
                    ..
                }),
                ..
            }]
        ));
        assert_eq!(r.clock_runner(), Some(Player::One));
        assert_eq!(r.clock_shown(Player::One, 30_000).0.remaining_ms, 45_000);
        assert_eq!(r.clock_shown(Player::Two, 30_000).0.remaining_ms, 45_000);

        // Accepted after 2 s: the proposer's turn ends charged 15 s in all, the answerer
        // pays 2 s, and the other player is to move with a fresh turn.
        act(&mut r, Player::One, bribe(), 30_000);
        act(
            &mut r,
            Player::Two,
            Action::AnswerBribe { accept: true },
            32_000,
        );
        assert_eq!(r.clocks[0].remaining_ms, 45_000);
        assert_eq!(r.clocks[1].remaining_ms, 43_000);
        assert_eq!(r.game.to_move(), Player::Two);
        assert_eq!(r.clock_shown(Player::Two, 33_000).0.remaining_ms, 42_000);

        // Replaying the log gives the same clocks.
        let again = Room::replay("g", &r.log).unwrap();
        assert_eq!(again.clocks, r.clocks);
        assert_eq!(again.turn_started_ms, r.turn_started_ms);
    }

    #[test]
    fn an_answerer_who_runs_out_loses() {
        let mut r = opened(ClockSpec::SuddenDeath { total_ms: 60_000 });
        act(&mut r, Player::One, bribe(), 1_000);
        assert_eq!(r.time_left(61_000), Some(0));
        // Whatever the answerer sends after their time ran out loses on time.
        let events = r
            .decide(Player::Two, &Action::AnswerBribe { accept: true }, 61_000)
            .unwrap();
        assert!(matches!(events[..], [Event::Flagged { seat: 2 }]));
        // The proposer never runs out while waiting.
        assert_eq!(r.clock_shown(Player::One, 500_000).0.remaining_ms, 59_000);
    }

    #[test]
    fn a_restart_does_not_charge_the_wait() {
        let mut r = opened(ClockSpec::SuddenDeath { total_ms: 60_000 });
        act(&mut r, Player::One, bribe(), 10_000);
        r.restart_clocks(1_000_000);
        assert_eq!(r.time_left(1_000_000), Some(60_000));
        assert_eq!(r.clock_shown(Player::One, 1_000_000).0.remaining_ms, 60_000);
    }
}
