//! The custom boards the server holds, through `zertz serve`. An attack (issue 21, item 2):
//! before the fix, every request that read a custom board registered its layout, refused or
//! not, in a registry of at most 10,000 for the whole process: a client that sent 10,000
//! refused requests with distinct boards had every new custom game refused (400) and every
//! finished custom game not yet in memory unreadable (503) until a restart. And a custom
//! board's layout leaves memory with the last game that holds it (before, every board read
//! stayed until the process stopped).

use std::time::Duration;

use crate::common::play::{Rng, mv, pick_move, refused};
use crate::common::server::{Server, string};
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
/// read) are charged, 20 at most, and the next is refused with 429; none keeps its board.
/// Client B still creates a game on a new custom board, A one on B's board (held, so free),
/// and B's finished custom game, stored before a restart, is still served whole. (Before: the
/// 10,000th board filled the registry; B got 400, and 503 for its game.)
#[tokio::test]
async fn refused_requests_with_distinct_boards_take_no_board_from_anyone() {
    let (_dir, db) = crate::common::server::temp_db();
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

    // Refused only once the board is read: charged to A, 20 at most, then 429. The boards
    // leave with the requests.
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
    assert_eq!(custom_boards_held(&server).await, held);

    // B: a new game on a board nobody brought before.
    let body = json!({"opponent": {"kind": "invite"}, "name": "Bea",
                      "board": "custom:a1-3,b1-4,c1-5,d1-4,e1-3"});
    let (status, created) = send(b.post(server.url("/api/games")).json(&body)).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(custom_boards_held(&server).await, held + 1);
    // A board held (by B's game) costs nothing, even to A, and is held once.
    let body = json!({"opponent": {"kind": "invite"}, "board": "custom:e1-3,d1-4,c1-5,b1-4,a1-3"});
    let (status, body) = send(a.post(server.url("/api/games")).json(&body)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(custom_boards_held(&server).await, held + 1);

    // B's old finished game, whole.
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
    // each board is held once: read again, nothing more.
    assert_eq!(custom_boards_held(&server).await, held + 2);
    let (status, _) = server.get(&format!("/api/games/{old}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(custom_boards_held(&server).await, held + 2);
}

/// Polls `/api/stats` until `pred` holds for `custom_boards_held` (30 s at most).
async fn wait_held(server: &Server, mut pred: impl FnMut(u64) -> bool) -> u64 {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let n = custom_boards_held(server).await;
        if pred(n) {
            return n;
        }
        if std::time::Instant::now() >= deadline {
            let (_, stats) = server.get("/api/stats", None).await;
            panic!(
                "still {n} custom boards held; stats {stats}\n{}",
                server.log()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Two games on one custom board (a finished one and an open seek) hold it once; once both
/// have been idle long enough to leave memory (`--evict-after 1`), the board leaves with them
/// (`custom_boards_held` back down). The finished game is still served from storage, whole,
/// and its board comes back with it, and leaves again. (Before: every custom board read stayed
/// in memory until the process stopped.)
#[tokio::test]
async fn a_custom_board_leaves_memory_with_its_idle_games() {
    let (_dir, db) = crate::common::server::temp_db();
    let server = Server::start_args(&db, 50, &["--http-rate", "0", "--evict-after", "1"]);
    // The server's own puzzles and lessons may hold a few custom boards: counted from once
    // its start is done.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !server.log().contains("finished games added at start") {
        assert!(std::time::Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before = custom_boards_held(&server).await;

    let board = "custom:h1-3,i1-4,j1-5,k1-4,l1-3";
    let (id, alice, bob) = server.invite_game(json!({"board": board})).await;
    let state = server.game(&id, Some(&alice)).await;
    let first = pick_move(&state, &mut Rng::new(7));
    server.act_ok(&id, &alice, mv(&first)).await;
    server.act_ok(&id, &bob, json!({"type": "resign"})).await;
    let finished = server.game(&id, Some(&alice)).await;
    let asked = std::time::Instant::now();
    assert_eq!(finished["status"], "finished", "{finished}");
    let created = server
        .create(json!({"opponent": {"kind": "open"}, "name": "Olga",
                       "board": "custom:l1-3,k1-4,j1-5,i1-4,h1-3"}))
        .await;
    let open = string(&created["id"]);
    // Held once, for both games, while they are in memory.
    let held = custom_boards_held(&server).await;
    if asked.elapsed() < Duration::from_millis(800) {
        assert_eq!(held, before + 1, "both games in memory before the delay");
    }

    // Both go idle and leave memory; the board goes with them.
    wait_held(&server, |n| n == before).await;
    let (_, stats) = server.get("/api/stats", None).await;
    assert_eq!(stats["games_in_memory"], 0, "{stats}");

    // The finished game is served as it was, from storage: its board comes back with it.
    let again = server.game(&id, Some(&alice)).await;
    for field in ["version", "moves", "position", "result", "seats", "status"] {
        assert_eq!(again[field], finished[field], "{field}");
    }
    let (status, record) = server.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    assert!(record.contains("h1-3,i1-4,j1-5,k1-4,l1-3"), "{record}");
    let record = zertz::record::Record::parse(&record).expect("the record reads back");
    assert_eq!(record.game.turns().len(), 1);
    // The open game is still joined from the lobby, on its board.
    let (status, joined) = server.try_join(&open, None, "Pete").await;
    assert_eq!(status, 200, "{joined}");
    let live = server.game(&open, None).await;
    assert_eq!(live["status"], "live", "{live}");
    assert_eq!(custom_boards_held(&server).await, before + 1);
    // The live game stays; the finished one leaves again, and the board stays with the live one.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(custom_boards_held(&server).await, before + 1);
}
