//! Helpers for the tests of `zertz serve` from outside: the real binary started on a loopback
//! port with a SQLite file (or a PostgreSQL database, see `postgres`), an HTTP client, and a
//! WebSocket client that checks, on every message, that the versions of the game's events
//! follow each other with no gap.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long the server may take to say where it listens.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// How long any one WebSocket message may take (generous: the machine may be busy).
pub const MESSAGE_TIMEOUT: Duration = Duration::from_secs(30);

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
    fn arg(&self) -> &std::ffi::OsStr {
        match self {
            Db::Sqlite(path) => path.as_os_str(),
            Db::Postgres(url) => url.as_ref(),
        }
    }

    /// How the server names it when it starts.
    fn shown(&self) -> String {
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

/// A running `zertz serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The database.
    pub db: Db,
    /// Everything the server wrote on stderr (its log).
    log: Arc<Mutex<String>>,
    /// Everything it wrote on stdout.
    out: Arc<Mutex<String>>,
    /// The HTTP client.
    pub http: reqwest::Client,
}

impl Server {
    /// Starts `zertz serve` on a free loopback port with the database `db` (a SQLite file is
    /// created if missing), engine moves of 50 ms and a one-second claim countdown.
    pub fn start(db: impl Into<Db>) -> Server {
        Server::start_with(db, 50)
    }

    /// Starts `zertz serve` as [`Server::start`] does, with engine moves of `engine_ms`.
    pub fn start_with(db: impl Into<Db>, engine_ms: u64) -> Server {
        Server::start_args(db, engine_ms, &[])
    }

    /// Starts `zertz serve` as [`Server::start_with`] does, with `extra` arguments.
    pub fn start_args(db: impl Into<Db>, engine_ms: u64, extra: &[&str]) -> Server {
        Server::start_env(db, engine_ms, extra, "info")
    }

