//! The puzzle trainer through the server's API, on SQLite and PostgreSQL, with a small set whose
//! solutions the prover proves (`zertz_testkit::puzzles`): a puzzle solved move by move with the
//! server's defences, a wrong move refuted (the refutation checked with the prover), a move
//! that wins too off the line, ratings changed once per solver and puzzle and retries unrated,
//! an account's rating kept, the next puzzle and the daily one, bad input named; an empty set
//! and a broken set file in crates/zertz-cli/tests/server/puzzles.rs.

use std::path::Path;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::puzzles::write_set;

use serde_json::{Value, json};
use zertz::notation::official;
use zertz_engine::prove::{Prover, Verdict};
use zertz_engine::puzzles::PuzzleSet;
use zertz_testkit::accounts::Browser;
use zertz_testkit::in_process::Server;
use zertz_testkit::puzzles::{self, CHAIN_IN_2, ISOLATION_IN_1, position};
use zertz_testkit::site::{Db, string};

/// A server on `db` serving the tests' set; the directory holding the set's file is kept.
fn start(db: &Db) -> (Server, PuzzleSet, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let set = puzzles::test_set();
    let path = write_set(dir.path(), &set);
    let server = Server::start_config(db, 50, |c| c.puzzles = Some(path.clone()));
    (server, set, dir)
}

async fn play(server: &Server, id: &str, body: Value) -> (u16, Value) {
    server
        .post(&format!("/api/puzzles/{id}/move"), &body, None)
        .await
}

