//! Floods of requests through the HTTP API: HTTP requests over the per-address rate get
//! `429` with a JSON error and `Retry-After`, actions over the per-connection rate get a
//! `refused` with status 429, and neither changes any game.

use std::time::Duration;

use serde_json::{Value, json};
use zertz_server::rate::Rate;
use zertz_testkit::in_process::Server;
use zertz_testkit::site::temp_db;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_get_429_and_change_nothing() {
    let (_dir, db) = temp_db();
    let server = Server::start_config(&db, 50, |c| {
        c.http_rate = Rate::new(2.0, 10.0);
        c.action_rate = Rate::new(1.0, 3.0);
    });

    // One game, made within the burst (create, join: 2 requests).
    let (id, alice, _bob) = server.invite_game(json!({})).await;

    // A flood of reads: the rest of the burst passes, then 429 with the reason.
    let mut statuses = Vec::new();
    let mut refusal = None;
    for _ in 0..20 {
        let response = server
            .http
            .get(server.url(&format!("/api/games/{id}")))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        statuses.push(status);
        if status == 429 && refusal.is_none() {
            let retry = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            let body: serde_json::Value = response.json().await.unwrap();
            refusal = Some((retry, body));
        }
    }
    let passed = statuses.iter().filter(|&&s| s == 200).count();
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!(passed + limited, 20, "{statuses:?}");
    // 10 in the burst, 2 of them used by create and join; tokens come back at 2 a second
    // while the flood runs (more on a slow machine).
    assert!(passed >= 8 && limited >= 5, "{statuses:?}");
    assert_eq!(statuses[..8], [200; 8], "the burst passes: {statuses:?}");
    let (retry, body) = refusal.expect("a 429");
    assert!(matches!(retry, Some(1..=2)), "Retry-After {retry:?}");
    let message = body["error"].as_str().expect("an error message");
    assert!(
        message.contains("too many requests") && message.contains("2 a second"),
        "{message}"
    );
    // Every kind of request counts, WebSocket upgrades too.
    let (status, body) = server.post("/api/games", &json!({}), None).await;
    assert_eq!(status, 429, "{body}");

    // After a pause the address may act again, and the game is as it was.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    let state = server.game(&id, Some(&alice)).await;
    assert_eq!(state["version"], 4, "created, joined twice, started");
    assert!(state["moves"].as_array().unwrap().is_empty());

    // A flood of actions on one WebSocket: the burst is answered, the rest refused with 429.
    let mut ws = server.ws(&id, Some(&alice), None).await;
    let version = ws.version;
    for _ in 0..8 {
        ws.send_text(json!({"type": "offer_draw"}).to_string())
            .await;
    }
    let mut answers = Vec::new();
    while answers.len() < 8 {
        let m = ws.recv().await;
        if m["type"] == "ack" || m["type"] == "refused" {
            answers.push(m);
        }
    }
    let acked = answers.iter().filter(|m| m["type"] == "ack").count();
    let too_many: Vec<_> = answers
        .iter()
        .filter(|m| m["type"] == "refused" && m["status"] == 429)
        .collect();
    // The first offer is made, the second refused (already offered: 409), the rest of the
    // flood over the burst of 3 is refused with 429.
    assert_eq!(acked, 1, "{answers:?}");
    assert!(too_many.len() >= 4, "{answers:?}");
    assert!(
        too_many[0]["error"]
            .as_str()
            .unwrap()
            .contains("too many actions on this connection"),
        "{answers:?}"
    );
    // Only the one offer happened. (Its event may come after the answers: the connection
    // answers an action before it forwards the events the action made.)
    ws.wait_version(version + 1).await;
    assert_eq!(ws.version, version + 1);
    assert_eq!(ws.events.last().unwrap().1["type"], "draw_offered");
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let answer = ws.act(json!({"type": "resign"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    ws.wait_version(version + 2).await;
    let kinds: Vec<&Value> = ws
        .events
        .iter()
        .filter(|(v, _)| *v > version)
        .map(|(_, e)| &e["type"])
        .collect();
    assert_eq!(kinds, [&json!("draw_offered"), &json!("resigned")]);
    ws.close().await;
}
