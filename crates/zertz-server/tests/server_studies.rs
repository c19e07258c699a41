//! Saved studies through the HTTP API, on SQLite and on PostgreSQL: the server runs in this
//! process (`zertz_server::serve` on a loopback port), and each test speaks to it as browsers
//! would, with their own cookies and their pages' origin.
//!
//! Every test runs twice: `NAME::sqlite` on a fresh file, `NAME::postgres` on a fresh database
//! on the server that `ZERTZ_TEST_POSTGRES` names (without it, the PostgreSQL run says on
//! stderr that it checked nothing, and passes).

use std::collections::BTreeMap;
use std::future::Future;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Connection;
use zertz::notation::official;
use zertz::{BoardKind, Layout, Position, RuleSet};
use zertz_server::study::studies::{MAX_BYTES, MAX_CHAPTERS, MAX_MOVES, MAX_PER_ACCOUNT};

// ---------------------------------------------------------------------------------------------
// Harness

/// Starts the server on `db` in this process and returns its address.
async fn start(db: String) -> String {
    let (ready, address) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let addr = "127.0.0.1:0".parse().expect("address");
        let config = zertz_server::Config::default();
        if let Err(e) = zertz_server::serve(addr, &db, config, move |a| {
            let _ = ready.send(a);
        })
        .await
        {
            panic!("the server stopped: {e}");
        }
    });
    format!("http://{}", address.await.expect("the server listens"))
}

/// Runs `check` against a server on a fresh SQLite file.
async fn on_sqlite<F, Fut>(check: F)
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("zertz.sqlite");
    let base = start(path.to_str().expect("UTF-8 path").to_string()).await;
    check(base).await;
}

/// `url` with its database replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let root = match base[after_scheme..].find('/') {
        Some(i) => &base[..after_scheme + i],
        None => base,
    };
    match query {
        Some(q) => format!("{root}/{db}?{q}"),
        None => format!("{root}/{db}"),
    }
}

/// Runs `check` against a server on a fresh PostgreSQL database, dropped afterwards, or says
/// that it did not run.
async fn on_postgres<F, Fut>(name: &str, check: F)
where
    F: FnOnce(String) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let admin_url = match std::env::var("ZERTZ_TEST_POSTGRES") {
        Ok(url) if !url.trim().is_empty() => url,
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "NOT RUN on PostgreSQL: {name} checked nothing there, because \
                 ZERTZ_TEST_POSTGRES is not set (`source .ci/postgres.sh` sets it)"
            );
            return;
        }
    };
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis();
    let db = format!(
        "zertz_studies_{}_{}_{}_{}",
        &name[..name.len().min(20)],
        std::process::id(),
        now,
        SEQ.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = sqlx::PgConnection::connect(&admin_url)
        .await
        .unwrap_or_else(|e| panic!("connect to ZERTZ_TEST_POSTGRES ({admin_url}): {e}"));
    sqlx::raw_sql(&format!("CREATE DATABASE \"{db}\""))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("create database {db}: {e}"));
    let url = with_database(&admin_url, &db);
    // On a task of its own, so that a failed check still gets its database dropped.
    let outcome = tokio::spawn(async move {
        let base = start(url).await;
        check(base).await;
    })
    .await;
    sqlx::raw_sql(&format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("drop database {db}: {e}"));
    admin.close().await.ok();
    if let Err(e) = outcome {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("{name}: {e}"),
        }
    }
}

/// Each test, once on SQLite and once on PostgreSQL.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::on_sqlite(super::$name).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::on_postgres(stringify!($name), super::$name).await;
                }
            }
        )*
    };
}

/// An answer: its status and its body (JSON, or a string when it is not JSON).
#[derive(Debug)]
struct Answer {
    status: u16,
    body: Value,
}

impl Answer {
    /// The error sentence of a refusal.
    fn error(&self) -> &str {
        self.body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error sentence in {:?}", self.body))
    }
}

/// A browser: its session cookie and the origin its pages send.
struct Browser {
    base: String,
    origin: String,
    fetch_site: Option<&'static str>,
    cookies: BTreeMap<String, String>,
    http: reqwest::Client,
}

