//! Zertz+xx games on the server: player one designs the board ring by ring, player two swaps
//! or plays on, the design survives a restart (crates/zertz-cli/tests/server/design.rs), and what does not fit is refused with a reason
//! (at creation and during play), on SQLite and PostgreSQL.

use serde_json::{Value, json};
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::play::refused;
use zertz_testkit::play::{DESIGN_12, add_ring};
use zertz_testkit::site::{Db, string};

/// Against the engine: the creator designs, the engine plays on; refusals at creation.
async fn engine_and_refusals(db: Db) {
    let server = Server::start_with(&db, 50);
    for (body, needle) in [
        (
            json!({"board": "Zertz+xx", "opponent": {"kind": "engine", "level": 2}, "seat": "second"}),
            "the engine cannot design",
        ),
        (
            json!({"board": "Zertz+xx", "opponent": {"kind": "engine", "level": 2}, "seat": "random"}),
            "the engine cannot design",
        ),
        (
            json!({"board": "Zertz+xx", "opponent": {"kind": "invite"}, "rated": true}),
            "Zertz+xx games are unrated",
        ),
        (
            json!({"board": "Zertz+xx", "opponent": {"kind": "invite"}, "best_of": 3}),
            "a match cannot be played on Zertz+xx boards",
        ),
    ] {
        let path = if body.get("best_of").is_some() {
            "/api/matches"
        } else {
            "/api/games"
        };
        let (status, answer) = server.post(path, &body, None).await;
        refused(status, &answer, 400, needle);
    }
    // A design action in an ordinary game.
    let (id, alice, _bob) = server.invite_game(json!({})).await;
    let (status, body) = server.act(&id, &alice, add_ring("c3")).await;
    refused(status, &body, 400, "only Zertz+xx games");

    let created = server
        .create(
            json!({"board": "zertz+xx", "opponent": {"kind": "engine", "level": 1}, "name": "Ann"}),
        )
        .await;
    let (id, token) = (string(&created["id"]), string(&created["token"]));
    for at in DESIGN_12 {
        server.act_ok(&id, &token, add_ring(at)).await;
    }
    let v = server
        .act_ok(&id, &token, json!({"type": "finish_design"}))
        .await;
    // The engine does not swap: it makes the first move.
    let state = wait_for_version(&server, &id, v + 1).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 1, "{state}");
    assert_eq!(state["design"]["phase"], "played");
    assert_eq!(state["to_move"], 1);
}

/// The game's state once its version reaches `v` (the engine answers on its own).
/// A finished design is a board new to the server: charged to the designer's allowance
/// (`--new-boards-per-client`) like a custom board in a request, so that designing cannot fill
/// the server's memory with boards for free. A board already known costs nothing.
#[tokio::test]
async fn finished_designs_are_charged_as_new_boards() {
    let (_dir, db) = zertz_testkit::site::temp_db();
    let server = Server::start_config(&db, 50, |c| c.new_boards_per_client = 2);
    let design = |rings: &'static [&'static str]| {
        let server = &server;
        async move {
            let (id, alice, _bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
            for at in rings {
                server.act_ok(&id, &alice, add_ring(at)).await;
            }
            server
                .act(&id, &alice, json!({"type": "finish_design"}))
                .await
        }
    };
    // The placeholder board (one ring) is held by the server from its start, like an official
    // board: it costs nothing. The first design is the first new board.
    let (status, body) = design(&DESIGN_12).await;
    assert_eq!(status, 200, "{body}");
    // The same board again is known (its first game holds it): free.
    let (status, body) = design(&DESIGN_12).await;
    assert_eq!(status, 200, "{body}");
    // Another board is the second; a third is one too many.
    let (status, body) = design(&DESIGN_12[..11]).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = design(&DESIGN_12[..10]).await;
    refused(status, &body, 429, "too many new custom boards");
    // Over the game's socket the same allowance holds: a new board is refused, one the server
    // holds is finished.
    let (id, alice, _bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
    for at in &DESIGN_12[..9] {
        server.act_ok(&id, &alice, add_ring(at)).await;
    }
    let mut ws = server.ws(&id, Some(&alice), None).await;
    let answer = ws.act(json!({"type": "finish_design"})).await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert!(
        answer.to_string().contains("too many new custom boards"),
        "{answer}"
    );
    let (id, alice, _bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
    for at in &DESIGN_12 {
        server.act_ok(&id, &alice, add_ring(at)).await;
    }
    let mut ws = server.ws(&id, Some(&alice), None).await;
    let answer = ws.act(json!({"type": "finish_design"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
}

async fn wait_for_version(server: &Server, id: &str, v: i64) -> Value {
    let mut ws = server.ws(id, None, None).await;
    ws.wait_version(v).await;
    server.game(id, None).await
}

on_sqlite_and_postgres!(engine_and_refusals,);
