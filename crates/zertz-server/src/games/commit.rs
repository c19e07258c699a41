//! A change to a live game, from its events to everyone who watches: the events applied to the
//! room, stored (the room put back if storing fails), then put into memory, broadcast, and
//! reacted to (a finished game announced, a match's next step stored, a flag or a rematch
//! scheduled). Every path that changes a game ends here.

use std::sync::Arc;
use std::time::Duration;

use crate::games::ended::GameEnded;
use crate::games::hub::{Hub, HubError, Live, LiveGame, NewGame};
use crate::games::model::{Event, GameSettings, SeatKind, Seated, seat_number};
use crate::games::room::{Room, status};
use crate::games::wire::compact::Legal;
use crate::games::wire::view::GameView;
use crate::store::{EventRow, GameAppend, MatchRow, MatchStep, RowUpdate, StoreError};
use crate::util::now_ms;

/// Events applied to a copy of a room, with the rows that store them.
pub(crate) struct Change {
    events: Vec<Event>,
    /// The room after all of them.
    pub(crate) next: Room,
    /// The rooms after each but the last.
    partial: Vec<Room>,
    pub(crate) rows: Vec<EventRow>,
    pub(crate) update: RowUpdate,
}

/// Events applied in place to a room (see [`Hub::apply_change`]), with what undoes them.
struct Applied {
    events: Vec<Event>,
    /// The room before them, without its log.
    before: Room,
    /// The log's length before them.
    logged: usize,
    /// The rooms after each but the last.
    partial: Vec<Room>,
    rows: Vec<EventRow>,
    update: RowUpdate,
}

/// Puts a room back as it was unless disarmed (`before` taken): dropped while a change waits
/// to be stored, it undoes the change.
struct PutBack<'a> {
    room: &'a mut Room,
    before: Option<Room>,
    logged: usize,
}

impl Drop for PutBack<'_> {
    fn drop(&mut self) {
        if let Some(before) = self.before.take() {
            self.room.put_back(before, self.logged);
        }
    }
}

/// Applies `events` to `room` (which is left part-way if one fails) and returns the rooms after
/// each but the last (each event goes out with the state after it), the rows that store them
/// and the change to the game's row.
pub(crate) fn apply_events(
    room: &mut Room,
    events: &[Event],
    seat: Option<(usize, String)>,
) -> Result<(Vec<Room>, Vec<EventRow>, RowUpdate), HubError> {
    let now = now_ms();
    let (status, turns, over) = (room.status(), room.game.turns().len(), room.is_over());
    let first = room.version() + 1;
    let mut partial = Vec::new();
    for (i, e) in events.iter().enumerate() {
        room.apply(e.clone(), now)
            .map_err(|e| HubError::Storage(format!("internal: {e}")))?;
        if i + 1 < events.len() {
            partial.push(room.clone());
        }
    }
    let ends = room.is_over() && !over;
    let update = RowUpdate {
        status: (room.status() != status).then(|| room.status().to_string()),
        result: room.result().filter(|_| ends),
        seat_account: seat
            .as_ref()
            .and_then(|(i, _)| room.accounts.get(*i).cloned().flatten()),
        seat_name: seat
            .as_ref()
            .and_then(|(i, _)| room.names.get(*i).cloned().flatten()),
        seat,
        turns: (room.game.turns().len() != turns).then_some(room.game.turns().len() as i64),
        ended: ends
            .then(|| crate::games::ending::game_end(room, now))
            .flatten(),
    };
    Ok((partial, event_rows(events, first, now), update))
}

/// The rows that store `events`, the first at version `first`.
pub(crate) fn event_rows(events: &[Event], first: i64, now: i64) -> Vec<EventRow> {
    events
        .iter()
        .enumerate()
        .map(|(i, e)| EventRow {
            version: first + i as i64,
            at_ms: now,
            payload: serde_json::to_string(e).unwrap_or_default(),
        })
        .collect()
}

