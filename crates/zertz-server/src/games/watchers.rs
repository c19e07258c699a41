//! Channels by id for things that are watched rather than played: each change is sent to the
//! watchers of its id, and a channel nobody listens to is forgotten.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

/// Broadcast channels of `T`, one per watched id.
pub struct Watchers<T> {
    channels: Mutex<HashMap<String, broadcast::Sender<T>>>,
    capacity: usize,
}

impl<T: Clone> Watchers<T> {
    /// No channel yet; each holds up to `capacity` changes a slow watcher has not read.
    pub fn new(capacity: usize) -> Watchers<T> {
        Watchers {
            channels: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<T>>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Subscribes to the changes of `id`.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<T> {
        self.channels()
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(self.capacity).0)
            .subscribe()
    }

    /// Sends `change` to the watchers of `id`, if it has any (forgets the channel otherwise).
    pub fn send(&self, id: &str, change: T) {
        let mut channels = self.channels();
        if let Some(sender) = channels.get(id)
            && sender.send(change).is_err()
        {
            channels.remove(id);
        }
    }

    /// Whether `id` has a channel (someone subscribed and has not been forgotten).
    pub fn is_watched(&self, id: &str) -> bool {
        self.channels().contains_key(id)
    }

    /// A watcher of `id` went away (its receiver dropped): forgets the channel when it was
    /// the last.
    pub fn forget_if_unwatched(&self, id: &str) {
        let mut channels = self.channels();
        if channels.get(id).is_some_and(|s| s.receiver_count() == 0) {
            channels.remove(id);
        }
    }
}
