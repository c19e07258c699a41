//! Saved studies through the server's API, on SQLite and on PostgreSQL: each test speaks to the
//! server as browsers would, with their own cookies and their pages' origin.
//!
//! Every test runs twice (`zertz_testkit::postgres`): `NAME::sqlite` on a fresh file, `NAME::postgres`
//! on a fresh database on the server that `ZERTZ_TEST_POSTGRES` names (without it, the
//! PostgreSQL run says on stderr that it checked nothing, and passes).

use serde_json::{Value, json};
use zertz::notation::official;
use zertz::{BoardKind, Layout, Position, RuleSet};
use zertz_server::study::studies::{MAX_BYTES, MAX_CHAPTERS, MAX_MOVES, MAX_PER_ACCOUNT};
use zertz_testkit::accounts::{Answer, Browser};
use zertz_testkit::in_process::Server;
use zertz_testkit::on_sqlite_and_postgres;
use zertz_testkit::site::Db;

// ---------------------------------------------------------------------------------------------
// Harness

/// A new browser on `server`, logged in to a new account `name`.
async fn signed_up(server: &Server, name: &str) -> Browser {
    let mut b = Browser::new(server);
    b.sign_up_ok(name, "a long enough password").await;
    b
}

/// The error sentence of a refusal.
fn error(a: &Answer) -> &str {
    a.body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error sentence in {:?}", a.body))
}

/// Saves `study` as `b`; must succeed. Returns its id.
async fn create_ok(b: &mut Browser, study: Value) -> String {
    let a = b.post("/api/studies", study).await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    a.body["id"].as_str().expect("an id").to_string()
}

/// Posts `study` as `b`; it must be refused with 400. Returns the sentence.
async fn refused(b: &mut Browser, study: Value) -> String {
    let a = b.post("/api/studies", study).await;
    assert_eq!(a.status, 400, "{:?}", a.body);
    error(&a).to_string()
}

// ---------------------------------------------------------------------------------------------
// Data

fn standard() -> String {
    Position::standard().to_string()
}

/// A tree from the standard start with these first moves (each a leaf).
fn tree_of(moves: &[&str]) -> Value {
    let children: Vec<Value> = moves
        .iter()
        .map(|m| json!({"move": m, "comment": "", "children": []}))
        .collect();
    json!({"start": standard(), "headers": {}, "comment": "", "children": children})
}

/// A study of one chapter with one move.
fn small(name: &str) -> Value {
    json!({"name": name, "chapters": [{"name": "One", "tree": tree_of(&["Wd4,a1"])}]})
}

/// A line of moves from `start`, in official notation: at each position the first legal move
/// that is not a capture if there is one (placements make games long), until the game ends or
/// the line has `most` moves.
fn long_line(start: &Position, most: usize) -> Vec<String> {
    let mut p = start.clone();
    let mut line = Vec::new();
    while line.len() < most && !p.is_over() {
        let moves = p.legal_moves();
        let Some(mv) = moves.last() else { break };
        line.push(official::move_text(&p, mv));
        p = p.play(mv).expect("a legal move");
    }
    line
}

/// `moves` as one line of nested nodes.
fn nested(moves: &[String]) -> Value {
    let mut children = json!([]);
    for m in moves.iter().rev() {
        children = json!([{"move": m, "comment": "", "children": children}]);
    }
    children
}

// ---------------------------------------------------------------------------------------------
// Tests

on_sqlite_and_postgres!(
    create_read_update_delete_copy,
    only_the_owner_changes_or_deletes,
    cross_site_requests_are_refused,
    bad_trees_are_refused_with_a_sentence,
    limits_are_enforced,
    names_come_back_as_data,
    a_profile_lists_its_studies,
);

