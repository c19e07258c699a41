//! WebSocket clients of `zertz serve` that check what they receive: a game's socket, whose
//! events must follow each other one version at a time, and a match's socket, whose every
//! message is the match's whole state.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::play::brief;

/// How long any one WebSocket message may take (generous: the machine may be busy).
pub const MESSAGE_TIMEOUT: Duration = Duration::from_secs(30);

type Stream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens a WebSocket; an error is the HTTP status of a refused upgrade (`HTTP 403`), or a
/// description.
async fn open(
    request: impl tokio_tungstenite::tungstenite::client::IntoClientRequest + Unpin,
) -> Result<Stream, String> {
    let (stream, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| match e {
            tokio_tungstenite::tungstenite::Error::Http(r) => {
                format!("HTTP {}", r.status().as_u16())
            }
            other => other.to_string(),
        })?;
    Ok(stream)
}

/// The next text message (pings and the like skipped); the server closing the socket instead
/// fails the test.
async fn next_text(stream: &mut Stream) -> String {
    loop {
        let message = tokio::time::timeout(MESSAGE_TIMEOUT, stream.next())
            .await
            .expect("a WebSocket message in time")
            .expect("the WebSocket is open")
            .expect("a WebSocket message");
        match message {
            Message::Text(text) => return text.to_string(),
            Message::Close(frame) => panic!("the server closed the WebSocket: {frame:?}"),
            _ => continue,
        }
    }
}

/// Sends a text message.
async fn send(stream: &mut Stream, text: String) {
    stream
        .send(Message::Text(text.into()))
        .await
        .expect("send on the WebSocket");
}

/// `state` with its compact legal moves spelled out as `legal_moves` (what the tests pick
/// moves from), as the web page spells them out.
pub fn spelled(mut state: Value) -> Value {
    let legal: Option<zertz_server::games::wire::compact::CompactLegal> =
        serde_json::from_value(state["legal"].clone()).expect("compact legal moves");
    let list = legal.map_or_else(Vec::new, |l| l.expand().expect("legal moves"));
    state["legal_moves"] = serde_json::json!(list);
    state
}

/// A WebSocket connection to a game that checks its messages as they come: the first is a
/// `sync` or a `catchup` (whose events must be exactly those after `since`), then every
/// `event` must carry the version after the last one, and `presence` the current version.
pub struct Ws {
    stream: Stream,
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
    /// The room's chat lines seen (from `chat_history` and `chat` messages), in order.
    pub chat: Vec<Value>,
    /// The accounts muted in the room, as the last `chat_history` said.
    pub muted: Vec<String>,
}

impl Ws {
    /// Connects; an error is the HTTP status of a refused upgrade (or a description).
    pub async fn connect(url: &str, since: Option<i64>) -> Result<Ws, String> {
        Ws::connect_request(url, since).await
    }

