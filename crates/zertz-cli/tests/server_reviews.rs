//! Game reviews through `zertz serve`, on SQLite and PostgreSQL: a finished server game
//! reviewed in the background with its progress, marks, graph and accuracies; asked again, the
//! same review at once; a pasted record and SGF; the fair queue's limits per client and in all;
//! a review waiting when the server is killed done after the restart; and bad requests.

mod common;

use std::time::Duration;

use common::accounts::Browser;
use common::play::mv;
use common::server::{Db, Server, string};
use serde_json::{Value, json};

/// A BoardSpace game's first 27 turns, ending in a move into a forced loss (see
/// `zertz_engine::review`'s tests): a few seconds to review.
const LONG: &str = "1. Bf1,g1 Wd4,f5 2. Gb1,a1 Wf4,a2 3. Bf3,a4 x f4Bf2 4. x f1Wf3 Bf1,g3 \
    5. Ba3,d7 Bb2,b5 6. x b1Bb3 x a3Gc3We4Bg2 7. Bf2,c6 x f1Bf3 8. x g2Be4 Bb3,a3 \
    9. Gd1,g4 Gd4,f4 10. x e4Gc3 x b3Bd3 11. Gg2,e6 Gc1,b3 12. x d1Gb1 Be3,c1 \
    13. x d3Bf3 x g2Be4 14. Gc5,e5 *";

/// Short records, each a different game.
fn short(n: usize) -> String {
    let moves = ["Wa1,g1", "Wa2,g2", "Wa3,g3", "Wa4,g4", "Gb1,f1", "Gb2,f2"];
    format!("1. {} Bd4,d7 *", moves[n % moves.len()])
}

/// Polls a review until it is done (or failed); returns it and the states seen.
async fn until_done(server: &Server, id: &str) -> (Value, Vec<String>) {
    let mut seen = Vec::new();
    for _ in 0..600 {
        let (status, r) = server.get(&format!("/api/reviews/{id}"), None).await;
        assert_eq!(status, 200, "{r}");
        let state = string(&r["state"]);
        if seen.last() != Some(&state) {
            seen.push(state.clone());
        }
        if state == "done" || state == "failed" {
            return (r, seen);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("review {id} not done in a minute: {seen:?}");
}

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

    let (status, asked) = server
        .post("/api/reviews", &json!({"game": id}), None)
        .await;
    assert_eq!(status, 200, "{asked}");
    assert_eq!(asked["total"], 2, "{asked}");
    let review_id = string(&asked["id"]);
    let (done, _) = until_done(&server, &review_id).await;
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

async fn the_queue_is_fair_bounded_and_survives_a_kill(db: Db) {
    let extra = ["--reviews-per-client", "1", "--review-queue", "2"];
    let mut server = Server::start_args(&db, 300, &extra);
    // A guest's long review runs; the same guest may not queue another.
    let (status, long) = server
        .post("/api/reviews", &json!({"record": LONG}), None)
        .await;
    assert_eq!(status, 200, "{long}");
    let (status, e) = server
        .post("/api/reviews", &json!({"record": short(0)}), None)
        .await;
    assert_eq!(status, 429, "{e}");
    assert!(string(&e["error"]).contains("already have 1"), "{e}");
    // Two accounts wait behind it, each told its place; a third finds the queue full.
    let mut places = Vec::new();
    let mut ids = Vec::new();
    for (n, name) in ["ann_r", "bob_r", "cy_r"].iter().enumerate() {
        let mut browser = Browser::new(&server);
        browser.sign_up_ok(name, "a long password").await;
        let a = browser
            .post("/api/reviews", json!({"record": short(n + 1)}))
            .await;
        if n < 2 {
            assert_eq!(a.status, 200, "{:?}", a.body);
            assert_eq!(a.body["state"], "queued", "{:?}", a.body);
            places.push(a.body["place"].as_u64().unwrap());
            ids.push(string(&a.body["id"]));
        } else {
            assert_eq!(a.status, 503, "{:?}", a.body);
            assert!(
                string(&a.body["error"]).contains("queue is full"),
                "{:?}",
                a.body
            );
        }
    }
    assert_eq!(places, [1, 2]);
    // Killed with reviews waiting: after the restart they are done all the same.
    server.kill();
    let server = Server::start_args(&db, 300, &extra);
    for id in ids.iter().chain([&string(&long["id"])]) {
        let (done, _) = until_done(&server, id).await;
        assert_eq!(done["state"], "done", "{done}");
    }
    let (done, _) = until_done(&server, &string(&long["id"])).await;
    let moves = done["review"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 27);
    assert_eq!(moves[26]["mark"], "blunder", "{}", moves[26]);
    assert!(
        string(&moves[26]["score_text"]).starts_with("loses in"),
        "{}",
        moves[26]
    );
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
    let (r, _) = until_done(&server, &string(&job["id"])).await;
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
    the_queue_is_fair_bounded_and_survives_a_kill,
    a_game_with_a_bribe_is_reviewed_with_its_whole_line
);
