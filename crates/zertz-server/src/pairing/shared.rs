//! Quick pairing with several nodes on PostgreSQL: the queue is a table all nodes share
//! (`store::pairing_queue`), so a request on one node pairs with one on another.
//!
//! - A request is a row, kept alive by its node (renewed every half second, `keep`); a node
//!   that stops renewing (it died) leaves rows that are never paired and are swept away.
//! - Any node pairs, twice a second and whenever a request comes: it locks the waiting rows no
//!   other node has locked (`FOR UPDATE SKIP LOCKED`), pairs them by the rules of `queue`, and
//!   stores each pair's game and writes it into both rows in one transaction. A request is
//!   therefore in one game at most, however many nodes pair at once.
//! - The commit notifies the rows' nodes on `zertz_pairing` (`cluster::notify`); each takes
//!   its paired rows out of the table and tells its clients. The same is looked for every
//!   half second, should a notification be missed.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::oneshot;

use crate::cluster::Cluster;
use crate::cluster::PAIRING;
use crate::games::model::Seated;
use crate::games::pools::Pool;
use crate::pairing::postgres::{self as table, QueueRow};
use crate::pairing::queue::{Queue, Waiting};
use crate::pairing::service::{
    JoinError, Paired, Pairing, QueueKey, Ticket, Waiter, by_lot, settings,
};
use crate::store::StoreError;
use crate::util::now_ms;

/// The shortest life of a request its node stops renewing: six renewals fit in it.
const MIN_TTL_MS: i64 = 3000;

/// How long a request lives unless renewed: a lease, at least [`MIN_TTL_MS`].
fn ttl_ms(cluster: &Cluster) -> i64 {
    (cluster.ttl().as_millis().min(i64::MAX as u128) as i64).max(MIN_TTL_MS)
}

/// How many wait in each queue, on all nodes.
pub(crate) async fn counts(
    cluster: &Cluster,
) -> Result<Vec<(String, bool, bool, usize)>, StoreError> {
    Ok(table::counts(cluster.pool())
        .await?
        .into_iter()
        .map(|(pool, rated, guests, n)| (pool, rated, guests, n.max(0) as usize))
        .collect())
}

/// Takes request `id` out of the table (its client left), in the background.
pub(crate) fn withdraw(cluster: &Cluster, id: u64) {
    let pool = cluster.pool().clone();
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(async move {
            if let Err(e) = table::withdraw(&pool, id as i64).await {
                tracing::warn!("quick pairing: request {id} not withdrawn: {e}");
            }
        });
    }
}

impl Pairing {
    /// [`Pairing::join`] on the shared queue.
    pub(crate) async fn join_shared(
        self: &Arc<Self>,
        cluster: &Cluster,
        key: QueueKey,
        seated: Seated,
        rating: Option<f64>,
    ) -> Result<(Ticket, oneshot::Receiver<Paired>), JoinError> {
        let request = QueueRow {
            id: 0,
            node: cluster.node().to_string(),
            pool: key.pool.key(),
            rated: key.rated,
            guests: key.guests,
            rating,
            account: seated.account.clone(),
            name: seated.name.clone(),
            since_ms: 0,
        };
        let since_ms = now_ms();
        let (id, _) = table::enqueue(cluster.pool(), &request, ttl_ms(cluster))
            .await
            .map_err(|e| JoinError::NotQueued(e.to_string()))?
            .ok_or(JoinError::AlreadyWaiting)?;
        let id = id as u64;
        let (tell, told) = oneshot::channel();
        // Paired before this line (by another node), the row waits for the next collection.
        self.waiters().insert(id, Waiter { seated, tell });
        let ticket = self.ticket(id, key, since_ms);
        self.pair_all().await;
        Ok((ticket, told))
    }

    /// One round on the shared queue: this node's requests renewed, the dead nodes' ones swept,
    /// the pairs made, this node's paired clients told.
    pub(crate) async fn round_shared(&self, cluster: &Cluster) {
        self.keep(cluster).await;
        if let Err(e) = table::sweep(cluster.pool()).await {
            tracing::warn!("quick pairing: expired requests not swept: {e}");
        }
        if let Err(e) = self.pair_shared(cluster).await {
            tracing::warn!("quick pairing: no pairs made this round: {e}");
        }
        self.collect(cluster).await;
    }

