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
async fn wait_for_version(server: &Server, id: &str, v: i64) -> Value {
    let mut ws = server.ws(id, None, None).await;
    ws.wait_version(v).await;
    server.game(id, None).await
}

on_sqlite_and_postgres!(engine_and_refusals,);
