//! A client of the server's API as the tests use it: [`Site`] (an address and an HTTP client)
//! with the calls that set up and read games, whichever way the server runs (a `zertz serve`
//! process, or [`crate::in_process::Server`] inside the test), and [`Db`], the database it
//! runs on.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::ws::Ws;

/// The database a test server runs on.
#[derive(Clone, Debug)]
pub enum Db {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database, by URL.
    Postgres(String),
}

impl Db {
    /// What `--db` takes.
    pub fn arg(&self) -> &std::ffi::OsStr {
        match self {
            Db::Sqlite(path) => path.as_os_str(),
            Db::Postgres(url) => url.as_ref(),
        }
    }

    /// What the server takes as its database: the file's path, or the URL.
    pub fn location(&self) -> String {
        match self {
            Db::Sqlite(path) => path.display().to_string(),
            Db::Postgres(url) => url.clone(),
        }
    }

    /// How the server names it when it starts.
    pub fn shown(&self) -> String {
        match self {
            Db::Sqlite(path) => path.display().to_string(),
            Db::Postgres(_) => "PostgreSQL".into(),
        }
    }
}

impl From<&Path> for Db {
    fn from(path: &Path) -> Db {
        Db::Sqlite(path.to_path_buf())
    }
}

impl From<&PathBuf> for Db {
    fn from(path: &PathBuf) -> Db {
        Db::Sqlite(path.clone())
    }
}

impl From<&Db> for Db {
    fn from(db: &Db) -> Db {
        db.clone()
    }
}

/// A server's API at `addr`, reached with `http`.
pub struct Site {
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The HTTP client.
    pub http: reqwest::Client,
}

impl Site {
    /// The API at `addr`, with a client that gives up on an answer after a minute.
    pub fn new(addr: String) -> Site {
        Site {
            addr,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("HTTP client"),
        }
    }

    /// The URL of `path` on the server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn answer(response: reqwest::Response) -> (u16, Value) {
        let status = response.status().as_u16();
        let text = response.text().await.expect("response body");
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    /// Checks that the server answers `/api/health`, and that its log (`log()` read after
    /// the answer) shows its games brought back at start and no panic, warning or error.
    pub async fn assert_answers_and_logs_cleanly(&self, log: impl Fn() -> String) {
        let (status, body) = self.get("/api/health", None).await;
        assert_eq!((status, body), (200, json!({"ok": true})));
        let log = log();
        assert!(log.contains("games resumed"), "the server's log: {log}");
        assert!(!log.contains("panicked"), "the server panicked:\n{log}");
        assert!(
            !log.contains("WARN") && !log.contains("ERROR"),
            "the server's log:\n{log}"
        );
    }

