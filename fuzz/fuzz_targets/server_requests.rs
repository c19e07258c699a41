#![no_main]
//! Any bytes as the body of one of the server's requests (creating a game or a match, an action,
//! joining, importing a record, setting up or playing a position, signing up and logging in),
//! sent through the real router in-process on a SQLite file: never panics, never answers 500
//! (input is refused with a 4xx naming what was wrong). The first byte chooses the request; the
//! game acted in is made once per process, so actions reach the rules rather than a 404 (once
//! an input has ended that game, later actions meet a finished game).

use std::net::SocketAddr;
use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, header};
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

/// The runtime, the routes and a game in play (its id and its first seat's token).
struct Harness {
    runtime: tokio::runtime::Runtime,
    app: axum::Router,
    game: String,
    token: String,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        // In memory when /dev/shm is there: every accepted request writes to the store.
        let dir = std::path::Path::new("/dev/shm");
        let dir = if dir.is_dir() {
            dir.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let db = dir.join(format!("zertz-fuzz-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&db);
        // Every request comes from one address: without unlimited rates nearly all would be
        // refused with 429 before reaching the code under test.
        let config = zertz_server::Config {
            engine_move_time: std::time::Duration::from_millis(5),
            engine_slots: 1,
            http_rate: zertz_server::rate::Rate::unlimited(),
            action_rate: zertz_server::rate::Rate::unlimited(),
            analysis_time: std::time::Duration::from_millis(20),
            ..zertz_server::Config::default()
        };
        let (app, _hub) = runtime
            .block_on(zertz_server::app(db.to_str().expect("a path"), config))
            .expect("the service starts");
        let body = br#"{"opponent": {"kind": "invite"}, "name": "Alice"}"#;
        let (status, created) = runtime.block_on(send(&app, "POST", "/api/games", None, body));
        assert_eq!(status, 201, "{}", String::from_utf8_lossy(&created));
        let created: serde_json::Value = serde_json::from_slice(&created).expect("JSON");
        let game = created["id"].as_str().expect("an id").to_string();
        let token = created["token"].as_str().expect("a token").to_string();
        let invite = created["invite_token"].as_str().expect("an invitation");
        let join = serde_json::json!({"name": "Bob", "token": invite}).to_string();
        let path = format!("/api/games/{game}/join");
        let (status, _) = runtime.block_on(send(&app, "POST", &path, None, join.as_bytes()));
        assert_eq!(status, 200);
        Harness {
            runtime,
            app,
            game,
            token,
        }
    })
}

/// Sends one request from a loopback client; the status and the body.
async fn send(
    app: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &[u8],
) -> (u16, Vec<u8>) {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let mut request = request.body(Body::from(body.to_vec())).expect("a request");
    let peer: SocketAddr = "127.0.0.1:40000".parse().expect("an address");
    request.extensions_mut().insert(ConnectInfo(peer));
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    (status, bytes)
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let h = harness();
    let game = &h.game;
    // Signing up and logging in hash a password (Argon2id, 19 MiB, tens of milliseconds): they
    // get 2 of the 256 values each, the fast requests the rest.
    let request = match which {
        252 | 253 => 7,
        254 | 255 => 8,
        _ => match which % 8 {
            7 => 9,
            n => n,
        },
    };
    let (method, path, token) = match request {
        0 => ("POST", "/api/games".to_string(), None),
        1 => ("POST", "/api/matches".to_string(), None),
        2 => (
            "POST",
            format!("/api/games/{game}/action"),
            Some(h.token.as_str()),
        ),
        3 => ("POST", format!("/api/games/{game}/join"), None),
        4 => ("POST", "/api/import".to_string(), None),
        5 => ("POST", "/api/position/setup".to_string(), None),
        6 => ("POST", "/api/position/play".to_string(), None),
        7 => ("POST", "/api/accounts".to_string(), None),
        8 => ("POST", "/api/session".to_string(), None),
        _ => ("POST", "/api/reviews".to_string(), None),
    };
    let (status, answer) = h.runtime.block_on(send(&h.app, method, &path, token, body));
    // 503 is a refusal the service gives under load (a full review queue), not a failure.
    assert!(
        status != 500,
        "{method} {path} answered {status}: {}",
        String::from_utf8_lossy(&answer)
    );
});
