//! "This game ended": announced once by the hub, after the end is stored, to whoever
//! subscribed. The features that act on a finished game (the opening explorer, the matches,
//! tournaments) subscribe where the application is put together (`app`), so the hub names
//! none of them.

use std::sync::{Arc, RwLock};

use crate::games::room::Room;

/// A game that has just ended, as stored.
pub struct GameEnded {
    /// The room at its end: seats, names and accounts, settings (pool, rated, match), the game
    /// and its result.
    pub room: Room,
    /// When it ended, in ms since the Unix epoch.
    pub ended_ms: i64,
}

/// What hears of a finished game (or match). It is called with the game's lock held, so it
/// does its work in a task of its own and returns at once.
type Listener<T> = Box<dyn Fn(&Arc<T>) + Send + Sync>;

/// The listeners of finished games (or, with `T` a match, of decided matches).
pub struct Announcer<T = GameEnded> {
    listeners: RwLock<Vec<Listener<T>>>,
}

impl<T> Default for Announcer<T> {
    fn default() -> Self {
        Announcer {
            listeners: RwLock::new(Vec::new()),
        }
    }
}

impl<T> Announcer<T> {
    /// Adds a listener; it hears every game that ends from now on.
    pub fn subscribe(&self, listener: impl Fn(&Arc<T>) + Send + Sync + 'static) {
        self.listeners
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(Box::new(listener));
    }

    /// Whether anyone listens (a room is copied for the announcement only then).
    pub fn is_heard(&self) -> bool {
        !self
            .listeners
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }

    /// Tells every listener, in the order they subscribed.
    pub fn announce(&self, ended: T) {
        let ended = Arc::new(ended);
        for listener in self
            .listeners
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            listener(&ended);
        }
    }
}