    /// `GET path` (with a seat token if given): the status and the JSON answer (a string when
    /// the answer is not JSON).
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.get(self.url(path));
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        Site::answer(request.send().await.expect("GET")).await
    }

    /// `GET path`, the answer as text.
    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let response = self.http.get(self.url(path)).send().await.expect("GET");
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }

    /// `POST path` with a JSON body (and a seat token if given).
    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.post(self.url(path)).json(body);
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        Site::answer(request.send().await.expect("POST")).await
    }

    /// `POST path` with a raw body and content type.
    pub async fn post_raw(
        &self,
        path: &str,
        body: impl Into<reqwest::Body>,
        content_type: Option<&str>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut request = self.http.post(self.url(path)).body(body);
        if let Some(c) = content_type {
            request = request.header("content-type", c);
        }
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        Site::answer(request.send().await.expect("POST")).await
    }

    /// `POST /api/games/{id}/action` with `token` (the state answered with its legal moves
    /// spelled out: `?legal=list`).
    pub async fn act(&self, game: &str, token: &str, action: Value) -> (u16, Value) {
        self.post(
            &format!("/api/games/{game}/action?legal=list"),
            &action,
            Some(token),
        )
        .await
    }

    /// An action that must succeed: returns the version after it.
    pub async fn act_ok(&self, game: &str, token: &str, action: Value) -> i64 {
        let (status, body) = self.act(game, token, action.clone()).await;
        assert_eq!(status, 200, "{action} refused: {body}");
        body["version"].as_i64().expect("version")
    }

    /// `GET /api/games/{id}?legal=list` (as a spectator without a token; the legal moves
    /// spelled out); must succeed.
    pub async fn game(&self, id: &str, token: Option<&str>) -> Value {
        let (status, body) = self
            .get(&format!("/api/games/{id}?legal=list"), token)
            .await;
        assert_eq!(status, 200, "GET game {id}: {body}");
        body
    }

    /// Creates a game (`POST /api/games`); must succeed.
    pub async fn create(&self, body: Value) -> Value {
        let (status, answer) = self.post("/api/games", &body, None).await;
        assert_eq!(status, 201, "create {body}: {answer}");
        answer
    }

    /// Creates an invitation game by Alice (with `extra` fields merged into the body) that
    /// nobody has joined yet. Returns the game's id and the tokens `[Alice's, the
    /// invitation's]` (Alice in seat 1 unless `extra` says otherwise).
    pub async fn invitation(&self, extra: Value) -> (String, [String; 2]) {
        let body = merged(
            json!({"opponent": {"kind": "invite"}, "name": "Alice"}),
            extra,
        );
        let created = self.create(body).await;
        let tokens = [string(&created["token"]), string(&created["invite_token"])];
        (string(&created["id"]), tokens)
    }

    /// Creates an invitation game (with `extra` fields merged into the body) and has the
    /// friend join it. Returns (game id, token of the creator, token of the friend: the seat's
    /// own, not the invitation's).
    pub async fn invite_game(&self, extra: Value) -> (String, String, String) {
        let (id, [token, invite]) = self.invitation(extra).await;
        let joined = self.join(&id, &invite, "Bob").await;
        let seat = string(&joined["token"]);
        assert_ne!(seat, invite, "the invitation is not the seat's token");
        (id, token, seat)
    }

    /// Joins a game with an invitation token; must succeed.
    pub async fn join(&self, id: &str, token: &str, name: &str) -> Value {
        let (status, body) = self.try_join(id, Some(token), name).await;
        assert_eq!(status, 200, "join {id}: {body}");
        body
    }

    /// `POST /api/games/{id}/join` as `name`, with an invitation's token or without (an open
    /// game's free seat).
    pub async fn try_join(&self, id: &str, token: Option<&str>, name: &str) -> (u16, Value) {
        let mut body = json!({"name": name});
        if let Some(t) = token {
            body["token"] = json!(t);
        }
        self.post(&format!("/api/games/{id}/join"), &body, None)
            .await
    }

    /// The items of a listing (`GET /api/games?…` or `GET /api/matches?…`); must succeed.
    pub async fn listing(&self, path: &str) -> Vec<Value> {
        let (status, answer) = self.get(path, None).await;
        assert_eq!(status, 200, "GET {path}: {answer}");
        let items = if path.starts_with("/api/matches") {
            &answer["matches"]
        } else {
            &answer["games"]
        };
        items.as_array().expect("a list").clone()
    }

    /// The ids in a listing, in its order.
    pub async fn listed_ids(&self, path: &str) -> Vec<String> {
        let items = self.listing(path).await;
        items.iter().map(|item| string(&item["id"])).collect()
    }

    /// The WebSocket URL of a game.
    pub fn ws_url(&self, id: &str, token: Option<&str>, since: Option<i64>) -> String {
        let mut url = format!("ws://{}/api/games/{id}/ws", self.addr);
        let mut query = Vec::new();
        if let Some(t) = token {
            query.push(format!("token={t}"));
        }
        if let Some(v) = since {
            query.push(format!("since={v}"));
        }
        if !query.is_empty() {
            url.push('?');
            url.push_str(&query.join("&"));
        }
        url
    }

    /// Opens a game's WebSocket; must succeed.
    pub async fn ws(&self, id: &str, token: Option<&str>, since: Option<i64>) -> Ws {
        match Ws::connect(&self.ws_url(id, token, since), since).await {
            Ok(ws) => ws,
            Err(e) => panic!("WebSocket to game {id}: {e}"),
        }
    }

    /// Asks for a game's WebSocket with `token` over a bare TCP connection, and reads nothing:
    /// the start of a client whose network is about to die.
    pub async fn raw_upgrade(&self, id: &str, token: &str) -> TcpStream {
        let mut tcp = TcpStream::connect(&self.addr).await.expect("connect");
        let request = format!(
            "GET /api/games/{id}/ws?token={token} HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            self.addr
        );
        tcp.write_all(request.as_bytes())
            .await
            .expect("send the upgrade request");
        tcp
    }
}

/// A temporary directory with a database file in it.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = dir.path().join("zertz.db");
    (dir, db)
}

/// `base` with the fields of `extra` (an object) added or replacing its own.
pub fn merged(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    base
}

/// The string `v` must be (an id or a token in an answer).
#[track_caller]
pub fn string(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_string()
}

/// Polls a review until it is done (or failed); returns it and the states seen.
pub async fn review_until_done(server: &Site, id: &str) -> (Value, Vec<String>) {
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
