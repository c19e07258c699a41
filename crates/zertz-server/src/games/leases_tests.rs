//! A node keeps its leases while it lives, however busy its database pool: the heartbeat has a
//! connection of its own (issue 41). Runs on the database `ZERTZ_TEST_POSTGRES` names (a fresh
//! one made for it); without it, says NOT RUN on stderr, like the store's tests.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::accounts::viewer::Payer;
use crate::games::clock::ClockSpec;
use crate::games::hub::guests_game;
use crate::games::hub::{Hub, HubError};
use crate::games::leases;
use crate::games::model::GameSettings;
use crate::games::model::{Action, Credential};
use crate::games::race_tests::{try_move, two_nodes_and_a_game};

/// Node A holds a game and keeps its leases as `zertz serve` does (`leases::start`); every
/// connection of its pool is then taken and held for four leases, as work queued behind a
/// saturated database would hold them. Node B asks for the game all along: A lives, so B must
/// never get it. A's moves do not wait for that pool: they are stored on the connections of
/// the writers of moves (`store::postgres::appends`), so A plays on meanwhile and after.
async fn pool_busy(url: String) {
    let ttl = 300;
    let (a, b, id, tokens) = two_nodes_and_a_game(&url, ttl).await;
    let cluster_a = Arc::clone(a.cluster().expect("a node"));
    // The first beat, as `zertz serve` makes it before it listens; then the rounds go on.
    leases::round(&a, &cluster_a).await.unwrap();
    leases::start(&a, Arc::clone(&cluster_a));
    let pool = cluster_a.pool();
    let mut busy = Vec::new();
    for _ in 0..pool.options().get_max_connections() {
        busy.push(pool.acquire().await.unwrap());
    }
    assert_eq!(pool.num_idle(), 0, "every connection of A's pool is taken");
    let v = try_move(&a, &id, &tokens)
        .await
        .expect("a move is stored while the pool is held");
    let until = Instant::now() + Duration::from_millis(4 * ttl as u64);
    let mut asked = 0;
    while Instant::now() < until {
        match try_move(&b, &id, &tokens).await {
            Err(HubError::Elsewhere(_)) => asked += 1,
            other => panic!(
                "after {asked} refusals, B got A's game while A lived with its pool busy: \
                 {other:?}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(ttl as u64 / 6)).await;
    }
    drop(busy);
    assert_eq!(a.load().in_flight(), 0);
    assert!(asked >= 4, "B asked throughout ({asked} times)");
    assert!(a.in_memory(&id), "A kept the game in memory");
    let next = try_move(&a, &id, &tokens)
        .await
        .expect("A still plays its game");
    assert_eq!(next, v + 1, "A played on from its move");
}

/// The node named in `id`'s lease row, if there is a row.
async fn lease_node(hub: &Hub, id: &str) -> Option<String> {
    sqlx::query_scalar("SELECT node FROM game_leases WHERE game_id = $1")
        .bind(id)
        .fetch_optional(hub.cluster().unwrap().pool())
        .await
        .unwrap()
}

/// A game finished on node A keeps its lease row (a match's next step may append to it). While
/// A lives, B's sweep leaves the row to A; once A is dead (it stopped beating and its time ran
/// out), B's sweep deletes it instead of leaving it until A comes back.
async fn dead_leftovers(url: String) {
    let ttl = 1000;
    let (a, b, id, tokens) = two_nodes_and_a_game(&url, ttl).await;
    let (cluster_a, cluster_b) = (a.cluster().unwrap(), b.cluster().unwrap());
    a.act(
        &id,
        Credential::Token(&tokens[0]),
        Action::Resign {},
        &Payer::named("test"),
    )
    .await
    .unwrap();
    leases::beat(&a, cluster_a).await.unwrap();
    let swept = leases::sweep(cluster_b, Duration::ZERO).await.unwrap();
    assert_eq!(swept, 0, "A lives: its row is its own to sweep");
    assert_eq!(lease_node(&b, &id).await.as_deref(), Some("a"));
    // A stops beating; B waits until the database says A's time is out.
    let pool = cluster_b.pool();
    let lapsed = format!(
        "SELECT expires_ms < {} FROM nodes WHERE id = 'a'",
        crate::store::postgres::leases::NOW_MS
    );
    let until = Instant::now() + Duration::from_secs(30);
    while !sqlx::query_scalar::<_, bool>(&lapsed)
        .fetch_one(pool)
        .await
        .unwrap()
    {
        assert!(Instant::now() < until, "A's time never ran out");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let swept = leases::sweep(cluster_b, Duration::ZERO).await.unwrap();
    assert_eq!(swept, 1, "B swept the dead node's row");
    assert_eq!(lease_node(&b, &id).await, None);
}

/// The games a node may adopt (`orphans`): those being played whose lease nobody holds, by its
/// own time or its node's. Five games of node A, their lease rows then set by hand with times
/// far in the past or the future (nothing here races the clock): held by A's beat though the
/// row's own time is past; a dead node's, its time past (adopted); a dead node's, its time
/// still to come; no row at all (adopted); and a finished game with no row (not played: left).
async fn orphans_listed(url: String) {
    let (a, _b, held_by_beat, _) = two_nodes_and_a_game(&url, 60_000).await;
    let cluster = a.cluster().unwrap();
    leases::beat(&a, cluster).await.unwrap();
    let pool = cluster.pool();
    let settings = || GameSettings::for_tests(ClockSpec::Unlimited {});
    let (dead_and_past, _) = guests_game(&a, settings()).await;
    let (dead_not_yet, _) = guests_game(&a, settings()).await;
    let (no_row, _) = guests_game(&a, settings()).await;
    let (finished, tokens) = guests_game(&a, settings()).await;
    a.act(
        &finished,
        Credential::Token(&tokens[0]),
        Action::Resign {},
        &Payer::named("test"),
    )
    .await
    .unwrap();
    let run = |sql: String| async move { sqlx::query(&sql).execute(pool).await.unwrap() };
    run("INSERT INTO nodes (id, addr, seen_ms, expires_ms) VALUES ('z', '', 0, 1)".into()).await;
    run(format!(
        "UPDATE game_leases SET expires_ms = 1 WHERE game_id = '{held_by_beat}'"
    ))
    .await;
    run(format!(
        "UPDATE game_leases SET node = 'z', expires_ms = 1 WHERE game_id = '{dead_and_past}'"
    ))
    .await;
    run(format!(
        "UPDATE game_leases SET node = 'z', expires_ms = 9000000000000 \
         WHERE game_id = '{dead_not_yet}'"
    ))
    .await;
    run(format!(
        "DELETE FROM game_leases WHERE game_id IN ('{no_row}', '{finished}')"
    ))
    .await;
    let mut adopted = crate::store::orphans(pool, 50).await.unwrap();
    adopted.sort();
    let mut expected = vec![dead_and_past, no_row];
    expected.sort();
    assert_eq!(adopted, expected);
    // At most the number asked for.
    assert_eq!(crate::store::orphans(pool, 1).await.unwrap().len(), 1);
}

#[tokio::test]
async fn the_games_nobody_holds_are_those_a_node_may_adopt() {
    if let Some(database) = crate::store::scratch::create("orphans_listed").await {
        database.run(orphans_listed).await;
    }
}

/// Leases that must not run out while a node lives, on the machine's clock: a starved test
/// thread misses a beat, so CI runs these alone once everything else is done (`.ci/run`,
/// `wall_clock::`), as it runs the engine's timed tests.
mod wall_clock {
    use crate::store::scratch;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_node_whose_pool_is_busy_keeps_its_leases() {
        if let Some(database) = scratch::create("a_node_whose_pool_is_busy_keeps_its_leases").await
        {
            database.run(super::pool_busy).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dead_nodes_finished_leases_are_swept_by_the_others() {
        if let Some(database) = scratch::create("a_dead_nodes_finished_leases_are_swept").await {
            database.run(super::dead_leftovers).await;
        }
    }
}
