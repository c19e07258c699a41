//! The analysis board's engine over its WebSocket through the server's API: lines that deepen
//! depth by depth, a new position replacing the running analysis, `stop`, a second board waiting
//! in line for the one study slot with its place shown, and bad requests answered on an open
//! socket.

use std::time::Duration;

use serde_json::json;
use zertz_testkit::in_process::Server;
use zertz_testkit::site::{string, temp_db};
use zertz_testkit::ws::AnalysisWs;

const START: &str = "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1";
/// Player 1 wins at once by taking the white marble on d2 (`x d1Wd3`).
const WIN_IN_ONE: &str =
    "37 standard ..../...../....../WW...../....../GG.../.... 1/6/10 3/0/0 0/0/0 1";

#[tokio::test]
async fn lines_deepen_until_stopped_and_a_second_board_waits_its_turn() {
    let (_dir, db) = temp_db();
    let server = Server::start_config(&db, 300, |c| {
        c.study_slots = 1;
        c.analysis_time = Duration::from_secs(20);
    });
    let mut board = AnalysisWs::connect(&server.addr).await;

    // A forced win is found and the analysis ends by itself.
    board
        .send(json!({"type": "analyse", "position": WIN_IN_ONE, "lines": 2}))
        .await;
    let (done, seen) = board.until_type("done").await;
    assert_eq!(done["reason"], "depth", "{done}");
    let last = seen
        .iter()
        .rev()
        .find(|m| m["type"] == "lines")
        .expect("lines");
    assert_eq!(last["lines"][0]["move"], "x d1Wd3", "{last}");
    assert_eq!(last["lines"][0]["score"], json!({"win": 1}), "{last}");
    assert_eq!(last["lines"][0]["text"], "wins in 1", "{last}");
    // Said as a win because the prover confirmed it, as the review does.
    assert_eq!(last["lines"][0]["proven"], true, "{last}");
    assert_eq!(last["lines"][0]["win_chance"], 1.0, "{last}");
    assert_eq!(last["lines"].as_array().unwrap().len(), 2, "{last}");

    // The start position: depth 1, 2, … with three lines each, best first.
    board
        .send(json!({"type": "analyse", "position": START}))
        .await;
    let mut depths = Vec::new();
    while depths.len() < 2 {
        let (m, _) = board.until_type("lines").await;
        assert_eq!(m["position"], START);
        let lines = m["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{m}");
        for l in lines {
            assert_eq!(l["pv"][0], l["move"], "{m}");
            assert!(l["score"]["cp"].is_i64(), "{m}");
        }
        depths.push(m["depth"].as_u64().unwrap());
    }
    assert_eq!(depths, [1, 2]);

    // While it runs, a second board waits for the one slot, told its place.
    let mut other = AnalysisWs::connect(&server.addr).await;
    other
        .send(json!({"type": "analyse", "position": START}))
        .await;
    let queued = other.recv().await;
    assert_eq!(queued, json!({"type": "queued", "place": 1}));

    // Stopping the first gives the slot to the second.
    board.send(json!({"type": "stop"})).await;
    let (done, _) = board.until_type("done").await;
    assert_eq!(done["reason"], "stopped", "{done}");
    let (m, _) = other.until_type("lines").await;
    assert_eq!(m["depth"], 1);
    other.send(json!({"type": "stop"})).await;
    other.until_type("done").await;

    // Bad requests get an error; the socket stays open and usable.
    for (bad, says) in [
        (
            json!({"type": "analyse", "position": "37 standard nonsense"}),
            "position:",
        ),
        (
            json!({"type": "analyse", "position": START, "lines": 9}),
            "lines: 9",
        ),
        (json!({"type": "dance"}), "message:"),
    ] {
        board.send(bad.clone()).await;
        let (e, _) = board.until_type("error").await;
        assert!(string(&e["error"]).starts_with(says), "{bad} → {e}");
    }
    let finished = "37 standard ..../...../....../......./....../...../.... 6/8/10 4/0/0 0/0/0 2";
    board
        .send(json!({"type": "analyse", "position": finished}))
        .await;
    let (done, _) = board.until_type("done").await;
    assert_eq!(done["reason"], "over", "{done}");
}

/// One study slot; client A opens five boards (tabs) and has each analyse, then client B one.
/// B's search runs after at most one of A's waiting ones (round robin between clients), and B
/// is told place 2 at most; A's fifth board is behind B. (Before: first come, first served,
/// B waited behind all four of A's waiting boards, told place 5.)
#[tokio::test]
async fn many_boards_of_one_client_do_not_starve_another() {
    let (_dir, db) = temp_db();
    // Each search runs its whole budget of one second (the start position is not solved).
    let server = Server::start_config(&db, 300, |c| {
        c.study_slots = 1;
        c.analysis_time = Duration::from_secs(1);
    });
    // The first runs, the four others wait, told 1 to 4. Each tab's answer is awaited before
    // the next asks: sockets sent at once reach the server in any order.
    let mut tabs = Vec::new();
    let mut places = Vec::new();
    for i in 0..5 {
        let mut tab = AnalysisWs::connect_from(&server.addr, "127.0.0.14").await;
        tab.send(json!({"type": "analyse", "position": START}))
            .await;
        if i == 0 {
            let _ = tab.until_type("lines").await;
        } else {
            let (queued, _) = tab.until_type("queued").await;
            places.push(queued["place"].as_u64().unwrap());
        }
        tabs.push(tab);
    }
    assert_eq!(places, [1, 2, 3, 4]);
    let mut b = AnalysisWs::connect_from(&server.addr, "127.0.0.15").await;
    b.send(json!({"type": "analyse", "position": START})).await;
    let (queued, _) = b.until_type("queued").await;
    assert_eq!(queued["place"], 2, "{queued}");
    // B's search starts before A's third waiting board has run: the boards of A that finish
    // first are at most tab 1 and tab 2 (the one running, and the one ahead of B).
    let (lines, _) = b.until_type("lines").await;
    assert_eq!(lines["position"], START);
    let mut started = 0;
    for tab in &mut tabs[2..] {
        let waited = tokio::time::timeout(Duration::from_millis(50), tab.until_type("lines")).await;
        started += usize::from(waited.is_ok());
    }
    assert_eq!(started, 0, "A's later boards ran before B");
}
