//! `zertz serve` for the tests that need a process: the real binary started on a loopback port
//! with a SQLite file (or a PostgreSQL database), its log, and a kill, a stop or a pause. It is
//! a `Site` (crates/zertz-testkit: the HTTP client and the calls that set up games) by `Deref`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::ops::Deref;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[allow(unused_imports)]
pub use zertz_testkit::site::{Db, Site, merged, string, temp_db};

/// How long the server may take to say where it listens.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `zertz serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// Its address and an HTTP client, with the calls that set up games.
    site: Site,
    /// The database.
    pub db: Db,
    /// Everything the server wrote on stderr (its log).
    log: Arc<Mutex<String>>,
    /// Everything it wrote on stdout.
    out: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `zertz serve` on a free loopback port with the database `db` (a SQLite file is
    /// created if missing), engine moves of 50 ms and a one-second claim countdown.
    pub fn start(db: impl Into<Db>) -> Server {
        Server::start_with(db, 50)
    }

    /// Starts `zertz serve` as [`Server::start`] does, with engine moves of `engine_ms`.
    pub fn start_with(db: impl Into<Db>, engine_ms: u64) -> Server {
        Server::start_args(db, engine_ms, &[])
    }

    /// Starts `zertz serve` as [`Server::start_with`] does, with `extra` arguments.
    pub fn start_args(db: impl Into<Db>, engine_ms: u64, extra: &[&str]) -> Server {
        Server::start_env(db, engine_ms, extra, "info")
    }

    /// Starts `zertz serve` as [`Server::start_args`] does, logging at `log_level`
    /// (`RUST_LOG`).
    pub fn start_env(db: impl Into<Db>, engine_ms: u64, extra: &[&str], log_level: &str) -> Server {
        let db = db.into();
        let mut child = Command::new(env!("CARGO_BIN_EXE_zertz"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.arg())
            .args(["--engine-ms", &engine_ms.to_string(), "--claim-after", "1"])
            // The tests make many accounts and invitations from one address.
            .args(["--sign-ups-per-hour", "0", "--invitations-per-client", "0"])
            .args(extra)
            .env("RUST_LOG", log_level)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start zertz serve");
        let log = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().expect("stderr");
        let log2 = log.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                log2.lock().unwrap().push_str(&text);
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        let out = Arc::new(Mutex::new(String::new()));
        let out2 = out.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let mut out = out2.lock().unwrap();
                out.push_str(&line);
                out.push('\n');
                drop(out);
                let _ = tx.send(line);
            }
        });
        let line = match rx.recv_timeout(START_TIMEOUT) {
            Ok(line) => line,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "zertz serve did not say where it listens ({e}); its log:\n{}",
                    log.lock().unwrap()
                );
            }
        };
        let rest = line
            .strip_prefix("zertz serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line of zertz serve: {line:?}"));
        let (addr, tail) = rest
            .split_once("/ (database: ")
            .expect("address and database");
        assert_eq!(tail, format!("{})", db.shown()), "{line}");
        assert!(addr.starts_with("127.0.0.1:"), "{line}");
        Server {
            child,
            site: Site::new(addr.to_string()),
            db,
            log,
            out,
        }
    }

    /// What `--db` takes for this server's database.
    pub fn db_arg(&self) -> &std::ffi::OsStr {
        self.db.arg()
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// What the server wrote on stdout so far.
    pub fn stdout(&self) -> String {
        self.out.lock().unwrap().clone()
    }

    /// Kills the server with SIGKILL and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the server to stop (SIGTERM) and waits for it, at most `within`: its exit status,
    /// or `None` if it was still running then (it is killed).
    pub fn stop(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM the server");
        let asked = std::time::Instant::now();
        while asked.elapsed() < within {
            if let Some(exit) = self.child.try_wait().expect("try_wait") {
                return Some(exit);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
        None
    }

    /// Pauses the server (SIGSTOP) or lets it go on (SIGCONT): a node that is alive but
    /// silent for a while, as a long pause of its machine makes it.
    pub fn pause(&self, paused: bool) {
        let signal = if paused { "-STOP" } else { "-CONT" };
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill {signal} the server");
    }

    /// Checks that the server is still running, answers `/api/health`, and never panicked.
    pub async fn assert_healthy(&mut self) {
        assert!(
            self.child.try_wait().expect("try_wait").is_none(),
            "the server exited; its log:\n{}",
            self.log()
        );
        self.site
            .assert_answers_and_logs_cleanly(|| self.log())
            .await;
    }
}

impl Deref for Server {
    type Target = Site;

    fn deref(&self) -> &Site {
        &self.site
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("--- log of zertz serve ---\n{}", self.log());
        }
    }
}