    /// Connects with a request of one's own (headers such as `Cookie` and `Origin`).
    pub async fn connect_request(
        request: impl tokio_tungstenite::tungstenite::client::IntoClientRequest + Unpin,
        since: Option<i64>,
    ) -> Result<Ws, String> {
        let stream = open(request).await?;
        let mut ws = Ws {
            stream,
            version: 0,
            state: Value::Null,
            events: Vec::new(),
            first: Value::Null,
            raw: None,
            chat: Vec::new(),
            muted: Vec::new(),
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
        ws.state = spelled(first["state"].clone());
        ws.first = first;
        Ok(ws)
    }

    /// Sets a message's `changes` on the state held, as the web page does.
    fn apply(&mut self, message: &Value) {
        assert!(
            message.get("state").is_none(),
            "a whole state after the first message: {}",
            brief(message)
        );
        zertz_server::games::wire::changes::apply(&mut self.state, &message["changes"])
            .unwrap_or_else(|e| panic!("{e}: {}", brief(message)));
        self.state = spelled(std::mem::take(&mut self.state));
    }

    /// The next text message as JSON, unchecked.
    async fn raw(&mut self) -> Value {
        let text = next_text(&mut self.stream).await;
        if let Some(raw) = self.raw.as_mut() {
            raw.push(text.clone());
        }
        serde_json::from_str(&text).expect("a JSON message")
    }

    /// From now on, keeps the text of every message received (in `raw`).
    pub fn keep_raw(&mut self) {
        self.raw.get_or_insert_with(Vec::new);
    }

    /// The next message, checked: events in order without gaps, presence at the current
    /// version. An event or a presence is returned with the state held after its changes as
    /// its `state` (the server sends only the changes).
    pub async fn recv(&mut self) -> Value {
        let mut message = self.raw().await;
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
                self.apply(&message);
                assert_eq!(self.state["version"], v, "{}", brief(&message));
                self.version = v;
                self.events.push((v, message["event"].clone()));
                message["state"] = self.state.clone();
            }
            Some("presence") => {
                assert_eq!(message["version"], self.version, "{}", brief(&message));
                self.apply(&message);
                assert_eq!(self.state["version"], self.version, "{}", brief(&message));
                message["state"] = self.state.clone();
            }
            Some("ack") | Some("refused") => {}
            Some("chat_history") => {
                self.chat = message["lines"].as_array().expect("lines").clone();
                self.muted = message["muted"]
                    .as_array()
                    .map(|m| {
                        m.iter()
                            .filter_map(|n| n.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
            }
            Some("chat") => {
                let line = message["line"].clone();
                if let Some(last) = self.chat.last() {
                    assert_eq!(
                        line["seq"].as_i64(),
                        last["seq"].as_i64().map(|s| s + 1),
                        "chat lines in order: {}",
                        brief(&message)
                    );
                }
                self.chat.push(line);
            }
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

    /// Reads messages until a `presence` shows `seat` (1 or 2) connected (or not), and
    /// returns it.
    pub async fn until_presence(&mut self, seat: usize, connected: bool) -> Value {
        self.until(|m| {
            m["type"] == "presence" && m["state"]["seats"][seat - 1]["connected"] == connected
        })
        .await
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
        send(&mut self.stream, text).await;
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

    /// Says `text` in the room and returns the answer (`ack` or `refused`).
    pub async fn say(&mut self, text: &str) -> Value {
        self.act(serde_json::json!({"type": "chat", "text": text}))
            .await
    }

    /// Reads messages until a chat line satisfies `pred`; returns it.
    pub async fn until_line(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        if let Some(line) = self.chat.iter().find(|l| pred(l)) {
            return line.clone();
        }
        loop {
            let m = self.recv().await;
            if m["type"] == "chat" && pred(&m["line"]) {
                return m["line"].clone();
            }
            if m["type"] == "chat_history"
                && let Some(line) = self.chat.iter().find(|l| pred(l))
            {
                return line.clone();
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
    stream: Stream,
    /// The latest state of the match seen.
    pub state: Value,
    /// The room's chat lines seen, in order.
    pub chat: Vec<Value>,
}

impl MatchWs {
    /// Connects; an error is the HTTP status of a refused upgrade (or a description). The
    /// first message must be the match's state.
    pub async fn connect(url: &str) -> Result<MatchWs, String> {
        let stream = open(url).await?;
        let mut ws = MatchWs {
            stream,
            state: Value::Null,
            chat: Vec::new(),
        };
        let first = ws.recv().await;
        assert_eq!(first["type"], "match", "{first}");
        Ok(ws)
    }

    /// The next message (a match's state is kept in `state`).
    pub async fn recv(&mut self) -> Value {
        let value: Value =
            serde_json::from_str(&next_text(&mut self.stream).await).expect("a JSON message");
        if value["type"] == "match" {
            if !self.state.is_null() {
                assert_eq!(value["match"]["id"], self.state["id"], "another match");
            }
            self.state = value["match"].clone();
        }
        match value["type"].as_str() {
            Some("chat_history") => self.chat = value["lines"].as_array().expect("lines").clone(),
            Some("chat") => self.chat.push(value["line"].clone()),
            _ => {}
        }
        value
    }

    /// The next message that is not the match's state nor a chat line (an answer to
    /// something sent).
    pub async fn until_message(&mut self) -> Value {
        loop {
            let m = self.recv().await;
            if !["match", "chat", "chat_history"].contains(&m["type"].as_str().unwrap_or("")) {
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
        send(&mut self.stream, text).await;
    }
}

/// A WebSocket connection to the analysis board's engine (`/api/analysis/ws`).
pub struct AnalysisWs {
    stream: Stream,
}

impl AnalysisWs {
    /// Connects to `ws://ADDR/api/analysis/ws`.
    pub async fn connect(addr: &str) -> AnalysisWs {
        let stream = open(format!("ws://{addr}/api/analysis/ws"))
            .await
            .expect("the analysis WebSocket opens");
        AnalysisWs { stream }
    }

    /// Connects as [`AnalysisWs::connect`] does, from the loopback address `source` (another
    /// client for the server).
    pub async fn connect_from(addr: &str, source: &str) -> AnalysisWs {
        AnalysisWs::connect_as(addr, source, None).await
    }

    /// Connects as [`AnalysisWs::connect_from`] does, with a browser's `Cookie` header (and
    /// the site's own `Origin`): a logged-in account's board.
    pub async fn connect_as(addr: &str, source: &str, cookie: Option<&str>) -> AnalysisWs {
        let origin = format!("http://{addr}");
        AnalysisWs::connect_with(addr, source, cookie, cookie.map(|_| origin.as_str())).await
    }

    /// Connects as [`AnalysisWs::connect_from`] does, with a `Cookie` header and an `Origin`
    /// of one's choosing (another site's page, say).
    pub async fn connect_with(
        addr: &str,
        source: &str,
        cookie: Option<&str>,
        origin: Option<&str>,
    ) -> AnalysisWs {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/api/analysis/ws")
            .into_client_request()
            .expect("a request");
        let headers = request.headers_mut();
        if let Some(cookie) = cookie {
            headers.insert("cookie", cookie.parse().expect("a cookie header"));
        }
        if let Some(origin) = origin {
            headers.insert("origin", origin.parse().expect("an origin"));
        }
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(format!("{source}:0").parse().expect("an address"))
            .expect("bound to the source");
        let tcp = socket
            .connect(addr.parse().expect("the server's address"))
            .await
            .expect("connected");
        let (stream, _) = tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(tcp))
            .await
            .expect("the analysis WebSocket opens");
        AnalysisWs { stream }
    }

    /// The next message.
    pub async fn recv(&mut self) -> Value {
        serde_json::from_str(&next_text(&mut self.stream).await).expect("a JSON message")
    }

    /// Reads messages until one has this `type`; returns it and those skipped.
    pub async fn until_type(&mut self, kind: &str) -> (Value, Vec<Value>) {
        let mut skipped = Vec::new();
        loop {
            let m = self.recv().await;
            if m["type"] == kind {
                return (m, skipped);
            }
            skipped.push(m);
        }
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, message: Value) {
        send(&mut self.stream, message.to_string()).await;
    }
}

/// A guest watching, with the name they gave.
pub async fn guest_watcher(server: &crate::site::Site, id: &str, name: &str) -> Ws {
    let url = format!("{}?name={name}", server.ws_url(id, None, None));
    Ws::connect(&url, None).await.expect("a guest's socket")
}
