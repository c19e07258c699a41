//! Who is online: accounts heard from in the last few minutes or with a page open on a
//! WebSocket. Kept in memory only (it is gone, and refills, after a restart). With several
//! nodes, an account heard from on one node is announced to the others (`cluster::notify`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An account heard from this recently counts as online.
pub const RECENT: Duration = Duration::from_secs(300);

/// How often an account still active is announced again to the other nodes (well within
/// [`RECENT`], so that they keep it online).
const ANNOUNCE_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug)]
struct Presence {
    name: String,
    last: Instant,
    sockets: usize,
    /// When it was last announced to the other nodes (`None`: never).
    announced: Option<Instant>,
}

/// The accounts online.
#[derive(Debug, Default)]
pub struct Online {
    accounts: Mutex<HashMap<String, Presence>>,
    /// With several nodes: where the ids of accounts to announce are sent.
    announce: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<String>>,
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
        let p = map.entry(id.to_string()).or_insert(Presence {
            name: name.to_string(),
            last: now,
            sockets: 0,
            announced: None,
        });
        p.last = now;
        if let Some(tx) = self.announce.get()
            && p.announced
                .is_none_or(|t| now.duration_since(t) >= ANNOUNCE_EVERY)
        {
            p.announced = Some(now);
            let _ = tx.send(id.to_string());
        }
    }

    /// The account `id` (named `name`) was heard from on another node now: online here too,
    /// not announced again.
    pub fn heard_elsewhere(&self, id: &str, name: &str) {
        let now = Instant::now();
        let mut map = self.map();
        let p = map.entry(id.to_string()).or_insert(Presence {
            name: name.to_string(),
            last: now,
            sockets: 0,
            announced: Some(now),
        });
        p.last = now;
    }

    /// Sends the ids of the accounts to announce to the other nodes to `tx` from now on
    /// (once; later calls do nothing).
    pub fn announce_to(&self, tx: tokio::sync::mpsc::UnboundedSender<String>) {
        let _ = self.announce.set(tx);
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

    #[test]
    fn accounts_are_announced_once_a_while_and_not_echoed() {
        let online = Online::default();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        online.announce_to(tx);
        online.seen("a1", "Ann");
        online.seen("a1", "Ann");
        online.heard_elsewhere("c1", "Cy");
        online.seen("c1", "Cy");
        assert_eq!(rx.try_recv().ok(), Some("a1".to_string()));
        // Ann again at once, Cy heard from another node: nothing more to announce.
        assert!(rx.try_recv().is_err());
        assert_eq!(online.names(10).0, vec!["Ann".to_string(), "Cy".into()]);
    }
}
