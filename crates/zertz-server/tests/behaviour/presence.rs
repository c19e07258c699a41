//! Connections to the server coming and going: reconnecting with `since` gets exactly the
//! events missed, presence is pushed, a vanished opponent is claimed after the countdown (when they
//! never connected; after a restart: crates/zertz-cli/tests/server/presence.rs) but not while they play over HTTP, an abandoned
//! upgrade leaves no presence behind, a connection that answers no ping is given up, and
//! sockets opened in the middle of fast play see each event once.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zertz_testkit::in_process::Server;
use zertz_testkit::play::{Rng, brief, mv, pick_move, refused, to_move};
use zertz_testkit::site::temp_db;

#[tokio::test]
async fn reconnecting_presence_and_claiming() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let tokens = [alice.clone(), bob.clone()];
    let mut a = server.ws(&id, Some(&alice), None).await;
    let mut b = server.ws(&id, Some(&bob), None).await;
    // Alice sees Bob arrive.
    let seen = a.until_presence(2, true).await;
    assert_eq!(seen["state"]["seats"][0]["connected"], true);
    assert_eq!(seen["state"]["you"], 1);
    let mut rng = Rng::new(11);
    let state = a.state.clone();
    a.act_ok(mv(&pick_move(&state, &mut rng))).await;

    // Bob leaves at version V.
    let since = b.version.max(a.version);
    b.wait_version(since).await;
    b.close().await;
    let away = a.until_presence(2, false).await;
    let claim_in = away["state"]["seats"][1]["away_claim_in_ms"]
        .as_i64()
        .expect("a countdown");
    assert!((0..=1000).contains(&claim_in), "{}", brief(&away));
    assert_eq!(away["state"]["seats"][0]["away_claim_in_ms"], Value::Null);

    // Moves happen while Bob is away (his over HTTP).
    server.play_random(&id, &tokens, &mut rng, 4).await;
    let now = server.game(&id, None).await;
    let current = now["version"].as_i64().unwrap();
    assert_eq!(current, since + 4);
    a.wait_version(current).await;

    // Bob comes back with `since`: exactly the missed events.
    let mut b = server.ws(&id, Some(&bob), Some(since)).await;
    assert_eq!(b.first["type"], "catchup");
    assert_eq!(b.version, current);
    let missed: Vec<(i64, Value)> = b.events.clone();
    let from_a: Vec<(i64, Value)> = a
        .events
        .iter()
        .filter(|(v, _)| *v > since)
        .cloned()
        .collect();
    assert_eq!(missed, from_a);
    assert_eq!(b.first["state"]["moves"], now["moves"]);
    assert_eq!(b.state["you"], 2);
    // A `since` from the future or too far back gets a full sync.
    let ws = server.ws(&id, None, Some(current + 10)).await;
    assert_eq!(ws.first["type"], "sync");
    ws.close().await;
    // Alice sees Bob back; the game goes on.
    a.until_presence(2, true).await;
    let (status, body) = server
        .act(&id, &alice, json!({"type": "claim_victory"}))
        .await;
    assert_eq!(status, 409, "nothing to claim while Bob is here: {body}");
    let state = b.state.clone();
    let seat = to_move(&state);
    let text = pick_move(&state, &mut rng);
    let v = if seat == 2 {
        b.act_ok(mv(&text)).await
    } else {
        a.act_ok(mv(&text)).await
    };
    assert_eq!(v, current + 1);
    a.wait_version(v).await;
    b.wait_version(v).await;
    assert_eq!(a.events.last(), b.events.last());

    // Bob leaves for good: claiming is refused during the countdown, then wins.
    b.close().await;
    a.until_presence(2, false).await;
    let left = Instant::now();
    let answer = a.act(json!({"type": "claim_victory"})).await;
    if left.elapsed() < Duration::from_millis(500) {
        assert_eq!(answer["type"], "refused", "{answer}");
        assert_eq!(answer["status"], 409, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("claimed after"),
            "{answer}"
        );
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let v = a.act_ok(json!({"type": "claim_victory"})).await;
    assert_eq!(v, current + 2);
    assert_eq!(
        a.events.last().unwrap().1,
        json!({"type": "claimed", "seat": 1})
    );
    let result = &a.state["result"];
    assert_eq!(result["winner"], 1, "{result}");
    assert!(
        result["text"].as_str().unwrap().contains("left"),
        "{result}"
    );
    // Bob, back too late, learns it from the catch-up.
    let b = server.ws(&id, Some(&bob), Some(current + 1)).await;
    assert_eq!(b.events.len(), 1);
    assert_eq!(b.state["status"], "finished");
    server.assert_healthy().await;
}

#[tokio::test]
async fn an_abandoned_upgrade_leaves_no_presence_behind() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let (id, _alice, bob) = server.invite_game(json!({})).await;
    // Bob's browser asks for the WebSocket and goes away before the answer.
    for _ in 0..5 {
        drop(server.raw_upgrade(&id, &bob).await);
    }
    // The server notices each closed connection when it next reads it: soon, but later under
    // load, so the seat is watched until then (a presence left behind never clears).
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut state = server.game(&id, None).await;
    while state["seats"][1]["connected"] != false && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        state = server.game(&id, None).await;
    }
    assert_eq!(state["seats"][1]["connected"], false, "{}", brief(&state));
    server.assert_healthy().await;
}

