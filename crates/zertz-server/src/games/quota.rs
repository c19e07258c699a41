//! How much of the shared server one client may hold at once (docs/accounts.md, "Limits"): a
//! few games against the engine being played (each costs engine time), a few open seeks (open
//! games and matches in the lobby, and quick-pairing requests) and a few invitations not yet
//! taken (each game waits in memory), per account, or per address for guests; and, since
//! accounts are free, per address as well: an address holds at most [`ADDRESS_SHARE`] times
//! what one account may, its accounts and guests together (issue 39). Over a limit, a new one
//! is refused with 429 and a sentence. What each client holds is kept in the database
//! (`store::holds`), so that every node of a cluster counts the same places and a restart
//! forgets none (issue 39, item 8): a place counts while the game or match holding it does
//! (read from its status), and a place taken but not yet held by anything counts for
//! [`REQUEST_MS`] at most unless renewed (a quick-pairing request renews it while it waits).
//!
//! A new account holds half of each (rounded up) until it is a day old or has played
//! [`SETTLED_GAMES`] games to a result (issue 39: accounts are free, so what a fresh one may hold is small,
//! and it grows with the account's age and play).
//!
//! Aborting costs too (issue 39, F13): a client who aborts more than [`FREE_ABORTS`] started
//! games within an hour waits before its next seek or lobby join, a minute after the fourth,
//! doubling with each abort after it up to an hour, so that joining strangers' seeks only to
//! abort them is slow. The aborts are kept in the database too.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;

use crate::accounts::viewer::{Payer, Viewer};
use crate::games::hub::Hub;
use crate::games::room::status;
use crate::http::error::ApiError;
use crate::store::GameStore;
use crate::store::holds::{CountsWhile, HoldStore, Holder};

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

    /// The word that starts its keys in the database.
    fn key(self) -> &'static str {
        match self {
            Held::EngineGame => "engine",
            Held::Seek => "seek",
            Held::Invitation => "invitation",
        }
    }

    /// While what holds a place of this kind counts.
    fn counts(self) -> CountsWhile {
        match self {
            Held::EngineGame => CountsWhile::NotFinished,
            Held::Seek | Held::Invitation => CountsWhile::Open,
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

/// The limits, and the custom boards new to this process.
#[derive(Debug)]
pub struct Quotas {
    limits: Limits,
    /// The custom boards new to the server each client may still bring. Kept per process:
    /// what a new board costs is the layout built in this process's memory.
    pub new_boards: crate::games::new_boards::NewBoards,
}

/// How long a new account counts as new (ms): a day.
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

/// How long a place taken and not yet held by a game or match counts (ms) unless renewed: a
/// new game is stored within it; should the node die first, the place is free again then.
pub const REQUEST_MS: i64 = 60_000;
/// How often a place waiting with a quick-pairing request is renewed.
pub const RENEW_EVERY: Duration = Duration::from_secs(20);

/// A place taken under a client's quota until [`Reservation::keep`] names what holds it, or
/// until it is dropped.
pub struct Reservation {
    /// Where it is held; none when there is no limit.
    store: Option<Arc<dyn GameStore>>,
    /// The client's place and its address's.
    keys: Vec<String>,
    request: String,
    kept: bool,
}

impl Reservation {
    /// The place is held by game `id` (or match, with `is_match`) from now on: it counts until
    /// that game is over (an engine game) or taken (a seek). Should the database fail here,
    /// the place counts until its request runs out ([`REQUEST_MS`]), and no longer.
    pub async fn keep(mut self, id: &str, is_match: bool) {
        self.kept = true;
        let Some(store) = &self.store else {
            return;
        };
        let holder = if is_match {
            Holder::Match(id)
        } else {
            Holder::Game(id)
        };
        if let Err(e) = store.keep_hold(&self.keys, &self.request, holder).await {
            tracing::warn!("the quota's place for {id} was not kept: {e}");
        }
    }

    /// The place counts for another [`REQUEST_MS`] (a request that waits, and is not a game).
    pub async fn renew(&self) {
        let Some(store) = &self.store else {
            return;
        };
        let until = crate::util::now_ms() + REQUEST_MS;
        if let Err(e) = store.renew_hold(&self.keys, &self.request, until).await {
            tracing::warn!("a quota's place was not renewed: {e}");
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        let Some(store) = self.store.take() else {
            return;
        };
        let (keys, request) = (std::mem::take(&mut self.keys), self.request.clone());
        // Given back in the background (a drop cannot wait); without a runtime, or should it
        // fail, the place frees itself when its request runs out.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = store.drop_hold(&keys, &request).await {
                    tracing::warn!("a quota's place was not given back: {e}");
                }
            });
        }
    }
}

