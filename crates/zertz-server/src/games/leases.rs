//! Keeping leases: a node says it lives (its heartbeat holds every lease it has), lets go of
//! the games whose leases it lost while it could not beat, and takes the games being played
//! that nobody holds (their node died), several times per lease.
//!
//! Why a row with an expiry rather than an advisory lock: an advisory lock lives as long as
//! one database connection, so every game held would pin a connection of the pool (thousands
//! of games, a pool of 8), and a node whose connection breaks would lose its games silently;
//! a row is checked by the append inside its own transaction (lease and version together),
//! is held by one `UPDATE` of the node's own row per round whatever the number of games, and
//! is visible to every node (who holds what, and where that node is reached).

use std::sync::Arc;
use std::time::Duration;

use crate::cluster::Cluster;
use crate::games::hub::{Hub, HubError};
use crate::store::{drop_finished, heartbeat, orphans, still_held};

/// How long a finished game keeps its lease row (a match's next step appends to it).
const FINISHED_AFTER: Duration = Duration::from_secs(60);

/// Orphaned games one node takes per round (the others take the rest).
const ADOPT_PER_ROUND: i64 = 50;

/// Starts keeping this node's leases on the current runtime; it ends with the hub.
pub fn start(hub: &Arc<Hub>, cluster: Arc<Cluster>) {
    // Three renewals per lease: one lost round trip is no loss of the games.
    let every = (cluster.ttl() / 3).max(Duration::from_millis(50));
    let hub = Arc::downgrade(hub);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // About once a minute, the lease rows of games finished a minute ago or more go
        // (nothing renews rows any more, so nothing else would take them away).
        let sweep_every = (FINISHED_AFTER.as_millis() / every.as_millis().max(1)).max(1) as u64;
        let mut rounds: u64 = 0;
        loop {
            ticks.tick().await;
            let Some(hub) = hub.upgrade() else { break };
            if let Err(e) = round(&hub, &cluster).await {
                tracing::warn!("leases not renewed this round: {e}");
            }
            rounds += 1;
            if rounds.is_multiple_of(sweep_every) {
                let after_ms = FINISHED_AFTER.as_millis() as i64;
                if let Err(e) = drop_finished(cluster.pool(), cluster.holder(), after_ms).await {
                    tracing::warn!("finished games' leases not deleted: {e}");
                }
            }
        }
    });
}

/// One round: alive (which holds every lease), let go of what was lost, take over.
pub async fn round(hub: &Arc<Hub>, cluster: &Cluster) -> Result<(), HubError> {
    let lapsed = heartbeat(cluster.pool(), cluster.holder(), cluster.addr()).await?;
    // While the heartbeats come in time nobody can take this node's games: which it still
    // holds is asked only after a lapse (a paused process, a lost round trip).
    if lapsed {
        let mine = hub.unfinished_in_memory();
        let held = still_held(cluster.pool(), cluster.holder(), &mine).await?;
        let held: std::collections::HashSet<&String> = held.iter().collect();
        for id in mine.iter().filter(|id| !held.contains(id)) {
            hub.forget_game(id, "found by the round after a lapse");
        }
    }
    for id in orphans(cluster.pool(), ADOPT_PER_ROUND).await? {
        match hub.get(&id).await {
            Ok(_) => tracing::info!(game = %id, "game taken over from a node that stopped"),
            // Another node took it first.
            Err(HubError::Elsewhere(_)) => {}
            Err(e) => tracing::warn!(game = %id, "could not take over the game: {e}"),
        }
    }
    Ok(())
}