impl Browser {
    fn new(base: &str) -> Browser {
        Browser {
            base: base.to_string(),
            origin: base.to_string(),
            fetch_site: None,
            cookies: BTreeMap::new(),
            http: reqwest::Client::new(),
        }
    }

    /// A new browser logged in to a new account `name`.
    async fn signed_up(base: &str, name: &str) -> Browser {
        let mut b = Browser::new(base);
        let a = b
            .send(
                Method::POST,
                "/api/accounts",
                Some(json!({"name": name, "password": "a long enough password"})),
            )
            .await;
        assert_eq!(a.status, 201, "sign up {name}: {:?}", a.body);
        b
    }

    async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("origin", &self.origin);
        if let Some(body) = body {
            request = request.json(&body);
        }
        if let Some(site) = self.fetch_site {
            request = request.header("sec-fetch-site", site);
        }
        if !self.cookies.is_empty() {
            let cookie: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            request = request.header("cookie", cookie.join("; "));
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        for set in response.headers().get_all("set-cookie") {
            let set = set.to_str().expect("ASCII cookie");
            if let Some((name, value)) = set.split(';').next().and_then(|c| c.split_once('=')) {
                self.cookies.insert(name.to_string(), value.to_string());
            }
        }
        let text = response.text().await.expect("body");
        Answer {
            status,
            body: read_json(&text).unwrap_or(Value::String(text)),
        }
    }

    async fn get(&mut self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::POST, path, Some(body)).await
    }

    async fn put(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::PUT, path, Some(body)).await
    }

    async fn delete(&mut self, path: &str) -> Answer {
        self.send(Method::DELETE, path, None).await
    }

    /// Saves `study`; must succeed. Returns its id.
    async fn create_ok(&mut self, study: Value) -> String {
        let a = self.post("/api/studies", study).await;
        assert_eq!(a.status, 201, "{:?}", a.body);
        a.body["id"].as_str().expect("an id").to_string()
    }
}

