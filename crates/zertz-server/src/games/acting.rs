//! A seat acts: an action checked against the game's rules and the seat's clock, charged to
//! the client that sent it where it makes something new (a designed board), stored and
//! published. The HTTP route and the game's socket both come here.

use std::sync::Arc;

use zertz::Player;

use crate::accounts::viewer::Payer;
use crate::games::hub::{Hub, HubError, Live, LiveGame};
use crate::games::model::{Action, Credential, Event, SeatKind, seat_number};
use crate::games::room::Refusal;
use crate::util::now_ms;

impl Hub {
    /// Carries out `action` for `who` (a seat's token or its account), sent by `client` (an
    /// account or an address, charged for a new board the action makes). Returns the version
    /// after it.
    pub async fn act(
        &self,
        id: &str,
        who: Credential<'_>,
        action: Action,
        client: &Payer,
    ) -> Result<i64, HubError> {
        self.refuse_when_full()?;
        let live = self.get(id).await?;
        let mut state = live.state.lock().await;
        let seat = state.seat_of(who).ok_or_else(|| {
            HubError::Forbidden(match who {
                Credential::Token(_) => {
                    "this token holds no seat of the game: spectators cannot act".into()
                }
                Credential::Account(_) => {
                    "your account holds no seat of the game: spectators cannot act".into()
                }
            })
        })?;
        self.charge(&state, &action, client)?;
        let started = state.room.started;
        let version = self.act_locked(&live, &mut state, seat, &action).await?;
        // The game's lock is not held while the abort is written.
        drop(state);
        self.count_abort(&action, started, client).await;
        Ok(version)
    }

    /// Carries out `action` for `seat` of `live`: for a connection whose seat was checked
    /// when it opened, sent by `client` as in [`Hub::act`]. Returns the version after it.
    pub async fn act_seat(
        &self,
        live: &Arc<Live>,
        seat: Player,
        action: &Action,
        client: &Payer,
    ) -> Result<i64, HubError> {
        self.refuse_when_full()?;
        let mut state = live.state.lock().await;
        self.charge(&state, action, client)?;
        let started = state.room.started;
        let version = self.act_locked(live, &mut state, seat, action).await?;
        // The game's lock is not held while the abort is written.
        drop(state);
        self.count_abort(action, started, client).await;
        Ok(version)
    }

    /// Refuses a player's action while the queue of commits is at its bound (`games::load`):
    /// the action is not played, and the player is told to send it again.
    fn refuse_when_full(&self) -> Result<(), HubError> {
        if self.load().full() {
            return Err(HubError::Busy(self.load().refusal()));
        }
        Ok(())
    }

    /// An abort of a started game is counted against `client`: too many make it wait before
    /// its next seek or lobby join (`quota::Quotas::abort_wait`).
    async fn count_abort(&self, action: &Action, started: bool, client: &Payer) {
        if matches!(action, Action::Abort {}) && started {
            self.quotas().aborted(self.store(), client, now_ms()).await;
        }
    }

    /// A finished design is a board new to the server: built here within `client`'s allowance
    /// (`new_boards`), whichever door the action came by, the game then finds it known.
    fn charge(&self, state: &LiveGame, action: &Action, client: &Payer) -> Result<(), HubError> {
        if !matches!(action, Action::FinishDesign {}) {
            return Ok(());
        }
        if let Some(design) = state
            .room
            .design
            .as_ref()
            .filter(|d| !d.done && !d.rings.is_empty())
        {
            let coords: Vec<zertz::Coord> = design.rings.iter().copied().collect();
            // A board the rules refuse is refused by the action itself, with its reason.
            let _ = self
                .quotas()
                .new_boards
                .run(client, || zertz::Layout::custom(&coords))
                .map_err(HubError::TooMany)?;
        }
        Ok(())
    }

    pub(crate) async fn act_locked(
        &self,
        live: &Arc<Live>,
        state: &mut LiveGame,
        seat: Player,
        action: &Action,
    ) -> Result<i64, HubError> {
        let now = now_ms();
        state.presence.heard_from(seat.index(), now);
        let events = match action {
            Action::ClaimVictory {} => {
                let other = seat.other().index();
                let human = state.room.settings.seats[other] == SeatKind::Human;
                let since = state
                    .presence
                    .away_since(other, state.room.started_at_ms)
                    .filter(|_| human && state.room.started && !state.room.is_over());
                let claim_after = self.config().claim_after.as_millis() as i64;
                match since {
                    Some(t) if now - t >= claim_after => state.room.decide_claim(seat)?,
                    Some(t) => {
                        return Err(Refusal::NotNow(format!(
                            "the opponent has been away for {} s; the game can be claimed \
                             after {} s",
                            (now - t).max(0) / 1000,
                            claim_after / 1000
                        ))
                        .into());
                    }
                    None => state.room.decide(seat, action, now)?,
                }
            }
            _ => state.room.decide(seat, action, now)?,
        };
        // Whatever a player sends after their time ran out loses the game on time (the flag
        // is stored like the timer's would be), and the action itself is refused.
        let out_of_time =
            matches!(events[..], [Event::Flagged { seat: s }] if s == seat_number(seat));
        self.commit(live, state, events, None).await?;
        if out_of_time {
            return Err(Refusal::NotNow(
                "your time ran out before this arrived: the game is lost on time".into(),
            )
            .into());
        }
        Ok(state.room.version())
    }
}
