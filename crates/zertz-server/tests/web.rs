//! The web UI's files: every file of `web/` is embedded, and each is served with its content
//! type and cache headers that let a reload see a new binary's files.

use std::collections::BTreeSet;
use std::path::Path;

use zertz_server::http::pages as web;

/// Every file under `dir`, as paths relative to `root` with `/` separators.
fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("read web/") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("under web/");
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn every_file_of_web_is_embedded() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut on_disk = BTreeSet::new();
    walk(&root, &root, &mut on_disk);
    let embedded: BTreeSet<String> = web::FILES.iter().map(|(p, _)| p.to_string()).collect();
    assert_eq!(
        on_disk, embedded,
        "web/ and web::FILES differ: add new files to FILES in http/pages.rs"
    );
    for (path, bytes) in web::FILES {
        assert!(!bytes.is_empty(), "{path} is empty");
        assert_ne!(
            web::content_type(path),
            "application/octet-stream",
            "{path} has no content type"
        );
    }
}

async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        axum::serve(listener, web::router()).await.expect("serve");
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn pages_and_files_have_their_content_types() {
    let base = serve().await;
    let client = reqwest::Client::new();
    let cases = [
        ("/", "text/html; charset=utf-8", "index.html"),
        ("/lobby", "text/html; charset=utf-8", "lobby.html"),
        ("/archive", "text/html; charset=utf-8", "archive.html"),
        ("/game/abc123", "text/html; charset=utf-8", "game.html"),
        ("/match/m42", "text/html; charset=utf-8", "match.html"),
        ("/login", "text/html; charset=utf-8", "account.html"),
        ("/signup", "text/html; charset=utf-8", "account.html"),
        ("/account", "text/html; charset=utf-8", "account.html"),
        ("/players", "text/html; charset=utf-8", "players.html"),
        ("/@/Ann", "text/html; charset=utf-8", "profile.html"),
        ("/@/some-one_2", "text/html; charset=utf-8", "profile.html"),
        ("/analysis", "text/html; charset=utf-8", "analysis.html"),
        ("/study/s1x", "text/html; charset=utf-8", "analysis.html"),
        ("/learn", "text/html; charset=utf-8", "learn.html"),
        (
            "/learn/chain-capture",
            "text/html; charset=utf-8",
            "learn.html",
        ),
        ("/rules", "text/html; charset=utf-8", "rules.html"),
        (
            "/static/js/analysis/tree.js",
            "text/javascript; charset=utf-8",
            "js/analysis/tree.js",
        ),
        (
            "/static/js/chat.js",
            "text/javascript; charset=utf-8",
            "js/chat.js",
        ),
        ("/static/style.css", "text/css; charset=utf-8", "style.css"),
        (
            "/static/js/game.js",
            "text/javascript; charset=utf-8",
            "js/game.js",
        ),
        ("/static/favicon.svg", "image/svg+xml", "favicon.svg"),
    ];
    for (path, content_type, file) in cases {
        let res = client
            .get(format!("{base}{path}"))
            .send()
            .await
            .expect("GET");
        assert_eq!(res.status(), 200, "{path}");
        let headers = res.headers().clone();
        assert_eq!(headers["content-type"], content_type, "{path}");
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        let etag = headers["etag"].to_str().expect("etag").to_string();
        let body = res.bytes().await.expect("body");
        assert_eq!(&body[..], web::file(file).expect("embedded"), "{path}");

        // The browser's copy is still current: 304 with no body.
        let again = client
            .get(format!("{base}{path}"))
            .header("If-None-Match", &etag)
            .send()
            .await
            .expect("GET");
        assert_eq!(again.status(), 304, "{path}");
        assert!(again.bytes().await.expect("body").is_empty());
    }
}

#[tokio::test]
async fn unknown_files_are_not_found() {
    let base = serve().await;
    for path in ["/static/nope.js", "/static/../Cargo.toml", "/static/js"] {
        let res = reqwest::get(format!("{base}{path}")).await.expect("GET");
        assert_eq!(res.status(), 404, "{path}");
    }
}

/// The Content-Security-Policy (`http::headers`) allows no inline script or style: a page
/// must load its scripts and styles from files and set no `style` or `on…` attribute.
#[test]
fn pages_have_no_inline_script_or_style() {
    for (path, bytes) in web::FILES.iter().filter(|(p, _)| p.ends_with(".html")) {
        let text = std::str::from_utf8(bytes).expect("UTF-8");
        let lower = text.to_lowercase();
        let mut rest = lower.as_str();
        while let Some(at) = rest.find("<script") {
            let tag = &rest[at..at + rest[at..].find('>').expect("a closed tag")];
            assert!(tag.contains(" src="), "{path}: inline script {tag}");
            rest = &rest[at + tag.len()..];
        }
        assert!(!lower.contains("<style"), "{path}: a <style> element");
        assert!(!lower.contains(" style=\""), "{path}: a style attribute");
        for word in lower.split_whitespace() {
            let name = word.split('=').next().unwrap_or("");
            let handler = word.contains('=') && name.starts_with("on") && name.len() > 3;
            assert!(!handler, "{path}: an inline event handler {word}");
        }
    }
}
