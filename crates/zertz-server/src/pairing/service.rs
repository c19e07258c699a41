//! Quick pairing: a player asks for a game of a pool (rule set and speed), rated or casual, and
//! waits while their page stays open; the queue pairs them (see `queue`), the game is made with
//! both seats taken and its clock started, and each waiting page is told its seat at once.
//! Closing the page withdraws the request.
//!
//! One node keeps its queues in memory; several nodes on PostgreSQL share one queue in the
//! database (see `shared`), with the same rules of who pairs with whom.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::cluster::Cluster;
use crate::games::clock::ClockSpec;
use crate::games::hub::Hub;
use crate::games::model::{GameSettings, SeatKind, Seated};
use crate::games::pools::{Pool, Speed};
use crate::pairing::queue::{Queue, Waiting, gap};
use crate::store::StoreError;
use crate::util::now_ms;

/// How often the queues are looked at again (gaps widen with time).
const TICK: Duration = Duration::from_millis(500);

/// The clock of a quick-paired game of each speed.
pub fn clock_of(speed: Speed) -> ClockSpec {
    let minutes = |m: i64| m * 60_000;
    match speed {
        Speed::Blitz => ClockSpec::Fischer {
            base_ms: minutes(5),
            increment_ms: 3_000,
        },
        Speed::Rapid => ClockSpec::Fischer {
            base_ms: minutes(10),
            increment_ms: 10_000,
        },
        Speed::Classical => ClockSpec::Fischer {
            base_ms: minutes(30),
            increment_ms: 20_000,
        },
        Speed::Correspondence => ClockSpec::Correspondence {
            per_move_ms: 3 * 24 * 3600 * 1000,
        },
    }
}

/// Which queue a request waits in: the pool, rated or not, and accounts or guests (guests are
/// paired with guests).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueueKey {
    /// The pool.
    pub pool: Pool,
    /// A rated game (accounts only).
    pub rated: bool,
    /// Guests' queue.
    pub guests: bool,
}

/// What a paired player is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    /// The new game.
    pub game: String,
    /// Their seat (1 or 2).
    pub seat: u8,
    /// Their seat token.
    pub token: String,
}

/// A client waiting on this node: who sits down, and where to tell them.
pub(crate) struct Waiter {
    pub(crate) seated: Seated,
    pub(crate) tell: oneshot::Sender<Paired>,
}

/// The quick-pairing queues.
pub struct Pairing {
    pub(crate) hub: Arc<Hub>,
    queues: Mutex<HashMap<QueueKey, Queue>>,
    /// This node's clients waiting, by request id.
    waiters: Mutex<HashMap<u64, Waiter>>,
    next: AtomicU64,
    /// With several nodes: the queue is the database's, shared by all (see `shared`).
    pub(crate) shared: Option<Arc<Cluster>>,
    /// Renewing and telling on the shared queue take turns (a request told is not thought
    /// lost meanwhile).
    pub(crate) collecting: tokio::sync::Mutex<()>,
}

/// A request waiting; dropping it withdraws the request.
pub struct Ticket {
    /// The request's id.
    pub id: u64,
    /// Where it waits.
    pub key: QueueKey,
    /// Since when (ms since the epoch).
    pub since_ms: i64,
    pairing: Weak<Pairing>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Some(p) = self.pairing.upgrade() {
            p.withdraw(self.id, &self.key);
        }
    }
}

impl Ticket {
    /// The rating gap this request accepts now.
    pub fn gap(&self) -> f64 {
        gap(now_ms() - self.since_ms)
    }
}

