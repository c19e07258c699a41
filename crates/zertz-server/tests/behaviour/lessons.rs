//! Learn through the server's API (docs/learning.md, "Lessons and the rules page"), on SQLite and on
//! PostgreSQL: the lessons listed in order, a lesson read, tries checked (right, wrong with why,
//! illegal with the rules' reason, a lesson of two steps), bad input refused with a sentence,
//! progress recorded for an account (and a guest's handed over), and the rules page's diagrams.
//!
//! Every test runs twice (`zertz_testkit::postgres`): `NAME::sqlite` on a fresh file, `NAME::postgres`
//! on a fresh database on the server that `ZERTZ_TEST_POSTGRES` names.

use serde_json::{Value, json};
use zertz_testkit::accounts::{Answer, Browser};
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::Db;

/// The error sentence of a refusal.
fn error(a: &Answer) -> &str {
    a.body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error sentence in {:?}", a.body))
}

async fn try_move(b: &mut Browser, lesson: &str, moves: &[&str], mv: &str) -> Answer {
    b.post(
        &format!("/api/lessons/{lesson}/try"),
        json!({"moves": moves, "move": mv}),
    )
    .await
}

/// The ids the list marks done for `b`.
async fn done(b: &mut Browser) -> Vec<String> {
    let list = b.get("/api/lessons").await;
    assert_eq!(list.status, 200, "{:?}", list.body);
    list.body["lessons"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|l| l["done"] == true)
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect()
}

on_sqlite_and_postgres!(
    lessons_are_listed_and_read,
    tries_are_checked_and_explained,
    bad_input_is_refused_with_a_sentence,
    an_account_keeps_its_progress,
    the_rules_diagrams_are_served,
);