    /// Starts `zertz serve` as [`Server::start_args`] does, logging at `log_level`
    /// (`RUST_LOG`).
    pub fn start_env(db: impl Into<Db>, engine_ms: u64, extra: &[&str], log_level: &str) -> Server {
        let db = db.into();
        let mut child = Command::new(env!("CARGO_BIN_EXE_zertz"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.arg())
            .args(["--engine-ms", &engine_ms.to_string(), "--claim-after", "1"])
            .args(extra)
            .env("RUST_LOG", log_level)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start zertz serve");
        let log = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().expect("stderr");
        let log2 = log.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                log2.lock().unwrap().push_str(&text);
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        let out = Arc::new(Mutex::new(String::new()));
        let out2 = out.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let mut out = out2.lock().unwrap();
                out.push_str(&line);
                out.push('\n');
                drop(out);
                let _ = tx.send(line);
            }
        });
        let line = match rx.recv_timeout(START_TIMEOUT) {
            Ok(line) => line,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "zertz serve did not say where it listens ({e}); its log:\n{}",
                    log.lock().unwrap()
                );
            }
        };
        let rest = line
            .strip_prefix("zertz serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line of zertz serve: {line:?}"));
        let (addr, tail) = rest
            .split_once("/ (database: ")
            .expect("address and database");
        assert_eq!(tail, format!("{})", db.shown()), "{line}");
        assert!(addr.starts_with("127.0.0.1:"), "{line}");
        Server {
            child,
            addr: addr.to_string(),
            db,
            log,
            out,
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

    /// The server's log so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// What the server wrote on stdout so far.
    pub fn stdout(&self) -> String {
        self.out.lock().unwrap().clone()
    }

    /// Kills the server with SIGKILL and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Checks that the server is still running, answers `/api/health`, and never panicked.
    pub async fn assert_healthy(&mut self) {
        assert!(
            self.child.try_wait().expect("try_wait").is_none(),
            "the server exited; its log:\n{}",
            self.log()
        );
        let (status, body) = self.get("/api/health", None).await;
        assert_eq!((status, body), (200, json!({"ok": true})));
        let log = self.log();
        assert!(log.contains("games resumed"), "the server's log: {log}");
        assert!(!log.contains("panicked"), "the server panicked:\n{log}");
        assert!(
            !log.contains("WARN") && !log.contains("ERROR"),
            "the server's log:\n{log}"
        );
    }

    async fn answer(response: reqwest::Response) -> (u16, Value) {
        let status = response.status().as_u16();
        let text = response.text().await.expect("response body");
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    /// `GET path` (with a seat token if given): the status and the JSON answer (a string when
    /// the answer is not JSON).
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.get(self.url(path));
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        Server::answer(request.send().await.expect("GET")).await
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
        Server::answer(request.send().await.expect("POST")).await
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
        Server::answer(request.send().await.expect("POST")).await
    }

    /// `POST /api/games/{id}/action` with `token`.
    pub async fn act(&self, game: &str, token: &str, action: Value) -> (u16, Value) {
        self.post(&format!("/api/games/{game}/action"), &action, Some(token))
            .await
    }

    /// An action that must succeed: returns the version after it.
    pub async fn act_ok(&self, game: &str, token: &str, action: Value) -> i64 {
        let (status, body) = self.act(game, token, action.clone()).await;
        assert_eq!(status, 200, "{action} refused: {body}");
        body["version"].as_i64().expect("version")
    }

    /// `GET /api/games/{id}` (as a spectator without a token); must succeed.
    pub async fn game(&self, id: &str, token: Option<&str>) -> Value {
        let (status, body) = self.get(&format!("/api/games/{id}"), token).await;
        assert_eq!(status, 200, "GET game {id}: {body}");
        body
    }

    /// Creates a game (`POST /api/games`); must succeed.
    pub async fn create(&self, body: Value) -> Value {
        let (status, answer) = self.post("/api/games", &body, None).await;
        assert_eq!(status, 201, "create {body}: {answer}");
        answer
    }

    /// Creates an invitation game (with `extra` fields merged into the body) and has the
    /// friend join it. Returns (game id, token of the creator, token of the friend).
    pub async fn invite_game(&self, extra: Value) -> (String, String, String) {
        let mut body = json!({"opponent": {"kind": "invite"}, "name": "Alice"});
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                b.insert(k.clone(), v.clone());
            }
        }
        let created = self.create(body).await;
        let id = created["id"].as_str().expect("id").to_string();
        let invite = created["invite_token"]
            .as_str()
            .expect("invite")
            .to_string();
        let token = created["token"].as_str().expect("token").to_string();
        let joined = self.join(&id, &invite, "Bob").await;
        assert_eq!(joined["token"], invite.as_str());
        (id, token, invite)
    }

    /// Joins a game with an invitation token; must succeed.
    pub async fn join(&self, id: &str, token: &str, name: &str) -> Value {
        let (status, body) = self
            .post(
                &format!("/api/games/{id}/join"),
                &json!({"name": name, "token": token}),
                None,
            )
            .await;
        assert_eq!(status, 200, "join {id}: {body}");
        body
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
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("--- log of zertz serve ---\n{}", self.log());
        }
    }
}

/// A temporary directory with a database file in it.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = dir.path().join("zertz.db");
    (dir, db)
}

/// A WebSocket connection to a game that checks its messages as they come: the first is a
/// `sync` or a `catchup` (whose events must be exactly those after `since`), then every
/// `event` must carry the version after the last one, and `presence` the current version.
pub struct Ws {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last version seen.
    pub version: i64,
    /// The latest state seen.
    pub state: Value,
    /// Every event seen, with its version (including those of a `catchup`).
    pub events: Vec<(i64, Value)>,
    /// The first message.
    pub first: Value,
    /// Every text message after the first as it came, when `keep_raw` was called.
    pub raw: Option<Vec<String>>,
}

