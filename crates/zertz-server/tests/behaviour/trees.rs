//! `POST /api/trees/import` and `POST /api/trees/export` on a running server: each kind of text
//! in, each format out, round trips, bad text refused with the token and where, and the body
//! limit.

use std::net::SocketAddr;

use serde_json::{Value, json};
use zertz::tree::GameTree;
use zertz_server::Config;
use zertz_server::http::limit::MAX_BODY;
use zertz_server::study::trees::json::MAX_DEPTH;

/// A server on a free loopback port with a fresh SQLite file; its base URL.
async fn serve() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("trees.db").display().to_string();
    let (tx, rx) = tokio::sync::oneshot::channel::<SocketAddr>();
    tokio::spawn(async move {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        zertz_server::serve(addr, &db, Config::default(), move |a| {
            let _ = tx.send(a);
        })
        .await
        .expect("serve");
    });
    let addr = rx.await.expect("the server says where it listens");
    (dir, format!("http://{addr}"))
}

async fn post(base: &str, path: &str, body: &Value) -> (u16, Value) {
    let res = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(body)
        .send()
        .await
        .expect("POST");
    let status = res.status().as_u16();
    let bytes = res.bytes().await.expect("a body");
    // Deep trees nest deeper than serde_json's default limit of 128.
    let mut de = serde_json::Deserializer::from_slice(&bytes);
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de).expect("a JSON answer");
    (status, value)
}

const RECORD: &str = "[Player1 \"Ann\"]\n[Player2 \"Ben\"]\n\n\
    {a short game} 1. Wd4,a1 Gb2,g4 {solid} (1... Bb2,g4 2. Wf2,a2) 2. Bf2,a2 *\n";

const SGF: &str = "(;GM[22]VV[2]SU[Zertz]P0[id \"ann\"]P1[id \"ben\"]\n\
    ; P0[0 Start P0]\n; P0[1 RtoB 2 0 D 4]\n; P0[2 R- D 1]\n; P0[3 Done]C[opening]\n\
    (; P1[4 RtoB 2 2 D 5]\n; P1[5 R- A 1]\n; P1[6 Done])\n\
    (; P1[4 RtoB 2 1 C 3]\n; P1[5 R- G 4]\n; P1[6 Done]C[calmer])\n)";

