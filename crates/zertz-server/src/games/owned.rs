//! The hub's side of leases: an unfinished game comes into memory only under this node's
//! lease, and a game whose lease was lost leaves memory (its copy here is stale).

use std::sync::Arc;

use crate::games::hub::{Hub, HubError, Live};
use crate::games::room::Room;
use crate::store::{EventRow, GameRow, StoreError, acquire};

impl Hub {
    /// Loads game `id` for memory: its row, its events, and whether it was taken under a new
    /// lease (several nodes only: then it is resumed as after a restart). An unfinished game
    /// another node holds is refused with [`HubError::Elsewhere`].
    pub(crate) async fn load_leased(
        &self,
        id: &str,
    ) -> Result<(GameRow, Vec<EventRow>, bool), HubError> {
        let load = || async {
            self.store().load_game(id).await.map_err(|e| match e {
                StoreError::NotFound(_) => HubError::NotFound(format!("game {id} not found")),
                other => other.into(),
            })
        };
        let (row, events) = load().await?;
        let Some(cluster) = self.cluster.get() else {
            return Ok((row, events, false));
        };
        let over = Room::from_stored(id, &events)
            .map(|r| r.is_over())
            .unwrap_or(false);
        if over {
            return Ok((row, events, false));
        }
        if !acquire(cluster.pool(), id, cluster.holder()).await? {
            return Err(HubError::Elsewhere(crate::cluster::moved(id)));
        }
        // The log as it is under the lease: an append of the node before may have committed
        // since the first read (a takeover waits for it, see `store::postgres::leases`).
        let (row, events) = load().await?;
        Ok((row, events, true))
    }

    /// Drops game `id` from memory (its lease is lost, as `found_by` found): its flag timer
    /// stops, its sockets are closed with 1012 (they would go quiet: the moves are made on
    /// another node now) so the clients reconnect and resync, and the next request loads it
    /// again or is passed to its new node. Says so in the log, a warning naming the game.
    pub(crate) fn forget_game(&self, id: &str, found_by: &str) {
        let gone = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        let Some(live) = gone else { return };
        tracing::warn!(game = %id, "lease lost ({found_by}): the game leaves this node");
        live.stale.send_replace(true);
        if let Ok(mut state) = live.state.try_lock()
            && let Some(t) = state.timer.take()
        {
            t.abort();
        }
    }

    /// The games in memory that are not over (those whose leases this node renews). A game
    /// busy at the moment counts as unfinished.
    pub(crate) fn unfinished_in_memory(&self) -> Vec<String> {
        let map = self.live.lock().unwrap_or_else(|e| e.into_inner());
        map.iter()
            .filter(|(_, live)| match live.state.try_lock() {
                Ok(state) => !state.room.is_over(),
                Err(_) => true,
            })
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Whether game `id` is in this node's memory.
    pub fn in_memory(&self, id: &str) -> bool {
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(id)
    }

    /// Joins this hub to the nodes sharing its database (once; later calls do nothing).
    pub fn join_cluster(&self, cluster: Arc<crate::cluster::Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// This node's place among several, if it has one.
    pub fn cluster(&self) -> Option<&Arc<crate::cluster::Cluster>> {
        self.cluster.get()
    }
}

impl Live {
    /// Resolves once this copy of the game is stale (its lease lost): a socket attached to it
    /// then closes (see `http::game_socket`).
    pub async fn gone_stale(&self) {
        let mut stale = self.stale.subscribe();
        // The sender lives as long as `self`: an error cannot happen while we borrow it.
        let _ = stale.wait_for(|s| *s).await;
    }

    /// Whether this copy of the game is stale.
    pub fn is_stale(&self) -> bool {
        *self.stale.borrow()
    }
}
