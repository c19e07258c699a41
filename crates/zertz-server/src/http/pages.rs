//! The web UI: the static files of the repository's `web/` directory, compiled into the binary
//! and served by `zertz serve` with their content types.
//!
//! Pages: `/` (home), `/lobby`, `/archive`, `/game/{id}`, `/match/{id}`, the players' pages
//! `/players` (the leaderboard) and `/@/{name}` (a profile), the account pages `/login`,
//! `/signup`, `/account` (one file, whose script shows the form the address asks for), and the
//! analysis board `/analysis` with a shared study `/study/{id}` (one file, whose script reads
//! the address: docs/study.md), the puzzle trainer `/puzzles` and `/puzzles/{id}`, the lessons
//! `/learn` (and `/learn/{id}`), the printable rules `/rules` (docs/learning.md) and the
//! tournaments `/tournaments` (an event's page, `/tournament/{id}`, is routed by its feature); every
//! other file under `/static/`. Answers carry an `ETag` and
//! `Cache-Control: no-cache`, so a browser keeps its copy but asks each time whether it is still
//! current (a reload never shows stale files after the binary changed).
//!
//! A page names only its entry modules (`<script type="module" src="/static/js/pages/…">`);
//! the server adds a `<link rel="modulepreload">` for every module they import, directly or
//! not, read from the `import` statements of the modules (docs/web.md, "How the modules are
//! loaded"). The browser then asks for the whole graph at once, instead of one level of imports
//! after the other, and no list is kept by hand.
//!
//! While working on the UI, `ZERTZ_WEB_DIR=web zertz serve` reads the same files from that
//! directory at each request instead, so a change shows without rebuilding the binary (the
//! preload lists are then read from those files at each request too).

use std::borrow::Cow;
use std::sync::LazyLock;

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
    "tournaments.html",
    "tournament.html",
    "room.html",
    "style.css",
    "favicon.svg",
    "manifest.webmanifest",
    "icon-192.png",
    "icon-512.png",
    "js/lib/account.js",
    "js/lib/api.js",
    "js/lib/board.js",
    "js/lib/chat.js",
    "js/lib/clock.js",
    "js/lib/feel.js",
    "js/lib/gamelist.js",
    "js/lib/legal.js",
    "js/lib/moves.js",
    "js/lib/panels.js",
    "js/lib/playable.js",
    "js/lib/position.js",
    "js/lib/prefs.js",
    "js/lib/ratings.js",
    "js/lib/socket.js",
    "js/lib/types.js",
    "js/lib/ui.js",
    "js/pages/analysis/editor.js",
    "js/pages/analysis/engine.js",
    "js/pages/analysis/explorer.js",
    "js/pages/analysis/io.js",
    "js/pages/analysis/main.js",
    "js/pages/analysis/positions.js",
    "js/pages/analysis/review.js",
    "js/pages/analysis/study.js",
    "js/pages/analysis/tree.js",
    "js/pages/analysis/treeview.js",
    "js/pages/archive.js",
    "js/pages/game/actions.js",
    "js/pages/game/berserk.js",
    "js/pages/game/clock.js",
    "js/pages/game/connection.js",
    "js/pages/game/controls.js",
    "js/pages/game/design.js",
    "js/pages/game/gamelink.js",
    "js/pages/game/main.js",
    "js/pages/game/premove.js",
    "js/pages/game/speech.js",
    "js/pages/game/state.js",
    "js/pages/game/view.js",
    "js/pages/home/daily.js",
    "js/pages/home/main.js",
    "js/pages/home/pairing.js",
    "js/pages/learn.js",
    "js/pages/lobby.js",
    "js/pages/login.js",
    "js/pages/match.js",
    "js/pages/missing.js",
    "js/pages/players.js",
    "js/pages/profile.js",
    "js/pages/puzzles.js",
    "js/pages/room.js",
    "js/pages/rules.js",
    "js/pages/tournaments/arena.js",
    "js/pages/tournaments/bracket.js",
    "js/pages/tournaments/create.js",
    "js/pages/tournaments/event.js",
    "js/pages/tournaments/list.js",
    "js/pages/tournaments/tables.js",
    "js/pages/tournaments/words.js",
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
        "webmanifest" => "application/manifest+json",
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
fn load(path: &str) -> Option<Cow<'static, [u8]>> {
    let embedded = file(path)?;
    if let Some(dir) = std::env::var_os("ZERTZ_WEB_DIR")
        && let Ok(bytes) = std::fs::read(std::path::Path::new(&dir).join(path))
    {
        return Some(bytes.into());
    }
    Some(embedded.into())
}

/// The embedded pages with their preload lists, made once.
static PAGES: LazyLock<Vec<(&'static str, Vec<u8>)>> = LazyLock::new(|| {
    FILES
        .iter()
        .filter(|(path, _)| path.ends_with(".html"))
        .map(|(path, bytes)| (*path, with_preloads(bytes, file)))
        .collect()
});

