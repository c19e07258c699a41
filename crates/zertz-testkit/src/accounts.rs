//! A browser-like client of `zertz serve` for the account tests: it keeps its own cookies
//! (the session and device keys) and sends the server's own origin with every request, as the
//! site's pages do; a test may send another origin to play a hostile site.

use std::collections::BTreeMap;

use reqwest::Method;
use serde_json::{Value, json};

use crate::site::{Site, string};
use crate::ws::Ws;

/// The cookie of the session key.
pub const SESSION: &str = "zertz_session";
/// The cookie of the device key.
pub const DEVICE: &str = "zertz_device";

/// An answer: status, JSON body (a string when not JSON) and the `Set-Cookie` headers.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Value,
    /// Every `Set-Cookie` header, as sent.
    pub set_cookies: Vec<String>,
    /// `Retry-After`, if any.
    pub retry_after: Option<u64>,
}

/// One browser: its cookies and where its pages come from.
pub struct Browser {
    base: String,
    /// `Origin` sent with every request (the server's own unless changed).
    pub origin: Option<String>,
    /// `Sec-Fetch-Site` sent with every request, if set.
    pub fetch_site: Option<String>,
    /// The cookies it holds.
    pub cookies: BTreeMap<String, String>,
    /// `X-Forwarded-For` sent with every request, if set: the address a browser behind a
    /// trusted proxy comes from (`zertz serve --trusted-proxy 127.0.0.1`).
    pub forwarded_for: Option<String>,
    http: reqwest::Client,
}

impl Browser {
    /// A new browser with no cookies, on `server`'s pages.
    pub fn new(server: &Site) -> Browser {
        Browser {
            base: format!("http://{}", server.addr),
            origin: Some(format!("http://{}", server.addr)),
            fetch_site: None,
            cookies: BTreeMap::new(),
            forwarded_for: None,
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(60))
                .build()
                .expect("HTTP client"),
        }
    }

    /// The `Cookie` header it sends.
    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// A request; the cookies the answer sets are kept (or dropped, at `Max-Age=0`).
    pub async fn send(&mut self, method: Method, path: &str, body: Option<&Value>) -> Answer {
        self.send_with(method, path, body, None).await
    }

    /// A request with a seat token too.
    pub async fn send_with(
        &mut self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> Answer {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(body);
        }
        if !self.cookies.is_empty() {
            request = request.header("cookie", self.cookie_header());
        }
        if let Some(origin) = &self.origin {
            request = request.header("origin", origin);
        }
        if let Some(site) = &self.fetch_site {
            request = request.header("sec-fetch-site", site);
        }
        if let Some(address) = &self.forwarded_for {
            request = request.header("x-forwarded-for", address);
        }
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let set_cookies: Vec<String> = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().expect("ASCII cookie").to_string())
            .collect();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        for cookie in &set_cookies {
            let first = cookie.split(';').next().unwrap_or("");
            if let Some((name, value)) = first.split_once('=') {
                if cookie.contains("Max-Age=0") || value.is_empty() {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_string(), value.to_string());
                }
            }
        }
        let text = response.text().await.expect("body");
        let body = read_json(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            body,
            set_cookies,
            retry_after,
        }
    }

    /// `GET path`.
    pub async fn get(&mut self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::POST, path, Some(&body)).await
    }

    /// `PUT path` with a JSON body.
    pub async fn put(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::PUT, path, Some(&body)).await
    }

    /// `DELETE path`.
    pub async fn delete(&mut self, path: &str) -> Answer {
        self.send(Method::DELETE, path, None).await
    }

    /// Signs up.
    pub async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        self.post("/api/accounts", json!({"name": name, "password": password}))
            .await
    }

    /// Signs up; must succeed.
    pub async fn sign_up_ok(&mut self, name: &str, password: &str) {
        let a = self.sign_up(name, password).await;
        assert_eq!(a.status, 201, "sign up {name}: {:?}", a.body);
    }

    /// Logs in.
    pub async fn log_in(&mut self, name: &str, password: &str) -> Answer {
        self.post("/api/session", json!({"name": name, "password": password}))
            .await
    }

    /// Who the server says is logged in (`None` for a guest: `{"name": null}`, status 200).
    pub async fn me(&mut self) -> Option<String> {
        let a = self.get("/api/me").await;
        assert_eq!(a.status, 200, "GET /api/me: {:?}", a.body);
        match &a.body["name"] {
            Value::String(name) => Some(name.clone()),
            Value::Null => None,
            other => panic!("GET /api/me: name {other}"),
        }
    }

    /// The session key it holds.
    pub fn session_key(&self) -> Option<&str> {
        self.cookies.get(SESSION).map(String::as_str)
    }

    /// Opens a game's WebSocket with its cookies (and a token if given).
    pub async fn ws(&self, server: &Site, id: &str, token: Option<&str>) -> Result<Ws, String> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = server
            .ws_url(id, token, None)
            .into_client_request()
            .expect("a WebSocket request");
        let headers = request.headers_mut();
        if !self.cookies.is_empty() {
            headers.insert("cookie", self.cookie_header().parse().expect("cookie"));
        }
        if let Some(origin) = &self.origin {
            headers.insert("origin", origin.parse().expect("origin"));
        }
        Ws::connect_request(request, None).await
    }
}

/// JSON text read without serde_json's depth limit: a study's tree nests two levels a move, and a
/// long line goes deeper than the default 128.
fn read_json(text: &str) -> Option<Value> {
    let mut reader = serde_json::Deserializer::from_str(text);
    reader.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(value)
}

/// Ten minutes and five seconds a turn: 10 + 20 × 5 s = 11.7 minutes, a rapid game.
pub fn rapid() -> Value {
    json!({"kind": "fischer", "base_ms": 600_000, "increment_ms": 5_000})
}

/// A rated game by `ann` (seat 1) against an invited `bob` who joins: (id, tokens).
pub async fn rated_game(ann: &mut Browser, bob: &mut Browser) -> (String, [String; 2]) {
    let created = ann
        .post(
            "/api/games",
            json!({"opponent": {"kind": "invite"}, "rated": true, "clock": rapid()}),
        )
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = string(&created.body["id"]);
    let joined = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"token": created.body["invite_token"]}),
        )
        .await;
    assert_eq!(joined.status, 200, "{:?}", joined.body);
    (
        id,
        [
            string(&created.body["token"]),
            string(&joined.body["token"]),
        ],
    )
}

/// A player's profile (`GET /api/players/{name}`); must succeed.
pub async fn profile(server: &Site, name: &str) -> Value {
    let (status, body) = server.get(&format!("/api/players/{name}"), None).await;
    assert_eq!(status, 200, "{body}");
    body
}