/// The wait that the aborts `recent` (key, at_ms; those of the last hour) make `payer` wait at
/// `now_ms`, with its sentence, if any: the longest of its client's and its address's.
fn abort_wait_of(
    payer: &Payer,
    recent: &[(String, i64)],
    now_ms: i64,
) -> Option<(String, Duration)> {
    let mut longest: Option<(String, Duration)> = None;
    for (index, (key, free)) in payer.keys(FREE_ABORTS).into_iter().enumerate() {
        let times: Vec<i64> = recent
            .iter()
            .filter(|(k, t)| *k == key && now_ms - t < ABORT_WINDOW_MS)
            .map(|(_, t)| *t)
            .collect();
        let past_free = times.len().saturating_sub(free);
        let Some(last) = times.iter().max().filter(|_| past_free > 0) else {
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
            format!("you aborted {} games", times.len())
        } else {
            format!("{} games were aborted from your address", times.len())
        };
        longest = Some((
            format!(
                "{who} in the last hour: you may start or take a game in the lobby again in {} s",
                left.as_secs().max(1)
            ),
            left,
        ));
    }
    longest
}

/// The keys of `payer`'s aborts: its client's and its address's.
fn abort_keys(payer: &Payer) -> Vec<String> {
    payer
        .keys(FREE_ABORTS)
        .into_iter()
        .map(|(key, _)| format!("abort {key}"))
        .collect()
}

/// The aborts as recorded under [`abort_keys`], with the keys [`Payer::keys`] gives.
fn unprefixed(recent: Vec<(String, i64)>) -> Vec<(String, i64)> {
    recent
        .into_iter()
        .map(|(key, at)| (key.strip_prefix("abort ").unwrap_or(&key).to_string(), at))
        .collect()
}

/// The answer to a client over a limit.
fn too_many(why: String) -> ApiError {
    ApiError(StatusCode::TOO_MANY_REQUESTS, why)
}

/// The answer when the quotas could not be read or written: the server's trouble.
fn unavailable(e: impl std::fmt::Display) -> ApiError {
    ApiError(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("the quotas could not be read, try again: {e}"),
    )
}

impl Quotas {
    /// Quotas with these limits.
    pub fn new(limits: Limits) -> Arc<Quotas> {
        Arc::new(Quotas {
            limits,
            new_boards: crate::games::new_boards::NewBoards::new(limits.new_boards_per_hour),
        })
    }

    /// Records that `payer` aborted a started game at `now_ms`: against the client and its
    /// address. Should the database fail, the abort is not counted (and the failure logged).
    pub async fn aborted(&self, store: &dyn HoldStore, payer: &Payer, now_ms: i64) {
        if let Err(e) = store
            .record_abort(&abort_keys(payer), now_ms, now_ms - ABORT_WINDOW_MS)
            .await
        {
            tracing::warn!("an abort was not counted: {e}");
        }
    }