/// The file at `path` as served: a page with its preload lists (see [`with_preloads`]), any
/// other file as it is.
pub fn served(path: &str) -> Option<Cow<'static, [u8]>> {
    if !path.ends_with(".html") {
        return load(path);
    }
    if std::env::var_os("ZERTZ_WEB_DIR").is_some() {
        return load(path).map(|page| with_preloads(&page, load).into());
    }
    PAGES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, bytes)| Cow::Borrowed(bytes.as_slice()))
}

/// Answers with the embedded file `path`, or 304 when the browser's copy is current.
fn serve(path: &str, request: &HeaderMap) -> Response {
    let Some(bytes) = served(path) else {
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

// ---- the preload lists, derived from the imports ----

/// The modules a JavaScript module imports statically (`import … from '…'`, `import '…'`,
/// `export … from '…'`), as paths inside `web/` resolved from the module's own path. Dynamic
/// `import(…)` and imports named in comments are not counted: only statements that begin a
/// line (after blanks) are read, as every module of `web/` writes them.
pub fn imports(module: &str, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut statement = String::new();
    for line in source.lines() {
        let line = line.trim_start();
        if statement.is_empty() {
            let starts = line
                .strip_prefix("import")
                .is_some_and(|rest| rest.starts_with([' ', '{', '*', '\'', '"']))
                || line.starts_with("export {")
                || line.starts_with("export *");
            if !starts {
                continue;
            }
        }
        statement.push_str(line);
        statement.push(' ');
        // A statement ends with its `;`, or with the line that names the module.
        if !(line.contains(';') || specifier(&statement).is_some()) {
            continue;
        }
        if let Some(spec) = specifier(&statement)
            && let Some(path) = resolve(module, spec)
            && !out.contains(&path)
        {
            out.push(path);
        }
        statement.clear();
    }
    out
}

/// The module named by an import or export statement: the quoted text after `from`, or right
/// after `import` (`import './x.js';`).
fn specifier(statement: &str) -> Option<&str> {
    let rest = if let Some(at) = statement.rfind(" from") {
        &statement[at + " from".len()..]
    } else {
        statement.strip_prefix("import")?
    };
    let rest = rest.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = &rest[1..];
    body.find(quote).map(|end| &body[..end])
}

/// `spec` (`./x.js`, `../lib/x.js`, `/static/js/x.js`) imported by `module` (a path inside
/// `web/`), as a path inside `web/`; None for a module of another site or a bare name.
fn resolve(module: &str, spec: &str) -> Option<String> {
    let mut parts: Vec<&str> = if let Some(absolute) = spec.strip_prefix("/static/") {
        return Some(absolute.to_string());
    } else if spec.starts_with("./") || spec.starts_with("../") {
        module.split('/').collect()
    } else {
        return None;
    };
    parts.pop(); // the module's own file name
    for part in spec.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

/// The module scripts of a page (`<script type="module" src="/static/…">`), as paths inside
/// `web/`.
pub fn entries(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<script") {
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e);
        let tag = &rest[at..tag_end];
        if tag.contains("type=\"module\"")
            && let Some(src) = tag.split("src=\"").nth(1).and_then(|s| s.split('"').next())
            && let Some(path) = src.strip_prefix("/static/")
        {
            out.push(path.to_string());
        }
        rest = &rest[tag_end..];
    }
    out
}

/// Every module a page loads besides its scripts: what they import, and what those import, in
/// the order they are first met. `source(path)` reads a module (None: not a file of `web/`).
pub fn preloads<S: AsRef<[u8]>>(html: &str, source: impl Fn(&str) -> Option<S>) -> Vec<String> {
    let roots = entries(html);
    let mut seen: Vec<String> = roots.clone();
    let mut out = Vec::new();
    let mut next = 0;
    let mut queue = roots;
    while next < queue.len() {
        let module = queue[next].clone();
        next += 1;
        let Some(bytes) = source(&module) else {
            continue;
        };
        let text = String::from_utf8_lossy(bytes.as_ref());
        for dep in imports(&module, &text) {
            if !seen.contains(&dep) {
                seen.push(dep.clone());
                out.push(dep.clone());
                queue.push(dep);
            }
        }
    }
    out
}

/// `html` with a `<link rel="modulepreload">` for each module of `preloads` put before
/// `</head>`, so that the browser asks for the whole import graph at once instead of one level
/// of imports after the other.
fn with_preloads<S: AsRef<[u8]>>(html: &[u8], source: impl Fn(&str) -> Option<S>) -> Vec<u8> {
    let text = String::from_utf8_lossy(html);
    let modules = preloads(&text, source);
    let Some(at) = text.find("</head>") else {
        return html.to_vec();
    };
    let links: String = modules
        .iter()
        .map(|m| format!("<link rel=\"modulepreload\" href=\"/static/{m}\">\n"))
        .collect();
    let mut out = String::with_capacity(text.len() + links.len());
    out.push_str(&text[..at]);
    out.push_str(&links);
    out.push_str(&text[at..]);
    out.into_bytes()
}

/// The page `name` answered with status 404: for an address of the right shape naming
/// something that does not exist (`/game/nosuch`), where the page itself says what is missing.
pub fn missing(name: &str) -> Response {
    match served(name) {
        Some(body) => (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, content_type(name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body.into_owned(),
        )
            .into_response(),
        None => not_found(),
    }
}

/// The page `name`, as `/static/` serves it (200, or 304 when the browser's copy is current).
pub fn page(name: &str, request: &HeaderMap) -> Response {
    serve(name, request)
}

/// The page for an address that leads nowhere: `404.html` when the web UI has one, else a
/// plain page, with status 404 either way.
pub fn not_found() -> Response {
    const PLAIN: &str = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Not found · \
         ZÈRTZ</title><h1>Nothing here</h1><p>There is no page at this address.</p><p><a href=\"/\">Play ZÈRTZ</a> · \
         <a href=\"/lobby\">the lobby</a> · <a href=\"/archive\">the archive</a></p>";
    let body = served("404.html").map_or_else(|| PLAIN.as_bytes().to_vec(), |b| b.into_owned());
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

/// The routes of the web UI (no state; merge with the API's router). The pages' preload lists
/// are made here, when the server starts, rather than at the first request.
pub fn router() -> Router {
    LazyLock::force(&PAGES);
    let page =
        |name: &'static str| get(move |headers: HeaderMap| async move { serve(name, &headers) });
    Router::new()
        .route("/", page("index.html"))
        .route("/lobby", page("lobby.html"))
        .route("/room", page("room.html"))
        .route("/archive", page("archive.html"))
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
        .route("/tournaments", page("tournaments.html"))
        .route("/favicon.ico", page("favicon.svg"))
        .route(
            "/static/{*path}",
            get(|Path(path): Path<String>, headers: HeaderMap| async move { serve(&path, &headers) }),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_are_read_from_the_statements_only() {
        let source = "// @ts-check\n\
            // A comment naming import './not-this.js' and from './nor-this.js'\n\
            import { a, b } from './a.js';\n\
            import * as c from \"../lib/c.js\";\n\
            import {\n  d,\n  e,\n} from './d.js';\n\
            import './side-effect.js';\n\
            export { f } from './f.js';\n\
            export * from '/static/js/lib/g.js';\n\
            export { local };\n\
            export function h() { return import('./dynamic.js'); }\n\
            /** @param {import('./types.js').GameState} s */\n\
            const x = \" from './in-a-string.js'\";\n\
            import { again } from './a.js';\n\
            import { other } from 'https://example.org/x.js';\n";
        assert_eq!(
            imports("js/pages/game/main.js", source),
            [
                "js/pages/game/a.js",
                "js/pages/lib/c.js",
                "js/pages/game/d.js",
                "js/pages/game/side-effect.js",
                "js/pages/game/f.js",
                "js/lib/g.js",
            ]
        );
        assert_eq!(
            resolve("js/pages/x.js", "../../../x.js"),
            None,
            "out of web/"
        );
    }

    #[test]
    fn a_page_preloads_what_its_scripts_import_and_no_more() {
        let files = [
            (
                "js/pages/p.js",
                "import { a } from '../lib/a.js';\nimport { b } from '../lib/b.js';\n",
            ),
            ("js/lib/a.js", "import { c } from './c.js';\n"),
            ("js/lib/b.js", "import { a } from './a.js';\n"),
            ("js/lib/c.js", "import { a } from './a.js';\n"),
            ("js/pages/second.js", "import { c } from '../lib/c.js';\n"),
            ("js/lib/unused.js", ""),
        ];
        let source = |path: &str| {
            files
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(_, s)| s.as_bytes())
        };
        let html = "<head><script type=\"module\" src=\"/static/js/pages/p.js\"></script>\n\
            <script type=\"module\" src=\"/static/js/pages/second.js\"></script>\n</head>";
        assert_eq!(entries(html), ["js/pages/p.js", "js/pages/second.js"]);
        assert_eq!(
            preloads(html, source),
            ["js/lib/a.js", "js/lib/b.js", "js/lib/c.js"]
        );
        let page = with_preloads(html.as_bytes(), source);
        let page = String::from_utf8(page).expect("UTF-8");
        assert!(
            page.ends_with(
                "<link rel=\"modulepreload\" href=\"/static/js/lib/a.js\">\n\
                 <link rel=\"modulepreload\" href=\"/static/js/lib/b.js\">\n\
                 <link rel=\"modulepreload\" href=\"/static/js/lib/c.js\">\n</head>"
            ),
            "{page}"
        );
    }
}
