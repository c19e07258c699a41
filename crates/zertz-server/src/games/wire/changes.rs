//! What a game's connections receive after their first full state: the fields of the state
//! that changed since the last message, which a client sets on the state it holds
//! (docs/server.md, "What a move costs"). A move costs a few hundred bytes instead of the whole
//! state.
//!
//! The clocks, `server_ms` and `turn_ms` are sent every time (they change with time, not only
//! with events), and so are the seats while someone's away countdown runs; every other field
//! only when it differs. The list of moves is sent as its new tail (`moves_tail`: keep the first
//! `from` moves, then add `add`), so a takeback is one too.

use serde::Serialize;
use serde_json::Value;

use crate::games::room::ClockView;
use crate::games::wire::compact::Legal;
use crate::games::wire::view::{BribeView, GameView, ResultView, SeatView};

/// The fields of a state that changed from the state before it (`you` is never sent: it is
/// the viewer's own, so one text serves every connection).
#[derive(Debug, Serialize)]
pub struct Changes<'a> {
    version: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repetition: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bribes: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    casual: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rated: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pool: Option<&'a Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<&'a crate::games::clock::ClockSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock_text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<&'a [SeatView; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_move: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    supply: Option<[u8; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    captures: Option<[[u8; 3]; 2]>,
    clocks: &'a [ClockView; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_tail: Option<MovesTail<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<&'a Legal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_offer: Option<Option<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    takeback_request: Option<Option<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pending_bribe: Option<&'a Option<BribeView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bribes_left: Option<Option<[u32; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rematch: Option<[bool; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_game: Option<&'a Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a Option<ResultView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last: Option<&'a Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    match_game: Option<&'a Option<(String, u32)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    design: Option<&'a Option<crate::games::design::DesignView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    berserk: Option<Option<[bool; 2]>>,
    server_ms: i64,
    turn_ms: Option<i64>,
}

/// The moves after the first `from` (those the client keeps).
#[derive(Debug, Serialize)]
struct MovesTail<'a> {
    from: usize,
    add: crate::games::wire::move_list::Tail<'a>,
}

/// `new` when it differs from `old`.
fn changed<'a, T: PartialEq + ?Sized>(old: &T, new: &'a T) -> Option<&'a T> {
    (old != new).then_some(new)
}

