//! Clocks through the server's API: every kind of clock runs out and is flagged by the server's
//! own timer (no action sent), turns are charged as each clock says, a move that arrives after
//! the time ran out is refused and the game lost on time, and a match game starts with fresh
//! clocks (the reserve reset).

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zertz_testkit::in_process::Server;
use zertz_testkit::matches::{MatchSeats, game_count};
use zertz_testkit::play::{Rng, brief, event_types, mv, pick_move};
use zertz_testkit::site::{string, temp_db};
use zertz_testkit::ws::Ws;

/// Creates an invitation game with `clock`, with the creator's socket open before the friend
/// joins (so every event is seen), and plays the creator's first move at once. No clock runs
/// before the first turn, so that move costs nothing; the friend's clock runs from it. Returns
/// the game, both tokens, the creator's socket and when the friend's clock began.
async fn clocked_game(server: &Server, clock: Value) -> (String, [String; 2], Ws, Instant) {
    let (id, mut tokens) = server.invitation(json!({"clock": clock.clone()})).await;
    let mut ws = server.ws(&id, Some(&tokens[0]), None).await;
    assert_eq!(ws.state["status"], "open");
    assert_eq!(ws.state["clock"], clock);
    tokens[1] = string(&server.join(&id, &tokens[1], "Bob").await["token"]);
    ws.wait_version(4).await;
    assert_eq!(ws.events.last().unwrap().1["type"], "started");
    // Started, but no clock runs until the first move.
    assert_eq!(ws.state["clocks"][0]["running"], false);
    let initial = ws.state["clocks"][0]["remaining_ms"].clone();
    let started = Instant::now();
    let text = pick_move(&ws.state, &mut Rng::new(1));
    ws.act_ok(mv(&text)).await;
    // (Fischer's increment is added all the same.)
    assert!(
        ws.state["clocks"][0]["remaining_ms"].as_i64() >= initial.as_i64(),
        "the first move is free: {initial} before, {}",
        ws.state["clocks"][0]["remaining_ms"]
    );
    assert_eq!(ws.state["clocks"][1]["running"], true);
    (id, tokens, ws, started)
}

/// Waits on `ws` for the flag of `seat` (no action sent), and checks the result.
async fn wait_flag(ws: &mut Ws, seat: u64) {
    let flag = ws.wait_event("flagged").await;
    assert_eq!(flag["seat"], seat);
    let state = &ws.state;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["winner"], 3 - seat, "{}", brief(state));
    assert!(
        state["result"]["text"]
            .as_str()
            .unwrap()
            .contains("on time"),
        "{}",
        brief(state)
    );
    assert_eq!(state["clocks"][seat as usize - 1]["running"], false);
    assert_eq!(state["clocks"][seat as usize - 1]["remaining_ms"], 0);
}

#[tokio::test]
async fn every_clock_runs_out() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // Player two never moves: the server's timer flags them, whatever the clock.
    let kinds = [
        json!({"kind": "sudden_death", "total_ms": 300}),
        json!({"kind": "fischer", "base_ms": 300, "increment_ms": 100}),
        json!({"kind": "periods", "main_ms": 0, "periods": 1, "period_ms": 300}),
        json!({"kind": "per_move_reserve", "per_move_ms": 200, "reserve_ms": 100, "step_ms": 100}),
        json!({"kind": "correspondence", "per_move_ms": 300}),
    ];
    let mut games = Vec::new();
    for clock in &kinds {
        games.push(clocked_game(&server, clock.clone()).await);
    }
    for (id, tokens, ws, started) in games.iter_mut() {
        let clock = ws.state["clock"].clone();
        wait_flag(ws, 2).await;
        // The flag came when the time ran out, not before.
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "{clock}: flagged after {:?}",
            started.elapsed()
        );
        // Nothing more comes, and moves are refused.
        let (status, body) = server.act(id, &tokens[0], mv("Wd4,a1")).await;
        assert_eq!(status, 409, "{clock}: {body}");
        let (status, body) = server.act(id, &tokens[1], mv("Wd4,a1")).await;
        assert_eq!(status, 409, "{clock}: {body}");
        assert_eq!(server.game(id, None).await["version"], ws.version);
    }

    // Player two moves in time (charged as the clock says), then player one runs out.
    let kinds = [
        json!({"kind": "sudden_death", "total_ms": 1500}),
        json!({"kind": "fischer", "base_ms": 1000, "increment_ms": 500}),
        json!({"kind": "periods", "main_ms": 0, "periods": 2, "period_ms": 600}),
        json!({"kind": "per_move_reserve", "per_move_ms": 300, "reserve_ms": 1000, "step_ms": 500}),
        json!({"kind": "correspondence", "per_move_ms": 800}),
    ];
    let mut games = Vec::new();
    for clock in &kinds {
        let (id, tokens, mut ws, _) = clocked_game(&server, clock.clone()).await;
        // Periods and reserve: think past the free time, so that a period or a step is used.
        let think = match clock["kind"].as_str().unwrap() {
            "periods" => 700,
            "per_move_reserve" => 400,
            _ => 100,
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let text = pick_move(&ws.state, &mut Rng::new(5));
        let v = server.act_ok(&id, &tokens[1], mv(&text)).await;
        ws.wait_version(v).await;
        let moved = ws.events.last().unwrap().1.clone();
        assert_eq!(moved["type"], "moved");
        let c = &moved["clock"];
        let remaining = c["remaining_ms"].as_i64().unwrap();
        match clock["kind"].as_str().unwrap() {
            "sudden_death" => assert!((800..=1400).contains(&remaining), "{moved}"),
            // The increment is added: without it, at most 900 would be left.
            "fischer" => assert!((1000..=1400).contains(&remaining), "{moved}"),
            // One period overrun is used up.
            "periods" => assert_eq!(
                (remaining, c["periods_left"].as_i64().unwrap()),
                (0, 1),
                "{moved}"
            ),
            // 100 ms past the free time costs a whole 500 ms step.
            "per_move_reserve" => assert_eq!(remaining, 500, "{moved}"),
            "correspondence" => assert_eq!(remaining, 0, "{moved}"),
            _ => unreachable!(),
        }
        let state = &ws.state;
        assert_eq!(state["clocks"][1]["running"], false);
        assert_eq!(state["clocks"][0]["running"], true);
        assert_eq!(
            state["clocks"][1]["remaining_ms"],
            remaining,
            "{}",
            brief(state)
        );
        games.push((id, tokens, ws, v, clock.clone()));
    }
    for (id, _, ws, v, clock) in games.iter_mut() {
        wait_flag(ws, 1).await;
        assert_eq!(ws.version, *v + 1, "{clock}");
        let got = server.game(id, None).await;
        assert_eq!(got["result"]["token"], "0-1");
    }
    server.assert_healthy().await;
}