impl Hub {
    /// Stores `events`, applies them, broadcasts them and reacts (timers, engine, rematch,
    /// match). Nothing changes in memory if storing fails.
    pub(crate) async fn commit(
        &self,
        live: &Arc<Live>,
        state: &mut LiveGame,
        events: Vec<Event>,
        seat: Option<(usize, String)>,
    ) -> Result<(), HubError> {
        let started = std::time::Instant::now();
        // Counted until stored (or not): how far behind the node is (`load`).
        let _in_flight = self.load.commit_started();
        let applied = self.apply_change(state, events, seat)?;
        let prepared = started.elapsed();
        // Until the store has the events, the room's change is undone if this stops (storing
        // fails, or the task is dropped while it waits).
        let mut undo = PutBack {
            room: &mut state.room,
            before: Some(applied.before),
            logged: applied.logged,
        };
        if let Err(e) = self
            .store
            .append(&live.id, &applied.rows, &applied.update)
            .await
        {
            drop(undo);
            // A lease lost: this copy of the game is stale and leaves memory.
            if matches!(e, StoreError::NotOwner(_)) {
                self.forget_game(&live.id, "found by an append");
            }
            return Err(e.into());
        }
        // Stored: the change stays.
        undo.before = None;
        drop(undo);
        let stored = started.elapsed();
        self.announce(
            live,
            state,
            applied.events,
            applied.partial,
            applied.rows,
            applied.update,
        );
        if let Some(slow) = crate::util::slow_ms()
            && started.elapsed() >= slow
        {
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            tracing::warn!(
                game = %live.id,
                "slow commit: {:.1} ms (prepared {:.1}, stored {:.1}, published {:.1})",
                ms(started.elapsed()),
                ms(prepared),
                ms(stored - prepared),
                ms(started.elapsed() - stored)
            );
        }
        Ok(())
    }

    /// Applies `events` to the room in place (undone at once if one cannot be applied) and
    /// returns what to put back should storing them fail, with the rows to store. Unlike
    /// [`Hub::prepare_change`] it copies the room without its log, which grows with the game.
    fn apply_change(
        &self,
        state: &mut LiveGame,
        events: Vec<Event>,
        seat: Option<(usize, String)>,
    ) -> Result<Applied, HubError> {
        let logged = state.room.log.len();
        let before = state.room.without_log();
        match apply_events(&mut state.room, &events, seat) {
            Ok((partial, rows, update)) => Ok(Applied {
                events,
                before,
                logged,
                partial,
                rows,
                update,
            }),
            Err(e) => {
                state.room.put_back(before, logged);
                Err(e)
            }
        }
    }

    /// The rooms after `events` (which stay to be stored) and the rows to store.
    pub(crate) fn prepare_change(
        &self,
        state: &LiveGame,
        events: Vec<Event>,
        seat: Option<(usize, String)>,
    ) -> Result<Change, HubError> {
        let mut next = state.room.clone();
        let (partial, rows, update) = apply_events(&mut next, &events, seat)?;
        Ok(Change {
            events,
            next,
            partial,
            rows,
            update,
        })
    }

    /// Puts a stored change into memory, broadcasts its events and reacts to it.
    pub(crate) fn publish(&self, live: &Arc<Live>, state: &mut LiveGame, change: Change) {
        let Change {
            events,
            next,
            partial,
            rows,
            update,
        } = change;
        state.room = next;
        self.announce(live, state, events, partial, rows, update);
    }

    /// Broadcasts the stored `events`, already applied to the room (`partial`: the rooms
    /// after each but the last), and reacts to them.
    fn announce(
        &self,
        live: &Arc<Live>,
        state: &mut LiveGame,
        events: Vec<Event>,
        partial: Vec<Room>,
        rows: Vec<EventRow>,
        update: RowUpdate,
    ) {
        // A game that has just ended, by a result or an abort (its status becomes finished
        // with these events), is announced: the explorer, the matches, … listen.
        if update.status.as_deref() == Some(status::FINISHED)
            && let Some(last) = rows.last()
            && self.ended.is_heard()
        {
            self.ended.announce(GameEnded {
                room: state.room.clone(),
                ended_ms: last.at_ms,
            });
        }
        let first = rows.first().map_or(state.room.version(), |r| r.version);
        state.legal = Legal::of(&state.room.game);
        let claim_after = self.config.claim_after.as_millis() as i64;
        let listening = live.sender.receiver_count() > 0;
        if !listening {
            state.shown = None;
        }
        for (i, e) in events.iter().enumerate().filter(|_| listening) {
            let view = match partial.get(i) {
                Some(room) => GameView::of(
                    room,
                    None,
                    &state.presence,
                    now_ms(),
                    claim_after,
                    &Legal::of(&room.game),
                ),
                None => match &state.shown {
                    // The move list of the view one event earlier, where it stands.
                    Some(shown) => GameView::with_moves(
                        &state.room,
                        None,
                        &state.presence,
                        now_ms(),
                        claim_after,
                        &state.legal,
                        crate::games::wire::view::moves_after(shown, &state.room),
                    ),
                    None => self.make_view(state, None),
                },
            };
            debug_assert_eq!(view.version, first + i as i64);
            self.send_changes(live, state, "event", Some(e), view);
        }
        // A bribe proposed in a match game changes the match's bribes left.
        if let Some(m) = &state.room.settings.match_game
            && events
                .iter()
                .any(|e| matches!(e, Event::BribeProposed { .. }))
            && let Some(hub) = self.me.upgrade()
        {
            let id = m.match_id.clone();
            tokio::spawn(async move { hub.poke_match(&id).await });
        }
        self.after_change(live, state);
    }