impl<'a> Changes<'a> {
    /// What a client holding `old` must set to hold `new`.
    pub fn between(old: &GameView, new: &'a GameView) -> Changes<'a> {
        let kept = old.moves.common_prefix(&new.moves);
        let counting_down = new.seats.iter().any(|s| s.away_claim_in_ms.is_some());
        Changes {
            version: new.version,
            status: changed(old.status, new.status),
            board: changed(old.board, new.board),
            rules: changed(old.rules.as_str(), new.rules.as_str()),
            repetition: changed(old.repetition.as_str(), new.repetition.as_str()),
            bribes: changed(&old.bribes, &new.bribes).copied(),
            casual: changed(&old.casual, &new.casual).copied(),
            rated: changed(&old.rated, &new.rated).copied(),
            pool: changed(&old.pool, &new.pool),
            clock: changed(&old.clock, &new.clock),
            clock_text: changed(old.clock_text.as_str(), new.clock_text.as_str()),
            seats: if counting_down {
                Some(&new.seats)
            } else {
                changed(&old.seats, &new.seats)
            },
            to_move: changed(&old.to_move, &new.to_move).copied(),
            position: changed(old.position.as_str(), new.position.as_str()),
            supply: changed(&old.supply, &new.supply).copied(),
            captures: changed(&old.captures, &new.captures).copied(),
            clocks: &new.clocks,
            moves_tail: (kept < old.moves.len() || kept < new.moves.len()).then(|| MovesTail {
                from: kept,
                add: new.moves.tail(kept),
            }),
            legal: changed(&old.legal, &new.legal),
            draw_offer: changed(&old.draw_offer, &new.draw_offer).copied(),
            takeback_request: changed(&old.takeback_request, &new.takeback_request).copied(),
            pending_bribe: changed(&old.pending_bribe, &new.pending_bribe),
            bribes_left: changed(&old.bribes_left, &new.bribes_left).copied(),
            rematch: changed(&old.rematch, &new.rematch).copied(),
            next_game: changed(&old.next_game, &new.next_game),
            result: changed(&old.result, &new.result),
            last: changed(&old.last, &new.last),
            match_game: changed(&old.match_game, &new.match_game),
            design: changed(&old.design, &new.design),
            berserk: changed(&old.berserk, &new.berserk).copied(),
            server_ms: new.server_ms,
            turn_ms: new.turn_ms,
        }
    }
}

/// Why changes could not be applied to a state.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ApplyError {
    /// The state or the changes are not JSON objects.
    #[error("the {0} is not a JSON object")]
    NotAnObject(&'static str),
    /// `moves_tail` is not `{from, add}` within the moves held.
    #[error("moves_tail must be {{\"from\": n, \"add\": [...]}} with n at most the moves held")]
    MovesTail,
}

/// Sets `changes` (as received) on `state` (a full state, as received): what a client does
/// with each message after the first. The web page does the same in `web/js/lib/socket.js`.
pub fn apply(state: &mut Value, changes: &Value) -> Result<(), ApplyError> {
    let changes = changes
        .as_object()
        .ok_or(ApplyError::NotAnObject("changes"))?;
    let state = state
        .as_object_mut()
        .ok_or(ApplyError::NotAnObject("state"))?;
    for (key, value) in changes {
        if key == "moves_tail" {
            let from = value["from"].as_u64().ok_or(ApplyError::MovesTail)? as usize;
            let add = value["add"].as_array().ok_or(ApplyError::MovesTail)?;
            let moves = state
                .get_mut("moves")
                .and_then(Value::as_array_mut)
                .filter(|m| m.len() >= from)
                .ok_or(ApplyError::MovesTail)?;
            moves.truncate(from);
            moves.extend(add.iter().cloned());
        } else {
            state.insert(key.clone(), value.clone());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::ClockSpec;
    use crate::games::model::{Action, Event, GameSettings};
    use crate::games::room::Room;
    use crate::games::wire::view::Presence;
    use proptest::prelude::*;
    use zertz::Player;

    const CLAIM_AFTER_MS: i64 = 60_000;

    /// The full state of `room` as a spectator receives it, at `now_ms`.
    fn view(room: &Room, presence: &Presence, now_ms: i64) -> GameView {
        GameView::of(
            room,
            None,
            presence,
            now_ms,
            CLAIM_AFTER_MS,
            &Legal::of(&room.game),
        )
    }

    /// A random game played through the room's own decisions: moves, draw offers and their
    /// answers, takebacks, seats leaving and coming back, and an ending (a resignation, an
    /// agreed draw, or the game's own). After every step, the changes applied to the state
    /// held give the state a fresh full state shows.
    fn check(seed: u64, clock: ClockSpec, steps: usize) -> usize {
        let mut room = Room::new("g", GameSettings::for_tests(clock), 0).unwrap();
        let mut presence = Presence::loaded_at(0);
        let mut now = 1_000i64;
        for e in [
            Event::Joined {
                seat: 1,
                name: "Ann".into(),
                account: None,
            },
            Event::Joined {
                seat: 2,
                name: "Bob".into(),
                account: None,
            },
            Event::Started,
        ] {
            room.apply(e, now).unwrap();
        }
        let mut shown = view(&room, &presence, now);
        let mut held = serde_json::to_value(&shown).unwrap();
        // The view after each event, its move list carried from the one before (as the hub
        // makes them).
        let mut carried = shown.clone();
        let mut rng = seed | 1;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut checked = 0;
        for _ in 0..steps {
            now += (next() % 5_000) as i64;
            let mover = room.game.to_move();
            let roll = next() % 100;
            let (seat, action) = match roll {
                0..=3 => (mover, Action::OfferDraw {}),
                4..=7 => (mover.other(), Action::DeclineDraw {}),
                8..=11 => (mover.other(), Action::RequestTakeback {}),
                12..=15 => (mover, Action::AcceptTakeback {}),
                16 => (mover, Action::AcceptDraw {}),
                17 => (mover, Action::Resign {}),
                _ => {
                    let legal = crate::games::wire::legal::LegalMoves::of(&room.game).to_vec();
                    if legal.is_empty() {
                        (mover, Action::Rematch {})
                    } else {
                        let text = legal[(next() % legal.len() as u64) as usize].clone();
                        (mover, Action::Move { text })
                    }
                }
            };
            // Presence changes between the events now and then.
            if next() % 10 == 0 {
                let i = (next() % 2) as usize;
                if presence.connections[i] > 0 {
                    presence.disconnect(i, now);
                } else {
                    presence.connect(i);
                }
            }
            if let Ok(events) = room.decide(seat, &action, now) {
                for e in events {
                    room.apply(e, now).unwrap();
                    let legal = Legal::of(&room.game);
                    let moves = crate::games::wire::view::moves_after(&carried, &room);
                    carried = GameView::with_moves(
                        &room,
                        None,
                        &presence,
                        now,
                        CLAIM_AFTER_MS,
                        &legal,
                        moves,
                    );
                    assert_eq!(
                        carried.moves,
                        crate::games::wire::view::move_list(&room),
                        "after {action:?}"
                    );
                }
            }
            let fresh = view(&room, &presence, now);
            let changes = serde_json::to_value(Changes::between(&shown, &fresh)).unwrap();
            apply(&mut held, &changes).unwrap();
            assert_eq!(
                held,
                serde_json::to_value(&fresh).unwrap(),
                "after {action:?} by {seat:?}: {changes}"
            );
            shown = fresh;
            checked += 1;
            if room.is_over() && next() % 4 == 0 {
                break;
            }
        }
        checked
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn changes_applied_to_the_first_state_give_the_fresh_state(
            seed in 1u64..u64::MAX,
            fischer in any::<bool>(),
        ) {
            let clock = if fischer {
                ClockSpec::Fischer { base_ms: 300_000, increment_ms: 2_000 }
            } else {
                ClockSpec::Unlimited {}
            };
            prop_assert!(check(seed, clock, 150) > 0);
        }
    }

    #[test]
    fn a_move_changes_little() {
        let mut room = Room::new("g", GameSettings::for_tests(ClockSpec::Unlimited {}), 0).unwrap();
        for e in [
            Event::Joined {
                seat: 1,
                name: "Ann".into(),
                account: None,
            },
            Event::Joined {
                seat: 2,
                name: "Bob".into(),
                account: None,
            },
            Event::Started,
        ] {
            room.apply(e, 0).unwrap();
        }
        let presence = Presence::default();
        let before = view(&room, &presence, 10);
        let full = serde_json::to_string(&before).unwrap();
        assert!(full.len() < 2048, "the full state is {} bytes", full.len());
        let text = crate::games::wire::legal::LegalMoves::of(&room.game).to_vec()[0].clone();
        for e in room
            .decide(Player::One, &Action::Move { text }, 20)
            .unwrap()
        {
            room.apply(e, 20).unwrap();
        }
        let after = view(&room, &presence, 30);
        let changes = serde_json::to_value(Changes::between(&before, &after)).unwrap();
        let keys: Vec<&str> = changes
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for key in [
            "version",
            "to_move",
            "position",
            "moves_tail",
            "legal",
            "clocks",
            "last",
        ] {
            assert!(keys.contains(&key), "{key} missing from {changes}");
        }
        for key in ["you", "seats", "board", "rules", "id", "status"] {
            assert!(!keys.contains(&key), "{key} sent unchanged in {changes}");
        }
        assert!(changes.to_string().len() < 1024, "{changes}");
        // Bad changes are refused with a reason, not a panic.
        let mut held = serde_json::to_value(&before).unwrap();
        assert_eq!(
            apply(
                &mut held,
                &serde_json::json!({"moves_tail": {"from": 99, "add": []}})
            ),
            Err(ApplyError::MovesTail)
        );
        assert_eq!(
            apply(&mut held, &serde_json::json!([1])),
            Err(ApplyError::NotAnObject("changes"))
        );
    }
}
