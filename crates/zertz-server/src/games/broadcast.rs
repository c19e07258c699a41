//! What a game's connections receive: each message serialised once and shared by all of them,
//! with the viewer's seat spliced into the text for the players.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use zertz::Player;

use super::model::Event;
use super::view::GameView;

/// A message to the connections of a game, serialised once and shared by all of them.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A stored event and the state after it.
    Event(Arc<Broadcast>),
    /// Presence changed (not stored, no new version).
    Presence(Arc<Broadcast>),
}

impl Outgoing {
    /// The message.
    pub fn broadcast(&self) -> &Broadcast {
        match self {
            Outgoing::Event(b) | Outgoing::Presence(b) => b,
        }
    }
}

/// The JSON text of one message for every kind of viewer. The state is serialised once; the
/// text for seat 1, seat 2 or a spectator differs only in the state's `you`, spliced in, and
/// each is made once (on first use) and then shared by every connection of that viewer.
#[derive(Debug)]
pub struct Broadcast {
    /// The game's version the message brings a client to.
    pub version: i64,
    /// The text for spectators (`"you":null`), shared as it is.
    spectators: Utf8Bytes,
    /// Where the value `null` of the state's `you` starts in it.
    you_at: Option<usize>,
    /// The text for player one and player two.
    texts: [std::sync::OnceLock<Utf8Bytes>; 2],
}

/// How a view's `you` is serialised when nobody is viewing.
const NO_VIEWER: &str = "\"you\":null";

impl Broadcast {
    /// The message `{"type": kind, "version", ["event",] "state"}` with `state` (whose `you`
    /// must be `None`).
    pub fn new(kind: &str, event: Option<&Event>, state: &GameView) -> Broadcast {
        #[derive(serde::Serialize)]
        struct Message<'a> {
            r#type: &'a str,
            version: i64,
            #[serde(skip_serializing_if = "Option::is_none")]
            event: Option<&'a Event>,
            state: &'a GameView,
        }
        // Room for the legal moves and the rest, so the text is not regrown as it is written.
        let mut buffer = Vec::with_capacity(state.legal_moves.json().len() + 4096);
        let message = Message {
            r#type: kind,
            version: state.version,
            event,
            state,
        };
        let text = match serde_json::to_writer(&mut buffer, &message) {
            Ok(()) => String::from_utf8(buffer).unwrap_or_default(),
            Err(_) => String::new(),
        };
        // Inside a JSON string every quote is escaped, so an unescaped `"you":` can only be
        // the key itself; the state's fields before `you` hold no key of that name.
        let you_at = text.find(NO_VIEWER).map(|i| i + NO_VIEWER.len() - 4);
        Broadcast {
            version: state.version,
            spectators: Utf8Bytes::from(text),
            you_at,
            texts: Default::default(),
        }
    }

    /// The text for `viewer` (a seat, or a spectator).
    pub fn text_for(&self, viewer: Option<Player>) -> Utf8Bytes {
        let (Some(p), Some(at)) = (viewer, self.you_at) else {
            return self.spectators.clone();
        };
        self.texts[p.index()]
            .get_or_init(|| {
                let whole = self.spectators.as_str();
                let (head, tail) = (&whole[..at], &whole[at + 4..]);
                let you = if p.index() == 0 { "1" } else { "2" };
                let mut text = String::with_capacity(whole.len() - 3);
                text.push_str(head);
                text.push_str(you);
                text.push_str(tail);
                Utf8Bytes::from(text)
            })
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::ClockSpec;
    use crate::games::model::{GameSettings, seat_number};
    use crate::games::room::Room;
    use crate::games::view::{Presence, legal_move_texts};

    #[test]
    fn a_broadcast_is_the_view_of_each_viewer() {
        let settings = GameSettings::for_tests(ClockSpec::Unlimited {});
        let mut room = Room::new("g", settings, 0).unwrap();
        // A name that looks like the key being spliced.
        let tricky = r#"x","you":null,"y"#.to_string();
        for e in [
            Event::Joined {
                seat: 1,
                name: tricky.clone(),
                account: None,
            },
            Event::Joined {
                seat: 2,
                name: "\"you\":null".into(),
                account: None,
            },
            Event::Started,
        ] {
            room.apply(e, 0).unwrap();
        }
        let legal = legal_move_texts(&room);
        let view = GameView::of(&room, None, &Presence::default(), 5, 1000, &legal);
        let event = Event::Started;
        let b = Broadcast::new("event", Some(&event), &view);
        for viewer in [Some(Player::One), Some(Player::Two), None] {
            let text = b.text_for(viewer);
            let got: serde_json::Value = serde_json::from_str(&text).unwrap();
            let mut want_view = view.clone();
            want_view.you = viewer.map(seat_number);
            let want = serde_json::json!({
                "type": "event",
                "version": view.version,
                "event": event,
                "state": want_view,
            });
            assert_eq!(got, want);
            // Made once per viewer, then shared.
            assert_eq!(b.text_for(viewer).as_str(), text.as_str());
        }
        let got: serde_json::Value = serde_json::from_str(&b.text_for(Some(Player::Two))).unwrap();
        assert_eq!(got["state"]["seats"][0]["name"], tricky.as_str());
        assert_eq!(got["state"]["you"], 2);
        assert_eq!(got["state"]["legal_moves"].as_array().unwrap().len(), 1944);
    }
}
