//! What a game's connections receive after their first full state: each message serialised
//! once and shared by all of them. A message carries what changed (`changes`), never the
//! viewer's own `you`, so one text serves players and spectators alike.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;

use crate::games::model::Event;
use crate::games::wire::changes::Changes;

/// A message to the connections of a game, serialised once and shared by all of them.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A stored event and what it changed.
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

/// The JSON text of one message, with the version it brings a client to.
#[derive(Debug)]
pub struct Broadcast {
    /// The game's version the message brings a client to.
    pub version: i64,
    /// The text, the same for every viewer.
    text: Utf8Bytes,
}

impl Broadcast {
    /// The message `{"type": kind, "version", ["event",] "changes"}`.
    pub fn new(
        kind: &str,
        event: Option<&Event>,
        changes: &Changes<'_>,
        version: i64,
    ) -> Broadcast {
        #[derive(serde::Serialize)]
        struct Message<'a> {
            r#type: &'a str,
            version: i64,
            #[serde(skip_serializing_if = "Option::is_none")]
            event: Option<&'a Event>,
            changes: &'a Changes<'a>,
        }
        let message = Message {
            r#type: kind,
            version,
            event,
            changes,
        };
        // A move's message is some 700 bytes: one allocation instead of the growth from 128.
        let mut text = Vec::with_capacity(1024);
        let text = match serde_json::to_writer(&mut text, &message) {
            // serde_json writes UTF-8 only.
            Ok(()) => String::from_utf8(text).unwrap_or_default(),
            Err(_) => String::new(),
        };
        Broadcast {
            version,
            text: Utf8Bytes::from(text),
        }
    }

    /// The text (the same for every viewer).
    pub fn text(&self) -> Utf8Bytes {
        self.text.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::ClockSpec;
    use crate::games::model::GameSettings;
    use crate::games::room::Room;
    use crate::games::wire::compact::Legal;
    use crate::games::wire::view::{GameView, Presence};

    #[test]
    fn a_broadcast_is_the_changes_without_the_viewer() {
        let settings = GameSettings::for_tests(ClockSpec::Unlimited {});
        let mut room = Room::new("g", settings, 0).unwrap();
        let before = GameView::of(
            &room,
            None,
            &Presence::default(),
            5,
            1000,
            &Legal::default(),
        );
        // A name that looks like a key of the state.
        let event = Event::Joined {
            seat: 1,
            name: r#"x","you":1,"y"#.into(),
            account: None,
        };
        room.apply(event.clone(), 0).unwrap();
        let after = GameView::of(
            &room,
            None,
            &Presence::default(),
            6,
            1000,
            &Legal::default(),
        );
        let b = Broadcast::new("event", Some(&event), &Changes::between(&before, &after), 1);
        let got: serde_json::Value = serde_json::from_str(&b.text()).unwrap();
        assert_eq!(got["type"], "event");
        assert_eq!(got["version"], 1);
        assert_eq!(got["event"], serde_json::to_value(&event).unwrap());
        assert_eq!(got["changes"]["seats"][0]["name"], r#"x","you":1,"y"#);
        assert!(got["changes"].get("you").is_none() && got.get("state").is_none());
        assert_eq!(b.version, 1);
    }
}