    /// Why `payer` may not seek or join a lobby game at `now_ms`, if it aborted too many
    /// started games lately, or its address did ([`ADDRESS_SHARE`] times as many are free
    /// there): the 429 that says so and how long it still waits.
    pub async fn abort_wait(
        &self,
        store: &dyn HoldStore,
        payer: &Payer,
        now_ms: i64,
    ) -> Result<(), ApiError> {
        let recent = store
            .aborts_since(&abort_keys(payer), now_ms - ABORT_WINDOW_MS + 1)
            .await
            .map_err(unavailable)?;
        match abort_wait_of(payer, &unprefixed(recent), now_ms) {
            Some((why, _)) => Err(too_many(why)),
            None => Ok(()),
        }
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
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
    /// its address, or says why not (429): the client, or the address, already holds as many
    /// as its limit allows. A seek also waits out the client's aborts ([`Quotas::abort_wait`]).
    /// 503 when the database cannot say.
    pub async fn reserve(
        self: &Arc<Self>,
        hub: &Hub,
        viewer: &Viewer,
        kind: Held,
    ) -> Result<Reservation, ApiError> {
        let payer = viewer.payer();
        let now = crate::util::now_ms();
        if kind == Held::Seek {
            self.abort_wait(hub.store(), &payer, now).await?;
        }
        let limit = match kind {
            Held::EngineGame => self.limits.engine_games,
            Held::Seek => self.limits.seeks,
            Held::Invitation => self.limits.invitations,
        };
        let request = crate::token::seat_token();
        if limit == 0 {
            return Ok(Reservation {
                store: None,
                keys: Vec::new(),
                request,
                kept: false,
            });
        }
        let new_account = Quotas::is_new(hub, viewer).await;
        // The client's own place, and its address's (guests and accounts together).
        let places: Vec<(String, usize, String)> = payer
            .keys(limit)
            .into_iter()
            .enumerate()
            .map(|(index, (key, limit))| {
                let key = format!("{} {key}", kind.key());
                match index {
                    0 if new_account => (
                        key,
                        limit.div_ceil(2),
                        format!(
                            "a new account; {limit} once it is a day old or has played \
                             {SETTLED_GAMES} games to a result"
                        ),
                    ),
                    0 => (
                        key,
                        limit,
                        "one player (or one address for guests)".to_string(),
                    ),
                    _ => (
                        key,
                        limit,
                        "one address, its players and guests together".to_string(),
                    ),
                }
            })
            .collect();
        let limits: Vec<(String, i64)> = places
            .iter()
            .map(|(key, limit, _)| (key.clone(), *limit as i64))
            .collect();
        let store = hub.store_handle();
        let taken = store
            .take_hold(&limits, &request, kind.counts(), now, now + REQUEST_MS)
            .await
            .map_err(unavailable)?;
        if let Err(full) = taken {
            let (limit, whose) = places
                .iter()
                .find(|(key, _, _)| *key == full.key)
                .map(|(_, limit, whose)| (*limit, whose.as_str()))
                .unwrap_or((0, "this client"));
            return Err(too_many(format!(
                "too many {}: at most {limit} at once for {whose} ({} now); finish or cancel \
                 one first",
                kind.words(),
                full.held
            )));
        }
        Ok(Reservation {
            store: Some(store),
            keys: limits.into_iter().map(|(key, _)| key).collect(),
            request,
            kept: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The aborts of a few clients, recorded as the database keeps them.
    #[derive(Default)]
    struct Record(Vec<(String, i64)>);

    impl Record {
        fn aborted(&mut self, payer: &Payer, at: i64) {
            for key in abort_keys(payer) {
                self.0.push((key, at));
            }
        }

        fn wait(&self, payer: &Payer, now: i64) -> Option<(String, Duration)> {
            let keys = abort_keys(payer);
            let recent: Vec<(String, i64)> = self
                .0
                .iter()
                .filter(|(key, at)| keys.contains(key) && now - at < ABORT_WINDOW_MS)
                .cloned()
                .collect();
            abort_wait_of(payer, &unprefixed(recent), now)
        }
    }

    #[test]
    fn aborts_past_the_free_ones_make_a_wait_that_doubles() {
        let mut q = Record::default();
        let (ann, bob) = (Payer::named("ann"), Payer::named("bob"));
        let minute = 60_000;
        for k in 0..FREE_ABORTS as i64 {
            q.aborted(&ann, k * 1_000);
            assert!(q.wait(&ann, k * 1_000).is_none(), "abort {k} is free");
        }
        // The fourth: a minute's wait from it; the fifth: two; other clients are not held.
        q.aborted(&ann, 10_000);
        let (why, left) = q.wait(&ann, 10_000).unwrap();
        assert_eq!(left, Duration::from_secs(60));
        assert!(why.contains("aborted 4 games"), "{why}");
        assert!(q.wait(&ann, 10_000 + minute).is_none());
        q.aborted(&ann, 100_000);
        assert_eq!(q.wait(&ann, 100_000).unwrap().1, Duration::from_secs(120));
        assert!(q.wait(&bob, 100_000).is_none());
        // An hour on, the old aborts no longer count.
        assert!(q.wait(&ann, 100_000 + ABORT_WINDOW_MS).is_none());
    }

    /// Fresh accounts at one address share its aborts: each of five aborts 3 games (free for
    /// each), but the address has aborted 15, past its 12 free ones, so all of them wait; a
    /// client at another address does not.
    #[test]
    fn aborts_count_per_address_too() {
        let mut q = Record::default();
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
        assert!(fakes.iter().all(|f| q.wait(f, now).is_none()));
        now += 1_000;
        q.aborted(&fakes[4], now);
        for fake in &fakes {
            let (why, left) = q.wait(fake, now).expect("the address waits");
            assert!(
                why.contains("13 games were aborted from your address"),
                "{why}"
            );
            assert_eq!(left, Duration::from_secs(60));
        }
        let elsewhere = at("account:other", [198, 51, 100, 1]);
        assert!(q.wait(&elsewhere, now).is_none());
    }
}
