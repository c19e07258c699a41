//! `zertz loadtest`: many concurrent games of simulated players over WebSockets against a
//! server, each player making legal moves after a think time; prints the moves per second and
//! the acknowledgement latency percentiles. A benchmark, not a test.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

/// Options of `zertz loadtest`.
#[derive(Args)]
pub struct LoadtestArgs {
    /// Server to load, e.g. `http://127.0.0.1:8080`. Without it, a `zertz serve` is started
    /// on a fresh SQLite file in a temporary folder (or on `--db`).
    #[arg(long)]
    url: Option<String>,
    /// Database for the server started here (a SQLite file or a `postgres://` URL).
    #[arg(long)]
    db: Option<String>,
    /// Concurrent games (two simulated players and two WebSockets each).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Average think time of a simulated player before each move, in ms (uniform from half to
    /// one and a half times this).
    #[arg(long, default_value_t = 2000)]
    think_ms: u64,
    /// Seconds of measurement after every game has started.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Board of the games.
    #[arg(long, default_value = "37")]
    board: String,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u32>>,
    moves: AtomicU64,
    refused: AtomicU64,
    games_finished: AtomicU64,
    errors: AtomicU64,
}

/// Runs `zertz loadtest`.
pub fn run(args: LoadtestArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: LoadtestArgs) -> anyhow::Result<()> {
    let mut server = None;
    let _temp;
    let base = match &args.url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => {
            let dir = std::env::temp_dir().join(format!("zertz-loadtest-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            let db = args
                .db
                .clone()
                .unwrap_or_else(|| dir.join("load.db").display().to_string());
            _temp = TempDir(dir);
            let mut child = tokio::process::Command::new(std::env::current_exe()?)
                .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
                .env("RUST_LOG", "warn")
                .stdout(std::process::Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .context("starting `zertz serve`")?;
            let stdout = child.stdout.take().context("server stdout")?;
            let mut lines = BufReader::new(stdout).lines();
            let line = lines
                .next_line()
                .await?
                .context("the server ended before listening")?;
            let url = line
                .split_whitespace()
                .find(|w| w.starts_with("http://"))
                .context("no address in the server's first line")?
                .trim_end_matches('/')
                .to_string();
            server = Some(child);
            url
        }
    };
    let ws_base = base.replacen("http://", "ws://", 1);
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()?;
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(tokio::sync::Notify::new());
    let running = Arc::new(std::sync::atomic::AtomicBool::new(true));
    eprintln!(
        "loadtest: {} games on {base}, think time ~{} ms, board {}",
        args.games, args.think_ms, args.board
    );
    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..args.games {
        let (client, stats, ws_base, base) =
            (client.clone(), stats.clone(), ws_base.clone(), base.clone());
        let running = running.clone();
        let (think, board) = (args.think_ms, args.board.clone());
        tasks.push(tokio::spawn(async move {
            while running.load(Ordering::Relaxed) {
                if let Err(e) = one_game(
                    &client, &base, &ws_base, &board, think, g as u64, &stats, &running,
                )
                .await
                {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    if stats.errors.load(Ordering::Relaxed) <= 5 {
                        eprintln!("loadtest: game {g}: {e:#}");
                    }
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }));
        // Ramp up gently: the server makes each game in a transaction.
        if g % 100 == 99 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let ramp = started.elapsed();
    eprintln!(
        "loadtest: all games started in {:.1} s; measuring {} s",
        ramp.as_secs_f64(),
        args.seconds
    );
    // Measure a clean window: forget what happened during the ramp.
    stats.latencies_us.lock().await.clear();
    stats.moves.store(0, Ordering::Relaxed);
    let window = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let elapsed = window.elapsed().as_secs_f64();
    running.store(false, Ordering::Relaxed);
    stop.notify_waiters();
    let mut lat = std::mem::take(&mut *stats.latencies_us.lock().await);
    for t in tasks {
        t.abort();
    }
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return f64::NAN;
        }
        let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
        lat[i] as f64 / 1000.0
    };
    let moves = stats.moves.load(Ordering::Relaxed);
    println!("games             {}", args.games);
    println!("window            {elapsed:.1} s");
    println!(
        "moves acknowledged {moves} ({:.0} moves/s)",
        moves as f64 / elapsed
    );
    println!(
        "ack latency ms    p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(0.999),
        pct(1.0)
    );
    println!(
        "games finished    {}   refused moves {}   errors {}",
        stats.games_finished.load(Ordering::Relaxed),
        stats.refused.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed)
    );
    if let Some(mut child) = server {
        let _ = child.kill().await;
    }
    if moves == 0 {
        bail!("no move was acknowledged");
    }
    Ok(())
}

/// Removes a temporary folder when dropped.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[allow(clippy::too_many_arguments)]
async fn one_game(
    client: &reqwest::Client,
    base: &str,
    ws_base: &str,
    board: &str,
    think_ms: u64,
    seed: u64,
    stats: &Arc<Stats>,
    running: &Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<()> {
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"board": board, "opponent": {"kind": "invite"}, "name": "load A"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let id = created["id"].as_str().context("no id")?.to_string();
    let token_a = created["token"].as_str().context("no token")?.to_string();
    let invite = created["invite_token"]
        .as_str()
        .context("no invite")?
        .to_string();
    let joined: Value = client
        .post(format!("{base}/api/games/{id}/join"))
        .json(&json!({"name": "load B", "token": invite}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let token_b = joined["token"].as_str().context("no token")?.to_string();
    let a = tokio::spawn(player(
        format!("{ws_base}/api/games/{id}/ws?token={token_a}"),
        think_ms,
        seed * 2,
        stats.clone(),
        running.clone(),
    ));
    let b = tokio::spawn(player(
        format!("{ws_base}/api/games/{id}/ws?token={token_b}"),
        think_ms,
        seed * 2 + 1,
        stats.clone(),
        running.clone(),
    ));
    let (ra, rb) = (a.await?, b.await?);
    ra?;
    rb?;
    stats.games_finished.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

/// One simulated player: moves when it is its turn, after a think time, and times the ack.
async fn player(
    url: String,
    think_ms: u64,
    seed: u64,
    stats: Arc<Stats>,
    running: Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<()> {
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await?;
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut moved_at_version = -1i64;
    while let Some(msg) = socket.next().await {
        let text = match msg? {
            Message::Text(t) => t,
            Message::Close(_) => break,
            _ => continue,
        };
        let v: Value = serde_json::from_str(&text)?;
        let Some(state) = v.get("state") else {
            continue;
        };
        if state["status"] == "finished" {
            break;
        }
        if !running.load(Ordering::Relaxed) {
            break;
        }
        let version = state["version"].as_i64().unwrap_or(0);
        if state["status"] != "live"
            || state["you"] != state["to_move"]
            || version <= moved_at_version
        {
            continue;
        }
        let moves = state["legal_moves"].as_array().cloned().unwrap_or_default();
        if moves.is_empty() {
            continue;
        }
        moved_at_version = version;
        let think = think_ms / 2 + next() % (think_ms.max(1));
        tokio::time::sleep(Duration::from_millis(think)).await;
        let mv = moves[(next() % moves.len() as u64) as usize].clone();
        let sent = Instant::now();
        socket
            .send(Message::Text(
                json!({"type": "move", "move": mv}).to_string().into(),
            ))
            .await?;
        // The answer to our action comes in order with the events; wait for it.
        let mut finished = false;
        loop {
            let Some(msg) = socket.next().await else {
                return Ok(());
            };
            let text = match msg? {
                Message::Text(t) => t,
                Message::Close(_) => return Ok(()),
                _ => continue,
            };
            let r: Value = serde_json::from_str(&text)?;
            finished |= r["state"]["status"] == "finished";
            match r["type"].as_str() {
                Some("ack") => {
                    let us = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                    stats.latencies_us.lock().await.push(us);
                    stats.moves.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                Some("refused") => {
                    stats.refused.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                _ => {}
            }
        }
        if finished {
            break;
        }
    }
    Ok(())
}