async fn create_read_update_delete_copy(db: Db) {
    let server = Server::start(db);
    let mut ann = signed_up(&server, "Ann").await;
    let chapters = json!([
        {"name": "Main", "tree": {
            "start": standard(),
            "headers": {"Player1": "Ann", "Player2": "Ben"},
            "comment": "the start",
            "children": [
                {"move": "wd4 a1", "comment": "common", "children": [
                    {"move": "G c3 g4", "comment": "", "children": []}]},
                {"move": "Bd4,a1", "comment": "", "children": []}
            ]}},
        {"name": "", "tree": tree_of(&["Wa1,g1"])}
    ]);
    let id = create_ok(&mut ann, json!({"name": "Openings", "chapters": chapters})).await;
    assert!(id.len() >= 16, "an unguessable id: {id}");

    // Anyone with the link reads it; only the owner's copy says `mine`.
    let mut guest = Browser::new(&server);
    let seen = guest.get(&format!("/api/studies/{id}")).await;
    assert_eq!(seen.status, 200, "{:?}", seen.body);
    let s = &seen.body;
    assert_eq!(s["id"], id);
    assert_eq!(s["name"], "Openings");
    assert_eq!(s["owner"], "Ann");
    assert_eq!(s["mine"], false);
    assert_eq!(s["chapters"].as_array().unwrap().len(), 2);
    let main = &s["chapters"][0];
    assert_eq!(main["name"], "Main");
    assert_eq!(main["tree"]["start"], standard());
    assert_eq!(main["tree"]["headers"]["Player1"], "Ann");
    assert_eq!(main["tree"]["comment"], "the start");
    // Moves read leniently come back in official notation, the variations in their order.
    assert_eq!(main["tree"]["children"][0]["move"], "Wd4,a1");
    assert_eq!(main["tree"]["children"][0]["comment"], "common");
    assert_eq!(main["tree"]["children"][0]["children"][0]["move"], "Gc3,g4");
    assert_eq!(main["tree"]["children"][1]["move"], "Bd4,a1");
    // A chapter without a name gets one.
    assert_eq!(s["chapters"][1]["name"], "Chapter 2");
    let created = s["created"].as_i64().expect("created");
    assert_eq!(s["updated"].as_i64(), Some(created));
    let own = ann.get(&format!("/api/studies/{id}")).await;
    assert_eq!(own.body["mine"], true);

    // The owner changes it: name and chapters replaced.
    let line = long_line(&Position::standard(), 6);
    let a = ann
        .put(
            &format!("/api/studies/{id}"),
            json!({"name": "Openings, revised", "chapters": [
                {"name": "Line", "tree": {"start": standard(), "children": nested(&line)}}
            ]}),
        )
        .await;
    assert_eq!(a.status, 200, "{:?}", a.body);
    let updated = a.body["updated"].as_i64().expect("updated");
    assert!(updated >= created);
    let s = guest.get(&format!("/api/studies/{id}")).await.body;
    assert_eq!(s["name"], "Openings, revised");
    assert_eq!(s["created"].as_i64(), Some(created));
    assert_eq!(s["updated"].as_i64(), Some(updated));
    assert_eq!(s["chapters"].as_array().unwrap().len(), 1);
    let mut node = &s["chapters"][0]["tree"];
    for m in &line {
        node = &node["children"][0];
        assert_eq!(node["move"], m.as_str());
    }
    assert_eq!(node["children"], json!([]));

    // Another player copies it: the copy is theirs, the original stays Ann's.
    let mut ben = signed_up(&server, "Ben").await;
    let c = ben
        .post(&format!("/api/studies/{id}/copy"), json!({}))
        .await;
    assert_eq!(c.status, 201, "{:?}", c.body);
    let copy = c.body["id"].as_str().expect("the copy's id").to_string();
    assert_ne!(copy, id);
    let cs = ben.get(&format!("/api/studies/{copy}")).await.body;
    assert_eq!(cs["name"], "Openings, revised (copy)");
    assert_eq!(cs["owner"], "Ben");
    assert_eq!(cs["mine"], true);
    assert_eq!(cs["chapters"], s["chapters"]);
    assert_eq!(
        ann.get(&format!("/api/studies/{id}")).await.body["owner"],
        "Ann"
    );

    // The owner deletes it: gone for everyone; the copy stays.
    let d = ann.delete(&format!("/api/studies/{id}")).await;
    assert_eq!(d.status, 200, "{:?}", d.body);
    let gone = guest.get(&format!("/api/studies/{id}")).await;
    assert_eq!(gone.status, 404);
    assert!(error(&gone).contains(&id), "{}", error(&gone));
    assert_eq!(ann.delete(&format!("/api/studies/{id}")).await.status, 404);
    assert_eq!(guest.get(&format!("/api/studies/{copy}")).await.status, 200);

    // A line longer than serde_json's default depth (a 61-ring game with high thresholds) is
    // kept and read back.
    let rules: RuleSet = "custom:20/20/20:20/20/20/20".parse().expect("a rule set");
    let big = Position::new(Layout::official(BoardKind::Rings61), rules);
    let deep = long_line(&big, 200);
    assert!(deep.len() > 64, "a line of {} moves", deep.len());
    let id = create_ok(
        &mut ann,
        json!({"name": "Long", "chapters": [
            {"name": "61", "tree": {"start": big.to_string(), "children": nested(&deep)}}
        ]}),
    )
    .await;
    let s = guest.get(&format!("/api/studies/{id}")).await;
    assert_eq!(s.status, 200);
    let mut node = &s.body["chapters"][0]["tree"];
    for m in &deep {
        node = &node["children"][0];
        assert_eq!(node["move"], m.as_str());
    }
}

