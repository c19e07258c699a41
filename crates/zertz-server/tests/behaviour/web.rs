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
        // `/game/{id}` is served by the games' routes, which know whether the game exists
        // (behaviour/games.rs, `the_page_of_an_unknown_game_answers_404`).
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
            "/static/js/pages/analysis/tree.js",
            "text/javascript; charset=utf-8",
            "js/pages/analysis/tree.js",
        ),
        (
            "/static/js/lib/chat.js",
            "text/javascript; charset=utf-8",
            "js/lib/chat.js",
        ),
        ("/static/style.css", "text/css; charset=utf-8", "style.css"),
        (
            "/static/js/pages/game/main.js",
            "text/javascript; charset=utf-8",
            "js/pages/game/main.js",
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
        // A page as served: the file with its preload list (http/pages.rs).
        assert_eq!(
            &body[..],
            &web::served(file).expect("embedded")[..],
            "{path}"
        );

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

/// The modules a module of `web/` imports, read by this test on its own from the files on disk
/// (one statement a line, as the modules write them): `import … from '…'`, `import '…'`,
/// `export … from '…'`, resolved from the module's folder.
fn imported_by(root: &Path, module: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(module)).expect("a module of web/");
    let folder = Path::new(module).parent().expect("a folder");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim_start) {
        let named = if line.starts_with("import ") || line.starts_with("export ") {
            line.split_once(" from ").map(|(_, rest)| rest.trim_start())
        } else {
            None
        };
        // `import './x.js';` names its module right after `import`.
        let Some(quoted) = named.or_else(|| line.strip_prefix("import ")) else {
            continue;
        };
        if !quoted.starts_with(['\'', '"']) {
            continue;
        }
        let Some(spec) = quoted.split(['\'', '"']).nth(1) else {
            continue;
        };
        let mut parts: Vec<String> = folder
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        for part in spec.split('/') {
            match part {
                "." => {}
                ".." => {
                    parts.pop();
                }
                name => parts.push(name.to_string()),
            }
        }
        out.push(parts.join("/"));
    }
    out
}

/// A page names only its entry modules; the server preloads every module they import, directly
/// or not, once each and nothing else (the lists kept by hand had drifted: `analysis.html`
/// missed 8 of 18). Every address preloaded is served, as JavaScript.
#[tokio::test]
async fn every_page_preloads_every_module_its_scripts_import() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let base = serve().await;
    let client = reqwest::Client::new();
    let mut checked = 0;
    for (page, bytes) in web::FILES.iter().filter(|(p, _)| p.ends_with(".html")) {
        let on_disk = std::str::from_utf8(bytes).expect("UTF-8");
        assert!(
            !on_disk.contains("modulepreload"),
            "{page}: a preload list kept by hand (the server makes them)"
        );
        let body = client
            .get(format!("{base}/static/{page}"))
            .send()
            .await
            .expect("GET")
            .text()
            .await
            .expect("body");
        let attribute = |tag: &str, name: &str| -> Vec<String> {
            body.split(tag)
                .skip(1)
                .filter_map(|rest| rest.split(&format!("{name}=\"/static/")).nth(1))
                .filter_map(|rest| rest.split('"').next())
                .map(str::to_string)
                .collect()
        };
        let scripts = attribute("<script type=\"module\"", "src");
        let preloaded = attribute("<link rel=\"modulepreload\"", "href");
        // What the scripts import, directly or not, as this test reads the files.
        let mut wanted = BTreeSet::new();
        let mut todo = scripts.clone();
        while let Some(module) = todo.pop() {
            for dep in imported_by(&root, &module) {
                if !scripts.contains(&dep) && wanted.insert(dep.clone()) {
                    todo.push(dep);
                }
            }
        }
        let unique: BTreeSet<String> = preloaded.iter().cloned().collect();
        assert_eq!(
            unique.len(),
            preloaded.len(),
            "{page}: a module preloaded twice"
        );
        assert_eq!(unique, wanted, "{page}: preloaded ≠ imported");
        for module in &preloaded {
            let res = client
                .get(format!("{base}/static/{module}"))
                .send()
                .await
                .expect("GET");
            assert_eq!(res.status(), 200, "{page}: {module}");
            assert_eq!(
                res.headers()["content-type"],
                "text/javascript; charset=utf-8",
                "{module}"
            );
        }
        if !scripts.is_empty() {
            checked += 1;
        }
    }
    assert!(checked >= 13, "every page has a script ({checked})");
    // A page's address serves the same page, preloads included.
    let analysis = reqwest::get(format!("{base}/analysis"))
        .await
        .expect("GET")
        .text()
        .await
        .expect("body");
    assert!(
        analysis
            .contains("<link rel=\"modulepreload\" href=\"/static/js/pages/analysis/tree.js\">"),
        "{analysis}"
    );
}
