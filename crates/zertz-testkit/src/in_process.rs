//! The server run inside the test process: [`Server`] starts `zertz_server::serve_until` on a
//! loopback port, on a thread and runtime of its own (so that a test that blocks does not stall
//! it), and stops it when dropped, the store closed as a stopped `zertz serve` closes it. Its
//! log, what the runtime's threads write at `info` and above, and any panic on them are kept
//! per server, so [`Server::assert_healthy`] can check them. (A thread the server starts on its
//! own, such as the SQLite writer, logs nowhere here.) Tests that need a process of their own
//! (a kill, several nodes, the exhaustion of sockets) run the binary instead
//! (`crates/zertz-cli/tests`).

use std::cell::RefCell;
use std::io::Write;
use std::net::SocketAddr;
use std::ops::Deref;
use std::sync::{Arc, Mutex, Once, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::oneshot;
use tracing::Dispatch;
use zertz_server::Config;

use crate::site::{Db, Site};

/// A server running inside the test process, stopped when dropped. It is a [`Site`] (its
/// address and an HTTP client) by `Deref`.
pub struct Server {
    site: Site,
    /// The database.
    pub db: Db,
    /// What the server's threads logged, and their panics.
    log: Log,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// A server's log, written by its threads.
type Log = Arc<Mutex<String>>;

thread_local! {
    /// The log of the server whose runtime this thread belongs to: the panic hook writes there.
    static THREAD_LOG: RefCell<Option<Log>> = const { RefCell::new(None) };
}

/// Makes every thread of a server's runtime log to that server's `log`.
fn adopt(log: &Log, dispatch: &Dispatch) {
    THREAD_LOG.with(|own| *own.borrow_mut() = Some(log.clone()));
    // For the thread's whole life: a runtime's thread serves one server.
    std::mem::forget(tracing::dispatcher::set_default(dispatch));
}

/// A panic on a server's thread is written to its log (tokio catches the panic of a task, so
/// it would otherwise only reach stderr), then reported as usual.
fn keep_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            THREAD_LOG.with(|own| {
                if let Some(log) = own.borrow().as_ref()
                    && let Ok(mut log) = log.lock()
                {
                    log.push_str(&format!("panicked: {info}\n"));
                }
            });
            previous(info);
        }));
    });
}

/// Where a server's log lines go.
#[derive(Clone)]
struct Lines(Log);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut log) = self.0.lock() {
            log.push_str(&String::from_utf8_lossy(bytes));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Server {
    /// Starts a server on a free loopback port with the database `db` (a SQLite file is
    /// created if missing), engine moves of 50 ms and a one-second claim countdown: the
    /// settings of the tests of `zertz serve`.
    pub fn start(db: impl Into<Db>) -> Server {
        Server::start_with(db, 50)
    }

    /// Starts a server as [`Server::start`] does, with engine moves of `engine_ms`.
    pub fn start_with(db: impl Into<Db>, engine_ms: u64) -> Server {
        Server::start_config(db, engine_ms, |_| {})
    }

    /// Starts a server as [`Server::start_with`] does, with its settings changed by
    /// `configure` (the in-process form of `zertz serve`'s options).
    pub fn start_config(
        db: impl Into<Db>,
        engine_ms: u64,
        configure: impl FnOnce(&mut Config),
    ) -> Server {
        let db = db.into();
        let mut config = Config {
            engine_move_time: Duration::from_millis(engine_ms),
            claim_after: Duration::from_secs(1),
            // Tests make many accounts and invitations from one address; the attack tests put
            // the limits back.
            sign_ups_per_hour: 0,
            invitations_per_client: 0,
            ..Config::default()
        };
        configure(&mut config);
        keep_panics();
        let log: Log = Arc::default();
        let lines = Lines(log.clone());
        let dispatch = Dispatch::new(
            tracing_subscriber::fmt()
                .with_env_filter("info")
                .with_ansi(false)
                .with_writer(move || lines.clone())
                .finish(),
        );
        let location = db.location();
        let (thread_log, thread_dispatch) = (log.clone(), dispatch.clone());
        let (ready, listening) = mpsc::channel::<SocketAddr>();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            adopt(&thread_log, &thread_dispatch);
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .on_thread_start(move || adopt(&thread_log, &thread_dispatch))
                .build()
                .expect("the server's runtime");
            let any = "127.0.0.1:0".parse().expect("an address");
            let on_ready = move |addr| {
                let _ = ready.send(addr);
            };
            let until = async move {
                let _ = stopped.await;
                "the test is over"
            };
            let served = runtime.block_on(zertz_server::serve_until(
                any, &location, config, on_ready, until,
            ));
            // Whatever still runs (an engine search, a connection) is dropped, as a stopped
            // `zertz serve` drops it.
            runtime.shutdown_background();
            if let Err(e) = served {
                panic!("the server stopped with an error: {e:#}");
            }
        });
        let addr = match listening.recv_timeout(Duration::from_secs(60)) {
            Ok(addr) => addr,
            Err(_) => match thread.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => panic!("the server did not start within a minute"),
            },
        };
        Server {
            site: Site::new(addr.to_string()),
            db,
            log,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        self.log.lock().map(|log| log.clone()).unwrap_or_default()
    }

    /// Checks that the server still runs, answers `/api/health`, brought its games back at
    /// start, and never panicked nor logged a warning or an error.
    pub async fn assert_healthy(&mut self) {
        let running = self.thread.as_ref().is_some_and(|t| !t.is_finished());
        assert!(running, "the server stopped; its log:\n{}", self.log());
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
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            // A test that failed is failing already: the server's own end is not reported
            // over it.
            let stopped = thread.join();
            if std::thread::panicking() {
                eprintln!("--- log of the server ---\n{}", self.log());
            } else if stopped.is_err() {
                panic!("the server did not stop cleanly; its log:\n{}", self.log());
            }
        }
    }
}
