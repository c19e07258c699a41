//! How far behind a node is with storing: the commits (moves and the other changes of games
//! being stored) in flight at once. A node that cannot keep up sheds new work before anything
//! else suffers (issue 41): once [`Load::busy`] says so, new games and joins are answered 503
//! with `Retry-After` (`app::shed`), while the moves of the games already being played go on.
//! A node further behind (see [`Load::full`]) refuses the players' actions too, moves
//! included, with 503 and `Retry-After`, rather than letting them wait in an ever longer queue
//! (each would wait up to the pool's 30 s, and the player's next one behind it): the queue of
//! moves waiting to be stored has a bound. A counter, not a clock: it costs a move two atomic
//! additions.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The commits in flight, and how many make the node busy.
#[derive(Debug)]
pub struct Load {
    in_flight: AtomicUsize,
    /// Commits in flight at which the node is busy; 0: never.
    busy_at: usize,
    /// Commits in flight at which the node refuses players' actions too; 0: never.
    full_at: usize,
}

/// A commit in flight: counted until dropped.
#[derive(Debug)]
pub struct InFlight<'a>(&'a Load);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Load {
    /// No commit in flight; busy from `busy_at` commits in flight on (0: never busy), full from
    /// `full_at` on (0: never full).
    pub fn new(busy_at: usize, full_at: usize) -> Load {
        Load {
            in_flight: AtomicUsize::new(0),
            busy_at,
            full_at,
        }
    }

    /// Counts a commit in flight until the value returned is dropped.
    pub fn commit_started(&self) -> InFlight<'_> {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(self)
    }

    /// The commits in flight now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Relaxed)
    }

    /// Whether the node is behind: new work should be refused for now.
    pub fn busy(&self) -> bool {
        self.busy_at > 0 && self.in_flight() >= self.busy_at
    }

    /// Whether the queue of commits is at its bound: a player's action (a move too) should be
    /// refused for now, with the reason ([`Load::refusal`]).
    pub fn full(&self) -> bool {
        self.full_at > 0 && self.in_flight() >= self.full_at
    }

    /// What a player whose action is refused while the node is [full](Load::full) is told.
    pub fn refusal(&self) -> String {
        format!(
            "this server is behind with storing moves ({} waiting, at most {}): your action \
             was not played; send it again in a second",
            self.in_flight(),
            self.full_at
        )
    }
}

impl crate::games::hub::Hub {
    /// How far behind this node is with storing (see [`Load`]).
    pub fn load(&self) -> &Load {
        &self.load
    }
}

#[cfg(test)]
mod tests {
    use super::Load;

    #[test]
    fn busy_from_the_threshold_until_the_commits_end() {
        let load = Load::new(2, 0);
        let first = load.commit_started();
        assert!(!load.busy(), "one of two");
        let second = load.commit_started();
        assert_eq!(load.in_flight(), 2);
        assert!(load.busy());
        drop(first);
        assert!(!load.busy(), "back under the threshold");
        drop(second);
        assert_eq!(load.in_flight(), 0);
    }

    #[test]
    fn a_threshold_of_zero_is_never_busy() {
        let load = Load::new(0, 0);
        let held: Vec<_> = (0..1000).map(|_| load.commit_started()).collect();
        assert_eq!(load.in_flight(), 1000);
        assert!(!load.busy());
        assert!(!load.full());
        drop(held);
    }

    #[test]
    fn full_from_its_own_bound() {
        let load = Load::new(1, 3);
        let held: Vec<_> = (0..2).map(|_| load.commit_started()).collect();
        assert!(load.busy() && !load.full());
        let third = load.commit_started();
        assert!(load.full());
        assert!(
            load.refusal().contains("3 waiting, at most 3"),
            "{}",
            load.refusal()
        );
        drop(third);
        assert!(!load.full());
        drop(held);
    }
}
