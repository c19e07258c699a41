//! Who is online: accounts heard from in the last few minutes or with a page open on a
//! WebSocket. Kept in memory only (it is gone, and refills, after a restart).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An account heard from this recently counts as online.
pub const RECENT: Duration = Duration::from_secs(300);

#[derive(Debug)]
struct Presence {
    name: String,
    last: Instant,
    sockets: usize,
}

/// The accounts online.
#[derive(Debug, Default)]
pub struct Online {
    accounts: Mutex<HashMap<String, Presence>>,
}

/// An open socket of an account: it counts as online until this is dropped.
pub struct Connected {
    online: Arc<Online>,
    account: String,
}

impl Drop for Connected {
    fn drop(&mut self) {
        let mut map = self.online.map();
        if let Some(p) = map.get_mut(&self.account) {
            p.sockets = p.sockets.saturating_sub(1);
            p.last = Instant::now();
        }
    }
}

impl Online {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Presence>> {
        self.accounts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The account `id` (named `name`) was heard from now.
    pub fn seen(&self, id: &str, name: &str) {
        let now = Instant::now();
        let mut map = self.map();
        if map.len() > 10_000 {
            map.retain(|_, p| p.sockets > 0 || now.duration_since(p.last) < RECENT);
        }
        map.entry(id.to_string())
            .and_modify(|p| p.last = now)
            .or_insert(Presence {
                name: name.to_string(),
                last: now,
                sockets: 0,
            });
    }

    /// The account opened a socket; it stays online until the returned guard is dropped.
    pub fn connected(self: &Arc<Self>, id: &str, name: &str) -> Connected {
        self.seen(id, name);
        if let Some(p) = self.map().get_mut(id) {
            p.sockets += 1;
        }
        Connected {
            online: Arc::clone(self),
            account: id.to_string(),
        }
    }

    /// The names of the accounts online now, in alphabetical order, at most `limit`, and how
    /// many there are in all.
    pub fn names(&self, limit: usize) -> (Vec<String>, usize) {
        let now = Instant::now();
        let mut names: Vec<String> = self
            .map()
            .values()
            .filter(|p| p.sockets > 0 || now.duration_since(p.last) < RECENT)
            .map(|p| p.name.clone())
            .collect();
        names.sort_by_key(|n| n.to_ascii_lowercase());
        let total = names.len();
        names.truncate(limit);
        (names, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_keep_an_account_online() {
        let online = Arc::new(Online::default());
        online.seen("a1", "Ann");
        let ben = online.connected("b1", "ben");
        assert_eq!(online.names(10), (vec!["Ann".into(), "ben".into()], 2));
        assert_eq!(online.names(1).0, vec!["Ann".to_string()]);
        drop(ben);
        // Just left: still counted as recent.
        assert_eq!(online.names(10).1, 2);
    }
}