    /// Renews this node's requests. A client whose request left the table unpaired (not
    /// renewed in time: the node stalled) is let go: its socket closes.
    async fn keep(&self, cluster: &Cluster) {
        let _turn = self.collecting.lock().await;
        let ids: Vec<i64> = self.waiters().keys().map(|&id| id as i64).collect();
        if ids.is_empty() {
            return;
        }
        match table::keep(cluster.pool(), cluster.node(), &ids, ttl_ms(cluster)).await {
            Ok(kept) => {
                let mut waiters = self.waiters();
                for id in ids.iter().filter(|id| !kept.contains(id)) {
                    tracing::warn!("quick pairing: request {id} expired before it was renewed");
                    waiters.remove(&(*id as u64));
                }
            }
            Err(e) => tracing::warn!("quick pairing: requests not renewed: {e}"),
        }
    }

    /// Pairs what can be paired among the requests no other node is pairing, in one
    /// transaction, and sets the games made going on this node.
    async fn pair_shared(&self, cluster: &Cluster) -> Result<(), String> {
        let mut round = table::round(cluster.pool(), cluster.holder())
            .await
            .map_err(|e| e.to_string())?;
        let mut queues: HashMap<QueueKey, Queue> = HashMap::new();
        let mut rows: HashMap<u64, QueueRow> = HashMap::new();
        for row in std::mem::take(&mut round.waiting) {
            let Some(pool) = Pool::parse(&row.pool) else {
                continue;
            };
            let key = QueueKey {
                pool,
                rated: row.rated,
                guests: row.guests,
            };
            queues.entry(key).or_default().push(Waiting {
                id: row.id as u64,
                rating: row.rating,
                account: row.account.clone(),
                since_ms: row.since_ms,
            });
            rows.insert(row.id as u64, row);
        }
        let mut made = Vec::new();
        for (key, mut queue) in queues {
            for (a, b) in queue.pairs(round.now_ms) {
                let (Some(a), Some(b)) = (rows.get(&a.id), rows.get(&b.id)) else {
                    continue;
                };
                let (first, second) = by_lot(a, b)?;
                let seated = [first, second].map(|r| {
                    Some(Seated {
                        name: r.name.clone(),
                        account: r.account.clone(),
                    })
                });
                let new = self
                    .hub
                    .prepare_game(settings(&key), seated, [None, None], None)
                    .map_err(|e| e.to_string())?;
                round
                    .pair(&new.row, &new.events, [first.id, second.id])
                    .await
                    .map_err(|e| e.to_string())?;
                made.push(new);
            }
        }
        if made.is_empty() {
            // Dropped, the round rolls back: the rows are unlocked as they were.
            return Ok(());
        }
        round.commit(PAIRING).await.map_err(|e| e.to_string())?;
        for new in made {
            self.hub.open_game(new).await;
        }
        Ok(())
    }

    /// Takes this node's paired requests out of the table and tells their clients.
    pub(crate) async fn collect(&self, cluster: &Cluster) {
        let _turn = self.collecting.lock().await;
        let ids: Vec<i64> = self.waiters().keys().map(|&id| id as i64).collect();
        if ids.is_empty() {
            return;
        }
        let rows = match table::take_paired(cluster.pool(), cluster.node(), &ids).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!("quick pairing: paired requests not read: {e}");
                return;
            }
        };
        for row in rows {
            let waiter = self.waiters().remove(&(row.id as u64));
            if let Some(w) = waiter {
                let _ = w.tell.send(Paired {
                    game: row.game,
                    seat: u8::try_from(row.seat).unwrap_or_default(),
                    token: row.token,
                });
            }
        }
    }

    /// Node `node` was told that requests of its were paired (`zertz_pairing`).
    pub async fn heard_paired(&self, node: &str) {
        if let Some(cluster) = &self.shared
            && cluster.node() == node
        {
            self.collect(cluster).await;
        }
    }
}
