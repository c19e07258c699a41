//! How much of the shared server one client may hold at once (docs/accounts.md, "Limits"): a
//! few games against the engine being played (each costs engine time), a few open seeks (open
//! games and matches in the lobby, and quick-pairing requests) and a few invitations not yet
//! taken (each game waits in memory), per account, or per address for guests; and, since
//! accounts are free, per address as well: an address holds at most [`ADDRESS_SHARE`] times
//! what one account may, its accounts and guests together (issue 39). Over a limit, a new one
//! is refused with 429 and a sentence. The counts live in memory: what a client holds is
//! forgotten at a restart.
//!
//! A new account holds half of each (rounded up) until it is a day old or has played
//! [`SETTLED_GAMES`] games to a result (issue 39: accounts are free, so what a fresh one may hold is small,
//! and it grows with the account's age and play).
//!
//! Aborting costs too (issue 39, F13): a client who aborts more than [`FREE_ABORTS`] started
//! games within an hour waits before its next seek or lobby join, a minute after the fourth,
//! doubling with each abort after it up to an hour, so that joining strangers' seeks only to
//! abort them is slow.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::accounts::viewer::{Payer, Viewer};
use crate::games::hub::Hub;
use crate::games::room::status;

pub use crate::accounts::viewer::ADDRESS_SHARE;

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