async fn lessons_are_listed_and_read(db: Db) {
    let server = Server::start(db);
    let mut guest = Browser::new(&server);
    let list = guest.get("/api/lessons").await;
    assert_eq!(list.status, 200);
    assert_eq!(list.body["account"], Value::Null);
    let ids: Vec<&str> = list.body["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    // The newcomer's order: placing first, captures before isolation, the notations last.
    let at = |id: &str| {
        ids.iter()
            .position(|i| *i == id)
            .unwrap_or_else(|| panic!("{id} in {ids:?}"))
    };
    assert_eq!(at("placing"), 0);
    assert!(at("free-rings") < at("compulsory-capture"));
    assert!(at("compulsory-capture") < at("capture-choice"));
    assert!(at("chain-capture") < at("isolation"));
    assert!(at("isolation") < at("isolation-capture"));
    assert!(at("win-colours") < at("empty-supply"));
    assert!(at("no-move") < at("notation"));
    assert_eq!(at("host-coordinates"), ids.len() - 1);

    let lesson = guest.get("/api/lessons/chain-capture").await;
    assert_eq!(lesson.status, 200, "{:?}", lesson.body);
    let l = &lesson.body;
    assert_eq!(l["id"], "chain-capture");
    assert_eq!(l["previous"], "capture-choice");
    assert_eq!(l["next"], "isolation");
    assert!(l["steps"][0]["task"].as_str().unwrap().contains("three"));
    assert!(!l["steps"][0]["hints"].as_array().unwrap().is_empty());
    // The position is one the server reads.
    let position = l["position"].as_str().unwrap();
    let described = guest
        .get(&format!(
            "/api/position?position={}",
            position.replace(' ', "%20").replace('/', "%2F")
        ))
        .await;
    assert_eq!(described.status, 200, "{:?}", described.body);
    assert!(!described.body["legal"].as_array().unwrap().is_empty());
}

async fn tries_are_checked_and_explained(db: Db) {
    let server = Server::start(db);
    let mut b = Browser::new(&server);

    let wrong = try_move(&mut b, "chain-capture", &[], "x d4Bd2").await;
    assert_eq!(wrong.status, 200, "{:?}", wrong.body);
    assert_eq!(wrong.body["result"], "wrong");
    assert_eq!(wrong.body["done"], false);
    assert_eq!(wrong.body["step"], 0);
    let why = wrong.body["why"].as_str().unwrap();
    assert!(why.contains("one marble") && why.contains("three"), "{why}");
    assert!(wrong.body["position"].as_str().is_some());

    let right = try_move(&mut b, "chain-capture", &[], "x d3Bd5Gf5Bf3").await;
    assert_eq!(right.body["result"], "right", "{:?}", right.body);
    assert_eq!(right.body["done"], true);
    // A guest's progress is the browser's: nothing recorded.
    assert_eq!(right.body["recorded"], false);

    let illegal = try_move(&mut b, "chain-capture", &[], "Wa1,a2").await;
    assert_eq!(illegal.status, 200);
    assert_eq!(illegal.body["result"], "illegal");
    let why = illegal.body["why"].as_str().unwrap();
    assert!(why.contains("a capture is compulsory"), "{why}");

    // Two steps: the opponent's scripted answer comes back with the first.
    let first = try_move(&mut b, "notation", &[], "wd4 a1").await;
    assert_eq!(first.body["result"], "right", "{:?}", first.body);
    assert_eq!(first.body["done"], false);
    assert_eq!(first.body["move"], "Wd4,a1");
    assert_eq!(first.body["reply"], "Gd5,g1");
    assert_eq!(first.body["step"], 1);
    let second = try_move(&mut b, "notation", &["Wd4,a1"], "x d5Wd3").await;
    assert_eq!(second.body["done"], true, "{:?}", second.body);

    // Host notation is read as well.
    let host = try_move(&mut b, "host-coordinates", &[], "B A1 G3").await;
    assert_eq!(host.body["result"], "right", "{:?}", host.body);
    assert_eq!(host.body["move"], "Bg3,a2");
}

async fn bad_input_is_refused_with_a_sentence(db: Db) {
    let server = Server::start(db);
    let mut b = Browser::new(&server);
    let missing = b.get("/api/lessons/no-such-lesson").await;
    assert_eq!(missing.status, 404);
    assert!(
        error(&missing).contains("no-such-lesson"),
        "{}",
        error(&missing)
    );
    let missing = try_move(&mut b, "no-such-lesson", &[], "Wd4,a1").await;
    assert_eq!(missing.status, 404);

    for (moves, mv, words) in [
        (vec![], "Zd4", "Zd4"),
        (vec![], "", "empty"),
        (vec!["Wd4,b1"], "x d5Wd3", "moves[0]"),
        (vec!["Wd4,a1", "x d5Wd3"], "Wa2,a3", "already does them all"),
    ] {
        let a = try_move(&mut b, "notation", &moves, mv).await;
        assert_eq!(a.status, 400, "{mv}: {:?}", a.body);
        assert!(error(&a).contains(words), "{mv}: {}", error(&a));
    }
    let a = b.post("/api/lessons/placing/try", json!({"move": 4})).await;
    assert_eq!(a.status, 400, "{:?}", a.body);
    assert!(error(&a).contains("move"), "{}", error(&a));
    let a = b
        .post(
            "/api/lessons/placing/try",
            json!({"move": "Gd4,a1", "extra": 1}),
        )
        .await;
    assert_eq!(a.status, 400);
    assert!(error(&a).contains("extra"), "{}", error(&a));

    // Progress is an account's only.
    let a = b
        .post("/api/lessons/progress", json!({"done": ["placing"]}))
        .await;
    assert_eq!(a.status, 401);
    assert!(error(&a).contains("log in"), "{}", error(&a));
}

async fn an_account_keeps_its_progress(db: Db) {
    let server = Server::start(db.clone());
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", "a long enough password").await;
    assert!(done(&mut ann).await.is_empty());

    let right = try_move(&mut ann, "placing", &[], "Gd4,a1").await;
    assert_eq!(right.body["recorded"], true, "{:?}", right.body);
    // Done again: still one record.
    try_move(&mut ann, "placing", &[], "Gd4,g1").await;
    assert_eq!(done(&mut ann).await, vec!["placing"]);
    assert_eq!(ann.get("/api/lessons/placing").await.body["done"], true);

    // What a browser kept as a guest is added, each lesson with the moves that did it,
    // checked like tries (issue 39, F15: a bare list of ids used to count, so anyone could
    // mark every lesson done). Unknown ids, bare ids and moves that do not do the lesson are
    // left out with the reason.
    let a = ann
        .post(
            "/api/lessons/progress",
            json!({"done": [
                {"id": "isolation", "moves": ["Gd4,a2"]},
                {"id": "placing", "moves": ["Gd4,a1"]},
                {"id": "not-a-lesson", "moves": ["Gd4,a1"]},
                "isolation-capture",
                {"id": "capture-choice", "moves": ["x d2Bb2"]},
                {"id": "notation", "moves": ["Wd4,a1"]},
            ]}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    assert_eq!(a.body["added"], 1);
    let ignored: Vec<(&str, &str)> = a.body["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["id"].as_str().unwrap(), i["why"].as_str().unwrap()))
        .collect();
    let ids: Vec<&str> = ignored.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids,
        [
            "not-a-lesson",
            "isolation-capture",
            "capture-choice",
            "notation"
        ],
        "{ignored:?}"
    );
    assert!(ignored[0].1.contains("no such lesson"), "{ignored:?}");
    assert!(ignored[1].1.contains("no moves"), "{ignored:?}");
    assert!(
        ignored[2].1.contains("does not do the last step"),
        "{ignored:?}"
    );
    assert!(
        ignored[3].1.contains("1 move(s) for a lesson of 2"),
        "{ignored:?}"
    );
    assert_eq!(done(&mut ann).await, vec!["placing", "isolation"]);

    // Someone else's list is their own.
    let mut ben = Browser::new(&server);
    ben.sign_up_ok("Ben", "another long password").await;
    assert!(done(&mut ben).await.is_empty());

    // A restart keeps it.
    drop(server);
    let server = Server::start(db);
    let mut again = Browser::new(&server);
    let login = again.log_in("Ann", "a long enough password").await;
    assert_eq!(login.status, 200, "{:?}", login.body);
    assert_eq!(done(&mut again).await, vec!["placing", "isolation"]);
}

async fn the_rules_diagrams_are_served(db: Db) {
    let server = Server::start(db);
    let (status, page) = server.get_text("/rules").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = page
        .split("/api/rules/diagrams/")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert!(names.len() >= 6, "{names:?}");
    for name in names {
        let response = reqwest::get(server.url(&format!("/api/rules/diagrams/{name}")))
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{name}");
        assert_eq!(response.headers()["content-type"], "image/svg+xml");
        let svg = response.text().await.unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("class=\"ring\""),
            "{name}"
        );
    }
    let (status, learn) = server.get_text("/learn").await;
    assert_eq!(status, 200);
    // Ready for a strict Content-Security-Policy: no inline script or style in either page.
    for html in [&page, &learn] {
        assert!(!html.contains("style="), "an inline style");
        assert_eq!(
            html.matches("<script").count(),
            html.matches("<script type=\"module\" src=\"/static/")
                .count(),
            "an inline script"
        );
    }
    let (status, _) = server.get_text("/learn/chain-capture").await;
    assert_eq!(status, 200);
    let mut b = Browser::new(&server);
    let missing = b.get("/api/rules/diagrams/nothing.svg").await;
    assert_eq!(missing.status, 404);
    assert!(error(&missing).contains("nothing"), "{}", error(&missing));
}
