//! The puzzle trainer's set file read by `zertz serve --puzzles`: an empty set says so, and a
//! broken one stops the process with the file's line and reason. The rest of the trainer:
//! crates/zertz-server/tests/behaviour/puzzles.rs.

use zertz_testkit::puzzles::write_set;

use crate::common::server::{Db, Server, string};
use zertz_engine::puzzles::PuzzleSet;

#[tokio::test]
async fn an_empty_set_says_so_and_a_broken_one_stops_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write_set(
        dir.path(),
        &PuzzleSet {
            version: 1,
            puzzles: vec![],
        },
    );
    let db = Db::Sqlite(dir.path().join("zertz.db"));
    let mut server = Server::start_args(&db, 50, &["--puzzles", empty.to_str().unwrap()]);
    let (status, e) = server.get("/api/puzzles/next", None).await;
    assert_eq!(status, 404, "{e}");
    assert!(
        string(&e["error"]).contains("puzzle set of this server is empty"),
        "{e}"
    );
    let (status, e) = server.get("/api/puzzles/daily", None).await;
    assert_eq!(status, 404, "{e}");
    server.assert_healthy().await;
    drop(server);

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"version\":1,\n\"puzzles\":[{\"id\":3}]}").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("other.db"))
        .arg("--puzzles")
        .arg(&broken)
        .output()
        .expect("run zertz serve");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.json") && err.contains("line 2"),
        "{err}"
    );
}
