//! The shared quick-pairing queue on PostgreSQL: two nodes pairing at once make exactly one
//! game per pair, and a request whose node stopped renewing it is never paired.
//! Runs on a fresh database on the server `ZERTZ_TEST_POSTGRES` names; without it, says NOT
//! RUN on stderr, like the store's tests.

use std::collections::HashMap;
use std::time::Duration;

use tokio::sync::oneshot;

use crate::games::model::Seated;
use crate::games::pools::Pool;
use crate::games::race_tests::node;
use crate::pairing::postgres::{self as table, QueueRow};
use crate::pairing::{Paired, Pairing, QueueKey};

/// Long enough that no lease runs out during a test (nobody renews them here).
const TTL_MS: i64 = 600_000;

/// How long a request may take to be paired on a loaded machine.
const PAIRED_IN: Duration = Duration::from_secs(60);

fn guests() -> QueueKey {
    QueueKey {
        pool: Pool::parse("standard-blitz").expect("a pool"),
        rated: false,
        guests: true,
    }
}

/// Runs `check` on a fresh database, which is dropped afterwards whatever happens.
async fn on_fresh<F, Fut>(test: &str, check: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    if let Some(database) = crate::store::scratch::create(test).await {
        database.run(check).await;
    }
}

async fn count(pool: &sqlx::PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

async fn told(rx: oneshot::Receiver<Paired>) -> Paired {
    tokio::time::timeout(PAIRED_IN, rx)
        .await
        .expect("paired in time")
        .expect("told, not let go")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_nodes_pairing_at_once_make_one_game_per_pair() {
    on_fresh("pairing_race", pairing_race).await;
}

async fn pairing_race(url: String) {
    let a = Pairing::new(node(&url, "a", TTL_MS).await);
    let b = Pairing::new(node(&url, "b", TTL_MS).await);
    let pool = a.hub.cluster().unwrap().pool().clone();
    // Forty guests ask at once, half on each node; each request runs a round, and both
    // nodes run more rounds meanwhile (besides their own ticks).
    let mut joins = Vec::new();
    for i in 0..40 {
        let p = if i % 2 == 0 { a.clone() } else { b.clone() };
        joins.push(tokio::spawn(async move {
            let (ticket, rx) = p
                .join(guests(), Seated::guest(format!("G{i}")), None)
                .await
                .unwrap();
            (format!("G{i}"), ticket, rx)
        }));
    }
    let mut rounds = Vec::new();
    for p in [a.clone(), b.clone(), a.clone(), b.clone()] {
        rounds.push(tokio::spawn(async move {
            for _ in 0..20 {
                p.pair_all().await;
            }
        }));
    }
    let mut waiting = Vec::new();
    for j in joins {
        waiting.push(j.await.unwrap());
    }
    for r in rounds {
        r.await.unwrap();
    }
    let mut by_game: HashMap<String, Vec<(u8, String, String)>> = HashMap::new();
    let mut tickets = Vec::new();
    for (name, ticket, rx) in waiting {
        let p = told(rx).await;
        by_game
            .entry(p.game)
            .or_default()
            .push((p.seat, name, p.token));
        tickets.push(ticket);
    }
    assert_eq!(by_game.len(), 20, "twenty games for forty requests");
    assert_eq!(
        count(&pool, "SELECT COUNT(*) FROM games").await,
        20,
        "no game made beyond one per pair"
    );
    for (game, mut seats) in by_game {
        seats.sort();
        let seat_numbers: Vec<u8> = seats.iter().map(|s| s.0).collect();
        assert_eq!(seat_numbers, [1, 2], "game {game}: {seats:?}");
        let (row, _) = a.hub.store().load_game(&game).await.unwrap();
        for (i, (_, name, token)) in seats.iter().enumerate() {
            assert_eq!(row.names[i].as_deref(), Some(name.as_str()), "game {game}");
            assert_eq!(
                row.tokens[i].as_deref(),
                Some(token.as_str()),
                "game {game}"
            );
        }
        assert_eq!(row.status, "live", "game {game} started");
    }
    assert_eq!(
        count(&pool, "SELECT COUNT(*) FROM pairing_queue").await,
        0,
        "every paired request left the queue"
    );
    drop(tickets);
}

#[tokio::test]
async fn a_request_of_a_stopped_node_is_never_paired() {
    on_fresh("pairing_ghost", pairing_ghost).await;
}

async fn pairing_ghost(url: String) {
    let a = Pairing::new(node(&url, "a", TTL_MS).await);
    let b = Pairing::new(node(&url, "b", TTL_MS).await);
    let pool = a.hub.cluster().unwrap().pool().clone();
    // A node that stopped left a request its renewals no longer keep alive.
    let ghost = QueueRow {
        id: 0,
        node: "gone".into(),
        pool: guests().pool.key(),
        rated: false,
        guests: true,
        rating: None,
        account: None,
        name: "Ghost".into(),
        since_ms: 0,
    };
    table::enqueue(&pool, &ghost, -1).await.unwrap().unwrap();
    let (_live, mut rx) = a.join(guests(), Seated::guest("Live"), None).await.unwrap();
    // The join's round swept the ghost and paired nobody.
    assert!(
        matches!(rx.try_recv(), Err(oneshot::error::TryRecvError::Empty)),
        "paired with a request of a stopped node"
    );
    let nodes: Vec<String> = sqlx::query_scalar("SELECT node FROM pairing_queue")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(nodes, ["a"]);
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM games").await, 0);
    assert_eq!(
        a.waiting().await.unwrap(),
        [(guests().pool.key(), false, true, 1)]
    );
    // A live request on the other node is paired with it.
    let (_other, rx_b) = b
        .join(guests(), Seated::guest("Other"), None)
        .await
        .unwrap();
    let (pa, pb) = (told(rx).await, told(rx_b).await);
    assert_eq!(pa.game, pb.game);
    assert_ne!(pa.seat, pb.seat);
}