impl Pairing {
    /// The queues, with a task that looks at them again every half second.
    pub fn new(hub: Arc<Hub>) -> Arc<Pairing> {
        let pairing = Arc::new(Pairing {
            queues: Mutex::new(HashMap::new()),
            waiters: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            shared: hub.cluster().cloned(),
            collecting: tokio::sync::Mutex::new(()),
            hub,
        });
        let weak = Arc::downgrade(&pairing);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(TICK);
            loop {
                tick.tick().await;
                let Some(p) = weak.upgrade() else { break };
                p.pair_all().await;
            }
        });
        pairing
    }

    fn queues(&self) -> std::sync::MutexGuard<'_, HashMap<QueueKey, Queue>> {
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn waiters(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Waiter>> {
        self.waiters.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many wait in each queue that has anyone: (pool key, rated, guests, count); with
    /// several nodes, on all of them.
    pub async fn waiting(&self) -> Result<Vec<(String, bool, bool, usize)>, StoreError> {
        if let Some(cluster) = &self.shared {
            return crate::pairing::shared::counts(cluster).await;
        }
        let mut out: Vec<_> = self
            .queues()
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(k, q)| (k.pool.key(), k.rated, k.guests, q.len()))
            .collect();
        out.sort();
        Ok(out)
    }

    /// `seated` asks for a game of `key`'s kind; `rating` is theirs in the pool (`None`: a
    /// guest). Returns the ticket that keeps the request and where the pairing will be told.
    pub async fn join(
        self: &Arc<Self>,
        key: QueueKey,
        seated: Seated,
        rating: Option<f64>,
    ) -> Result<(Ticket, oneshot::Receiver<Paired>), JoinError> {
        if let Some(cluster) = &self.shared {
            return self.join_shared(cluster, key, seated, rating).await;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let since_ms = now_ms();
        let (tell, told) = oneshot::channel();
        {
            let mut queues = self.queues();
            let queue = queues.entry(key.clone()).or_default();
            if let Some(account) = &seated.account
                && queue.has_account(account)
            {
                return Err(JoinError::AlreadyWaiting);
            }
            queue.push(Waiting {
                id,
                rating,
                account: seated.account.clone(),
                since_ms,
            });
            self.waiters().insert(id, Waiter { seated, tell });
        }
        let ticket = self.ticket(id, key, since_ms);
        self.pair_all().await;
        Ok((ticket, told))
    }

    /// The ticket of request `id`, which withdraws it when dropped.
    pub(crate) fn ticket(self: &Arc<Self>, id: u64, key: QueueKey, since_ms: i64) -> Ticket {
        Ticket {
            id,
            key,
            since_ms,
            pairing: Arc::downgrade(self),
        }
    }

    fn withdraw(&self, id: u64, key: &QueueKey) {
        if let Some(cluster) = &self.shared {
            self.waiters().remove(&id);
            crate::pairing::shared::withdraw(cluster, id);
            return;
        }
        let mut queues = self.queues();
        if let Some(q) = queues.get_mut(key) {
            q.remove(id);
            if q.is_empty() {
                queues.remove(key);
            }
        }
        self.waiters().remove(&id);
    }

    /// Makes every pair that can be made now and starts their games.
    pub(crate) async fn pair_all(&self) {
        if let Some(cluster) = &self.shared {
            self.round_shared(cluster).await;
            return;
        }
        let now = now_ms();
        let pairs: Vec<(QueueKey, Waiting, Waiting)> = self
            .queues()
            .iter_mut()
            .flat_map(|(k, q)| q.pairs(now).into_iter().map(|(a, b)| (k.clone(), a, b)))
            .collect();
        for (key, a, b) in pairs {
            let (wa, wb) = {
                let mut waiters = self.waiters();
                (waiters.remove(&a.id), waiters.remove(&b.id))
            };
            match (wa, wb) {
                (Some(wa), Some(wb)) if !wa.tell.is_closed() && !wb.tell.is_closed() => {
                    if let Err(e) = self.start(&key, wa, wb).await {
                        tracing::warn!("quick pairing: the game could not be made: {e}");
                    }
                }
                // One left just now: the other waits on, from when they came.
                (left, right) => {
                    for (w, waiting) in [(left, a), (right, b)] {
                        if let Some(w) = w.filter(|w| !w.tell.is_closed()) {
                            let id = waiting.id;
                            self.queues().entry(key.clone()).or_default().push(waiting);
                            self.waiters().insert(id, w);
                        }
                    }
                }
            }
        }
    }

    /// Makes the game of a pair (seats by lot) and tells both.
    async fn start(&self, key: &QueueKey, a: Waiter, b: Waiter) -> Result<(), String> {
        let (first, second) = by_lot(a, b)?;
        let settings = settings(key);
        let seated = [Some(first.seated.clone()), Some(second.seated.clone())];
        let (game, tokens) = self
            .hub
            .create_game(settings, seated, [None, None], None)
            .await
            .map_err(|e| e.to_string())?;
        for (seat, waiter) in [(1u8, first), (2, second)] {
            let token = tokens[usize::from(seat) - 1].clone().unwrap_or_default();
            let _ = waiter.tell.send(Paired {
                game: game.clone(),
                seat,
                token,
            });
        }
        Ok(())
    }
}

/// Why a request for quick pairing was not queued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    /// The account already waits for a game of this kind: the request is refused (409).
    #[error("you are already waiting for a game of this kind (on another page?)")]
    AlreadyWaiting,
    /// The queue shared by the nodes (in PostgreSQL) could not be written: the server's
    /// trouble, not the player's (503).
    #[error("quick pairing: the request was not queued: {0}")]
    NotQueued(String),
}

/// `a` and `b` in seats 1 and 2, by lot.
pub(crate) fn by_lot<T>(a: T, b: T) -> Result<(T, T), String> {
    let mut coin = [0u8; 1];
    getrandom::fill(&mut coin).map_err(|e| e.to_string())?;
    Ok(if coin[0] & 1 == 0 { (a, b) } else { (b, a) })
}

/// The settings of a quick-paired game of `key`'s kind: the 37-ring board under the pool's rule
/// set, the speed's clock, the official repetition rule, no bribes; rated games allow no
/// takebacks.
pub fn settings(key: &QueueKey) -> GameSettings {
    let rules = if key.pool.blitz_rules {
        "blitz"
    } else {
        "standard"
    };
    let start = zertz::Position::new(
        zertz::Layout::standard(),
        rules.parse::<zertz::RuleSet>().unwrap_or_default(),
    );
    GameSettings {
        start: start.to_string(),
        repetition: "threefold".into(),
        bribes: false,
        clock: clock_of(key.pool.speed),
        casual: !key.rated,
        seats: [SeatKind::Human, SeatKind::Human],
        open: false,
        history: None,
        match_game: None,
        rated: key.rated,
        pool: Some(key.pool.key()),
        design: false,
        berserk: false,
    }
}
