//! Claiming in a real process: after a SIGKILL and a restart nobody is connected and each seat
//! counts as away from the restart; a seat that never connected is claimed too. The rest of
//! presence: crates/zertz-server/tests/behaviour/presence.rs.

use std::time::{Duration, Instant};

use crate::common::play::{Rng, brief, refused};
use crate::common::server::{Server, temp_db};
use serde_json::json;

/// Claims the game for `token` once the countdown of `--claim-after 1` has run: refused while
/// it runs (when asked at once), then won.
async fn claim_after_countdown(server: &Server, id: &str, token: &str, claimant: u64) {
    let asked = Instant::now();
    let (status, body) = server
        .act(id, token, json!({"type": "claim_victory"}))
        .await;
    if asked.elapsed() < Duration::from_millis(500) {
        refused(status, &body, 409, "claimed after");
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    server
        .act_ok(id, token, json!({"type": "claim_victory"}))
        .await;
    let state = server.game(id, None).await;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["winner"], claimant, "{}", brief(&state));
    assert!(
        state["result"]["text"].as_str().unwrap().contains("left"),
        "{}",
        brief(&state)
    );
}

#[tokio::test]
async fn claiming_after_a_restart_and_from_a_seat_that_never_connected() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // Both players connected, a few moves, then the server dies: after the restart nobody is
    // connected, and each seat counts as away from the restart.
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let mut a = server.ws(&id, Some(&alice), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    let mut rng = Rng::new(31);
    server
        .play_random(&id, &[alice.clone(), bob.clone()], &mut rng, 3)
        .await;
    a.wait_version(7).await;
    b.wait_version(7).await;
    server.kill();
    drop((a, b));
    let mut server = Server::start(&db);
    let state = server.game(&id, None).await;
    assert_eq!(state["status"], "live");
    for seat in &state["seats"].as_array().unwrap()[..] {
        assert_eq!(seat["connected"], false, "{}", brief(&state));
        let claim_in = seat["away_claim_in_ms"].as_i64().expect("a countdown");
        assert!((0..=1000).contains(&claim_in), "{}", brief(&state));
    }
    claim_after_countdown(&server, &id, &alice, 1).await;

    // Bob joins over HTTP and never opens the game's socket: away from the start of the game.
    let (id, alice, _bob) = server.invite_game(json!({})).await;
    let state = server.game(&id, None).await;
    assert_eq!(state["status"], "live");
    assert_eq!(state["seats"][1]["connected"], false);
    assert!(
        state["seats"][1]["away_claim_in_ms"].is_i64(),
        "{}",
        brief(&state)
    );
    claim_after_countdown(&server, &id, &alice, 1).await;

    // Nobody is away from a game that has not started: an open game cannot be claimed.
    let (open, [alice, _]) = server.invitation(json!({})).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, body) = server
        .act(&open, &alice, json!({"type": "claim_victory"}))
        .await;
    refused(status, &body, 409, "not started");
    server.assert_healthy().await;
}
