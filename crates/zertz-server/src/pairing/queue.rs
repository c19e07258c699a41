//! Who is paired with whom among the players waiting for a game of one pool: the player who has
//! waited longest first, with the waiting player nearest in rating whose gap both accept; the
//! gap each accepts widens the longer they wait (50 at once, then +50 a second, up to 1,000).
//! Guests have no rating: any two pair at once.

/// The rating gap a player accepts at once.
pub const FIRST_GAP: f64 = 50.0;
/// How much it widens every second of waiting.
pub const GAP_PER_SECOND: f64 = 50.0;
/// The widest gap.
pub const WIDEST_GAP: f64 = 1000.0;

/// The gap a player accepts after waiting `waited_ms`.
pub fn gap(waited_ms: i64) -> f64 {
    (FIRST_GAP + GAP_PER_SECOND * waited_ms.max(0) as f64 / 1000.0).min(WIDEST_GAP)
}

/// A player waiting.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// The request's id.
    pub id: u64,
    /// Their rating in the pool (`None` for a guest).
    pub rating: Option<f64>,
    /// The account, if any (a player is never paired with themselves).
    pub account: Option<String>,
    /// When they started waiting (ms since the epoch).
    pub since_ms: i64,
}

/// The players waiting for one kind of game.
#[derive(Debug, Default)]
pub struct Queue {
    waiting: Vec<Waiting>,
}

impl Queue {
    /// Adds a player.
    pub fn push(&mut self, w: Waiting) {
        self.waiting.push(w);
    }

    /// Removes a request; returns whether it was there.
    pub fn remove(&mut self, id: u64) -> bool {
        let before = self.waiting.len();
        self.waiting.retain(|w| w.id != id);
        self.waiting.len() != before
    }

    /// How many wait.
    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    /// No one waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Whether `account` already waits here.
    pub fn has_account(&self, account: &str) -> bool {
        self.waiting
            .iter()
            .any(|w| w.account.as_deref() == Some(account))
    }

    /// The pairs that can be made at `now_ms`, taken out of the queue.
    pub fn pairs(&mut self, now_ms: i64) -> Vec<(Waiting, Waiting)> {
        self.waiting.sort_by_key(|w| (w.since_ms, w.id));
        let mut made = Vec::new();
        let mut i = 0;
        while i < self.waiting.len() {
            let a = &self.waiting[i];
            let mut best: Option<(usize, f64)> = None;
            for (j, b) in self.waiting.iter().enumerate().skip(i + 1) {
                if a.account.is_some() && a.account == b.account {
                    continue;
                }
                let distance = match (a.rating, b.rating) {
                    (Some(x), Some(y)) => (x - y).abs(),
                    _ => 0.0,
                };
                let accepted = gap(now_ms - a.since_ms).min(gap(now_ms - b.since_ms));
                if distance <= accepted && best.is_none_or(|(_, d)| distance < d) {
                    best = Some((j, distance));
                }
            }
            match best {
                Some((j, _)) => {
                    let b = self.waiting.remove(j);
                    let a = self.waiting.remove(i);
                    made.push((a, b));
                }
                None => i += 1,
            }
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: u64, rating: f64, since_ms: i64) -> Waiting {
        Waiting {
            id,
            rating: Some(rating),
            account: Some(format!("a{id}")),
            since_ms,
        }
    }

    #[test]
    fn the_gap_widens_with_the_wait() {
        assert_eq!(gap(0), 50.0);
        assert_eq!(gap(1_000), 100.0);
        assert_eq!(gap(10_000), 550.0);
        assert_eq!(gap(60_000), 1000.0);
    }

    #[test]
    fn the_nearest_rating_within_both_gaps_is_chosen() {
        let mut q = Queue::default();
        q.push(w(1, 1500.0, 0));
        q.push(w(2, 1800.0, 0));
        q.push(w(3, 1530.0, 0));
        // At once: 1 and 3 are 30 apart (within 50).
        let pairs = q.pairs(0);
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].0.id, pairs[0].1.id), (1, 3));
        // 2 waits alone; a newcomer 200 away pairs only once both accept 200 (3 s of waiting
        // for the newcomer).
        q.push(w(4, 2000.0, 10_000));
        assert!(q.pairs(10_000).is_empty());
        assert!(
            q.pairs(12_000).is_empty(),
            "the newcomer accepts 150 after 2 s"
        );
        let pairs = q.pairs(13_000);
        assert_eq!((pairs[0].0.id, pairs[0].1.id), (2, 4));
        assert!(q.is_empty());
    }

    #[test]
    fn the_longest_waiting_player_goes_first_and_no_one_plays_themselves() {
        let mut q = Queue::default();
        q.push(w(1, 1500.0, 5_000));
        q.push(w(2, 1520.0, 0));
        q.push(Waiting {
            account: Some("a2".into()),
            ..w(3, 1505.0, 1_000)
        });
        // 2 has waited longest: its nearest is 3, but that is the same account; so 1.
        let pairs = q.pairs(5_000);
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].0.id, pairs[0].1.id), (2, 1));
        assert_eq!(q.len(), 1);
        assert!(q.has_account("a2"));
        assert!(q.remove(3));
        assert!(!q.remove(3));
    }

    #[test]
    fn guests_pair_at_once_in_order() {
        let mut q = Queue::default();
        for id in 1..=5 {
            q.push(Waiting {
                id,
                rating: None,
                account: None,
                since_ms: id as i64,
            });
        }
        let pairs = q.pairs(10);
        let ids: Vec<(u64, u64)> = pairs.iter().map(|(a, b)| (a.id, b.id)).collect();
        assert_eq!(ids, [(1, 2), (3, 4)]);
        assert_eq!(q.len(), 1);
    }
}