async fn only_the_owner_changes_or_deletes(db: Db) {
    let server = Server::start(db);
    let mut ann = signed_up(&server, "Ann").await;
    let mut ben = signed_up(&server, "Ben").await;
    let mut guest = Browser::new(&server);
    let id = create_ok(&mut ann, small("Ann's")).await;
    let path = format!("/api/studies/{id}");

    let a = ben.put(&path, small("Ben's now")).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(error(&a).contains("only its owner, Ann"), "{}", error(&a));
    let a = ben.delete(&path).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(error(&a).contains("delete"), "{}", error(&a));

    // Without a session: 401, whatever the request.
    let a = guest.put(&path, small("nobody's")).await;
    assert_eq!(a.status, 401, "{:?}", a.body);
    assert!(error(&a).contains("log in"), "{}", error(&a));
    assert_eq!(guest.delete(&path).await.status, 401);
    let a = guest.post("/api/studies", small("anonymous")).await;
    assert_eq!(a.status, 401, "{:?}", a.body);
    assert!(
        error(&a).contains("saving a study needs an account"),
        "{}",
        error(&a)
    );
    assert_eq!(
        guest.post(&format!("{path}/copy"), json!({})).await.status,
        401
    );

    // Nothing changed.
    let s = guest.get(&path).await.body;
    assert_eq!(s["name"], "Ann's");
    assert_eq!(s["owner"], "Ann");

    // Unknown or malformed ids: 404.
    for missing in ["sNoSuchStudyHere1", "..%2Fetc", "x"] {
        let a = ben.get(&format!("/api/studies/{missing}")).await;
        assert_eq!(a.status, 404, "{missing}: {:?}", a.body);
        assert_eq!(
            ben.put(&format!("/api/studies/{missing}"), small("x"))
                .await
                .status,
            404
        );
        assert_eq!(
            ben.post(&format!("/api/studies/{missing}/copy"), json!({}))
                .await
                .status,
            404
        );
    }
}

async fn cross_site_requests_are_refused(db: Db) {
    let server = Server::start(db);
    let mut ann = signed_up(&server, "Ann").await;
    let id = create_ok(&mut ann, small("Mine")).await;
    let path = format!("/api/studies/{id}");

    // A page of another site, by its Origin.
    ann.origin = Some("http://evil.example".into());
    let a = ann.post("/api/studies", small("planted")).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(error(&a).contains("cross-site"), "{}", error(&a));
    assert_eq!(ann.put(&path, small("changed")).await.status, 403);
    assert_eq!(ann.delete(&path).await.status, 403);
    assert_eq!(
        ann.post(&format!("{path}/copy"), json!({})).await.status,
        403
    );

    // By Sec-Fetch-Site, whatever the Origin says.
    ann.origin = Some(server.url(""));
    ann.fetch_site = Some("cross-site".into());
    let a = ann.put(&path, small("changed")).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(error(&a).contains("another site"), "{}", error(&a));
    assert_eq!(ann.delete(&path).await.status, 403);

    // Reading is not refused; nothing was changed or added.
    let s = ann.get(&path).await;
    assert_eq!(s.status, 200);
    assert_eq!(s.body["name"], "Mine");
    ann.fetch_site = None;
    let list = ann.get("/api/players/Ann/studies").await.body;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list:?}");
}