impl Ws {
    /// Connects; an error is the HTTP status of a refused upgrade (or a description).
    pub async fn connect(url: &str, since: Option<i64>) -> Result<Ws, String> {
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| match e {
                tokio_tungstenite::tungstenite::Error::Http(r) => {
                    format!("HTTP {}", r.status().as_u16())
                }
                other => other.to_string(),
            })?;
        let mut ws = Ws {
            stream,
            version: 0,
            state: Value::Null,
            events: Vec::new(),
            first: Value::Null,
            raw: None,
        };
        let first = ws.raw().await;
        let version = first["version"]
            .as_i64()
            .expect("version of the first message");
        assert_eq!(first["state"]["version"], version, "{}", brief(&first));
        match first["type"].as_str() {
            Some("sync") => {}
            Some("catchup") => {
                let since = since.expect("a catchup answers a `since`");
                assert_eq!(first["since"], since);
                let events = first["events"].as_array().expect("events");
                let versions: Vec<i64> = events
                    .iter()
                    .map(|e| e["version"].as_i64().expect("version"))
                    .collect();
                let expected: Vec<i64> = (since + 1..=version).collect();
                assert_eq!(
                    versions,
                    expected,
                    "catchup after {since}: {}",
                    brief(&first)
                );
                for e in events {
                    ws.events
                        .push((e["version"].as_i64().unwrap_or(0), e["event"].clone()));
                }
            }
            _ => panic!("unexpected first message: {}", brief(&first)),
        }
        ws.version = version;
        ws.state = first["state"].clone();
        ws.first = first;
        Ok(ws)
    }

    /// The next text message as JSON, unchecked.
    async fn raw(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(MESSAGE_TIMEOUT, self.stream.next())
                .await
                .expect("a WebSocket message in time")
                .expect("the WebSocket is open")
                .expect("a WebSocket message");
            match message {
                Message::Text(text) => {
                    if let Some(raw) = self.raw.as_mut() {
                        raw.push(text.to_string());
                    }
                    return serde_json::from_str(text.as_str()).expect("a JSON message");
                }
                Message::Close(frame) => panic!("the server closed the WebSocket: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// From now on, keeps the text of every message received (in `raw`).
    pub fn keep_raw(&mut self) {
        self.raw.get_or_insert_with(Vec::new);
    }

    /// The next message, checked: events in order without gaps, presence at the current
    /// version.
    pub async fn recv(&mut self) -> Value {
        let message = self.raw().await;
        match message["type"].as_str() {
            Some("event") => {
                let v = message["version"].as_i64().expect("version");
                assert_eq!(
                    v,
                    self.version + 1,
                    "an event out of order (after version {}): {}",
                    self.version,
                    brief(&message)
                );
                assert_eq!(message["state"]["version"], v, "{}", brief(&message));
                self.version = v;
                self.state = message["state"].clone();
                self.events.push((v, message["event"].clone()));
            }
            Some("presence") => {
                assert_eq!(message["version"], self.version, "{}", brief(&message));
                assert_eq!(
                    message["state"]["version"],
                    self.version,
                    "{}",
                    brief(&message)
                );
                self.state = message["state"].clone();
            }
            Some("ack") | Some("refused") => {}
            _ => panic!("unexpected message: {}", brief(&message)),
        }
        message
    }

    /// Reads messages until one satisfies `pred`, and returns it.
    pub async fn until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Reads messages until the version is at least `v`.
    pub async fn wait_version(&mut self, v: i64) {
        while self.version < v {
            self.recv().await;
        }
    }

    /// Reads messages until an event of type `kind`, and returns the event.
    pub async fn wait_event(&mut self, kind: &str) -> Value {
        let m = self
            .until(|m| m["type"] == "event" && m["event"]["type"] == kind)
            .await;
        m["event"].clone()
    }

    /// Sends a text message.
    pub async fn send_text(&mut self, text: String) {
        self.stream
            .send(Message::Text(text.into()))
            .await
            .expect("send on the WebSocket");
    }

    /// Sends a binary message.
    pub async fn send_binary(&mut self, data: Vec<u8>) {
        self.stream
            .send(Message::Binary(data.into()))
            .await
            .expect("send on the WebSocket");
    }

    /// Reads until the server closes the connection: the code and reason of its close frame
    /// (`None` when it closed without one). Other messages are skipped.
    pub async fn closed(&mut self) -> Option<(u16, String)> {
        loop {
            let next = tokio::time::timeout(MESSAGE_TIMEOUT, self.stream.next())
                .await
                .expect("the server closes the WebSocket in time");
            match next {
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Sends an action and returns its answer (`ack` or `refused`); events read meanwhile are
    /// checked and kept.
    pub async fn act(&mut self, action: Value) -> Value {
        self.send_text(action.to_string()).await;
        self.until(|m| m["type"] == "ack" || m["type"] == "refused")
            .await
    }

    /// An action that must be acknowledged; returns its version, once its events (and those
    /// before) have arrived on this socket.
    pub async fn act_ok(&mut self, action: Value) -> i64 {
        let answer = self.act(action.clone()).await;
        assert_eq!(answer["type"], "ack", "{action}: {answer}");
        let version = answer["version"].as_i64().expect("version");
        self.wait_version(version).await;
        version
    }

    /// Reads (and checks, as `recv` does) whatever arrives for `wait`: a client that keeps
    /// reading answers the server's pings.
    pub async fn listen(&mut self, wait: Duration) {
        let deadline = tokio::time::Instant::now() + wait;
        while tokio::time::timeout_at(deadline, self.recv()).await.is_ok() {}
    }

    /// Checks that no message arrives within `wait`.
    pub async fn assert_quiet(&mut self, wait: Duration) {
        if let Ok(m) = tokio::time::timeout(wait, self.stream.next()).await {
            panic!("unexpected message: {m:?}");
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
        // Read until the server's close (or the end) so the server sees it at once.
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            while let Some(Ok(_)) = self.stream.next().await {}
        })
        .await;
    }
}

/// A WebSocket connection to a match (`/api/matches/{id}/ws`): every message is the match's
/// whole state, `{"type": "match", "match": …}`.
pub struct MatchWs {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The latest state of the match seen.
    pub state: Value,
}

impl MatchWs {
    /// Connects; an error is the HTTP status of a refused upgrade (or a description). The
    /// first message must be the match's state.
    pub async fn connect(url: &str) -> Result<MatchWs, String> {
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| match e {
                tokio_tungstenite::tungstenite::Error::Http(r) => {
                    format!("HTTP {}", r.status().as_u16())
                }
                other => other.to_string(),
            })?;
        let mut ws = MatchWs {
            stream,
            state: Value::Null,
        };
        let first = ws.recv().await;
        assert_eq!(first["type"], "match", "{first}");
        Ok(ws)
    }

    /// The next message (a match's state is kept in `state`).
    pub async fn recv(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(MESSAGE_TIMEOUT, self.stream.next())
                .await
                .expect("a WebSocket message in time")
                .expect("the WebSocket is open")
                .expect("a WebSocket message");
            match message {
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
                    if value["type"] == "match" {
                        if !self.state.is_null() {
                            assert_eq!(value["match"]["id"], self.state["id"], "another match");
                        }
                        self.state = value["match"].clone();
                    }
                    return value;
                }
                Message::Close(frame) => panic!("the server closed the WebSocket: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// The next message that is not the match's state (an answer to something sent).
    pub async fn until_message(&mut self) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] != "match" {
                return m;
            }
        }
    }

    /// Reads states until one satisfies `pred`; returns it.
    pub async fn until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] == "match" && pred(&m["match"]) {
                return m["match"].clone();
            }
        }
    }

    /// Sends a text message.
    pub async fn send_text(&mut self, text: String) {
        self.stream
            .send(Message::Text(text.into()))
            .await
            .expect("send on the WebSocket");
    }
}

