//! How much of the shared server one client may hold at once (docs/accounts.md, "Limits"): a
//! few games against the engine being played (each costs engine time), a few open seeks (open
//! games and matches in the lobby, and quick-pairing requests) and a few invitations not yet
//! taken (each game waits in memory), per account, or per address for guests; and, since
//! accounts are free, per address as well: an address holds at most [`ADDRESS_SHARE`] times
//! what one account may, its accounts and guests together (issue 39). Over a limit, a new one
//! is refused with 429 and a sentence. The counts live in memory: what a client holds is
//! forgotten at a restart.
//!
//! Aborting costs too (issue 39, F13): a client who aborts more than [`FREE_ABORTS`] started
//! games within an hour waits before its next seek or lobby join, a minute after the fourth,
//! doubling with each abort after it up to an hour, so that joining strangers' seeks only to
//! abort them is slow.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::accounts::viewer::Viewer;
use crate::games::hub::Hub;
use crate::games::room::status;

/// What one address may hold, in accounts' worth: a family or a club behind one address can
/// play, and fresh accounts multiply a limit by this much at most.
pub const ADDRESS_SHARE: usize = 4;

/// What a client holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Held {
    /// A game or match against the engine, until it ends.
    EngineGame,
    /// An open game or match in the lobby until someone takes it, or a quick-pairing request
    /// while it waits.
    Seek,
    /// A game or match with an invitation, until the invited player takes the seat.
    Invitation,
}

impl Held {
    fn words(self) -> &'static str {
        match self {
            Held::EngineGame => "games against the engine being played",
            Held::Seek => "open games and pairing requests waiting",
            Held::Invitation => "invitations not yet taken",
        }
    }
}

/// The limits per client (0: no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Games against the engine being played at once.
    pub engine_games: usize,
    /// Open seeks at once.
    pub seeks: usize,
    /// Invitations not yet taken at once.
    pub invitations: usize,
    /// Custom boards new to the server one client may bring in an hour (0: no limit).
    pub new_boards_per_hour: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            engine_games: 3,
            seeks: 5,
            invitations: 10,
            new_boards_per_hour: 20,
        }
    }
}

/// One thing held: a game or a match (by id), or a pairing request (no id: held while the
/// request lives).
#[derive(Clone, Debug)]
enum Hold {
    Game(String),
    Match(String),
    Waiting(u64),
}

/// What every client holds.
#[derive(Debug)]
pub struct Quotas {
    limits: Limits,
    /// The custom boards new to the server each client may still bring.
    pub new_boards: crate::games::new_boards::NewBoards,
    held: Mutex<HashMap<(String, Held), Vec<Hold>>>,
    next_request: std::sync::atomic::AtomicU64,
    /// When each client aborted a started game, within the last [`ABORT_WINDOW_MS`].
    aborts: Mutex<HashMap<String, Vec<i64>>>,
}

/// Started games a client may abort within [`ABORT_WINDOW_MS`] without waiting afterwards.
pub const FREE_ABORTS: usize = 3;
/// The window aborts are counted in: an hour.
pub const ABORT_WINDOW_MS: i64 = 3_600_000;
/// The wait after the first abort past the free ones; it doubles with each one after.
const FIRST_ABORT_WAIT: Duration = Duration::from_secs(60);
/// The longest wait.
const LONGEST_ABORT_WAIT: Duration = Duration::from_secs(3600);

/// A place taken under a client's quota until [`Reservation::keep`] names what holds it, or
/// until it is dropped.
pub struct Reservation {
    quotas: Arc<Quotas>,
    /// The client's place and its address's.
    keys: Vec<(String, Held)>,
    request: u64,
    kept: bool,
}

impl Reservation {
    /// The place is held by game `id` (or match, with `is_match`) from now on: it counts until
    /// that game is over (an engine game) or taken (a seek).
    pub fn keep(mut self, id: &str, is_match: bool) {
        let mut held = self.quotas.lock();
        let request = self.request;
        for key in &self.keys {
            if let Some(list) = held.get_mut(key) {
                list.retain(|h| !matches!(h, Hold::Waiting(r) if *r == request));
                list.push(if is_match {
                    Hold::Match(id.to_string())
                } else {
                    Hold::Game(id.to_string())
                });
            }
        }
        self.kept = true;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        let mut held = self.quotas.lock();
        let request = self.request;
        for key in &self.keys {
            if let Some(list) = held.get_mut(key) {
                list.retain(|h| !matches!(h, Hold::Waiting(r) if *r == request));
                if list.is_empty() {
                    held.remove(key);
                }
            }
        }
    }
}

impl Quotas {
    /// Quotas with these limits.
    pub fn new(limits: Limits) -> Arc<Quotas> {
        Arc::new(Quotas {
            limits,
            new_boards: crate::games::new_boards::NewBoards::new(limits.new_boards_per_hour),
            held: Mutex::new(HashMap::new()),
            next_request: Default::default(),
            aborts: Mutex::new(HashMap::new()),
        })
    }

    /// Records that `client` aborted a started game at `now_ms`.
    pub fn aborted(&self, client: &str, now_ms: i64) {
        let mut aborts = self.aborts.lock().unwrap_or_else(|e| e.into_inner());
        // The old ones of every client go, so the map holds the last hour only.
        aborts.retain(|_, times| {
            times.retain(|t| now_ms - t < ABORT_WINDOW_MS);
            !times.is_empty()
        });
        aborts.entry(client.to_string()).or_default().push(now_ms);
    }

