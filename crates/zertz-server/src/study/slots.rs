//! The study slots: how many analysis searches run at once, apart from the slots the games'
//! engines use, so that study never slows a game. Waiters are served first come, first
//! served, and each can ask its place in the line, which the page shows.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// A fixed number of slots and the line of those waiting for one.
pub struct Slots {
    inner: Mutex<Inner>,
}

struct Inner {
    free: usize,
    next_ticket: u64,
    waiting: VecDeque<(u64, oneshot::Sender<()>)>,
}

/// A slot held: given back when dropped.
pub struct Slot {
    slots: Arc<Slots>,
}

/// A place in the line for a slot.
pub struct Waiting {
    slots: Arc<Slots>,
    ticket: u64,
    given: oneshot::Receiver<()>,
    done: bool,
}

impl Slots {
    /// `n` slots (at least one).
    pub fn new(n: usize) -> Arc<Slots> {
        Arc::new(Slots {
            inner: Mutex::new(Inner {
                free: n.max(1),
                next_ticket: 0,
                waiting: VecDeque::new(),
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding this lock leaves nothing half-done: the state stays usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free slot now, or a place at the end of the line.
    pub fn take(self: &Arc<Self>) -> Result<Slot, Waiting> {
        let mut inner = self.lock();
        if inner.free > 0 && inner.waiting.is_empty() {
            inner.free -= 1;
            return Ok(Slot {
                slots: Arc::clone(self),
            });
        }
        let ticket = inner.next_ticket;
        inner.next_ticket += 1;
        let (send, given) = oneshot::channel();
        inner.waiting.push_back((ticket, send));
        Err(Waiting {
            slots: Arc::clone(self),
            ticket,
            given,
            done: false,
        })
    }

    /// How many are waiting.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    /// A slot given back: to the first in line still waiting, or freed.
    fn give_back(&self) {
        let mut inner = self.lock();
        while let Some((_, send)) = inner.waiting.pop_front() {
            if send.send(()).is_ok() {
                return;
            }
        }
        inner.free += 1;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.give_back();
    }
}

impl Waiting {
    /// The place in the line, from 1.
    pub fn place(&self) -> usize {
        let inner = self.slots.lock();
        inner
            .waiting
            .iter()
            .position(|(t, _)| *t == self.ticket)
            .map_or(1, |i| i + 1)
    }

    /// Waits for the slot. Cancel-safe: dropped in a `select!`, it may be awaited again.
    pub async fn slot(&mut self) -> Slot {
        // The sender lives in the line until it is used, so the only error is impossible;
        // it would mean the slot was given, so take it either way.
        let _ = (&mut self.given).await;
        self.done = true;
        Slot {
            slots: Arc::clone(&self.slots),
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut inner = self.slots.lock();
        let before = inner.waiting.len();
        inner.waiting.retain(|(t, _)| *t != self.ticket);
        let was_waiting = inner.waiting.len() < before;
        drop(inner);
        // Given a slot between the last look and now: pass it on.
        if !was_waiting && self.given.try_recv().is_ok() {
            self.slots.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn slots_go_in_order_and_come_back() {
        let slots = Slots::new(1);
        let first = slots.take().ok().unwrap();
        let mut second = slots.take().err().unwrap();
        let third = slots.take().err().unwrap();
        assert_eq!((second.place(), third.place()), (1, 2));
        drop(first);
        let held = second.slot().await;
        assert_eq!(third.place(), 1);
        // A waiter that leaves gives its turn to the next.
        let fourth = slots.take().err().unwrap();
        drop(third);
        assert_eq!(fourth.place(), 1);
        drop(held);
        let mut fourth = fourth;
        let last = fourth.slot().await;
        drop(last);
        assert!(slots.take().is_ok());
        assert_eq!(slots.waiting(), 0);
    }

    #[tokio::test]
    async fn a_slot_given_to_a_waiter_that_left_is_not_lost() {
        let slots = Slots::new(1);
        let first = slots.take().ok().unwrap();
        let second = slots.take().err().unwrap();
        drop(first); // given to `second`, which never takes it
        drop(second);
        assert!(slots.take().is_ok(), "the slot came back");
    }
}
