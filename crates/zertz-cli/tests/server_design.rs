//! Zertz+xx games on `zertz serve`: player one designs the board ring by ring, player two swaps
//! or plays on, the design survives a restart, and what does not fit is refused with a reason
//! (at creation and during play), on SQLite and PostgreSQL.

mod common;

use common::play::{Rng, mv, pick_move, refused, to_move};
use common::server::{Db, Server, string};
use serde_json::{Value, json};

const BOARD: [&str; 12] = [
    "c3", "c4", "c5", "d3", "d4", "d5", "d6", "e3", "e4", "e5", "f4", "f5",
];

fn add(at: &str) -> Value {
    json!({"type": "add_ring", "at": at})
}

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
    let (status, body) = server.act(&id, &bob, add("c3")).await;
    refused(status, &body, 409, "only player 1 designs");
    let (status, body) = server.act(&id, &alice, add("r3")).await;
    refused(status, &body, 400, "not a place of the Zertz+xx grid");
    let (status, body) = server.act(&id, &alice, add("c13")).await;
    refused(status, &body, 400, "not a place of the Zertz+xx grid");
    let (status, body) = server
        .act(&id, &alice, json!({"type": "finish_design"}))
        .await;
    refused(status, &body, 409, "no ring yet");
    for at in BOARD {
        server.act_ok(&id, &alice, add(at)).await;
    }
    let (status, body) = server.act(&id, &alice, add("d4")).await;
    refused(status, &body, 409, "already a ring on d4");
    server.act_ok(&id, &alice, add("a1")).await;
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
    let (status, body) = server.act(&id, &alice, add("b2")).await;
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
    assert_eq!(read.game.position().layout().len(), BOARD.len());
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
    let (status, body) = server.act(&id, &alice, add("c3")).await;
    refused(status, &body, 400, "only Zertz+xx games");

    let created = server
        .create(
            json!({"board": "zertz+xx", "opponent": {"kind": "engine", "level": 1}, "name": "Ann"}),
        )
        .await;
    let (id, token) = (string(&created["id"]), string(&created["token"]));
    for at in BOARD {
        server.act_ok(&id, &token, add(at)).await;
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
    let (_dir, db) = common::server::temp_db();
    let server = Server::start_args(&db, 50, &["--new-boards-per-client", "2"]);
    let design = |rings: &'static [&'static str]| {
        let server = &server;
        async move {
            let (id, alice, _bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
            for at in rings {
                server.act_ok(&id, &alice, add(at)).await;
            }
            server
                .act(&id, &alice, json!({"type": "finish_design"}))
                .await
        }
    };
    // The placeholder board (one ring) is held by the server from its start, like an official
    // board: it costs nothing. The first design is the first new board.
    let (status, body) = design(&BOARD).await;
    assert_eq!(status, 200, "{body}");
    // The same board again is known (its first game holds it): free.
    let (status, body) = design(&BOARD).await;
    assert_eq!(status, 200, "{body}");
    // Another board is the second; a third is one too many.
    let (status, body) = design(&BOARD[..11]).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = design(&BOARD[..10]).await;
    refused(status, &body, 429, "too many new custom boards");
    // Over the game's socket the same allowance holds: a new board is refused, one the server
    // holds is finished.
    let (id, alice, _bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
    for at in &BOARD[..9] {
        server.act_ok(&id, &alice, add(at)).await;
    }
    let mut ws = server.ws(&id, Some(&alice), None).await;
    let answer = ws.act(json!({"type": "finish_design"})).await;
    assert_eq!(answer["type"], "refused", "{answer}");
    assert!(
        answer.to_string().contains("too many new custom boards"),
        "{answer}"
    );
    let (id, alice, _bob) = server.invite_game(json!({"board": "Zertz+xx"})).await;
    for at in &BOARD {
        server.act_ok(&id, &alice, add(at)).await;
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

on_sqlite_and_postgres!(design_swap_and_restart, engine_and_refusals);
