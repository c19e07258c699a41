//! Fair slots: a fixed number of searches running at once (the games' engines; the analyses of
//! finished games; the analysis boards' searches), whose free slot goes to the clients waiting (an account, or an address
//! for guests) in turn, round robin, rather than to the oldest request: one client with many
//! searches waiting then delays another client's by one search at most, not by its whole
//! backlog (docs/server.md, "Limits").

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// A fixed number of slots, the clients waiting for one, and who plays each engine game.
pub struct FairSlots {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    free: usize,
    /// The clients with a search waiting, in the order they are served.
    turn: VecDeque<String>,
    /// Each such client's searches waiting, oldest first, with their tickets.
    waiting: HashMap<String, VecDeque<(u64, oneshot::Sender<FairSlot>)>>,
    next_ticket: u64,
    /// The client who plays each engine game or match (by its id).
    owners: HashMap<String, String>,
}

/// The line of an id no client was assigned to (yet): its own. (Clients are named
/// `account:…` or `address:…`, which no game or match id is.)
fn own_line(id: &str) -> String {
    id.to_string()
}

/// A slot held: given back (to the next client in turn) when dropped.
pub struct FairSlot {
    slots: Option<Arc<FairSlots>>,
}

impl FairSlots {
    /// `n` slots (at least one).
    pub fn new(n: usize) -> Arc<FairSlots> {
        Arc::new(FairSlots {
            inner: Mutex::new(Inner {
                free: n.max(1),
                ..Inner::default()
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding this lock leaves nothing half-done: the state stays usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game or match `id` is played by `client`: its engine's searches wait in that client's
    /// line, those already waiting (an engine that moves first) too.
    pub fn assign(&self, id: &str, client: &str) {
        let mut inner = self.lock();
        inner.owners.insert(id.to_string(), client.to_string());
        let own_line = own_line(id);
        if let Some(early) = inner.waiting.remove(&own_line) {
            inner.turn.retain(|c| *c != own_line);
            let queue = inner.waiting.entry(client.to_string()).or_default();
            let was_empty = queue.is_empty();
            queue.extend(early);
            if was_empty {
                inner.turn.push_back(client.to_string());
            }
        }
    }

    /// Game or match `id` needs its engine no more.
    pub fn forget(&self, id: &str) {
        self.lock().owners.remove(id);
    }

    /// The client whose line the engine of game or match `id` waits in: the one it was
    /// assigned to, or a line of its own.
    pub fn client_of(&self, id: &str) -> String {
        self.lock()
            .owners
            .get(id)
            .cloned()
            .unwrap_or_else(|| own_line(id))
    }

    /// How many searches are waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.values().map(VecDeque::len).sum()
    }

    /// A slot for a search of `id` (a client, or a game or match assigned to one): at once if
    /// one is free and nobody waits, else when its client's turn comes (see
    /// [`FairSlots::client_of`]).
    /// Cancel-safe: a slot given to a search that left is passed on.
    pub async fn acquire(self: &Arc<Self>, id: &str) -> FairSlot {
        match self.take(id) {
            Ok(slot) => slot,
            Err(mut waiting) => waiting.slot().await,
        }
    }

    /// A free slot now for a search of `id` (as [`FairSlots::acquire`] says), or a place in its
    /// client's line, which can tell how many searches go before it.
    pub fn take(self: &Arc<Self>, id: &str) -> Result<FairSlot, FairWaiting> {
        let mut inner = self.lock();
        let client = inner
            .owners
            .get(id)
            .cloned()
            .unwrap_or_else(|| own_line(id));
        if inner.free > 0 && inner.turn.is_empty() {
            inner.free -= 1;
            return Ok(FairSlot {
                slots: Some(Arc::clone(self)),
            });
        }
        let ticket = inner.next_ticket;
        inner.next_ticket += 1;
        let (send, given) = oneshot::channel();
        let queue = inner.waiting.entry(client.clone()).or_default();
        queue.push_back((ticket, send));
        if queue.len() == 1 {
            inner.turn.push_back(client.clone());
        }
        Err(FairWaiting {
            slots: Arc::clone(self),
            client,
            ticket,
            given,
            done: false,
        })
    }

    /// The next waiting search in turn, its client moved to the end of the turn.
    fn next_waiter(inner: &mut Inner) -> Option<oneshot::Sender<FairSlot>> {
        while let Some(client) = inner.turn.pop_front() {
            let Some(queue) = inner.waiting.get_mut(&client) else {
                continue;
            };
            let next = queue.pop_front().map(|(_, send)| send);
            if queue.is_empty() {
                inner.waiting.remove(&client);
            } else {
                inner.turn.push_back(client);
            }
            if let Some(send) = next
                && !send.is_closed()
            {
                return Some(send);
            }
        }
        None
    }

    /// A slot given back: to the next search in turn, or freed.
    fn give_back(self: &Arc<Self>) {
        loop {
            let Some(send) = FairSlots::next_waiter(&mut self.lock()) else {
                self.lock().free += 1;
                return;
            };
            let slot = FairSlot {
                slots: Some(Arc::clone(self)),
            };
            match send.send(slot) {
                Ok(()) => return,
                // The search left meanwhile: the slot goes to the next (without this one's
                // drop giving it back a second time).
                Err(mut slot) => {
                    slot.slots = None;
                }
            }
        }
    }
}

/// A search waiting in its client's line for a slot ([`FairSlots::take`]).
pub struct FairWaiting {
    slots: Arc<FairSlots>,
    client: String,
    ticket: u64,
    given: oneshot::Receiver<FairSlot>,
    done: bool,
}

impl FairWaiting {
    /// Its place among the searches waiting, from 1: the slots go round the clients in turn,
    /// so a search that is `k`-th in its client's line comes after the first `k - 1` of
    /// every other client's, and the `k`-th of those ahead of its client in the turn.
    pub fn place(&self) -> usize {
        let inner = self.slots.lock();
        let Some(k) = inner
            .waiting
            .get(&self.client)
            .and_then(|q| q.iter().position(|(t, _)| *t == self.ticket))
        else {
            return 1;
        };
        let mut before = 0;
        let mut ahead = true;
        for client in &inner.turn {
            if *client == self.client {
                ahead = false;
                continue;
            }
            let n = inner.waiting.get(client).map_or(0, VecDeque::len);
            before += n.min(k) + usize::from(ahead && n > k);
        }
        before + k + 1
    }

    /// Waits for the slot. Cancel-safe: dropped in a `select!`, it may be awaited again.
    pub async fn slot(&mut self) -> FairSlot {
        let slot = match (&mut self.given).await {
            Ok(slot) => slot,
            // The sender is dropped only with its line, which lives as long as the slots.
            Err(_) => FairSlot {
                slots: Some(Arc::clone(&self.slots)),
            },
        };
        self.done = true;
        slot
    }
}

impl Drop for FairWaiting {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Out of the line, so that the places behind it move up. (A slot already sent to it
        // is passed on when the receiver drops it: see `FairSlot`'s drop.)
        let mut inner = self.slots.lock();
        if let Some(queue) = inner.waiting.get_mut(&self.client) {
            queue.retain(|(t, _)| *t != self.ticket);
            if queue.is_empty() {
                inner.waiting.remove(&self.client);
                let client = self.client.clone();
                inner.turn.retain(|c| *c != client);
            }
        }
    }
}

impl Drop for FairSlot {
    fn drop(&mut self) {
        if let Some(slots) = self.slots.take() {
            slots.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starts a search of `client` waiting for a slot; its number goes to `served` once it
    /// has one, and it holds the slot until told to finish.
    fn search(
        slots: &Arc<FairSlots>,
        client: &str,
        n: u32,
        served: &tokio::sync::mpsc::UnboundedSender<(u32, oneshot::Sender<()>)>,
    ) -> tokio::task::JoinHandle<()> {
        let (slots, client, served) = (Arc::clone(slots), client.to_string(), served.clone());
        tokio::spawn(async move {
            let slot = slots.acquire(&client).await;
            let (done, finish) = oneshot::channel();
            let _ = served.send((n, done));
            let _ = finish.await;
            drop(slot);
        })
    }

    #[tokio::test]
    async fn a_backlog_does_not_delay_another_client_behind_it() {
        let slots = FairSlots::new(1);
        let (served, mut order) = tokio::sync::mpsc::unbounded_channel();
        let mut tasks = Vec::new();
        // Client A: five searches, the first takes the slot, four wait.
        for n in 1..=5 {
            tasks.push(search(&slots, "A", n, &served));
            tokio::task::yield_now().await;
        }
        let (first, finish) = order.recv().await.unwrap();
        assert_eq!(first, 1);
        while slots.waiting() < 4 {
            tokio::task::yield_now().await;
        }
        // Client B asks after all of A's.
        tasks.push(search(&slots, "B", 10, &served));
        while slots.waiting() < 5 {
            tokio::task::yield_now().await;
        }
        let mut seen = vec![first];
        let mut finish = finish;
        loop {
            let _ = finish.send(());
            let Some((n, next)) = order.recv().await else {
                break;
            };
            seen.push(n);
            finish = next;
            if seen.len() == 6 {
                let _ = finish.send(());
                break;
            }
        }
        // Round robin: A's next (A was waiting first), then B, then the rest of A's.
        assert_eq!(seen, [1, 2, 10, 3, 4, 5]);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(slots.waiting(), 0);
    }

    #[tokio::test]
    async fn a_slot_given_to_a_search_that_left_is_not_lost() {
        let slots = FairSlots::new(1);
        let held = slots.acquire("A").await;
        let waiter = {
            let slots = Arc::clone(&slots);
            tokio::spawn(async move { slots.acquire("B").await })
        };
        while slots.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        waiter.abort();
        let _ = waiter.await;
        drop(held);
        // Free again: taken at once.
        let again = tokio::time::timeout(std::time::Duration::from_secs(5), slots.acquire("C"))
            .await
            .expect("the slot came back");
        drop(again);
        // A search that waited before its game was assigned joins its client's line.
        let held = slots.acquire("A").await;
        let early = {
            let slots = Arc::clone(&slots);
            tokio::spawn(async move { slots.acquire("g1").await })
        };
        while slots.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        slots.assign("g1", "account:a1");
        assert_eq!(slots.lock().turn, ["account:a1"]);
        drop(held);
        drop(early.await.unwrap());
        assert_eq!(slots.client_of("g1"), "account:a1");
        assert_eq!(slots.client_of("g1"), "account:a1");
        slots.forget("g1");
        assert_eq!(slots.client_of("g1"), "g1");
    }
}
