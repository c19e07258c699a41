//! Game reviews through the server's API, on SQLite and PostgreSQL: a finished server game
//! reviewed in the background with its progress, marks, graph and accuracies; asked again, the
//! same review at once; a pasted record and SGF; the fair queue's limits per client and in all;
//! bad requests (and a review waiting when the server is killed done after the restart:
//! crates/zertz-cli/tests/server/reviews.rs).

use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::review_until_done;

use serde_json::json;
use zertz_testkit::in_process::Server;
use zertz_testkit::play::mv;
use zertz_testkit::site::{Db, string};

async fn a_finished_game_is_reviewed_once(db: Db) {
    let server = Server::start(db);
    let (id, alice, bob) = server.invite_game(json!({})).await;
    // Not over yet: refused.
    server.act_ok(&id, &alice, mv("Wd4,a1")).await;
    let (status, e) = server
        .post("/api/reviews", &json!({"game": id}), None)
        .await;
    assert_eq!(status, 409, "{e}");
    assert!(string(&e["error"]).contains("not over"), "{e}");
    server.act_ok(&id, &bob, mv("Gc3,g1")).await;
    server.act_ok(&id, &alice, json!({"type": "resign"})).await;
    // Not reviewed yet: an answer, not an error (the analysis page asks on every load).
    let (status, none) = server.get(&format!("/api/games/{id}/review"), None).await;
    assert_eq!((status, &none), (200, &json!({"state": "none"})));

    let (status, asked) = server
        .post("/api/reviews", &json!({"game": id}), None)
        .await;
    assert_eq!(status, 200, "{asked}");
    assert_eq!(asked["total"], 2, "{asked}");
    let review_id = string(&asked["id"]);
    let (done, _) = review_until_done(&server, &review_id).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["done"], 2);
    let review = &done["review"];
    assert_eq!(review["names"], json!(["Alice", "Bob"]));
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["move"], "Wd4,a1");
    assert_eq!(moves[0]["player"], 1);
    assert_eq!(moves[1]["move"], "Gc3,g1");
    for m in moves {
        let mark = string(&m["mark"]);
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder", "only"].contains(&mark.as_str()),
            "{m}"
        );
        assert!(m["score"].is_object() && m["best_score"].is_object(), "{m}");
        assert_eq!(m["line"][0], m["best"], "{m}");
    }
    assert_eq!(review["graph"].as_array().unwrap().len(), 3);
    assert!(review["accuracy"][0].as_f64().is_some(), "{review}");

    // Asked again: the same review, done at once; found from the game too.
    let (status, again) = server
        .post("/api/reviews", &json!({"game": id}), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["id"], review_id.as_str());
    assert_eq!(again["state"], "done");
    assert_eq!(again["review"], *review);
    let (status, of_game) = server.get(&format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, 200, "{of_game}");
    assert_eq!(of_game["id"], review_id.as_str());

    // Bad requests.
    let (status, e) = server
        .post("/api/reviews", &json!({"game": "nosuchgame"}), None)
        .await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = server.get("/api/reviews/0123abcd", None).await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = server
        .get(&format!("/api/games/{}/review", "nosuchgame"), None)
        .await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = server
        .post("/api/reviews", &json!({"record": "1. Wd4,d4 *"}), None)
        .await;
    assert_eq!(status, 400, "{e}");
    assert!(string(&e["error"]).contains("Wd4,d4"), "{e}");
    let (status, e) = server.post("/api/reviews", &json!({}), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(string(&e["error"]).contains("either"), "{e}");
}

/// A record with bribes (rules.md 7.3): player 2 buys a pass with a white marble.
const BRIBED: &str = "[Bribes \"on\"]\n\
    [Start \"37 standard ..../...../....../......./....../...../.... 2/8/10 2/0/0 2/0/0 1\"]\n\n\
    1. Wd4,a1 (bribe 1/0/0 accepted) - 2. Gb2,g4 Bf2,a2 *";

async fn a_game_with_a_bribe_is_reviewed_with_its_whole_line(db: Db) {
    let server = Server::start(&db);
    let (status, job) = server
        .post("/api/reviews", &json!({"record": BRIBED}), None)
        .await;
    assert!(status < 300, "{job}");
    let (r, _) = review_until_done(&server, &string(&job["id"])).await;
    assert_eq!(r["state"], "done", "{r}");
    let review = &r["review"];
    // The tree's main line holds every step, the bribe's pass included.
    let mut line = Vec::new();
    let mut node = &review["tree"];
    while let Some(first) = node["children"].get(0) {
        line.push(string(&first["move"]));
        node = first;
    }
    assert_eq!(
        line,
        ["Wd4,a1", "bribe 1/0/0 accepted", "Gb2,g4", "Bf2,a2"],
        "{review}"
    );
    assert_eq!(review["tree"]["headers"]["Bribes"], "on", "{review}");
    // The pass is not reviewed; each reviewed move names its place on that line.
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{review}");
    for m in moves {
        let turn = m["turn"].as_u64().unwrap() as usize;
        assert_eq!(line[turn], string(&m["move"]), "{m}");
    }
    assert_eq!(moves[1]["turn"], 2, "{review}");
    assert_eq!(review["graph"].as_array().unwrap().len(), 4, "{review}");
}

on_sqlite_and_postgres!(
    a_finished_game_is_reviewed_once,
    a_game_with_a_bribe_is_reviewed_with_its_whole_line,
);