/// A message or state for an error message, without its long list of legal moves.
pub fn brief(v: &Value) -> String {
    let mut v = v.clone();
    if let Some(n) = v["legal_moves"].as_array().map(|a| a.len()) {
        v["legal_moves"] = json!(format!("{n} moves"));
    }
    if let Some(n) = v["state"]["legal_moves"].as_array().map(|a| a.len()) {
        v["state"]["legal_moves"] = json!(format!("{n} moves"));
    }
    v.to_string()
}

/// A small deterministic generator (xorshift64*), for picking moves.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// A move from a state's `legal_moves`: a capture if there is one, otherwise any, picked by
/// `rng`.
pub fn pick_move(state: &Value, rng: &mut Rng) -> String {
    let legal: Vec<&str> = state["legal_moves"]
        .as_array()
        .expect("legal_moves")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    assert!(!legal.is_empty(), "no legal move in {}", brief(state));
    let captures: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| m.starts_with('x'))
        .collect();
    let from = if captures.is_empty() {
        &legal
    } else {
        &captures
    };
    from[rng.below(from.len())].to_string()
}

/// `{"type": "move", "move": mv}`.
pub fn mv(text: &str) -> Value {
    json!({"type": "move", "move": text})
}

/// The seat to move in a state (1 or 2).
pub fn to_move(state: &Value) -> usize {
    state["to_move"].as_u64().expect("to_move") as usize
}
