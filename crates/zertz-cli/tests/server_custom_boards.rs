//! An attack on the custom boards the server keeps (issue 21, item 2), through `zertz serve`.
//! A custom board's layout stays in memory for the life of the process; before the fix, every
//! request that read a custom board registered its layout, refused or not, in a registry of at
//! most 10,000 for the whole process: a client that sent 10,000 refused requests with distinct
//! boards had every new custom game refused (400) and every finished custom game not yet in
//! memory unreadable (503) until a restart.

mod common;

use std::time::Duration;

use common::play::{Rng, mv, pick_move, refused};
use common::server::{Server, string};
use serde_json::{Value, json};

/// An HTTP client whose connections come from `source` (a loopback address of its own).
fn client_from(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(source.parse::<std::net::IpAddr>().unwrap())
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The `i`-th of more than 10,000 distinct custom boards: four columns of 1 to 11 rings.
fn board(i: usize) -> String {
    let rows = [i % 11, (i / 11) % 11, (i / 121) % 11, i / 1331].map(|r| r + 1);
    format!(
        "custom:a1-{},c1-{},e1-{},g1-{}",
        rows[0], rows[1], rows[2], rows[3]
    )
}

/// The same board as a position string, whose player-to-move field is wrong.
fn bad_position(i: usize) -> String {
    let rows = [i % 11, (i / 11) % 11, (i / 121) % 11, i / 1331].map(|r| r + 1);
    let column = |n: usize| ".".repeat(n);
    format!(
        "custom standard {}/_/{}/_/{}/_/{} 6/8/10 0/0/0 0/0/0 3",
        column(rows[0]),
        column(rows[1]),
        column(rows[2]),
        column(rows[3])
    )
}

async fn custom_boards_held(server: &Server) -> u64 {
    let (_, stats) = server.get("/api/stats", None).await;
    stats["custom_boards_held"]
        .as_u64()
        .expect("custom_boards_held")
}

/// Client A sends 10,100 refused requests, each with a custom board of its own (games with a
/// bad clock or engine level, positions with a bad field): none adds a board. Then the requests
/// A's allowance admits (a guest's rated game on a new board, refused only once its board is
/// read) add at most 20, and the next is refused with 429. Client B still creates a game on a
/// new custom board, and B's finished custom game, stored before a restart, is still served
/// whole. (Before: the 10,000th board filled the registry; B got 400, and 503 for its game.)
#[tokio::test]
async fn refused_requests_with_distinct_boards_take_no_board_from_anyone() {
    let (_dir, db) = common::server::temp_db();
    let args = ["--http-rate", "0", "--new-boards-per-client", "20"];
    let server = Server::start_args(&db, 50, &args);
    let b = client_from("127.0.0.10");
    // B's custom game, played and finished.
    let body = json!({"opponent": {"kind": "invite"}, "name": "Bea",
                      "board": "custom:a1-3,b1-4,c1-5,d1-6,e1-5,f1-4"});
    let (status, created) = send(b.post(server.url("/api/games")).json(&body)).await;
    assert_eq!(status, 201, "{created}");
    let old = string(&created["id"]);
    let bea = string(&created["token"]);
    server
        .join(&old, &string(&created["invite_token"]), "Ben")
        .await;
    let state = server.game(&old, Some(&bea)).await;
    let first = pick_move(&state, &mut Rng::new(21));
    server.act_ok(&old, &bea, mv(&first)).await;
    server.act_ok(&old, &bea, json!({"type": "resign"})).await;
    // The explorer adds the finished game in the background: waited for, so that the explorer
    // does not read it again after the restart and B's board is not in memory until B's game
    // is read.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while server
        .get(&format!("/api/explorer/games/server-{old}"), None)
        .await
        .0
        != 200
    {
        assert!(std::time::Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A restart. The explorer checks for finished games it missed in the background, and the
    // server's own puzzles and lessons may hold a few custom boards: counted from once that is
    // done.
    drop(server);
    let server = Server::start_args(&db, 50, &args);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !server.log().contains("finished games added at start") {
        assert!(std::time::Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let held = custom_boards_held(&server).await;

    let a = client_from("127.0.0.11");
    let flood = futures_util::stream::iter(0..10_100).map(|i| {
        let (a, server) = (a.clone(), &server);
        async move {
            let (status, body) = match i % 3 {
                0 => {
                    let body = json!({"opponent": {"kind": "invite"}, "board": board(i),
                                      "clock": {"kind": "fischer", "base_ms": 0,
                                                "increment_ms": 0}});
                    send(a.post(server.url("/api/games")).json(&body)).await
                }
                1 => {
                    let body = json!({"opponent": {"kind": "engine", "level": 11},
                                      "board": board(i)});
                    send(a.post(server.url("/api/games")).json(&body)).await
                }
                _ => {
                    let url = server.url("/api/position");
                    send(a.get(url).query(&[("position", bad_position(i))])).await
                }
            };
            assert_eq!(status, 400, "request {i}: {body}");
        }
    });
    use futures_util::StreamExt;
    flood.buffer_unordered(8).collect::<Vec<()>>().await;
    assert_eq!(
        custom_boards_held(&server).await,
        held,
        "a refused request kept a board"
    );

    // Refused only once the board is read: charged to A, 20 at most, then 429.
    for i in 0..20 {
        let body = json!({"opponent": {"kind": "invite"}, "board": board(i), "rated": true});
        let (status, body) = send(a.post(server.url("/api/games")).json(&body)).await;
        assert_eq!(status, 400, "{body}");
    }
    let body = json!({"opponent": {"kind": "invite"}, "board": board(20), "rated": true});
    let (status, body) = send(a.post(server.url("/api/games")).json(&body)).await;
    refused(status, &body, 429, "too many new custom boards");
    assert!(
        body["error"].as_str().unwrap().contains("at most 20"),
        "{body}"
    );
    // A board already known costs nothing, even to A.
    let body = json!({"opponent": {"kind": "invite"}, "board": board(3)});
    let (status, body) = send(a.post(server.url("/api/games")).json(&body)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(custom_boards_held(&server).await, held + 20);

    // B: a new game on a board nobody brought before, and the old finished game, whole.
    let body = json!({"opponent": {"kind": "invite"}, "name": "Bea",
                      "board": "custom:a1-3,b1-4,c1-5,d1-4,e1-3"});
    let (status, created) = send(b.post(server.url("/api/games")).json(&body)).await;
    assert_eq!(status, 201, "{created}");
    let (status, view) = server.get(&format!("/api/games/{old}"), None).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(1), "{view}");
    assert_eq!(view["status"], "finished", "{view}");
    let (status, record) = server.get_text(&format!("/api/games/{old}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert!(record.contains("a1-3,b1-4,c1-5,d1-6,e1-5,f1-4"), "{record}");
    let (status, sgf) = server.get_text(&format!("/api/games/{old}/sgf")).await;
    assert_eq!(status, 200, "{sgf}");
    // Reading a stored game costs no client anything (B's old board came back with it), and
    // each board is kept once: read again, nothing more.
    assert_eq!(custom_boards_held(&server).await, held + 22);
    let (status, _) = server.get(&format!("/api/games/{old}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(custom_boards_held(&server).await, held + 22);
}