#[tokio::test]
async fn a_late_move_is_refused_and_the_game_lost_on_time() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    // A move that arrives after the mover's time ran out is refused (409), and the game is
    // lost on time: by the server's timer, or by the late move itself when it gets there
    // first. Sent at several moments just past the end of the time, to meet both.
    for late_ms in [0, 2, 5, 10, 20] {
        let clock = json!({"kind": "sudden_death", "total_ms": 300});
        let (id, tokens, mut ws, _) = clocked_game(&server, clock).await;
        // Bob's clock started with Ann's first move, before `clocked_game` returned; his
        // reply is chosen at once and sent too late.
        let mut bob = server.ws(&id, Some(&tokens[1]), None).await;
        let reply = pick_move(&bob.state.clone(), &mut Rng::new(2));
        tokio::time::sleep(Duration::from_millis(300 + late_ms)).await;
        let answer = bob.act(mv(&reply)).await;
        assert_eq!(answer["type"], "refused", "{answer}");
        assert_eq!(answer["status"], 409, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.contains("time ran out") || error.contains("on time"),
            "{answer}"
        );
        let state = server.game(&id, None).await;
        assert_eq!(state["status"], "finished");
        assert_eq!(state["result"]["token"], "1-0", "{}", brief(&state));
        assert_eq!(
            state["moves"].as_array().unwrap().len(),
            1,
            "only Ann's first move"
        );
        ws.wait_version(state["version"].as_i64().unwrap()).await;
        let kinds = event_types(&ws, 0);
        assert_eq!(
            kinds.last().map(String::as_str),
            Some("flagged"),
            "{kinds:?}"
        );
        // Only Ann's first move was played: Bob's late one was not.
        assert_eq!(
            kinds.iter().filter(|k| *k == "moved").count(),
            1,
            "{kinds:?}"
        );
    }
    server.assert_healthy().await;
}

#[tokio::test]
async fn the_reserve_is_reset_at_the_start_of_each_match_game() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db);
    let clock = json!({"kind": "per_move_reserve", "per_move_ms": 300, "reserve_ms": 1000,
                       "step_ms": 500});
    let MatchSeats {
        id: mid,
        ann,
        ben,
        first_game: g1,
    } = server.invited_match(json!({"clock": clock.clone()})).await;
    // Game 1: after the first turn (which costs nothing), Ann thinks past her free time: a
    // step of her reserve is gone.
    let mut rng = Rng::new(3);
    for token in [&ann, &ben] {
        let state = server.game(&g1, None).await;
        server
            .act_ok(&g1, token, mv(&pick_move(&state, &mut rng)))
            .await;
    }
    let state = server.game(&g1, None).await;
    tokio::time::sleep(Duration::from_millis(450)).await;
    let (status, answer) = server
        .act(&g1, &ann, mv(&pick_move(&state, &mut rng)))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["state"]["clocks"][0]["remaining_ms"], 500);
    server.act_ok(&g1, &ben, json!({"type": "resign"})).await;
    // Game 2: Ann (seat 2 now, her clock not running) has her whole reserve again.
    let m = server.wait_match(&mid, |m| game_count(m) == 2).await;
    let g2 = string(&m["current_game"]);
    let state = server.game(&g2, Some(&ann)).await;
    assert_eq!(state["you"], 2);
    assert_eq!(state["clock"], clock);
    assert_eq!(state["clocks"][1]["running"], false);
    assert_eq!(
        state["clocks"][1]["remaining_ms"],
        1000,
        "{}",
        brief(&state)
    );
    assert!(state["clocks"][0]["remaining_ms"].as_i64().unwrap() >= 500);
    server.assert_healthy().await;
}
