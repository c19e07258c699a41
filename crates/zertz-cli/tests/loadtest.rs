//! `zertz loadtest` at a tiny scale: it starts its own server, plays, and reports what it
//! measured. (The figures at full scale are in docs/performance.md; speed is not tested here.)

use std::process::Command;

#[test]
fn a_small_loadtest_plays_and_reports() {
    let out = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["loadtest", "--games", "4", "--think-ms", "50"])
        .args(["--warmup", "1", "--seconds", "2", "--check-moves"])
        .output()
        .expect("running zertz loadtest");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(" s (after 1 s of warm-up)"), "{stdout}");
    // Four games moving about every 50 ms for two seconds: far more than ten moves.
    let moves: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves acknowledged "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no move count in\n{stdout}"));
    assert!(moves > 10, "{stdout}");
    assert!(stdout.contains("refused moves 0   errors 0"), "{stdout}");
    // Every game played holds the moves its players saw acknowledged, and no more than they sent.
    assert!(stdout.contains(" games disagree"), "{stdout}");
    assert!(figure(&stdout, "moves checked ") >= 4, "{stdout}");
    assert!(stdout.contains(": 0 games disagree"), "{stdout}");
    assert!(stdout.contains("ack latency ms    p50 "), "{stdout}");
    // The bytes a move costs: events of a few hundred bytes to each of two players (the
    // whole state was ~18 KB), and a few dozen bytes for the move sent.
    let per_move: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bytes per move  "))
        .and_then(|rest| rest.trim().parse().ok())
        .unwrap_or_else(|| panic!("no bytes per move in\n{stdout}"));
    assert!((200..2 * 1024).contains(&per_move), "{stdout}");
}

/// The number after `label` in the loadtest's report.
fn figure(stdout: &str, label: &str) -> u64 {
    stdout
        .split(label)
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no '{label}' in\n{stdout}"))
}

/// A `zertz serve` on the SQLite file `db` at `addr` (`127.0.0.1:0` for any port), with the
/// per-address limits off as the loadtest's own server has them; its URL once it listens.
fn serve(db: &std::path::Path, addr: &str) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["serve", "--addr", addr, "--db"])
        .arg(db)
        .args(["--http-rate", "0", "--connections-per-address", "0"])
        .args(["--invitations-per-client", "0"])
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("starting zertz serve");
    let stdout = child.stdout.take().expect("the server's stdout");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server's first line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (child, url)
}

/// The server is killed while the players play, and started again on the same file and
/// address: every player connects again to its game and plays on, and afterwards every game
/// holds each move acknowledged, once (`--check-moves`). No game is counted finished
/// and none is started in its place (the games last far longer than the test: a move a second).
#[test]
fn players_reconnect_to_their_games_after_the_server_restarts() {
    use std::io::BufRead;
    let dir = std::env::temp_dir().join(format!("zertz-loadtest-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("load.db");
    let (mut server, url) = serve(&db, "127.0.0.1:0");
    let addr = url.trim_start_matches("http://").to_string();
    let mut load = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args([
            "loadtest",
            "--url",
            &url,
            "--games",
            "4",
            "--think-ms",
            "1000",
        ])
        .args(["--warmup", "0", "--seconds", "10", "--check-moves"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running zertz loadtest");
    // Its stderr read to the end on a thread of its own (a closed pipe would fail its writes);
    // each line passed on here.
    let stderr = load.stderr.take().unwrap();
    let (lines, heard) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = lines.send(line);
        }
    });
    let mut said = String::new();
    while let Ok(line) = heard.recv() {
        said.push_str(&line);
        said.push('\n');
        if line.contains("all games started") {
            break;
        }
    }
    assert!(said.contains("all games started"), "{said}");
    // Every player is connected: the server dies under them and comes back.
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut again, _) = serve(&db, &addr);
    let out = load.wait_with_output().unwrap();
    reader.join().unwrap();
    said.extend(heard.try_iter().map(|l| l + "\n"));
    let _ = again.kill();
    let _ = again.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}\n{stdout}");
    assert_eq!(figure(&stdout, "games started "), 4, "{stdout}");
    assert_eq!(figure(&stdout, "games finished "), 0, "{stdout}");
    assert!(figure(&stdout, "reconnections ") >= 8, "{stdout}");
    assert_eq!(figure(&stdout, "errors "), 0, "{stdout}");
    // The window began as the server was killed: its moves were played after the restart.
    assert!(figure(&stdout, "moves acknowledged ") > 4, "{stdout}");
    // The kill lost no acknowledged move and doubled none: every game read back after the
    // restart holds each move its players saw acknowledged, and no more than they sent.
    assert_eq!(figure(&stdout, "moves checked "), 4, "{stdout}");
    assert!(stdout.contains(": 0 games disagree"), "{stdout}");
}
