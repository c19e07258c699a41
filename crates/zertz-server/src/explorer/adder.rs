//! This server's finished games go into the explorer many at a time (issue 41). A game's end
//! is queued; one task per process takes every game waiting (up to [`MAX_BATCH`]) and stores
//! them as one batch: one transaction, and on PostgreSQL one turn of the explorer's lock
//! (`explorer::postgres`), whatever their number.
//!
//! Before, each game was added by a task of its own, a transaction that waited for that lock
//! while it held a connection of the node's shared pool. Three nodes ending 95 games a second
//! between them (loopback, 3,000 games of the load test, 30 November 2026) queued for the lock
//! 207 ms on average, which kept most of the pools' connections waiting: game ends, new games
//! and joins waited behind them, and the queue outlived the overload that had built it. Now the
//! explorer holds one connection per node at most, and a batch costs the lock once.
//!
//! The queue holds at most [`MAX_WAITING`] games. Past that a game's end is left out (counted
//! in the log): the game itself is stored, and the explorer adds the newest finished games it
//! lacks at the next start (`catch_up`), as for a game that ended just before a stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::mpsc;

use crate::explorer::cache::AnswerCache;
use crate::explorer::import::Aggregate;
use crate::explorer::store::ExplorerSources;
use crate::explorer::{add_finished, finished_entry};
use crate::games::ended::GameEnded;
use crate::store::StoreError;

/// Most finished games stored by one batch.
pub const MAX_BATCH: usize = 256;

/// Most finished games waiting to be added.
pub const MAX_WAITING: usize = 10_000;

/// The queue of finished games waiting for the explorer, and its task.
pub struct Adder {
    queue: mpsc::Sender<Arc<GameEnded>>,
    /// Games left out because the queue was full.
    left_out: AtomicU64,
}

impl Adder {
    /// Starts the task (on the current runtime) that adds the games queued to `store`, and
    /// empties `cache` after each batch that added any.
    pub fn start(store: Arc<dyn ExplorerSources>, cache: Arc<AnswerCache>) -> Adder {
        let (queue, waiting) = mpsc::channel(MAX_WAITING);
        tokio::spawn(add_waiting(store, cache, waiting));
        Adder {
            queue,
            left_out: AtomicU64::new(0),
        }
    }

    /// Queues a finished game; returns at once (it is called with the game's lock held).
    pub fn add(&self, ended: &Arc<GameEnded>) {
        match self.queue.try_send(Arc::clone(ended)) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                let n = self.left_out.fetch_add(1, Ordering::Relaxed) + 1;
                // Said at the first, then at every power of two: a log line per game would
                // add to the load that filled the queue.
                if n.is_power_of_two() {
                    tracing::warn!(
                        "explorer: {n} finished games left out so far ({MAX_WAITING} waiting); \
                         the next start adds the newest ones"
                    );
                }
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                tracing::warn!(game = %ended.room.id, "explorer: the finished game was not added: its task has stopped");
            }
        }
    }
}

/// The task: every game waiting, up to [`MAX_BATCH`] at a time, until the queue is dropped.
async fn add_waiting(
    store: Arc<dyn ExplorerSources>,
    cache: Arc<AnswerCache>,
    mut waiting: mpsc::Receiver<Arc<GameEnded>>,
) {
    let mut games = Vec::with_capacity(MAX_BATCH);
    while waiting.recv_many(&mut games, MAX_BATCH).await > 0 {
        match add_together(store.as_ref(), &games).await {
            Ok(0) => {}
            Ok(_) => cache.clear(),
            Err(e) => tracing::warn!(
                "explorer: {} finished games were not added: {e}",
                games.len()
            ),
        }
        games.clear();
    }
}

/// Adds `games` as one batch; returns how many were added. One of them already counted (its
/// end heard twice, or added by the catch-up at start) makes the store refuse the batch: then
/// each is added alone, so that the others still count.
pub async fn add_together(
    store: &dyn ExplorerSources,
    games: &[Arc<GameEnded>],
) -> Result<usize, StoreError> {
    let mut aggregate = Aggregate::with_capacity("server", games.len());
    for ended in games {
        if let Some(entry) = finished_entry(store, &ended.room, ended.ended_ms).await? {
            aggregate.add(entry);
        }
    }
    let counted = aggregate.games();
    if counted == 0 {
        return Ok(0);
    }
    match store.add_explorer_batch(aggregate.take_batch()).await {
        Ok(()) => Ok(counted),
        Err(StoreError::Taken(_)) => {
            let mut added = 0;
            for ended in games {
                if add_finished(store, &ended.room, ended.ended_ms).await? {
                    added += 1;
                }
            }
            Ok(added)
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::store::ExplorerStore;
    use crate::games::clock::ClockSpec;
    use crate::games::model::{Action, GameSettings};
    use crate::games::room::Room;

    /// The end of game `id`: `moves` moves (the first legal one each time), then a resignation.
    fn ended(id: &str, moves: usize) -> Arc<GameEnded> {
        let mut room = Room::started_for_tests(GameSettings::for_tests(ClockSpec::Unlimited {}));
        room.id = id.to_string();
        let mut now = 1_000;
        for _ in 0..moves {
            let position = room.game.position().clone();
            let mv = position.legal_moves()[0];
            let text = zertz::notation::official::move_text(&position, &mv);
            let events = room
                .decide(position.to_move(), &Action::Move { text }, now)
                .unwrap();
            for e in events {
                room.apply(e, now).unwrap();
            }
            now += 1_000;
        }
        let mover = room.game.position().to_move();
        for e in room.decide(mover, &Action::Resign {}, now).unwrap() {
            room.apply(e, now).unwrap();
        }
        assert!(room.is_over());
        Arc::new(GameEnded {
            room,
            ended_ms: now,
        })
    }

    #[tokio::test]
    async fn games_ending_together_are_added_in_one_batch_and_one_added_already_costs_none_of_the_others()
     {
        let (_dir, store) = crate::store::temporary_sqlite().await;
        let games = [ended("g1", 3), ended("g2", 4), ended("g3", 5)];
        // Three new games: one batch adds them all.
        assert_eq!(add_together(&store, &games[..3]).await.unwrap(), 3);
        // The same three again (an end heard twice) and a fourth: only the fourth counts.
        let mut again = games.to_vec();
        again.push(ended("g4", 6));
        assert_eq!(add_together(&store, &again).await.unwrap(), 1);
        let mut ids = store.explorer_game_ids("server").await.unwrap();
        ids.sort();
        assert_eq!(ids.len(), 4, "{ids:?}");
        // Each counted once: every game went through the start, whatever came after.
        let start = games[0].room.game.positions()[0].clone();
        let key = crate::explorer::key::position_key(&start);
        let rows = store.explorer_rows(key).await.unwrap();
        let games_at_start: i64 = rows.iter().map(|r| r.games).sum();
        assert_eq!(games_at_start, 4, "{rows:?}");
    }
}