    /// Why `client` may not seek or join a lobby game at `now_ms`, if it aborted too many
    /// started games lately: the sentence and how long it still waits.
    pub fn abort_wait(&self, client: &str, now_ms: i64) -> Option<(String, Duration)> {
        let aborts = self.aborts.lock().unwrap_or_else(|e| e.into_inner());
        let recent: Vec<i64> = aborts
            .get(client)?
            .iter()
            .copied()
            .filter(|t| now_ms - t < ABORT_WINDOW_MS)
            .collect();
        let past_free = recent.len().checked_sub(FREE_ABORTS)?;
        if past_free == 0 {
            return None;
        }
        let wait = FIRST_ABORT_WAIT
            .saturating_mul(1 << (past_free - 1).min(10))
            .min(LONGEST_ABORT_WAIT);
        let last = *recent.iter().max()?;
        let left = (last + wait.as_millis() as i64) - now_ms;
        (left > 0).then(|| {
            let left = Duration::from_millis(left as u64);
            (
                format!(
                    "you aborted {} games in the last hour: you may start or take a game in the \
                     lobby again in {} s",
                    recent.len(),
                    left.as_secs().max(1)
                ),
                left,
            )
        })
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, Held), Vec<Hold>>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a held game still counts: an engine game until it is over, a seek while it is
    /// open.
    async fn still_counts(hub: &Hub, hold: &Hold, kind: Held) -> bool {
        let state = match hold {
            Hold::Waiting(_) => return true,
            Hold::Game(id) => match hub.room(id).await {
                Ok(room) => room.status(),
                Err(_) => return false,
            },
            Hold::Match(id) => match hub.load_match(id).await {
                Ok((m, _)) => m.status(),
                Err(_) => return false,
            },
        };
        match kind {
            Held::EngineGame => state != status::FINISHED,
            Held::Seek | Held::Invitation => state == status::OPEN,
        }
    }

    /// Takes a place of `kind` for `viewer` (its account, or its address for a guest) and for
    /// its address, or says why not: the client, or the address, already holds as many as
    /// its limit allows. A seek also waits out the client's aborts ([`Quotas::abort_wait`]).
    pub async fn reserve(
        self: &Arc<Self>,
        hub: &Hub,
        viewer: &Viewer,
        kind: Held,
    ) -> Result<Reservation, String> {
        let client = viewer.client();
        if kind == Held::Seek
            && let Some((why, _)) = self.abort_wait(&client, crate::util::now_ms())
        {
            return Err(why);
        }
        let limit = match kind {
            Held::EngineGame => self.limits.engine_games,
            Held::Seek => self.limits.seeks,
            Held::Invitation => self.limits.invitations,
        };
        if limit == 0 {
            return Ok(self.reservation(Vec::new(), 0));
        }
        // The client's own place, and its address's (guests and accounts together).
        let mut places = vec![(
            (client, kind),
            limit,
            "one player (or one address for guests)",
        )];
        if let Some(ip) = viewer.address {
            places.push((
                (format!("everyone at:{ip}"), kind),
                limit * ADDRESS_SHARE,
                "one address, its players and guests together",
            ));
        }
        // Holds that no longer count (a game over, a seek taken) are found first, unlocked.
        let mut gone = Vec::new();
        for (key, _, _) in &places {
            let holds = self.lock().get(key).cloned().unwrap_or_default();
            for hold in holds {
                if !Quotas::still_counts(hub, &hold, kind).await {
                    gone.push(hold);
                }
            }
        }
        let request = self
            .next_request
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut held = self.lock();
        for (key, limit, whose) in &places {
            let list = held.entry(key.clone()).or_default();
            list.retain(|h| {
                !gone.iter().any(|g| match (g, h) {
                    (Hold::Game(a), Hold::Game(b)) | (Hold::Match(a), Hold::Match(b)) => a == b,
                    _ => false,
                })
            });
            if list.len() >= *limit {
                let count = list.len();
                held.retain(|_, list| !list.is_empty());
                return Err(format!(
                    "too many {}: at most {limit} at once for {whose} ({count} now); finish or \
                     cancel one first",
                    kind.words()
                ));
            }
        }
        let keys: Vec<(String, Held)> = places.into_iter().map(|(key, _, _)| key).collect();
        for key in &keys {
            held.entry(key.clone())
                .or_default()
                .push(Hold::Waiting(request));
        }
        drop(held);
        Ok(self.reservation(keys, request))
    }

    fn reservation(self: &Arc<Self>, keys: Vec<(String, Held)>, request: u64) -> Reservation {
        Reservation {
            quotas: Arc::clone(self),
            keys,
            request,
            kept: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aborts_past_the_free_ones_make_a_wait_that_doubles() {
        let q = Quotas::new(Limits::default());
        let minute = 60_000;
        for k in 0..FREE_ABORTS as i64 {
            q.aborted("ann", k * 1_000);
            assert!(
                q.abort_wait("ann", k * 1_000).is_none(),
                "abort {k} is free"
            );
        }
        // The fourth: a minute's wait from it; the fifth: two; other clients are not held.
        q.aborted("ann", 10_000);
        let (why, left) = q.abort_wait("ann", 10_000).unwrap();
        assert_eq!(left, Duration::from_secs(60));
        assert!(why.contains("aborted 4 games"), "{why}");
        assert!(q.abort_wait("ann", 10_000 + minute).is_none());
        q.aborted("ann", 100_000);
        assert_eq!(
            q.abort_wait("ann", 100_000).unwrap().1,
            Duration::from_secs(120)
        );
        assert!(q.abort_wait("bob", 100_000).is_none());
        // An hour on, the old aborts no longer count.
        assert!(q.abort_wait("ann", 100_000 + ABORT_WINDOW_MS).is_none());
    }
}
