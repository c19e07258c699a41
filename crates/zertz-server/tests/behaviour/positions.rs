//! The analysis board's position routes through the server's API: a position described with its
//! legal moves, moves typed leniently and played, a hand-made setup checked against the rules,
//! and every kind of bad input answered 400 with a sentence naming what was wrong.

use serde_json::json;
use zertz_testkit::in_process::Server;
use zertz_testkit::site::{string, temp_db};

const START: &str = "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1";

fn query(position: &str) -> String {
    format!(
        "/api/position?position={}",
        position.replace(' ', "%20").replace('/', "%2F")
    )
}

#[tokio::test]
async fn positions_are_described_played_and_set_up() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db);

    let (status, d) = server.get(&query(START), None).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["board"], "37");
    assert_eq!(d["rules"], "standard");
    assert_eq!(d["to_move"], 1);
    assert_eq!(d["over"], false);
    assert_eq!(d["legal"].as_array().unwrap().len(), 1944);
    assert_eq!(d["supply"], json!([6, 8, 10]));

    // A move typed the lenient way comes back in official notation, with its sentence.
    let (status, p) = server
        .post(
            "/api/position/play",
            &json!({"position": START, "move": "wd4 a1"}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["move"], "Wd4,a1");
    assert!(string(&p["said"]).contains("white marble on d4"), "{p}");
    let after = string(&p["position"]);
    let (_, d) = server.get(&query(&after), None).await;
    assert_eq!(d["to_move"], 2);
    assert_eq!(d["supply"], json!([5, 8, 10]));

    // The same position set up by hand.
    let (status, s) = server
        .post(
            "/api/position/setup",
            &json!({"board": "37", "removed": ["a1"], "marbles": {"d4": "W"}, "to_move": 2}),
            None,
        )
        .await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["position"], after.as_str());

    // What breaks a rule is named.
    for (body, says) in [
        (
            json!({"board": "37", "marbles": {"a1": "W", "a2": "W", "a3": "W", "a4": "W", "b1": "W", "b2": "W", "b3": "W"}, "to_move": 1}),
            "too many white marbles",
        ),
        (
            json!({"board": "37", "removed": ["d4"], "marbles": {"d4": "G"}, "to_move": 1}),
            "a marble at d4 has no ring under it",
        ),
        (
            json!({"board": "37", "captures": [[4, 0, 0], [0, 0, 0]], "to_move": 2}),
            "the game is already finished",
        ),
        (json!({"board": "37", "to_move": 3}), "to_move: 3"),
        (
            json!({"board": "37", "marbles": {"d4": "X"}, "to_move": 1}),
            "`X` at d4",
        ),
    ] {
        let (status, e) = server.post("/api/position/setup", &body, None).await;
        assert_eq!(status, 400, "{body} → {e}");
        assert!(string(&e["error"]).contains(says), "{body} → {e}");
    }

    // Bad positions and moves.
    let (status, e) = server.get(&query("37 standard nonsense"), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(string(&e["error"]).starts_with("position:"), "{e}");
    let (status, e) = server
        .post(
            "/api/position/play",
            &json!({"position": START, "move": "Wd4,d4"}),
            None,
        )
        .await;
    assert_eq!(status, 400, "{e}");
    assert!(string(&e["error"]).starts_with("move:"), "{e}");
    let (status, e) = server
        .post("/api/position/play", &json!({"position": START}), None)
        .await;
    assert_eq!(status, 400, "{e}");
    assert!(string(&e["error"]).contains("move"), "{e}");
}
