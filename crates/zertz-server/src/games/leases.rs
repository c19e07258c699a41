//! Keeping leases: a node says it lives (its heartbeat holds every lease it has), lets go of
//! the games whose leases it lost while it could not beat, takes the games being played that
//! nobody holds (their node died), and sweeps the lease rows of finished games, its own and
//! those a dead node left.
//!
//! Two loops, so that the beat never waits for anything else: **the heartbeat** runs on a
//! connection of its own (`Cluster::beat_pool`), several times per lease, and nothing else uses
//! that connection but the read of what is still held after a lapse. However many moves queue
//! for the shared pool (a node whose database is saturated), the node keeps its leases while it
//! lives. **The takeovers and sweeps** run on the shared pool, and may wait for it: a node that
//! is behind takes no more games.
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
use crate::store::{heartbeat, orphans, still_held, sweep_leases, sweep_nodes};

/// How long a finished game keeps its lease row (a match's next step appends to it).
const FINISHED_AFTER: Duration = Duration::from_secs(60);

/// Orphaned games one node takes per round (the others take the rest).
const ADOPT_PER_ROUND: i64 = 50;

/// How often a node beats: three times per lease, so that one lost round trip is no loss of
/// the games.
fn beat_every(cluster: &Cluster) -> Duration {
    (cluster.ttl() / 3).max(Duration::from_millis(50))
}

/// Starts keeping this node's leases on the current runtime: the heartbeat on its own
/// connection, the takeovers and sweeps on the shared pool. Both end with the hub.
pub fn start(hub: &Arc<Hub>, cluster: Arc<Cluster>) {
    let every = beat_every(&cluster);
    let weak = Arc::downgrade(hub);
    let beating = Arc::clone(&cluster);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let Some(hub) = weak.upgrade() else { break };
            if let Err(e) = beat(&hub, &beating).await {
                tracing::warn!("leases not renewed this round: {e}");
            }
        }
    });
    let weak = Arc::downgrade(hub);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // About once a minute, the lease rows of games finished a minute ago or more go
        // (nothing renews rows any more, so nothing else would take them away).
        let sweep_every = (FINISHED_AFTER.as_millis() / every.as_millis().max(1)).max(1) as u64;
        let mut rounds: u64 = 0;
        loop {
            ticks.tick().await;
            let Some(hub) = weak.upgrade() else { break };
            if let Err(e) = take_over(&hub, &cluster).await {
                tracing::warn!("orphaned games not taken over this round: {e}");
            }
            rounds += 1;
            if rounds.is_multiple_of(sweep_every)
                && let Err(e) = sweep(&cluster, FINISHED_AFTER).await
            {
                tracing::warn!("finished games' leases not deleted: {e}");
            }
        }
    });
}

/// One whole round, as at a node's start: the heartbeat, then the takeovers.
pub async fn round(hub: &Arc<Hub>, cluster: &Cluster) -> Result<(), HubError> {
    beat(hub, cluster).await?;
    take_over(hub, cluster).await
}

/// The heartbeat, on the node's own connection: says the node lives (which holds every lease
/// it has) and, after a lapse, lets go of what was lost. A beat that takes longer than a
/// renewal period is given up (the next one tries again), so a hung connection cannot stop
/// the beats.
pub async fn beat(hub: &Arc<Hub>, cluster: &Cluster) -> Result<(), HubError> {
    let pool = cluster.beat_pool();
    let lapsed = tokio::time::timeout(
        beat_every(cluster),
        heartbeat(pool, cluster.holder(), cluster.addr()),
    )
    .await
    .map_err(|_| HubError::Storage("the heartbeat took longer than a renewal period".into()))??;
    // While the heartbeats come in time nobody can take this node's games: which it still
    // holds is asked only after a lapse (a paused process, a lost round trip).
    if lapsed {
        let mine = hub.unfinished_in_memory();
        let held = still_held(pool, cluster.holder(), &mine).await?;
        let held: std::collections::HashSet<&String> = held.iter().collect();
        for id in mine.iter().filter(|id| !held.contains(id)) {
            hub.forget_game(id, "found by the round after a lapse");
        }
    }
    Ok(())
}

/// Takes the games being played that nobody holds (their node died), on the shared pool.
pub async fn take_over(hub: &Arc<Hub>, cluster: &Cluster) -> Result<(), HubError> {
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

/// Deletes the lease rows of games finished more than `after` ago that are this node's or that
/// nobody holds (their node died: its rows would stay until it came back), then the nodes
/// unheard of for a hundred leases that hold no row. Returns the lease rows deleted.
pub async fn sweep(cluster: &Cluster, after: Duration) -> Result<u64, HubError> {
    let after_ms = after.as_millis().min(i64::MAX as u128) as i64;
    let rows = sweep_leases(cluster.pool(), cluster.holder(), after_ms).await?;
    sweep_nodes(cluster.pool(), cluster.holder()).await?;
    Ok(rows)
}