async fn bad_trees_are_refused_with_a_sentence(db: Db) {
    let server = Server::start(db);
    let mut ann = signed_up(&server, "Ann").await;
    let chapter = |tree: Value| json!({"name": "S", "chapters": [{"name": "C", "tree": tree}]});

    let e = refused(&mut ann, chapter(json!({"children": []}))).await;
    assert!(
        e.starts_with("chapter 1 (C): the tree: missing field `start`"),
        "{e}"
    );

    let e = refused(&mut ann, chapter(json!({"start": "37 standard nonsense"}))).await;
    assert!(
        e.starts_with("chapter 1 (C): start: position string"),
        "{e}"
    );

    let e = refused(
        &mut ann,
        chapter(json!({"start": standard(), "children": [{"move": "Wd4,a1", "colour": "red"}]})),
    )
    .await;
    assert!(e.contains("unknown field `colour`"), "{e}");

    let e = refused(
        &mut ann,
        chapter(json!({"start": standard(), "children": "Wd4,a1"})),
    )
    .await;
    assert!(e.contains("the tree: invalid type"), "{e}");

    // An illegal move, named by its field.
    let e = refused(
        &mut ann,
        json!({"name": "S", "chapters": [
            {"name": "Fine", "tree": tree_of(&["Wd4,a1"])},
            {"name": "Broken", "tree": {"start": standard(), "children": [
                {"move": "Wd4,a1", "children": [
                    {"move": "Gc3,g4", "children": [{"move": "Bc3,a2"}]}]}]}}
        ]}),
    )
    .await;
    assert!(
        e.starts_with(
            "chapter 2 (Broken): children[0].children[0].children[0].move: `Bc3,a2` cannot be \
             played here"
        ),
        "{e}"
    );
    assert!(e.contains("c3"), "{e}");

    let e = refused(
        &mut ann,
        chapter(json!({"start": standard(), "children": [{"move": "Zz9"}]})),
    )
    .await;
    assert!(
        e.starts_with("chapter 1 (C): children[0].move: `Zz9`"),
        "{e}"
    );

    let e = refused(&mut ann, json!({"name": "S", "chapters": []})).await;
    assert!(e.contains("no chapter"), "{e}");
    let e = refused(
        &mut ann,
        json!({"name": "  ", "chapters": [{"name": "C", "tree": tree_of(&[])}]}),
    )
    .await;
    assert!(e.contains("the study's name is empty"), "{e}");
    let e = refused(&mut ann, json!({"chapters": []})).await;
    assert!(e.contains("missing field `name`"), "{e}");

    // None of these was kept.
    let list = ann.get("/api/players/Ann/studies").await.body;
    assert_eq!(list, json!([]));
}

async fn limits_are_enforced(db: Db) {
    // Without the hourly allowance of new studies (attacks.rs tests it): here, the most an
    // account may keep.
    let server = Server::start_config(db, 50, |c| c.new_studies_per_hour = 0);
    let mut ann = signed_up(&server, "Ann").await;
    let start = Position::standard();

    let e = ann.post("/api/studies", small(&"n".repeat(101))).await;
    assert_eq!(e.status, 400);
    assert!(
        error(&e).contains("101 characters; at most 100"),
        "{}",
        error(&e)
    );

    let many: Vec<Value> = (0..=MAX_CHAPTERS)
        .map(|i| json!({"name": format!("C{i}"), "tree": tree_of(&[])}))
        .collect();
    let e = ann
        .post("/api/studies", json!({"name": "S", "chapters": many}))
        .await;
    assert_eq!(e.status, 400);
    assert!(
        error(&e).contains(&format!(
            "{} chapters; at most {MAX_CHAPTERS}",
            MAX_CHAPTERS + 1
        )),
        "{}",
        error(&e)
    );

    // More moves than a chapter may hold: every first move, each answered by many replies.
    let mut children = Vec::new();
    let mut total = 0;
    for first in start.legal_moves() {
        let after = start.play(&first).unwrap();
        let replies: Vec<Value> = after
            .legal_moves()
            .iter()
            .take(40)
            .map(|r| json!({"move": official::move_text(&after, r)}))
            .collect();
        total += 1 + replies.len();
        children.push(json!({"move": official::move_text(&start, &first), "children": replies}));
        if total > MAX_MOVES {
            break;
        }
    }
    assert!(total > MAX_MOVES);
    let e = ann
        .post(
            "/api/studies",
            json!({"name": "S", "chapters": [{"name": "Wide", "tree": {"start": standard(), "children": children}}]}),
        )
        .await;
    assert_eq!(e.status, 400, "{:?}", e.body);
    assert!(
        error(&e).contains(&format!("more than {MAX_MOVES} moves")),
        "{}",
        error(&e)
    );

    // Trees larger than a study may be, in a body larger than other requests may be: chapters
    // of 20 first moves, each with a long comment (some 40 KB a chapter).
    let comment = "c".repeat(2_000);
    let commented: Vec<Value> = start
        .legal_moves()
        .iter()
        .take(20)
        .map(|m| json!({"move": official::move_text(&start, m), "comment": comment}))
        .collect();
    let chapter = |i: usize| json!({"name": format!("C{i}"), "tree": {"start": standard(), "children": commented}});
    let chapters: Vec<Value> = (0..15).map(chapter).collect();
    let body = json!({"name": "Huge", "chapters": chapters});
    assert!(body.to_string().len() > MAX_BYTES);
    assert!(body.to_string().len() > 256 * 1024);
    let e = ann.post("/api/studies", body).await;
    assert_eq!(e.status, 413, "{:?}", e.body);
    assert!(
        error(&e).contains(&format!("more than {MAX_BYTES} bytes")),
        "{}",
        error(&e)
    );
    // Under the limit, the same chapters are kept.
    let fits: Vec<Value> = (0..3).map(chapter).collect();
    create_ok(&mut ann, json!({"name": "Large", "chapters": fits})).await;

    // Studies per account.
    for i in 1..MAX_PER_ACCOUNT {
        create_ok(&mut ann, small(&format!("S{i}"))).await;
    }
    let e = ann.post("/api/studies", small("one too many")).await;
    assert_eq!(e.status, 409, "{:?}", e.body);
    assert!(
        error(&e).contains(&format!("{MAX_PER_ACCOUNT} studies")),
        "{}",
        error(&e)
    );
    let list = ann.get("/api/players/Ann/studies").await.body;
    let first = list[0]["id"].as_str().unwrap().to_string();
    assert_eq!(list.as_array().unwrap().len() as i64, MAX_PER_ACCOUNT);
    let e = ann
        .post(&format!("/api/studies/{first}/copy"), json!({}))
        .await;
    assert_eq!(e.status, 409, "{:?}", e.body);
    // One deleted, one more fits.
    assert_eq!(
        ann.delete(&format!("/api/studies/{first}")).await.status,
        200
    );
    create_ok(&mut ann, small("fits again")).await;
}