const POSITION: &str =
    "37 standard -.../...../....../...W.../....../...../.... 5/8/10 0/0/0 0/0/0 2";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_text_imports() {
    let (_dir, base) = serve().await;
    let (status, tree) = post(&base, "/api/trees/import", &json!({ "text": RECORD })).await;
    assert_eq!(status, 200, "{tree}");
    assert_eq!(tree["comment"], "a short game");
    assert_eq!(tree["headers"]["Player1"], "Ann");
    assert_eq!(tree["children"][0]["move"], "Wd4,a1");
    let second = &tree["children"][0]["children"];
    assert_eq!(second[0]["move"], "Gb2,g4");
    assert_eq!(second[0]["comment"], "solid");
    assert_eq!(second[1]["move"], "Bb2,g4");
    assert_eq!(second[1]["children"][0]["move"], "Wf2,a2");
    assert_eq!(second[0]["children"][0]["move"], "Bf2,a2");

    let (status, tree) = post(&base, "/api/trees/import", &json!({ "text": SGF })).await;
    assert_eq!(status, 200, "{tree}");
    assert_eq!(tree["headers"]["Player1"], "ann");
    assert_eq!(tree["children"][0]["move"], "Wd4,d1");
    assert_eq!(tree["children"][0]["comment"], "opening");
    let replies = tree["children"][0]["children"].as_array().unwrap();
    assert_eq!(replies.len(), 2);
    assert_eq!(replies[0]["move"], "Bd5,a1");
    assert_eq!(replies[1]["move"], "Gc3,g4");
    assert_eq!(replies[1]["comment"], "calmer");

    let (status, tree) = post(&base, "/api/trees/import", &json!({ "text": POSITION })).await;
    assert_eq!(status, 200, "{tree}");
    assert_eq!(tree["start"], POSITION);
    assert_eq!(tree["children"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_format_exports_and_reads_back() {
    let (_dir, base) = serve().await;
    let (_, tree) = post(&base, "/api/trees/import", &json!({ "text": RECORD })).await;
    for format in ["record", "sgf"] {
        let (status, out) = post(
            &base,
            "/api/trees/export",
            &json!({ "tree": tree, "format": format }),
        )
        .await;
        assert_eq!(status, 200, "{format}: {out}");
        let text = out["text"].as_str().unwrap();
        if format == "record" {
            assert!(text.contains("(1... Bb2,g4 2. Wf2,a2)"), "{text}");
            assert_eq!(
                GameTree::from_text(text).unwrap(),
                GameTree::from_text(RECORD).unwrap()
            );
        } else {
            assert!(text.starts_with("(;\nGM[22]"), "{text}");
            assert!(text.contains("C[solid]"), "{text}");
            // The main line reads as BoardSpace's record of the main line.
            let main = zertz::boardspace::import(text).unwrap();
            assert_eq!(main.game.turns().len(), 3);
        }
        // Round trip: the text imports back to the same tree JSON.
        let (status, again) = post(&base, "/api/trees/import", &json!({ "text": text })).await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(again, tree, "{format}");
    }
    // A tree BoardSpace cannot hold is refused for SGF with the reason.
    let blitz = json!({
        "start": "37 blitz ..../...../....../......./....../...../.... 5/7/9 0/0/0 0/0/0 1",
        "children": [{"move": "wd4 a1"}]
    });
    let (status, out) = post(
        &base,
        "/api/trees/export",
        &json!({ "tree": blitz, "format": "sgf" }),
    )
    .await;
    assert_eq!(status, 400, "{out}");
    assert!(out["error"].as_str().unwrap().contains("blitz"), "{out}");
    let (status, out) = post(
        &base,
        "/api/trees/export",
        &json!({ "tree": blitz, "format": "record" }),
    )
    .await;
    assert_eq!(status, 200, "{out}");
    assert!(
        out["text"].as_str().unwrap().contains("1. Wd4,a1 *"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_with_the_token() {
    let (_dir, base) = serve().await;
    let cases = [
        ("1. Wd4,a1\n2. Qd5,a2", "record line 2, column 4 (`Qd5,a2`)"),
        ("1. Wd4,a1 (Gd4,a1", "record line 1, column 11 (`(`)"),
        (
            "(;GM[22]SU[Zertz]\n; P0[0 Start P0]\n; P0[1 RtoB 2 2 Z 9]\n; P0[2 Done])",
            "SGF line 3, column 3 (`P0[1 RtoB 2 2 Z 9]`)",
        ),
        (
            "37 standard -.../...../ 5/8/10 0/0/0 0/0/0 2",
            "position string line 1",
        ),
    ];
    for (text, start) in cases {
        let (status, out) = post(&base, "/api/trees/import", &json!({ "text": text })).await;
        assert_eq!(status, 400, "{text}: {out}");
        let e = out["error"].as_str().unwrap();
        assert!(e.starts_with(start), "{text}: {e}");
    }
    // A bad move in the tree JSON names the field.
    let tree = json!({
        "start": POSITION,
        "children": [{"move": "Gc3,g4", "children": [{"move": "nonsense"}]}]
    });
    let (status, out) = post(
        &base,
        "/api/trees/export",
        &json!({ "tree": tree, "format": "record" }),
    )
    .await;
    assert_eq!(status, 400, "{out}");
    let e = out["error"].as_str().unwrap();
    assert!(
        e.starts_with("tree.children[0].children[0].move: `nonsense`"),
        "{e}"
    );
    // Unknown format, missing field, not JSON.
    let (status, out) = post(
        &base,
        "/api/trees/export",
        &json!({ "tree": tree, "format": "pdf" }),
    )
    .await;
    assert_eq!(status, 400);
    assert!(out["error"].as_str().unwrap().contains("`pdf`"), "{out}");
    let (status, out) = post(&base, "/api/trees/import", &json!({ "txt": "1. Wd4,a1" })).await;
    assert_eq!(status, 400, "{out}");
    let res = reqwest::Client::new()
        .post(format!("{base}/api/trees/export"))
        .header("content-type", "application/json")
        .body("{\"tree\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let res = reqwest::Client::new()
        .post(format!("{base}/api/trees/export"))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 415);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_over_the_limit_are_refused() {
    let (_dir, base) = serve().await;
    let big = "{x}".repeat(MAX_BODY / 3 + 10);
    for path in ["/api/trees/import", "/api/trees/export"] {
        let body = if path.ends_with("import") {
            json!({ "text": big })
        } else {
            json!({ "tree": {"start": POSITION, "comment": big}, "format": "record" })
        };
        let (status, out) = post(&base, path, &body).await;
        assert_eq!(status, 413, "{path}: {out}");
        assert!(out["error"].as_str().is_some(), "{out}");
    }
}

/// A line as deep as the JSON form takes goes through (the reader has no recursion limit of
/// its own below it); one move deeper is refused with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_lines_up_to_the_limit() {
    let (_dir, base) = serve().await;
    // A line of MAX_DEPTH rejected bribes: legal as long as both players hold the marble.
    let start = "37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1";
    let nest = |n: usize| {
        let mut node = json!({ "move": "bribe 1/0/0 rejected" });
        for _ in 1..n {
            node = json!({ "move": "bribe 1/0/0 rejected", "children": [node] });
        }
        json!({ "start": start, "headers": {"Bribes": "on"}, "children": [node] })
    };
    let (status, out) = post(
        &base,
        "/api/trees/export",
        &json!({ "tree": nest(MAX_DEPTH), "format": "record" }),
    )
    .await;
    assert_eq!(status, 200, "{out}");
    let text = out["text"].as_str().unwrap().to_string();
    assert_eq!(text.matches("(bribe 1/0/0 rejected)").count(), MAX_DEPTH);
    let (status, back) = post(&base, "/api/trees/import", &json!({ "text": text })).await;
    assert_eq!(status, 200, "{back}");
    let (status, out) = post(
        &base,
        "/api/trees/export",
        &json!({ "tree": nest(MAX_DEPTH + 5), "format": "record" }),
    )
    .await;
    assert_eq!(status, 400, "{out}");
    assert!(out["error"].as_str().unwrap().contains("at most"), "{out}");
}