#[tokio::test]
async fn sockets_opened_during_play_see_each_event_once() {
    let (_dir, db) = temp_db();
    // Hundreds of actions and sockets from one address in a few seconds: without the
    // per-address limit, which would refuse some of them depending on the machine's speed.
    let mut server = Server::start_config(&db, 50, |c| {
        c.http_rate = zertz_server::rate::Rate::unlimited()
    });
    let (id, alice, bob) = server.invite_game(json!({})).await;
    let done = std::cell::Cell::new(false);
    // The players make events as fast as they can (draw offers, declined) while others keep
    // opening sockets: whatever a new socket's first message shows, the events after it
    // follow on, none twice, none missing, and presence never shows an older state.
    let play = async {
        let mut last = 0;
        for _ in 0..150 {
            server
                .act_ok(&id, &alice, json!({"type": "offer_draw"}))
                .await;
            last = server
                .act_ok(&id, &bob, json!({"type": "decline_draw"}))
                .await;
        }
        done.set(true);
        last
    };
    let watch = |first: usize| {
        let (done, server, id) = (&done, &server, &id);
        let tokens = [alice.clone(), bob.clone()];
        async move {
            let mut opened = first;
            while !done.get() {
                let seat = opened % 3;
                let token = (seat < 2).then(|| tokens[seat].as_str());
                let mut ws = server.ws(id, token, None).await;
                // A few messages of each socket, checked by `recv`.
                for _ in 0..3 {
                    let next = tokio::time::timeout(Duration::from_millis(300), ws.recv());
                    if next.await.is_err() {
                        break;
                    }
                }
                ws.close().await;
                opened += 1;
            }
            opened - first
        }
    };
    let (last, a, b) = tokio::join!(play, watch(0), watch(1));
    assert!(a + b > 10, "{a} + {b} sockets");
    // A socket from the start sees every event once.
    let ws = server.ws(&id, None, Some(0)).await;
    assert_eq!(ws.events.len() as i64, last);
    assert_eq!(last, 4 + 300);
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_seat_playing_over_http_is_not_away_while_it_plays() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // Neither player opens the game's socket; both count as away from the start of the game.
    let (id, alice, bob) = server.invite_game(json!({})).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    // Each acts over HTTP (a move, a read of the game with the seat's token): each is back, so
    // neither can claim the other's game now.
    let state = server.game(&id, None).await;
    let (first, second) = if to_move(&state) == 1 {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    let mut rng = Rng::new(5);
    server
        .act_ok(&id, first, mv(&pick_move(&state, &mut rng)))
        .await;
    server.game(&id, Some(second.as_str())).await;
    for token in [first, second] {
        let (status, body) = server
            .act(&id, token, json!({"type": "claim_victory"}))
            .await;
        refused(status, &body, 409, "claimed after");
    }
    // The second player stays silent: after the countdown the first may claim.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let v = server
        .act_ok(&id, first, json!({"type": "claim_victory"}))
        .await;
    let state = server.game(&id, None).await;
    assert_eq!(state["version"], v);
    assert_eq!(state["status"], "finished", "{}", brief(&state));
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_silent_connection_is_given_up_after_a_ping() {
    use tokio::io::AsyncReadExt;
    let (_dir, db) = temp_db();
    let mut server =
        Server::start_config(&db, 50, |c| c.ping_interval = Duration::from_millis(300));
    let (id, alice, bob) = server.invite_game(json!({})).await;
    // Alice's client reads all the time, so it answers the pings.
    let mut a = server.ws(&id, Some(&alice), None).await;
    // Bob's connection opens, then his network dies: no close, no pong, nothing.
    let mut tcp = server.raw_upgrade(&id, &bob).await;
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        assert_eq!(
            tcp.read(&mut byte).await.unwrap(),
            1,
            "the upgrade's answer"
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let seen = a.until_presence(2, true).await;
    assert_eq!(seen["state"]["seats"][0]["connected"], true);
    let opened = Instant::now();
    // Within two intervals of silence the server gives Bob's connection up.
    let gone = a.until_presence(2, false).await;
    assert!(
        opened.elapsed() < Duration::from_secs(5),
        "given up after {:?}",
        opened.elapsed()
    );
    // Away from when he was last heard from (the upgrade), not from when he was given up.
    let claim_in = gone["state"]["seats"][1]["away_claim_in_ms"]
        .as_i64()
        .expect("a countdown");
    assert!(claim_in < 1000 - 200, "{}", brief(&gone));
    // And the server closed the connection: the pings it sent, then the end.
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the server did not close Bob's connection");
    // Alice, who answers, is still connected after many pings.
    a.listen(Duration::from_millis(1200)).await;
    assert_eq!(
        a.state["seats"][0]["connected"],
        true,
        "{}",
        brief(&a.state)
    );
    let v = a.act_ok(json!({"type": "claim_victory"})).await;
    assert_eq!(
        a.events.last().unwrap(),
        &(v, json!({"type": "claimed", "seat": 1}))
    );
    let state = server.game(&id, None).await;
    assert_eq!(state["seats"][0]["connected"], true);
    server.assert_healthy().await;
}