async fn names_come_back_as_data(db: Db) {
    let server = Server::start(db);
    let mut ann = signed_up(&server, "Ann").await;
    let name = r#"<script>alert("x")</script> & <b>bold</b>"#;
    let chapter = "<img src=x onerror=alert(1)>";
    let id = create_ok(
        &mut ann,
        json!({"name": name, "chapters": [{"name": chapter, "tree": tree_of(&[])}]}),
    )
    .await;
    let s = Browser::new(&server)
        .get(&format!("/api/studies/{id}"))
        .await;
    assert_eq!(s.body["name"], name);
    assert_eq!(s.body["chapters"][0]["name"], chapter);
    let list = ann.get("/api/players/Ann/studies").await.body;
    assert_eq!(list[0]["name"], name);
    // JSON, never HTML.
    let raw = reqwest::get(server.url(&format!("/api/studies/{id}")))
        .await
        .unwrap();
    assert!(
        raw.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
}

async fn a_profile_lists_its_studies(db: Db) {
    let server = Server::start(db);
    let mut ann = signed_up(&server, "Ann").await;
    let mut ben = signed_up(&server, "Ben").await;
    let first = create_ok(&mut ann, small("First")).await;
    let two = json!({"name": "Second", "chapters": [
        {"name": "a", "tree": tree_of(&[])}, {"name": "b", "tree": tree_of(&["Wd4,a1"])}
    ]});
    let second = create_ok(&mut ann, two).await;
    create_ok(&mut ben, small("Ben's")).await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    // Saving the first again puts it first.
    let a = ann
        .put(&format!("/api/studies/{first}"), small("First, again"))
        .await;
    assert_eq!(a.status, 200);

    let mut guest = Browser::new(&server);
    let list = guest.get("/api/players/ann/studies").await;
    assert_eq!(list.status, 200, "{:?}", list.body);
    let items = list.body.as_array().expect("a list");
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0]["id"], first);
    assert_eq!(items[0]["name"], "First, again");
    assert_eq!(items[0]["chapters"], 1);
    assert_eq!(items[1]["id"], second);
    assert_eq!(items[1]["chapters"], 2);
    assert!(items[0]["updated"].as_i64() >= items[1]["updated"].as_i64());

    let e = guest.get("/api/players/Nobody/studies").await;
    assert_eq!(e.status, 404);
    assert!(error(&e).contains("Nobody"), "{}", error(&e));

    assert_eq!(
        ann.delete(&format!("/api/studies/{second}")).await.status,
        200
    );
    let items = guest.get("/api/players/Ann/studies").await.body;
    assert_eq!(items.as_array().map(Vec::len), Some(1));
    let items = guest.get("/api/players/Ben/studies").await.body;
    assert_eq!(items[0]["name"], "Ben's");
}
