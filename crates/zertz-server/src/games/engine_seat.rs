//! The engine in a seat: it declines draw offers and takeback requests at once, answers a
//! bribe (it declines: it plays on), and moves, searching on a blocking thread when one of the
//! server's engine slots is free, so that engines thinking never stall other games.

use std::sync::Arc;
use std::time::Duration;

use zertz::Player;

use crate::games::hub::{Hub, Live, LiveGame};
use crate::games::model::{Action, SeatKind};
use crate::games::room::Room;
use crate::util::now_ms;

impl Hub {
    /// Sets the engine of `live` to work if it owes an answer or a move (after a change).
    pub(crate) fn engine_seat(&self, hub: &Arc<Hub>, live: &Arc<Live>, state: &mut LiveGame) {
        // An engine answers a draw offer or a takeback request at once: it declines.
        if let Some((seat, action)) = engine_decline(&state.room) {
            let live2 = live.clone();
            let hub = hub.clone();
            let version = state.room.version();
            tokio::spawn(async move {
                let mut state = live2.state.lock().await;
                if state.room.version() == version
                    && let Err(e) = hub.act_locked(&live2, &mut state, seat, &action).await
                {
                    tracing::warn!(game = %live2.id(), "engine answer refused: {e}");
                }
            });
        }
        if let Some((seat, level)) = state.room.engine_to_act()
            && !state.engine_thinking
        {
            state.engine_thinking = true;
            let live2 = live.clone();
            let game = state.room.game.clone();
            let version = state.room.version();
            // Offers and answers that leave the game as it is do not spoil the search.
            let thinking_on = turn_key(&state.room);
            let mut budget = self.config().engine_move_time;
            if let Some(left) = state.room.time_left(now_ms()) {
                budget = budget.min(Duration::from_millis((left / 10).max(10) as u64));
            }
            let slots = self.engine_slots.clone();
            // A match's games wait in the line of whoever plays the match.
            let owner = engine_owner(&state.room);
            let hub = hub.clone();
            tokio::spawn(async move {
                let permit = slots.acquire(&owner).await;
                let chosen = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    engine_action(&game, level, budget, version as u64)
                })
                .await;
                let action = chosen.ok().flatten();
                let mut state = live2.state.lock().await;
                state.engine_thinking = false;
                if turn_key(&state.room) == thinking_on
                    && let Some(action) = action
                    && let Err(e) = hub.act_locked(&live2, &mut state, seat, &action).await
                {
                    // An engine that ran out of time lost the game by its own flag: nothing
                    // went wrong. Any other refusal is a bug worth seeing.
                    if state.room.is_over() {
                        tracing::debug!(game = %live2.id(), "engine action refused: {e}");
                    } else {
                        tracing::warn!(game = %live2.id(), "engine action refused: {e}");
                    }
                }
                if state.room.is_over() && state.room.settings.match_game.is_none() {
                    slots.forget(&owner);
                }
                // Whatever happened meanwhile, look again.
                hub.after_change(&live2, &mut state);
            });
        }
    }
}

/// The id an engine game's client is known by: its match's, or its own.
fn engine_owner(room: &Room) -> String {
    match &room.settings.match_game {
        Some(m) => m.match_id.clone(),
        None => room.id.clone(),
    }
}

/// What identifies the decision an engine is thinking about: the turns played, the position,
/// and whether a bribe waits for its answer.
fn turn_key(room: &Room) -> (usize, u64, bool, bool) {
    (
        room.game.turns().len(),
        room.game.position().hash(),
        room.game.pending_bribe().is_some(),
        room.is_over(),
    )
}

/// The answer an engine seat owes now: it declines a draw offer or a takeback request from
/// its opponent.
fn engine_decline(room: &Room) -> Option<(Player, Action)> {
    if room.is_over() {
        return None;
    }
    for engine in Player::BOTH {
        if !matches!(room.settings.seats[engine.index()], SeatKind::Engine { .. }) {
            continue;
        }
        if room.draw_offer == Some(engine.other()) {
            return Some((engine, Action::DeclineDraw {}));
        }
        if room.takeback_request == Some(engine.other()) {
            return Some((engine, Action::DeclineTakeback {}));
        }
    }
    None
}

