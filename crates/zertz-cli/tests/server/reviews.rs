//! Game reviews in a real process: the fair queue bounded per client and in all, and the reviews
//! waiting when the server is killed done after the restart. The rest of reviews:
//! crates/zertz-server/tests/behaviour/reviews.rs.

use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::review_until_done;

use crate::common::accounts::Browser;
use crate::common::server::{Db, Server, string};
use serde_json::json;

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

async fn the_queue_is_fair_bounded_and_survives_a_kill(db: Db) {
    // Behind a proxy on this machine, so that each browser may say where it comes from: the
    // queue keeps one line per address, whatever the accounts at it.
    let extra = [
        "--reviews-per-client",
        "1",
        "--review-queue",
        "2",
        "--trusted-proxy",
        "127.0.0.1",
    ];
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
    assert!(string(&e["error"]).contains("already has 1"), "{e}");
    // Two accounts elsewhere wait behind it, each told its place; a third finds the queue full.
    let mut places = Vec::new();
    let mut ids = Vec::new();
    for (n, name) in ["ann_r", "bob_r", "cy_r"].iter().enumerate() {
        let mut browser = Browser::new(&server);
        browser.forwarded_for = Some(format!("198.51.100.{}", n + 1));
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
        let (done, _) = review_until_done(&server, id).await;
        assert_eq!(done["state"], "done", "{done}");
    }
    let (done, _) = review_until_done(&server, &string(&long["id"])).await;
    let moves = done["review"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 27);
    assert_eq!(moves[26]["mark"], "blunder", "{}", moves[26]);
    assert!(
        string(&moves[26]["score_text"]).starts_with("loses in"),
        "{}",
        moves[26]
    );
}

on_sqlite_and_postgres!(the_queue_is_fair_bounded_and_survives_a_kill,);