async fn a_puzzle_is_solved_move_by_move_and_rated_once(db: Db) {
    let (mut server, set, _dir) = start(&db);
    let chain = &set.puzzles[1];
    let (status, shown) = server.get("/api/puzzles/chain", None).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["position"], CHAIN_IN_2);
    assert_eq!(
        (shown["to_move"].as_u64(), shown["turns"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        shown["rating"], 1500.0,
        "a win in 2 starts at 1500: {shown}"
    );
    assert_eq!(shown["source"]["archive"], "server");
    assert!(
        shown.get("solution").is_none(),
        "the solution stays on the server"
    );
    let keys: Vec<&String> = shown.as_object().unwrap().keys().collect();
    assert!(
        !keys
            .iter()
            .any(|k| ["solution", "then", "played", "found"].contains(&k.as_str())),
        "{keys:?}"
    );
    assert_eq!(
        shown["legal"].as_array().unwrap().len(),
        position(CHAIN_IN_2).legal_moves().len()
    );

    // The solution's first move: the server answers with the first defence of the first group.
    let first = &chain.solution.mv;
    let (status, right) = play(&server, "chain", json!({"moves": [], "move": first})).await;
    assert_eq!(status, 200, "{right}");
    assert_eq!(right["result"], "right", "{right}");
    let reply = string(&right["reply"]);
    assert_eq!(reply, chain.solution.then[0].defences[0]);
    // The position after the reply is the rules' own.
    let mut p = position(CHAIN_IN_2);
    p = p.play(&official::parse(&p, first).unwrap()).unwrap();
    assert_eq!(right["after_move"], p.to_string());
    p = p.play(&official::parse(&p, &reply).unwrap()).unwrap();
    assert_eq!(right["position"], p.to_string());
    assert!(
        right.get("rating").is_none(),
        "nothing recorded yet: {right}"
    );

    // The answer to that defence solves it: rated, the guest's rating up, the puzzle's down.
    let last = &chain.solution.then[0].next.mv;
    let line = json!([first, reply]);
    let guest = json!({"rating": 1500.0, "deviation": 200.0, "volatility": 0.06});
    let (status, solved) = play(
        &server,
        "chain",
        json!({"moves": line, "move": last, "rating": guest}),
    )
    .await;
    assert_eq!(status, 200, "{solved}");
    assert_eq!(solved["result"], "solved", "{solved}");
    let r = &solved["rating"];
    assert_eq!(r["rated"], true, "{solved}");
    assert_eq!(r["before"]["rating"], 1500.0);
    assert!(r["after"]["rating"].as_f64().unwrap() > 1500.0, "{solved}");
    assert!(
        r["after"]["deviation"].as_f64().unwrap() < 200.0,
        "{solved}"
    );
    assert!(r["change"].as_f64().unwrap() > 0.0, "{solved}");
    assert!(r["puzzle_after"].as_f64().unwrap() < 1500.0, "{solved}");
    assert_eq!(solved["source"]["found"], false);
    let (_, after) = server.get("/api/puzzles/chain", None).await;
    assert_eq!(
        (after["attempts"].as_i64(), after["solved"].as_i64()),
        (Some(1), Some(1))
    );
    let puzzle_rating = after["rating"].as_f64().unwrap();
    assert_eq!(puzzle_rating, r["puzzle_after"].as_f64().unwrap());

    // Solved again (the same solver): unrated, nothing moves.
    let (_, again) = play(
        &server,
        "chain",
        json!({"moves": line, "move": last, "rating": guest}),
    )
    .await;
    assert_eq!(again["result"], "solved", "{again}");
    assert_eq!(again["rating"]["rated"], false, "{again}");
    assert_eq!(again["rating"]["change"], 0.0);
    let (_, after) = server.get("/api/puzzles/chain", None).await;
    assert_eq!(after["attempts"], 1);
    assert_eq!(after["rating"].as_f64().unwrap(), puzzle_rating);
    server.assert_healthy().await;
}

async fn a_wrong_move_is_refuted_and_an_accounts_rating_kept(db: Db) {
    let (mut server, set, _dir) = start(&db);
    let mut alice = Browser::new(&server);
    alice.sign_up_ok("alice", "marbles and rings").await;
    let chain = &set.puzzles[1];
    let p = position(CHAIN_IN_2);
    let (winning, losing) = puzzles::first_moves(&p, 2);
    let wrong = official::move_text(&p, &losing[0]);

    let answer = alice
        .post(
            "/api/puzzles/chain/move",
            json!({"moves": [], "move": wrong}),
        )
        .await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    let a = &answer.body;
    assert_eq!(a["result"], "wrong", "{a}");
    assert_eq!(a["solution"], chain.solution.mv.as_str());
    // The refutation is a legal reply after which player 2 has no win within 1 turn: the
    // prover, asked afresh, agrees.
    let after: zertz::Position = position(&string(&a["after_move"]));
    let refutation = string(&a["refutation"]);
    let reply = official::parse(&after, &refutation).expect("a legal reply");
    let refuted = after.play(&reply).unwrap();
    assert_eq!(a["refuted_position"], refuted.to_string());
    if !refuted.is_over() {
        let report = Prover::new(8).prove(&refuted, 1, 1_000_000).unwrap();
        assert!(matches!(report.verdict, Verdict::NoWin { .. }), "{a}");
    }
    let why = string(&a["why"]);
    assert!(
        why.contains(&refutation) && why.contains("not the solution"),
        "{why}"
    );
    let r = &a["rating"];
    assert_eq!(r["rated"], true, "{a}");
    assert!(r["change"].as_f64().unwrap() < 0.0, "{a}");
    // A new solver's first miss costs less than 170 points (issue 37).
    assert!(r["change"].as_f64().unwrap() > -170.0, "{a}");
    assert!(r["puzzle_after"].as_f64().unwrap() > 1500.0, "{a}");
    // The account's rating is kept by the server (a guest's rating sent along is ignored).
    let kept = alice.get("/api/puzzles").await.body;
    // (Its deviation grows with the milliseconds since; the rating is the one written.)
    assert_eq!(kept["rating"]["rating"], r["after"]["rating"], "{kept}");
    assert_eq!(kept["count"], 2);
    assert_eq!(kept["themes"]["chain-capture"], 1);

    // Retried and solved: unrated, the rating as it was.
    let first = &chain.solution.mv;
    let right = alice
        .post(
            "/api/puzzles/chain/move",
            json!({"moves": [], "move": first}),
        )
        .await
        .body;
    let reply = string(&right["reply"]);
    let solved = alice
        .post(
            "/api/puzzles/chain/move",
            json!({"moves": [first, reply], "move": chain.solution.then[0].next.mv}),
        )
        .await
        .body;
    assert_eq!(solved["result"], "solved", "{solved}");
    assert_eq!(solved["rating"]["rated"], false, "{solved}");
    let kept_after = alice.get("/api/puzzles").await.body;
    assert_eq!(kept_after["rating"]["rating"], kept["rating"]["rating"]);

    // Another first move that wins too: not the puzzle's line, nothing recorded.
    let other = winning
        .iter()
        .map(|m| official::move_text(&p, m))
        .find(|m| *m != chain.solution.mv)
        .expect("a second winning move");
    let also = alice
        .post(
            "/api/puzzles/chain/move",
            json!({"moves": [], "move": other}),
        )
        .await
        .body;
    assert_eq!(also["result"], "also-wins", "{also}");
    assert!(also.get("rating").is_none());
    let (_, shown) = server.get("/api/puzzles/chain", None).await;
    assert_eq!(shown["attempts"], 1, "one rated attempt: {shown}");

    // At the last turn any move that wins at once is right (the win in 1 has several).
    let iso = position(ISOLATION_IN_1);
    let (winning, losing) = puzzles::first_moves(&iso, 1);
    let solution = &set.puzzles[0].solution.mv;
    let other = winning
        .iter()
        .map(|m| official::move_text(&iso, m))
        .find(|m| m != solution)
        .expect("a second winning move");
    let (_, won) = play(&server, "iso", json!({"move": other})).await;
    assert_eq!(won["result"], "solved", "{won}");
    assert_eq!(won["rating"]["rated"], true);
    let (_, lost) = play(
        &server,
        "iso",
        json!({"move": official::move_text(&iso, &losing[0])}),
    )
    .await;
    assert_eq!(lost["result"], "wrong", "{lost}");
    assert_eq!(
        lost["rating"]["rated"], false,
        "a second try is unrated: {lost}"
    );
    // The defender's reply leaves player 1 without a ring to play on: a loss.
    assert_eq!(
        string(&lost["why"]),
        format!(
            "{} is not the solution: after the reply {}, player 1 has no legal move left, so \
             player 2 wins.",
            lost["move"].as_str().unwrap(),
            lost["refutation"].as_str().unwrap()
        ),
        "{lost}"
    );
    server.assert_healthy().await;
}

async fn the_next_puzzle_and_the_daily_one(db: Db) {
    let (mut server, _set, _dir) = start(&db);
    // Near the rating: a solver at 1200 gets the win in 1 (1200), one at 1500 the win in 2.
    let (status, low) = server.get("/api/puzzles/next?rating=1200", None).await;
    assert_eq!(status, 200, "{low}");
    let (_, high) = server.get("/api/puzzles/next?rating=1600", None).await;
    let ids = [string(&low["id"]), string(&high["id"])];
    assert!(ids.contains(&"iso".to_string()) && ids.contains(&"chain".to_string()));
    // By theme.
    let (_, themed) = server
        .get("/api/puzzles/next?theme=chain-capture&rating=1200", None)
        .await;
    assert_eq!(themed["id"], "chain", "{themed}");
    // Not the one just solved while another remains.
    let iso = &puzzles::test_set().puzzles[0];
    let (_, solved) = play(&server, "iso", json!({"move": iso.solution.mv})).await;
    assert_eq!(solved["result"], "solved", "{solved}");
    for _ in 0..4 {
        let (_, next) = server.get("/api/puzzles/next?rating=1200", None).await;
        assert_eq!(next["id"], "chain", "{next}");
    }
    // The daily puzzle: the same all day, dated.
    let (status, daily) = server.get("/api/puzzles/daily", None).await;
    assert_eq!(status, 200, "{daily}");
    let (_, again) = server.get("/api/puzzles/daily", None).await;
    assert_eq!(daily["id"], again["id"]);
    assert_eq!(string(&daily["date"]).len(), 10, "{daily}");
    // The pages.
    let (status, page) = server.get_text("/puzzles/chain").await;
    assert_eq!(status, 200);
    assert!(page.contains("/static/js/pages/puzzles.js"), "{page}");
    assert!(
        !page.contains("<script>") && !page.contains("style=\""),
        "no inline code"
    );
    server.assert_healthy().await;
}

async fn bad_input_is_answered_with_a_sentence(db: Db) {
    let (mut server, set, _dir) = start(&db);
    let chain = &set.puzzles[1];
    let error = |v: &Value| string(&v["error"]);

    let (status, e) = play(&server, "nope", json!({"move": "Wd4,a1"})).await;
    assert_eq!(status, 404, "{e}");
    assert!(error(&e).contains("no puzzle nope"), "{e}");
    let (status, e) = server.get("/api/puzzles/nope", None).await;
    assert_eq!(status, 404, "{e}");

    let (status, e) = play(&server, "chain", json!({"move": "Wz9,q1"})).await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).starts_with("move: "), "{e}");
    let (status, e) = play(&server, "chain", json!({"move": "Wa1,a2"})).await;
    assert_eq!(status, 422, "an illegal move gets the rules' reason: {e}");
    assert!(error(&e).contains("not legal"), "{e}");

    // A line that leaves the solution, one that ends on the solver's move, one too long.
    let p = position(CHAIN_IN_2);
    let (_, losing) = puzzles::first_moves(&p, 2);
    let off = official::move_text(&p, &losing[0]);
    let (status, e) = play(
        &server,
        "chain",
        json!({"moves": [off, "Wa1,a2"], "move": "Wa1,a2"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).contains("is not the solution's move"), "{e}");
    let (status, e) = play(
        &server,
        "chain",
        json!({"moves": [chain.solution.mv], "move": "Wa1,a2"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).contains("ends with your move"), "{e}");
    let long: Vec<String> = (0..70).map(|_| "Wa1,a2".to_string()).collect();
    let (status, e) = play(&server, "chain", json!({"moves": long, "move": "x"})).await;
    assert_eq!(status, 400, "{e}");
    // A defence the solution does not answer (a legal move of the defender's that the tree
    // has is fine; a made-up one is not).
    let (status, e) = play(
        &server,
        "chain",
        json!({"moves": [chain.solution.mv, "Wz1,a1"], "move": "Wa1,a2"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).contains("move 2 of the line"), "{e}");

    // A guest's rating out of bounds, an unknown theme, a theme without puzzles, a bad body.
    let (status, e) = play(
        &server,
        "chain",
        json!({"move": chain.solution.mv, "rating": {"rating": 90000.0}}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).contains("rating 90000 is out of bounds"), "{e}");
    let (status, e) = server.get("/api/puzzles/next?theme=luck", None).await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).contains("unknown theme `luck`"), "{e}");
    let (status, e) = server.get("/api/puzzles/next?theme=no-moves", None).await;
    assert_eq!(status, 404, "{e}");
    assert!(
        error(&e).contains("no puzzle of the theme `no-moves`"),
        "{e}"
    );
    let (status, e) = server.get("/api/puzzles/next?rating=abc", None).await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = play(&server, "chain", json!({"moves": []})).await;
    assert_eq!(status, 400, "{e}");
    assert!(error(&e).contains("move"), "{e}");
    // Nothing above was recorded.
    let (_, shown) = server.get("/api/puzzles/chain", None).await;
    assert_eq!(shown["attempts"], 0, "{shown}");
    server.assert_healthy().await;
}

on_sqlite_and_postgres!(
    a_puzzle_is_solved_move_by_move_and_rated_once,
    a_wrong_move_is_refuted_and_an_accounts_rating_kept,
    the_next_puzzle_and_the_daily_one,
    bad_input_is_answered_with_a_sentence,
);

/// The browser test's set (`tests/browser/fixtures/puzzles.json`) is this test's set: written
/// again with `ZERTZ_WRITE_FIXTURES=1`.
#[test]
fn the_browser_fixture_is_the_proven_set() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/browser/fixtures/puzzles.json");
    let set = puzzles::test_set().to_json();
    if std::env::var_os("ZERTZ_WRITE_FIXTURES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &set).unwrap();
    }
    let committed = std::fs::read_to_string(&path).expect("the browser test's puzzle set");
    assert_eq!(
        committed, set,
        "run with ZERTZ_WRITE_FIXTURES=1 to write it again"
    );
}