/// What the engine does when it must act: answer a bribe (it declines: it plays on), or move.
fn engine_action(game: &zertz::Game, level: u8, budget: Duration, seed: u64) -> Option<Action> {
    use zertz_engine::{Kind, Limits, Player as Bot, SearchOptions, Think};
    if game.pending_bribe().is_some() {
        return Some(Action::AnswerBribe { accept: false });
    }
    let mut bot = Bot::new(Kind::Level(level), seed, SearchOptions::default(), 16);
    let think = Think {
        limits: Limits::movetime(budget),
    };
    let mut mv = bot.choose(game, &think)?;
    // Under the no-repetition house rule the search may prefer a move that recreates an
    // earlier position, which the game refuses: the seat would never move. The first move the
    // game allows is played instead.
    if game.check(&mv).is_err() {
        mv = *game.legal_moves().first()?;
    }
    Some(Action::Move {
        text: zertz::notation::official::move_text(game.position(), &mv),
    })
}

#[cfg(test)]
mod engine_tests {
    use super::*;
    use crate::accounts::viewer::Payer;
    use crate::config::Config;
    use crate::games::clock::ClockSpec;
    use crate::games::hub::temporary_hub;
    use crate::games::model::{Credential, Event, GameSettings, Seated};
    use crate::games::wire::view::legal_move_texts;

    /// Waits until the game's log holds an event of `kind` (as its JSON `type`).
    async fn wait_for(hub: &Hub, id: &str, kind: &str) -> Event {
        for _ in 0..400 {
            let room = hub.room(id).await.unwrap();
            if let Some((_, e)) = room
                .log
                .iter()
                .rev()
                .find(|(_, e)| serde_json::to_value(e).unwrap()["type"] == kind)
            {
                return e.clone();
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("no `{kind}` event in game {id}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn engines_decline_draws_and_takebacks_at_once() {
        let (_dir, hub) = temporary_hub(Config {
            engine_move_time: Duration::from_millis(20),
            ..Config::default()
        })
        .await;
        let settings = GameSettings {
            seats: [SeatKind::Human, SeatKind::Engine { level: 1 }],
            ..GameSettings::for_tests(ClockSpec::Unlimited {})
        };
        let (id, tokens) = hub
            .create_game(
                settings,
                [Some(Seated::guest("Ann")), None],
                [None, None],
                None,
            )
            .await
            .unwrap();
        let token = tokens[0].clone().unwrap();

        // A draw offered to the engine is declined by an event of its own.
        hub.act(
            &id,
            Credential::Token(&token),
            Action::OfferDraw {},
            &Payer::named("test"),
        )
        .await
        .unwrap();
        let declined = wait_for(&hub, &id, "draw_declined").await;
        assert!(matches!(declined, Event::DrawDeclined { seat: 2 }));
        assert_eq!(hub.room(&id).await.unwrap().draw_offer, None);

        // A move, the engine's answer, then a takeback request: declined too.
        let text = legal_move_texts(&hub.room(&id).await.unwrap()).to_vec()[0].clone();
        hub.act(
            &id,
            Credential::Token(&token),
            Action::Move { text },
            &Payer::named("test"),
        )
        .await
        .unwrap();
        for _ in 0..400 {
            if hub.room(&id).await.unwrap().game.turns().len() == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(hub.room(&id).await.unwrap().game.turns().len(), 2);
        hub.act(
            &id,
            Credential::Token(&token),
            Action::RequestTakeback {},
            &Payer::named("test"),
        )
        .await
        .unwrap();
        let declined = wait_for(&hub, &id, "takeback_declined").await;
        assert!(matches!(declined, Event::TakebackDeclined { seat: 2 }));
        let room = hub.room(&id).await.unwrap();
        assert_eq!(room.takeback_request, None);
        assert_eq!(room.game.turns().len(), 2, "nothing was taken back");
    }
}