    /// Stores a step of a match in one transaction (the match's new state `row`, its next game
    /// `new`, and the `next_game` event of the game that just `ended`), then opens the new game
    /// and announces it. A crash cannot leave the step half done.
    pub(crate) async fn store_match_step(
        &self,
        row: MatchRow,
        new: NewGame,
        ended: Option<&Arc<Live>>,
    ) -> Result<(), HubError> {
        let new_game = Some((new.row.clone(), new.events.clone()));
        let Some(live) = ended else {
            let step = MatchStep {
                state: row,
                new_game,
                append: None,
            };
            self.store.advance_match(&step).await?;
            self.open_game(new).await;
            return Ok(());
        };
        let mut state = live.state.lock().await;
        let event = Event::NextGame {
            game_id: new.row.id.clone(),
        };
        let change = self.prepare_change(&state, vec![event], None)?;
        let step = MatchStep {
            state: row,
            new_game,
            append: Some(GameAppend {
                game: live.id.clone(),
                events: change.rows.clone(),
                update: change.update.clone(),
            }),
        };
        self.store.advance_match(&step).await?;
        self.open_game(new).await;
        self.publish(live, &mut state, change);
        Ok(())
    }

    /// Re-arms the flag timer, starts the engine if it must act, and creates the rematch when
    /// both asked for it.
    pub(crate) fn after_change(&self, live: &Arc<Live>, state: &mut LiveGame) {
        if let Some(t) = state.timer.take() {
            t.abort();
        }
        let Some(hub) = self.me.upgrade() else {
            return;
        };
        if let Some(left) = state.room.time_left(now_ms()) {
            let version = state.room.version();
            let live2 = live.clone();
            let hub2 = hub.clone();
            let task = tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(left.max(0) as u64 + 1)).await;
                hub2.flag_if_due(&live2, version).await;
            });
            state.timer = Some(task.abort_handle());
        }
        self.engine_seat(&hub, live, state);
        // An engine opponent always accepts a rematch.
        if state.room.is_over()
            && state.room.next_game.is_none()
            && state.room.settings.match_game.is_none()
        {
            for i in 0..2 {
                if state.room.rematch[1 - i]
                    && !state.room.rematch[i]
                    && matches!(state.room.settings.seats[i], SeatKind::Engine { .. })
                {
                    state.room.rematch[i] = true;
                }
            }
            if state.room.rematch == [true, true] {
                let live2 = live.clone();
                let hub = hub.clone();
                tokio::spawn(async move {
                    if let Err(e) = hub.create_rematch(&live2).await {
                        tracing::warn!(game = %live2.id, "rematch failed: {e}");
                    }
                });
            }
        }
    }

    async fn flag_if_due(&self, live: &Arc<Live>, version: i64) {
        let mut state = live.state.lock().await;
        if state.room.version() != version || state.room.is_over() {
            return;
        }
        if let Some(left) = state.room.time_left(now_ms()) {
            if left > 0 {
                self.after_change(live, &mut state);
                return;
            }
            let Some(runner) = state.room.clock_runner() else {
                return;
            };
            let seat = seat_number(runner);
            if let Err(e) = self
                .commit(live, &mut state, vec![Event::Flagged { seat }], None)
                .await
            {
                tracing::warn!(game = %live.id, "could not store a flag: {e}");
            }
        }
    }

    async fn create_rematch(&self, live: &Arc<Live>) -> Result<(), HubError> {
        let mut state = live.state.lock().await;
        if state.room.next_game.is_some() {
            return Ok(());
        }
        let mut settings = GameSettings::clone(&state.room.settings);
        settings.seats.swap(0, 1);
        settings.open = false;
        let tokens = [state.tokens[1].clone(), state.tokens[0].clone()];
        let seated = [1, 0].map(|i| {
            state.room.names[i].clone().map(|name| Seated {
                name,
                account: state.room.accounts[i].clone(),
            })
        });
        let (id, _) = self.create_game(settings, seated, tokens, None).await?;
        self.commit(
            live,
            &mut state,
            vec![Event::NextGame { game_id: id }],
            None,
        )
        .await
    }
}
