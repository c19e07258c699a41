//! The line of `GET /api/games/{id}/analysis` (the engine's view of a finished game's
//! position): bounded per client (an account, or an address for guests) and in all, its slot
//! given out round robin between clients (`fair_slots`). A request over a bound is refused at
//! once with its place and a time to ask again, rather than held for many seconds
//! (docs/server.md, "Limits").

use crate::config::AnalysisLimits;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::fair_slots::{FairSlot, FairSlots};

/// The analyses held (waiting or running), per client and in all.
pub struct AnalysisQueue {
    limits: AnalysisLimits,
    slots: Arc<FairSlots>,
    /// The search time of one analysis, to say when to ask again.
    budget: Duration,
    held: Mutex<HashMap<String, usize>>,
}

/// A request refused: the sentence, and the seconds after which asking again may succeed.
#[derive(Debug, PartialEq, Eq)]
pub struct Full {
    /// What was refused and why, with the place in the line and when to come back.
    pub message: String,
    /// The place the request would have had in the line (from 1).
    pub place: usize,
    /// Seconds until asking again may succeed (`Retry-After`).
    pub retry_after: u64,
}

/// A request in the line: it counts against its client until dropped.
pub struct Ticket {
    queue: Arc<AnalysisQueue>,
    client: String,
}

impl AnalysisQueue {
    /// A line with these bounds, `slots` analyses at once, each searching `budget`.
    pub fn new(limits: AnalysisLimits, slots: usize, budget: Duration) -> Arc<AnalysisQueue> {
        Arc::new(AnalysisQueue {
            limits,
            slots: FairSlots::new(slots),
            budget,
            held: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, usize>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Seconds for `ahead` analyses to pass (rounded up, at least one).
    fn seconds_for(&self, ahead: usize) -> u64 {
        let ms = self.budget.as_millis() as u64 * ahead as u64;
        ms.div_ceil(1000).max(1)
    }

    /// The analyses waiting or running now.
    pub fn held(&self) -> usize {
        self.lock().values().sum()
    }

    /// Enters `client`'s request in the line, or refuses it over a bound.
    pub fn enter(self: &Arc<Self>, client: &str) -> Result<Ticket, Full> {
        let mut held = self.lock();
        let total: usize = held.values().sum();
        let mine = held.get(client).copied().unwrap_or(0);
        if mine >= self.limits.per_client {
            let place = total + 1;
            // Its own are served one in each round: they pass at the rate of the line's turns.
            let retry_after = self.seconds_for(total.min(mine.max(1)));
            return Err(Full {
                message: format!(
                    "too many analyses asked: you have {mine} waiting or running, at most {} \
                     for one player (or one address for guests); this one would be number \
                     {place} in the line: ask again in about {retry_after} s",
                    self.limits.per_client
                ),
                place,
                retry_after,
            });
        }
        if total >= self.limits.total {
            let place = total + 1;
            let retry_after = self.seconds_for(total);
            return Err(Full {
                message: format!(
                    "the analysis line is full ({total} analyses waiting or running, at most \
                     {}): this one would be number {place}: ask again in about {retry_after} s",
                    self.limits.total
                ),
                place,
                retry_after,
            });
        }
        *held.entry(client.to_string()).or_default() += 1;
        Ok(Ticket {
            queue: Arc::clone(self),
            client: client.to_string(),
        })
    }
}

impl Ticket {
    /// Waits for a slot, in turn with the other clients.
    pub async fn slot(&self) -> FairSlot {
        self.queue.slots.acquire(&self.client).await
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut held = self.queue.lock();
        if let Some(n) = held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_per_client_and_in_all() {
        let q = AnalysisQueue::new(
            AnalysisLimits {
                per_client: 2,
                total: 3,
            },
            1,
            Duration::from_millis(400),
        );
        let a1 = q.enter("A").unwrap();
        let _a2 = q.enter("A").unwrap();
        let full = q.enter("A").err().unwrap();
        assert_eq!(full.place, 3);
        assert!(full.message.contains("at most 2"), "{}", full.message);
        let _b1 = q.enter("B").unwrap();
        let full = q.enter("C").err().unwrap();
        assert!(full.message.contains("line is full"), "{}", full.message);
        assert_eq!((full.place, full.retry_after), (4, 2));
        drop(a1);
        assert!(q.enter("C").is_ok(), "a place came free");
    }
}
