//! A Zertz+xx design in a real process: the design, the swap and the first moves of an
//! invitation game rebuilt from the log after a SIGKILL, on SQLite and PostgreSQL; and finished
//! designs charged as boards new to the process (the boards a process holds are shared by all
//! that runs in it, so this needs a process of its own). The rest:
//! crates/zertz-server/tests/behaviour/design.rs.

use crate::common::play::{Rng, mv, pick_move, refused, to_move};
use crate::common::server::{Db, Server, string, temp_db};
use serde_json::json;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::play::{DESIGN_12, add_ring};

/// The design, swap and first moves of an invitation game, then a restart.
async fn design_swap_and_restart(db: Db) {
    let mut server = Server::start(&db);
    let (id, alice, bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
    let tokens = [alice.clone(), bob.clone()];
    let state = server.game(&id, None).await;
    assert_eq!(state["design"]["phase"], "designing", "{state}");
    assert_eq!(state["design"]["rings"], json!([]));
    assert_eq!(state["design"]["max_rings"], 64);
    assert_eq!(
        state["legal_moves"],
        json!([]),
        "nobody moves while designing"
    );

    // Only the designer adds rings, only on the grid, once each.
    let (status, body) = server.act(&id, &bob, add_ring("c3")).await;
    refused(status, &body, 409, "only player 1 designs");
    let (status, body) = server.act(&id, &alice, add_ring("r3")).await;
    refused(status, &body, 400, "not a place of the Zertz+xx grid");
    let (status, body) = server.act(&id, &alice, add_ring("c13")).await;
    refused(status, &body, 400, "not a place of the Zertz+xx grid");
    let (status, body) = server
        .act(&id, &alice, json!({"type": "finish_design"}))
        .await;
    refused(status, &body, 409, "no ring yet");
    for at in DESIGN_12 {
        server.act_ok(&id, &alice, add_ring(at)).await;
    }
    let (status, body) = server.act(&id, &alice, add_ring("d4")).await;
    refused(status, &body, 409, "already a ring on d4");
    server.act_ok(&id, &alice, add_ring("a1")).await;
    server
        .act_ok(&id, &alice, json!({"type": "remove_ring", "at": "a1"}))
        .await;
    let (status, body) = server
        .act(&id, &alice, json!({"type": "remove_ring", "at": "a1"}))
        .await;
    refused(status, &body, 409, "no ring on a1");
    let (status, body) = server.act(&id, &alice, mv("Wc3,f5")).await;
    refused(status, &body, 409, "being designed");
    let (status, body) = server.act(&id, &bob, json!({"type": "swap"})).await;
    refused(status, &body, 409, "still being designed");
    // Unknown fields are refused as in every action.
    let (status, _) = server
        .act(
            &id,
            &alice,
            json!({"type": "add_ring", "at": "b2", "colour": "W"}),
        )
        .await;
    assert_eq!(status, 400);

    server
        .act_ok(&id, &alice, json!({"type": "finish_design"}))
        .await;
    let state = server.game(&id, None).await;
    assert_eq!(state["design"]["phase"], "swap_or_move", "{state}");
    assert_eq!(state["board"], "custom");
    assert_eq!(state["to_move"], 2, "player two may move first");
    let (status, body) = server.act(&id, &alice, add_ring("b2")).await;
    refused(status, &body, 409, "can no longer change");
    let (status, body) = server.act(&id, &alice, json!({"type": "swap"})).await;
    refused(status, &body, 409, "did not design");
    let (status, body) = server
        .act(&id, &alice, json!({"type": "finish_design"}))
        .await;
    refused(status, &body, 409, "already finished");
    server.act_ok(&id, &bob, json!({"type": "swap"})).await;
    let state = server.game(&id, None).await;
    assert_eq!(
        state["to_move"], 1,
        "the designer moves first after the swap"
    );
    assert_eq!(state["design"]["swapped"], true);
    assert_eq!(state["design"]["rings"].as_array().unwrap().len(), 12);
    let (status, body) = server.act(&id, &bob, json!({"type": "swap"})).await;
    refused(status, &body, 409, "only once");

    let mut rng = Rng::new(5);
    let played = server.play_random(&id, &tokens, &mut rng, 3).await;
    let before = server.game(&id, None).await;
    assert_eq!(before["moves"], json!(played));

    // The BoardSpace export says who designed and that seat 2 swapped; read back, it is the
    // same game: the same board, moves and position (the designer moved first, as player one).
    let (status, sgf) = server.get_text(&format!("/api/games/{id}/sgf")).await;
    assert_eq!(status, 200, "{sgf}");
    assert!(
        sgf.contains("SU[Zertz+xx]") && sgf.contains("Swap"),
        "{sgf}"
    );
    let read = zertz::boardspace::import(&sgf).expect("the export reads back");
    assert!(read.swapped, "the swap reads back");
    assert_eq!(read.game.position().layout().len(), DESIGN_12.len());
    let moves: Vec<String> = read
        .game
        .positions()
        .iter()
        .zip(read.game.turns())
        .map(|(p, t)| match t {
            zertz::Turn::Move(m) => zertz::notation::official::move_text(p, m),
            zertz::Turn::Pass { .. } => "-".into(),
        })
        .collect();
    assert_eq!(json!(moves), before["moves"]);
    assert_eq!(
        read.game.position().to_string(),
        string(&before["position"])
    );

    // The log rebuilds the design, the swap and the moves after a restart.
    server.kill();
    let server = Server::start(&db);
    let after = server.game(&id, None).await;
    for key in ["position", "moves", "to_move", "design", "version"] {
        assert_eq!(after[key], before[key], "{key} after the restart");
    }
    let text = pick_move(&after, &mut rng);
    server
        .act_ok(&id, &tokens[to_move(&after) - 1], mv(&text))
        .await;
}

on_sqlite_and_postgres!(design_swap_and_restart,);

/// A finished design is a board new to the server: charged to the designer's allowance
/// (`--new-boards-per-client`) like a custom board in a request, so that designing cannot fill
/// the server's memory with boards for free. A board already known costs nothing.
#[tokio::test]
async fn finished_designs_are_charged_as_new_boards() {
    let (_dir, db) = temp_db();
    let server = Server::start_args(&db, 50, &["--new-boards-per-client", "2"]);
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