/// JSON text read without serde_json's depth limit: a tree's long line is deeply nested.
fn read_json(text: &str) -> Option<Value> {
    let mut reader = serde_json::Deserializer::from_str(text);
    reader.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(value)
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
    let mut p = *start;
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

on_both!(
    create_read_update_delete_copy,
    only_the_owner_changes_or_deletes,
    cross_site_requests_are_refused,
    bad_trees_are_refused_with_a_sentence,
    limits_are_enforced,
    names_come_back_as_data,
    a_profile_lists_its_studies,
);

async fn create_read_update_delete_copy(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
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
    let id = ann
        .create_ok(json!({"name": "Openings", "chapters": chapters}))
        .await;
    assert!(id.len() >= 16, "an unguessable id: {id}");

    // Anyone with the link reads it; only the owner's copy says `mine`.
    let mut guest = Browser::new(&base);
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
    let mut ben = Browser::signed_up(&base, "Ben").await;
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
    assert!(gone.error().contains(&id), "{}", gone.error());
    assert_eq!(ann.delete(&format!("/api/studies/{id}")).await.status, 404);
    assert_eq!(guest.get(&format!("/api/studies/{copy}")).await.status, 200);

    // A line longer than serde_json's default depth (a 61-ring game with high thresholds) is
    // kept and read back.
    let rules: RuleSet = "custom:20/20/20:20/20/20/20".parse().expect("a rule set");
    let big = Position::new(Layout::official(BoardKind::Rings61), rules);
    let deep = long_line(&big, 200);
    assert!(deep.len() > 64, "a line of {} moves", deep.len());
    let id = ann
        .create_ok(json!({"name": "Long", "chapters": [
            {"name": "61", "tree": {"start": big.to_string(), "children": nested(&deep)}}
        ]}))
        .await;
    let s = guest.get(&format!("/api/studies/{id}")).await;
    assert_eq!(s.status, 200);
    let mut node = &s.body["chapters"][0]["tree"];
    for m in &deep {
        node = &node["children"][0];
        assert_eq!(node["move"], m.as_str());
    }
}

async fn only_the_owner_changes_or_deletes(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
    let mut ben = Browser::signed_up(&base, "Ben").await;
    let mut guest = Browser::new(&base);
    let id = ann.create_ok(small("Ann's")).await;
    let path = format!("/api/studies/{id}");

    let a = ben.put(&path, small("Ben's now")).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(a.error().contains("only its owner, Ann"), "{}", a.error());
    let a = ben.delete(&path).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(a.error().contains("delete"), "{}", a.error());

    // Without a session: 401, whatever the request.
    let a = guest.put(&path, small("nobody's")).await;
    assert_eq!(a.status, 401, "{:?}", a.body);
    assert!(a.error().contains("log in"), "{}", a.error());
    assert_eq!(guest.delete(&path).await.status, 401);
    let a = guest.post("/api/studies", small("anonymous")).await;
    assert_eq!(a.status, 401, "{:?}", a.body);
    assert!(
        a.error().contains("saving a study needs an account"),
        "{}",
        a.error()
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

async fn cross_site_requests_are_refused(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
    let id = ann.create_ok(small("Mine")).await;
    let path = format!("/api/studies/{id}");

    // A page of another site, by its Origin.
    ann.origin = "http://evil.example".into();
    let a = ann.post("/api/studies", small("planted")).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(a.error().contains("cross-site"), "{}", a.error());
    assert_eq!(ann.put(&path, small("changed")).await.status, 403);
    assert_eq!(ann.delete(&path).await.status, 403);
    assert_eq!(
        ann.post(&format!("{path}/copy"), json!({})).await.status,
        403
    );

    // By Sec-Fetch-Site, whatever the Origin says.
    ann.origin = base.clone();
    ann.fetch_site = Some("cross-site");
    let a = ann.put(&path, small("changed")).await;
    assert_eq!(a.status, 403, "{:?}", a.body);
    assert!(a.error().contains("another site"), "{}", a.error());
    assert_eq!(ann.delete(&path).await.status, 403);

    // Reading is not refused; nothing was changed or added.
    let s = ann.get(&path).await;
    assert_eq!(s.status, 200);
    assert_eq!(s.body["name"], "Mine");
    ann.fetch_site = None;
    let list = ann.get("/api/players/Ann/studies").await.body;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list:?}");
}

async fn bad_trees_are_refused_with_a_sentence(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
    let refused = |study: Value| {
        let base = base.clone();
        let cookies = ann.cookies.clone();
        async move {
            let mut b = Browser::new(&base);
            b.cookies = cookies;
            let a = b.post("/api/studies", study).await;
            assert_eq!(a.status, 400, "{:?}", a.body);
            a.error().to_string()
        }
    };
    let chapter = |tree: Value| json!({"name": "S", "chapters": [{"name": "C", "tree": tree}]});

    let e = refused(chapter(json!({"children": []}))).await;
    assert!(
        e.starts_with("chapter 1 (C): the tree: missing field `start`"),
        "{e}"
    );

    let e = refused(chapter(json!({"start": "37 standard nonsense"}))).await;
    assert!(
        e.starts_with("chapter 1 (C): the start position: position string"),
        "{e}"
    );

    let e = refused(chapter(
        json!({"start": standard(), "children": [{"move": "Wd4,a1", "colour": "red"}]}),
    ))
    .await;
    assert!(e.contains("unknown field `colour`"), "{e}");

    let e = refused(chapter(json!({"start": standard(), "children": "Wd4,a1"}))).await;
    assert!(e.contains("the tree: invalid type"), "{e}");

    // An illegal move, named with its place in the line.
    let e = refused(json!({"name": "S", "chapters": [
        {"name": "Fine", "tree": tree_of(&["Wd4,a1"])},
        {"name": "Broken", "tree": {"start": standard(), "children": [
            {"move": "Wd4,a1", "children": [
                {"move": "Gc3,g4", "children": [{"move": "Bc3,a2"}]}]}]}}
    ]}))
    .await;
    assert!(
        e.starts_with("chapter 2 (Broken): move 3 (after Wd4,a1 Gc3,g4): `Bc3,a2`"),
        "{e}"
    );
    assert!(e.contains("c3"), "{e}");

    let e = refused(chapter(
        json!({"start": standard(), "children": [{"move": "Zz9"}]}),
    ))
    .await;
    assert!(
        e.starts_with("chapter 1 (C): move 1 (from the start): `Zz9`"),
        "{e}"
    );

    let e = refused(json!({"name": "S", "chapters": []})).await;
    assert!(e.contains("no chapter"), "{e}");
    let e = refused(json!({"name": "  ", "chapters": [{"name": "C", "tree": tree_of(&[])}]})).await;
    assert!(e.contains("the study's name is empty"), "{e}");
    let e = refused(json!({"chapters": []})).await;
    assert!(e.contains("missing field `name`"), "{e}");

    // None of these was kept.
    let list = ann.get("/api/players/Ann/studies").await.body;
    assert_eq!(list, json!([]));
}

async fn limits_are_enforced(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
    let start = Position::standard();

    let e = ann.post("/api/studies", small(&"n".repeat(101))).await;
    assert_eq!(e.status, 400);
    assert!(
        e.error().contains("101 characters; at most 100"),
        "{}",
        e.error()
    );

    let many: Vec<Value> = (0..=MAX_CHAPTERS)
        .map(|i| json!({"name": format!("C{i}"), "tree": tree_of(&[])}))
        .collect();
    let e = ann
        .post("/api/studies", json!({"name": "S", "chapters": many}))
        .await;
    assert_eq!(e.status, 400);
    assert!(
        e.error().contains(&format!(
            "{} chapters; at most {MAX_CHAPTERS}",
            MAX_CHAPTERS + 1
        )),
        "{}",
        e.error()
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
        e.error().contains(&format!("more than {MAX_MOVES} moves")),
        "{}",
        e.error()
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
        e.error().contains(&format!("more than {MAX_BYTES} bytes")),
        "{}",
        e.error()
    );
    // Under the limit, the same chapters are kept.
    let fits: Vec<Value> = (0..3).map(chapter).collect();
    ann.create_ok(json!({"name": "Large", "chapters": fits}))
        .await;

    // Studies per account.
    for i in 1..MAX_PER_ACCOUNT {
        ann.create_ok(small(&format!("S{i}"))).await;
    }
    let e = ann.post("/api/studies", small("one too many")).await;
    assert_eq!(e.status, 409, "{:?}", e.body);
    assert!(
        e.error().contains(&format!("{MAX_PER_ACCOUNT} studies")),
        "{}",
        e.error()
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
    ann.create_ok(small("fits again")).await;
}

async fn names_come_back_as_data(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
    let name = r#"<script>alert("x")</script> & <b>bold</b>"#;
    let chapter = "<img src=x onerror=alert(1)>";
    let id = ann
        .create_ok(json!({"name": name, "chapters": [{"name": chapter, "tree": tree_of(&[])}]}))
        .await;
    let s = Browser::new(&base).get(&format!("/api/studies/{id}")).await;
    assert_eq!(s.body["name"], name);
    assert_eq!(s.body["chapters"][0]["name"], chapter);
    let list = ann.get("/api/players/Ann/studies").await.body;
    assert_eq!(list[0]["name"], name);
    // JSON, never HTML.
    let raw = reqwest::get(format!("{base}/api/studies/{id}"))
        .await
        .unwrap();
    assert!(
        raw.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
}

async fn a_profile_lists_its_studies(base: String) {
    let mut ann = Browser::signed_up(&base, "Ann").await;
    let mut ben = Browser::signed_up(&base, "Ben").await;
    let first = ann.create_ok(small("First")).await;
    let two = json!({"name": "Second", "chapters": [
        {"name": "a", "tree": tree_of(&[])}, {"name": "b", "tree": tree_of(&["Wd4,a1"])}
    ]});
    let second = ann.create_ok(two).await;
    ben.create_ok(small("Ben's")).await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    // Saving the first again puts it first.
    let a = ann
        .put(&format!("/api/studies/{first}"), small("First, again"))
        .await;
    assert_eq!(a.status, 200);

    let mut guest = Browser::new(&base);
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
    assert!(e.error().contains("Nobody"), "{}", e.error());

    assert_eq!(
        ann.delete(&format!("/api/studies/{second}")).await.status,
        200
    );
    let items = guest.get("/api/players/Ann/studies").await.body;
    assert_eq!(items.as_array().map(Vec::len), Some(1));
    let items = guest.get("/api/players/Ben/studies").await.body;
    assert_eq!(items[0]["name"], "Ben's");
}
