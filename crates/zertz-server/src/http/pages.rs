//! The web UI: the static files of the repository's `web/` directory, compiled into the binary
//! and served by `zertz serve` with their content types.
//!
//! Pages: `/` (home), `/lobby`, `/archive`, `/game/{id}`, `/match/{id}`, the players' pages
//! `/players` (the leaderboard) and `/@/{name}` (a profile), the account pages `/login`,
//! `/signup`, `/account` (one file, whose script shows the form the address asks for), and the
//! analysis board `/analysis` with a shared study `/study/{id}` (one file, whose script reads
//! the address: docs/study.md), the puzzle trainer `/puzzles` and `/puzzles/{id}`, the lessons
//! `/learn` (and `/learn/{id}`) and the printable rules `/rules` (docs/learning.md); every
//! other file under `/static/`. Answers carry an `ETag` and
//! `Cache-Control: no-cache`, so a browser keeps its copy but asks each time whether it is still
//! current (a reload never shows stale files after the binary changed).
//!
//! While working on the UI, `ZERTZ_WEB_DIR=web zertz serve` reads the same files from that
//! directory at each request instead, so a change shows without rebuilding the binary.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/", $path)))),*]
    };
}

/// Every file of `web/`, by its path inside `web/`. A test checks that the list is complete.
pub const FILES: &[(&str, &[u8])] = embed![
    "index.html",
    "lobby.html",
    "game.html",
    "match.html",
    "archive.html",
    "account.html",
    "profile.html",
    "players.html",
    "404.html",
    "analysis.html",
    "puzzles.html",
    "learn.html",
    "rules.html",
    "style.css",
    "favicon.svg",
    "js/api.js",
    "js/socket.js",
    "js/legal.js",
    "js/position.js",
    "js/board.js",
    "js/moves.js",
    "js/clock.js",
    "js/ui.js",
    "js/panels.js",
    "js/home.js",
    "js/pairing.js",
    "js/lobby.js",
    "js/game.js",
    "js/design.js",
    "js/match.js",
    "js/archive.js",
    "js/gamelist.js",
    "js/account.js",
    "js/login.js",
    "js/chat.js",
    "js/ratings.js",
    "js/profile.js",
    "js/players.js",
    "js/prefs.js",
    "js/feel.js",
    "js/missing.js",
    "js/puzzles.js",
    "js/daily.js",
    "js/analysis/main.js",
    "js/analysis/positions.js",
    "js/analysis/tree.js",
    "js/analysis/treeview.js",
    "js/analysis/editor.js",
    "js/analysis/engine.js",
    "js/analysis/explorer.js",
    "js/analysis/io.js",
    "js/analysis/review.js",
    "js/analysis/study.js",
    "js/analysis/gamelink.js",
    "js/learn.js",
    "js/rules.js",
];

/// The content type of a file, from its extension.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The embedded file at `path` (inside `web/`).
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

/// A strong entity tag for some bytes (FNV-1a, 64 bits).
fn etag(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("\"{h:016x}-{}\"", bytes.len())
}

/// The file from `$ZERTZ_WEB_DIR` when set (for work on the UI), else the embedded one. Only
/// the files of [`FILES`] are ever served.
fn load(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    let embedded = file(path)?;
    if let Some(dir) = std::env::var_os("ZERTZ_WEB_DIR") {
        if let Ok(bytes) = std::fs::read(std::path::Path::new(&dir).join(path)) {
            return Some(bytes.into());
        }
    }
    Some(embedded.into())
}

/// Answers with the embedded file `path`, or 304 when the browser's copy is current.
fn serve(path: &str, request: &HeaderMap) -> Response {
    let Some(bytes) = load(path) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no file /static/{path}"),
        )
            .into_response();
    };
    let tag = etag(&bytes);
    let fresh = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if let Ok(value) = HeaderValue::from_str(&tag) {
        headers.insert(header::ETAG, value);
    }
    if fresh {
        (StatusCode::NOT_MODIFIED, headers).into_response()
    } else {
        (StatusCode::OK, headers, bytes.into_owned()).into_response()
    }
}

/// The page for an address that leads nowhere: `404.html` when the web UI has one, else a
/// plain page, with status 404 either way.
pub fn not_found() -> Response {
    const PLAIN: &str = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Not found · \
         ZÈRTZ</title><h1>Nothing here</h1><p>There is no page at this address.</p><p><a href=\"/\">Play ZÈRTZ</a> · \
         <a href=\"/lobby\">the lobby</a> · <a href=\"/archive\">the archive</a></p>";
    let body = load("404.html").map_or_else(|| PLAIN.as_bytes().to_vec(), |b| b.into_owned());
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

/// The routes of the web UI (no state; merge with the API's router).
pub fn router() -> Router {
    let page =
        |name: &'static str| get(move |headers: HeaderMap| async move { serve(name, &headers) });
    Router::new()
        .route("/", page("index.html"))
        .route("/lobby", page("lobby.html"))
        .route("/archive", page("archive.html"))
        .route("/game/{id}", page("game.html"))
        .route("/match/{id}", page("match.html"))
        .route("/login", page("account.html"))
        .route("/signup", page("account.html"))
        .route("/account", page("account.html"))
        .route("/players", page("players.html"))
        .route("/@/{name}", page("profile.html"))
        .route("/analysis", page("analysis.html"))
        .route("/study/{id}", page("analysis.html"))
        .route("/puzzles", page("puzzles.html"))
        .route("/puzzles/{id}", page("puzzles.html"))
        .route("/learn", page("learn.html"))
        .route("/learn/{id}", page("learn.html"))
        .route("/rules", page("rules.html"))
        .route("/favicon.ico", page("favicon.svg"))
        .route(
            "/static/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move { serve(&path, &headers) }),
        )
}