/// How long an account counts as new (ms): a day.
pub const NEW_FOR_MS: i64 = 24 * 3_600_000;
/// The games played to a result after which an account no longer counts as new, whatever its
/// age.
pub const SETTLED_GAMES: usize = 3;

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

    /// Records that `payer` aborted a started game at `now_ms`: against the client and its
    /// address.
    pub fn aborted(&self, payer: &Payer, now_ms: i64) {
        let mut aborts = self.aborts.lock().unwrap_or_else(|e| e.into_inner());
        // The old ones of every client go, so the map holds the last hour only.
        aborts.retain(|_, times| {
            times.retain(|t| now_ms - t < ABORT_WINDOW_MS);
            !times.is_empty()
        });
        for (key, _) in payer.keys(FREE_ABORTS) {
            aborts.entry(key).or_default().push(now_ms);
        }
    }

    /// Why `payer` may not seek or join a lobby game at `now_ms`, if it aborted too many
    /// started games lately, or its address did ([`ADDRESS_SHARE`] times as many are free
    /// there): the sentence and how long it still waits.
    pub fn abort_wait(&self, payer: &Payer, now_ms: i64) -> Option<(String, Duration)> {
        let aborts = self.aborts.lock().unwrap_or_else(|e| e.into_inner());
        let mut longest: Option<(String, Duration)> = None;
        for (index, (key, free)) in payer.keys(FREE_ABORTS).into_iter().enumerate() {
            let Some(times) = aborts.get(&key) else {
                continue;
            };
            let recent: Vec<i64> = times
                .iter()
                .copied()
                .filter(|t| now_ms - t < ABORT_WINDOW_MS)
                .collect();
            let past_free = recent.len().saturating_sub(free);
            let Some(last) = recent.iter().max().filter(|_| past_free > 0) else {
                continue;
            };
            let wait = FIRST_ABORT_WAIT
                .saturating_mul(1 << (past_free - 1).min(10))
                .min(LONGEST_ABORT_WAIT);
            let left = (last + wait.as_millis() as i64) - now_ms;
            if left <= 0
                || longest
                    .as_ref()
                    .is_some_and(|(_, l)| l.as_millis() as i64 >= left)
            {
                continue;
            }
            let left = Duration::from_millis(left as u64);
            let who = if index == 0 {
                format!("you aborted {} games", recent.len())
            } else {
                format!("{} games were aborted from your address", recent.len())
            };
            longest = Some((
                format!(
                    "{who} in the last hour: you may start or take a game in the lobby again in \
                     {} s",
                    left.as_secs().max(1)
                ),
                left,
            ));
        }
        longest
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

    /// Whether `viewer` is an account that still counts as new: younger than [`NEW_FOR_MS`]
    /// with fewer than [`SETTLED_GAMES`] games played to a result (an aborted game is none;
    /// looked up for young accounts only). Should the lookup fail, the account counts as new.
    async fn is_new(hub: &Hub, viewer: &Viewer) -> bool {
        let Some(account) = &viewer.account else {
            return false;
        };
        if crate::util::now_ms() - account.created_ms >= NEW_FOR_MS {
            return false;
        }
        hub.store()
            .account_games(&account.id, &[status::FINISHED], 50)
            .await
            .map_or(true, |games| {
                games
                    .iter()
                    .filter(|g| g.result.as_deref().is_some_and(|r| r != "*"))
                    .count()
                    < SETTLED_GAMES
            })
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
        let payer = viewer.payer();
        if kind == Held::Seek
            && let Some((why, _)) = self.abort_wait(&payer, crate::util::now_ms())
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
        let new_account = Quotas::is_new(hub, viewer).await;
        // The client's own place, and its address's (guests and accounts together).
        let places: Vec<((String, Held), usize, String)> = payer
            .keys(limit)
            .into_iter()
            .enumerate()
            .map(|(index, (key, limit))| match index {
                0 if new_account => (
                    (key, kind),
                    limit.div_ceil(2),
                    format!(
                        "a new account; {limit} once it is a day old or has played \
                         {SETTLED_GAMES} games to a result"
                    ),
                ),
                0 => (
                    (key, kind),
                    limit,
                    "one player (or one address for guests)".to_string(),
                ),
                _ => (
                    (key, kind),
                    limit,
                    "one address, its players and guests together".to_string(),
                ),
            })
            .collect();
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
        let (ann, bob) = (Payer::named("ann"), Payer::named("bob"));
        let minute = 60_000;
        for k in 0..FREE_ABORTS as i64 {
            q.aborted(&ann, k * 1_000);
            assert!(q.abort_wait(&ann, k * 1_000).is_none(), "abort {k} is free");
        }
        // The fourth: a minute's wait from it; the fifth: two; other clients are not held.
        q.aborted(&ann, 10_000);
        let (why, left) = q.abort_wait(&ann, 10_000).unwrap();
        assert_eq!(left, Duration::from_secs(60));
        assert!(why.contains("aborted 4 games"), "{why}");
        assert!(q.abort_wait(&ann, 10_000 + minute).is_none());
        q.aborted(&ann, 100_000);
        assert_eq!(
            q.abort_wait(&ann, 100_000).unwrap().1,
            Duration::from_secs(120)
        );
        assert!(q.abort_wait(&bob, 100_000).is_none());
        // An hour on, the old aborts no longer count.
        assert!(q.abort_wait(&ann, 100_000 + ABORT_WINDOW_MS).is_none());
    }

    /// Fresh accounts at one address share its aborts: each of five aborts 3 games (free for
    /// each), but the address has aborted 15, past its 12 free ones, so all of them wait; a
    /// client at another address does not.
    #[test]
    fn aborts_count_per_address_too() {
        let q = Quotas::new(Limits::default());
        let at = |client: &str, ip: [u8; 4]| Payer {
            client: client.to_string(),
            address: Some(std::net::IpAddr::from(ip)),
        };
        let fakes: Vec<Payer> = (0..5)
            .map(|n| at(&format!("account:fake{n}"), [203, 0, 113, 9]))
            .collect();
        let mut now = 0;
        for fake in &fakes[..4] {
            for _ in 0..FREE_ABORTS {
                now += 1_000;
                q.aborted(fake, now);
            }
        }
        // Twelve from the address: each account and the address are within their free ones.
        assert!(fakes.iter().all(|f| q.abort_wait(f, now).is_none()));
        now += 1_000;
        q.aborted(&fakes[4], now);
        for fake in &fakes {
            let (why, left) = q.abort_wait(fake, now).expect("the address waits");
            assert!(
                why.contains("13 games were aborted from your address"),
                "{why}"
            );
            assert_eq!(left, Duration::from_secs(60));
        }
        let elsewhere = at("account:other", [198, 51, 100, 1]);
        assert!(q.abort_wait(&elsewhere, now).is_none());
    }
}
