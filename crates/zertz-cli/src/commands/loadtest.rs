//! `zertz loadtest`: many concurrent games of simulated players over WebSockets against a
//! server, each player making legal moves after a think time; prints the moves per second and
//! the acknowledgement latency percentiles. A benchmark, not a test.
//!
//! The players behave like the web page's socket: when theirs closes (a node died, the game
//! moved to another node, a restart) they connect again to the same game, through the same
//! address (the load balancer's), and play on; only a game seen finished is counted finished
//! and replaced by a new one.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use zertz_server::games::wire::compact::CompactLegal;

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
    /// Seconds of measurement, after every game has started and the warm-up.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Seconds of play between the moment every game has started and the start of the
    /// measurement: the server first catches up with the backlog of opening thousands of
    /// connections, which is not the steady load being measured.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Board of the games.
    #[arg(long, default_value = "37")]
    board: String,
    /// Processes whose CPU per move to report, comma-separated: `NAME=PID`, or `NAME=FILE`
    /// where the file's first line is the pid (PostgreSQL's `postmaster.pid`, the `n1.pid` of
    /// `deploy/run-local.sh`), or a bare pid. Each counts with every process it started
    /// (PostgreSQL's backends, live or exited).
    #[arg(long, value_delimiter = ',')]
    pids: Vec<String>,
    /// A folder of `deploy/run-local.sh` (its `ZERTZ_DEPLOY_DIR`): reports the CPU of the
    /// processes whose pid files it holds (`n1.pid`, `n2.pid`, `n3.pid`, `haproxy.pid`).
    #[arg(long)]
    deploy: Option<std::path::PathBuf>,
    /// Loads that follow each other within the measurement, instead of `--seconds` at
    /// `--think-ms`: comma-separated `SECONDS:THINK_MS`, e.g. `60:1000,60:4000` (a minute at
    /// twice the load of the next minute). The report gives each phase's moves per second,
    /// second by second, its latency, and how soon the moves acknowledged came back to the
    /// load offered.
    #[arg(long, value_delimiter = ',')]
    phases: Vec<String>,
    /// After the measurement, reads every game played and checks that it holds every move
    /// acknowledged (none lost) and no more moves than were sent (none doubled), reconnections
    /// and failovers included; the report says how many games were checked and which failed.
    #[arg(long)]
    check_moves: bool,
}

#[derive(Default)]
struct Stats {
    latencies_us: std::sync::Mutex<Vec<u32>>,
    moves: AtomicU64,
    refused: AtomicU64,
    /// Games started (created and joined).
    games_started: AtomicU64,
    /// Games being played now: created and joined, and not yet ended (a gauge; the slots of
    /// `--games` that wait for a new game to be accepted are not in it).
    playing: AtomicU64,
    /// Moves being sent and not yet answered (`--check-moves` waits for them before it reads
    /// the games).
    sending: AtomicU64,
    /// Games seen finished by a player (the server said `finished`).
    games_finished: AtomicU64,
    /// Sockets connected again to their game after they closed before its end.
    reconnections: AtomicU64,
    /// Moves sent whose socket closed before their answer: stored or not, the state after the
    /// reconnection tells the player.
    unanswered: AtomicU64,
    /// New games and joins answered 503 (asked again after `Retry-After`).
    busy: AtomicU64,
    /// Moves answered 503 (the server behind: sent again a second later).
    moves_busy: AtomicU64,
    /// The think time now, in ms (changed by `--phases`).
    think_ms: AtomicU64,
    errors: AtomicU64,
    /// Per game: the moves its players sent and those acknowledged (`--check-moves`).
    ledger: std::sync::Mutex<HashMap<String, Tally>>,
    /// WebSocket connections opened so far (two per game started).
    connected: AtomicU64,
    /// Payload bytes of the WebSocket messages the server sent the players (text frames;
    /// frame headers and TCP not counted).
    bytes_down: AtomicU64,
    /// Payload bytes of the messages the players sent.
    bytes_up: AtomicU64,
}

/// The moves of one game as its players saw them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// Moves sent (once each, however often a 503 made a player send one again).
    sent: u64,
    /// Moves whose answer said they were played.
    acknowledged: u64,
}

impl Stats {
    fn tally(&self, game: &str, change: impl FnOnce(&mut Tally)) {
        let mut ledger = self.ledger.lock().unwrap_or_else(|e| e.into_inner());
        change(ledger.entry(game.to_string()).or_default());
    }
}

/// What a game's stored moves say of its tally: `None` when they agree (every move
/// acknowledged is there, and no more than were sent), else what is wrong.
fn verdict(stored: u64, tally: Tally) -> Option<String> {
    if stored < tally.acknowledged {
        Some(format!(
            "{} moves stored, {} acknowledged: {} lost",
            stored,
            tally.acknowledged,
            tally.acknowledged - stored
        ))
    } else if stored > tally.sent {
        Some(format!(
            "{} moves stored, {} sent: {} doubled",
            stored,
            tally.sent,
            stored - tally.sent
        ))
    } else {
        None
    }
}

/// Reads every game of `ledger` from `base` (16 at a time) and prints how many agree with what
/// their players saw ([`verdict`]); false when one does not, or cannot be read.
async fn check_moves(client: &reqwest::Client, base: &str, ledger: HashMap<String, Tally>) -> bool {
    let games = ledger.len();
    let (acknowledged, sent) = ledger
        .values()
        .fold((0, 0), |(a, s), t| (a + t.acknowledged, s + t.sent));
    let checks = futures_util::stream::iter(ledger.into_iter().map(|(id, tally)| async move {
        let url = format!("{base}/api/games/{id}");
        let stored = async {
            let state: Value = client
                .get(&url)
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            state["moves"]
                .as_array()
                .map(|m| m.len() as u64)
                .context("no moves in the game's state")
        }
        .await;
        match stored {
            Ok(n) => verdict(n, tally).map(|wrong| format!("game {id}: {wrong}")),
            Err(e) => Some(format!("game {id}: not read: {e:#}")),
        }
    }))
    .buffer_unordered(16)
    .filter_map(|wrong| async move { wrong })
    .collect::<Vec<String>>()
    .await;
    println!(
        "moves checked     {games} games, {acknowledged} moves acknowledged and {sent} sent: \
         {} games disagree",
        checks.len()
    );
    for wrong in checks.iter().take(20) {
        println!("  {wrong}");
    }
    checks.is_empty()
}

/// Runs `zertz loadtest`.
pub fn run(args: LoadtestArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: LoadtestArgs) -> anyhow::Result<()> {
    // The processes to watch, named before anything starts (a wrong name stops it at once).
    let watched = watched_processes(&args.pids, args.deploy.as_deref())?;
    let phases = parse_phases(&args.phases)?;
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
                // Every simulated player comes from this one address: the per-address limits
                // of HTTP requests, connections and invitations not yet taken are off; the
                // per-connection limit of actions stays on.
                .args([
                    "serve",
                    "--addr",
                    "127.0.0.1:0",
                    "--db",
                    &db,
                    "--http-rate",
                    "0",
                    "--connections-per-address",
                    "0",
                    "--invitations-per-client",
                    "0",
                ])
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
    stats.think_ms.store(args.think_ms, Ordering::Relaxed);
    let stop = Arc::new(tokio::sync::Notify::new());
    let running = Arc::new(std::sync::atomic::AtomicBool::new(true));
    eprintln!(
        "loadtest: {} games on {base}{}, think time ~{} ms, board {}",
        args.games,
        if server.is_some() {
            " (a server of its own, without the per-address limits)"
        } else {
            ""
        },
        args.think_ms,
        args.board
    );
    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..args.games {
        let (client, stats, ws_base, base) =
            (client.clone(), stats.clone(), ws_base.clone(), base.clone());
        let running = running.clone();
        let board = args.board.clone();
        tasks.push(tokio::spawn(async move {
            while running.load(Ordering::Relaxed) {
                if let Err(e) =
                    one_game(&client, &base, &ws_base, &board, g as u64, &stats, &running).await
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
    // Measure once every game is being played: both players connected.
    let wanted = 2 * args.games as u64;
    let deadline = Instant::now() + Duration::from_secs(300);
    while stats.connected.load(Ordering::Relaxed) < wanted && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ramp = started.elapsed();
    let connected = stats.connected.load(Ordering::Relaxed);
    if connected < wanted {
        eprintln!("loadtest: only {connected} of {wanted} players connected after the ramp");
    }
    eprintln!(
        "loadtest: all games started in {:.1} s; warming up {} s, then measuring {} s",
        ramp.as_secs_f64(),
        args.warmup,
        args.seconds
    );
    tokio::time::sleep(Duration::from_secs(args.warmup)).await;
    // Measure a clean window: forget what happened during the ramp and the warm-up.
    stats
        .latencies_us
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clear();
    stats.moves.store(0, Ordering::Relaxed);
    stats.bytes_down.store(0, Ordering::Relaxed);
    stats.bytes_up.store(0, Ordering::Relaxed);
    let server_pid = server.as_ref().and_then(|c| c.id());
    let cpu_before = (
        cpu_seconds(server_pid),
        cpu_seconds(Some(std::process::id())),
    );
    let watched_before: Vec<Option<f64>> = watched
        .iter()
        .map(|(_, pid)| tree_cpu_seconds(*pid))
        .collect();
    let load_before = load_average();
    let window = Instant::now();
    // With phases: the moves acknowledged each second, and where each phase's latencies start.
    let mut per_second: Vec<Vec<u64>> = Vec::new();
    // With phases: the games being played at each second's end.
    let mut playing: Vec<Vec<u64>> = Vec::new();
    let mut phase_starts = Vec::new();
    if phases.is_empty() {
        tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    } else {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        tick.tick().await;
        let mut last = stats.moves.load(Ordering::Relaxed);
        for &(seconds, think_ms) in &phases {
            stats.think_ms.store(think_ms, Ordering::Relaxed);
            phase_starts.push(
                stats
                    .latencies_us
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .len(),
            );
            let mut counts = Vec::new();
            let mut games = Vec::new();
            for _ in 0..seconds {
                tick.tick().await;
                let now = stats.moves.load(Ordering::Relaxed);
                counts.push(now - last);
                games.push(stats.playing.load(Ordering::Relaxed));
                last = now;
            }
            per_second.push(counts);
            playing.push(games);
        }
    }
    let elapsed = window.elapsed().as_secs_f64();
    let (bytes_down, bytes_up) = (
        stats.bytes_down.load(Ordering::Relaxed),
        stats.bytes_up.load(Ordering::Relaxed),
    );
    let cpu_after = (
        cpu_seconds(server_pid),
        cpu_seconds(Some(std::process::id())),
    );
    let watched_after: Vec<Option<f64>> = watched
        .iter()
        .map(|(_, pid)| tree_cpu_seconds(*pid))
        .collect();
    running.store(false, Ordering::SeqCst);
    stop.notify_waiters();
    let mut lat =
        std::mem::take(&mut *stats.latencies_us.lock().unwrap_or_else(|e| e.into_inner()));
    for t in tasks {
        t.abort();
    }
    if !phases.is_empty() {
        report_phases(
            &phases,
            &per_second,
            &playing,
            &phase_starts,
            &lat,
            args.games,
        );
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
    println!(
        "window            {elapsed:.1} s (after {} s of warm-up)",
        args.warmup
    );
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
        "offered           ~{:.0} moves/s (each game moves every ~{} ms)",
        args.games as f64 * 1000.0 / args.think_ms.max(1) as f64,
        args.think_ms
    );
    let cores = |before: Option<f64>, after: Option<f64>| match (before, after) {
        (Some(b), Some(a)) => format!("{:.2}", (a - b) / elapsed),
        _ => "?".into(),
    };
    println!(
        "CPU (cores)       server {}   loadtest {}   (load average before: {})",
        cores(cpu_before.0, cpu_after.0),
        cores(cpu_before.1, cpu_after.1),
        load_before.unwrap_or_else(|| "?".into())
    );
    if let (Some(b), Some(a)) = (cpu_before.0, cpu_after.0)
        && moves > 0
    {
        println!(
            "server CPU/move   {:.3} ms",
            (a - b) * 1000.0 / moves as f64
        );
    }
    // The processes given (`--pids`, `--deploy`), each with its children, and their sum.
    let mut total = Some(0.0);
    for ((name, pid), (before, after)) in watched
        .iter()
        .zip(watched_before.iter().zip(&watched_after))
    {
        let used = before.zip(*after).map(|(b, a)| a - b);
        total = total.zip(used).map(|(t, u)| t + u);
        println!(
            "{}",
            cpu_line(&format!("{name} ({pid})"), used, elapsed, moves)
        );
    }
    if watched.len() > 1 {
        println!("{}", cpu_line("all of them", total, elapsed, moves));
    }
    let per_move = |bytes: u64| bytes.checked_div(moves).unwrap_or(0);
    // Each move reaches both players of its game: two connections.
    println!("bytes per move    {}", per_move(bytes_down));
    println!(
        "bytes             per move per connection {}   per second {:.0} (server to players)   \
         per move {} (players to server)",
        per_move(bytes_down) / 2,
        bytes_down as f64 / elapsed,
        per_move(bytes_up)
    );
    println!(
        "games finished    {}   refused moves {}   errors {}",
        stats.games_finished.load(Ordering::Relaxed),
        stats.refused.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed)
    );
    // Over the whole run, ramp and warm-up included: a socket that closes is the exception.
    println!(
        "whole run         games started {}   reconnections {}   moves unanswered {}   \
         new games and joins refused 503 {}   moves refused 503 (sent again) {}",
        stats.games_started.load(Ordering::Relaxed),
        stats.reconnections.load(Ordering::Relaxed),
        stats.unanswered.load(Ordering::Relaxed),
        stats.busy.load(Ordering::Relaxed),
        stats.moves_busy.load(Ordering::Relaxed)
    );
    if args.check_moves {
        // No move is sent from now on; those in flight are answered (or their socket closes)
        // before the games are read.
        let until = Instant::now() + Duration::from_secs(60);
        while stats.sending.load(Ordering::SeqCst) > 0 && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let ledger = std::mem::take(&mut *stats.ledger.lock().unwrap_or_else(|e| e.into_inner()));
    let agreed = !args.check_moves || check_moves(&client, &base, ledger).await;
    if let Some(mut child) = server {
        let _ = child.kill().await;
    }
    if moves == 0 {
        bail!("no move was acknowledged");
    }
    if !agreed {
        bail!("games hold other moves than their players saw played (above)");
    }
    Ok(())
}

/// User plus system CPU time of process `pid` so far, in seconds (Linux `/proc`; `None`
/// elsewhere). Assumes the usual 100 clock ticks a second.
fn cpu_seconds(pid: Option<u32>) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// `--phases` as (seconds, think time in ms).
fn parse_phases(phases: &[String]) -> anyhow::Result<Vec<(u64, u64)>> {
    phases
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .map(|p| {
            let parsed = p
                .split_once(':')
                .and_then(|(s, t)| Some((s.trim().parse().ok()?, t.trim().parse().ok()?)));
            match parsed {
                Some((seconds, think)) if seconds > 0 && think > 0 => Ok((seconds, think)),
                _ => bail!(
                    "--phases: '{p}' is not SECONDS:THINK_MS with both above 0 (e.g. 60:1000)"
                ),
            }
        })
        .collect()
}

/// Prints each phase of `--phases`: the load offered, by every game slot of `--games` and by the
/// games really being played (a slot whose new game the server refuses offers nothing until it
/// is accepted), the moves acknowledged (mean and second by second), the games being played
/// second by second, the latency of the moves acknowledged in it, and when the moves
/// acknowledged came back within a tenth of the load offered by every slot (every three
/// seconds).
fn report_phases(
    phases: &[(u64, u64)],
    per_second: &[Vec<u64>],
    playing: &[Vec<u64>],
    starts: &[usize],
    latencies_us: &[u32],
    games: usize,
) {
    for (i, ((&(seconds, think), counts), played)) in
        phases.iter().zip(per_second).zip(playing).enumerate()
    {
        let offered = games as f64 * 1000.0 / think as f64;
        let end = starts.get(i + 1).copied().unwrap_or(latencies_us.len());
        let mut lat = latencies_us[starts[i].min(end)..end].to_vec();
        lat.sort_unstable();
        let pct = |p: f64| {
            lat.get(((lat.len().max(1) - 1) as f64 * p).round() as usize)
                .map_or(f64::NAN, |us| *us as f64 / 1000.0)
        };
        let mean = counts.iter().sum::<u64>() as f64 / seconds as f64;
        let in_play = played.iter().sum::<u64>() as f64 / seconds as f64;
        let reached = back_from(counts, offered)
            .map_or("never".to_string(), |s| format!("from second {s} on"));
        println!(
            "phase {}            {seconds} s at think ~{think} ms: offered ~{offered:.0} moves/s by \
             {games} games, ~{:.0} by the {in_play:.0} being played (mean); acknowledged \
             {mean:.0} moves/s, ack p50 {:.1} ms p99 {:.1} ms; within a tenth of the offered \
             load (every 3 s mean) {reached}",
            i + 1,
            in_play * 1000.0 / think as f64,
            pct(0.5),
            pct(0.99)
        );
        let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
        println!("phase {} per second {}", i + 1, counts.join(" "));
        let played: Vec<String> = played.iter().map(u64::to_string).collect();
        println!("phase {} games being played {}", i + 1, played.join(" "));
    }
}

/// The first second of a phase from which every three seconds' mean of the moves acknowledged
/// stays within a tenth of `offered` to the phase's end (a burst of moves held up before it does
/// not count as a recovery), or `None`.
fn back_from(counts: &[u64], offered: f64) -> Option<usize> {
    let good: Vec<bool> = counts
        .windows(3)
        .map(|w| w.iter().sum::<u64>() as f64 / 3.0 >= 0.9 * offered)
        .collect();
    let bad_after = good.iter().rposition(|g| !g);
    match bad_after {
        None if !good.is_empty() => Some(0),
        Some(last) if last + 1 < good.len() => Some(last + 1),
        _ => None,
    }
}

/// One line of the report: `used` CPU seconds of a process in the window, as cores and per
/// acknowledged move.
fn cpu_line(name: &str, used: Option<f64>, elapsed: f64, moves: u64) -> String {
    match used {
        Some(used) if moves > 0 => format!(
            "CPU/move          {:.3} ms   {name}   ({:.2} cores)",
            used * 1000.0 / moves as f64,
            used / elapsed
        ),
        Some(used) => format!("CPU               {name}   ({:.2} cores)", used / elapsed),
        None => format!("CPU               {name}   ? (no /proc entry: did it stop?)"),
    }
}

/// The processes `--pids` and `--deploy` name, as (name, pid).
fn watched_processes(
    pids: &[String],
    deploy: Option<&std::path::Path>,
) -> anyhow::Result<Vec<(String, u32)>> {
    let read_pid = |file: &std::path::Path| -> anyhow::Result<u32> {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("reading the pid file {}", file.display()))?;
        let first = text.lines().next().unwrap_or("").trim();
        first
            .parse()
            .with_context(|| format!("{}: its first line '{first}' is no pid", file.display()))
    };
    let mut watched = Vec::new();
    for item in pids.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        let (name, what) = item.split_once('=').unwrap_or((item, item));
        let pid = match what.parse::<u32>() {
            Ok(pid) => pid,
            Err(_) => read_pid(std::path::Path::new(what))
                .with_context(|| format!("--pids {item}: expected NAME=PID, NAME=FILE or PID"))?,
        };
        watched.push((name.to_string(), pid));
    }
    if let Some(dir) = deploy {
        let mut found = 0;
        for name in ["n1", "n2", "n3", "haproxy"] {
            let file = dir.join(format!("{name}.pid"));
            if file.exists() {
                watched.push((name.to_string(), read_pid(&file)?));
                found += 1;
            }
        }
        if found == 0 {
            bail!(
                "--deploy {}: no n1.pid, n2.pid, n3.pid or haproxy.pid in it (is the \
                 deployment running?)",
                dir.display()
            );
        }
    }
    Ok(watched)
}

/// CPU time, in seconds, of process `pid` and of every process it started, live or exited
/// (Linux `/proc`; `None` when `pid` is gone): user plus system time of each live process of
/// the tree, plus the time of the children each has waited for (`cutime`, `cstime`), which is
/// where an exited PostgreSQL backend's time goes. Assumes 100 clock ticks a second.
fn tree_cpu_seconds(pid: u32) -> Option<f64> {
    // (ppid, own ticks, waited-for children's ticks) of every process.
    let mut all = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(p) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let num = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
        if let (Some(ppid), Some(ut), Some(st), Some(cut), Some(cst)) =
            (num(1), num(11), num(12), num(13), num(14))
        {
            all.insert(p, (ppid as u32, ut + st, cut + cst));
        }
    }
    all.get(&pid)?;
    let mut ticks = 0.0;
    let mut stack = vec![pid];
    while let Some(p) = stack.pop() {
        if let Some((_, own, waited)) = all.get(&p) {
            ticks += own + waited;
        }
        stack.extend(
            all.iter()
                .filter(|(_, (ppid, _, _))| *ppid == p)
                .map(|(child, _)| *child),
        );
    }
    Some(ticks / 100.0)
}

/// The machine's 1, 5 and 15 minute load averages (Linux).
fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
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
    seed: u64,
    stats: &Arc<Stats>,
    running: &Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<()> {
    let new_game = json!({"board": board, "opponent": {"kind": "invite"}, "name": "load A"});
    let Some(created) = post_patiently(
        client,
        &format!("{base}/api/games"),
        &new_game,
        stats,
        running,
    )
    .await?
    else {
        return Ok(());
    };
    let id = created["id"].as_str().context("no id")?.to_string();
    let token_a = created["token"].as_str().context("no token")?.to_string();
    let invite = created["invite_token"]
        .as_str()
        .context("no invite")?
        .to_string();
    let join = json!({"name": "load B", "token": invite});
    let url = format!("{base}/api/games/{id}/join");
    let Some(joined) = post_patiently(client, &url, &join, stats, running).await? else {
        return Ok(());
    };
    let token_b = joined["token"].as_str().context("no token")?.to_string();
    stats.games_started.fetch_add(1, Ordering::Relaxed);
    let _playing = Counted::start(&stats.playing);
    let a = tokio::spawn(player(
        id.clone(),
        format!("{ws_base}/api/games/{id}/ws?token={token_a}"),
        seed * 2,
        stats.clone(),
        running.clone(),
    ));
    let b = tokio::spawn(player(
        id.clone(),
        format!("{ws_base}/api/games/{id}/ws?token={token_b}"),
        seed * 2 + 1,
        stats.clone(),
        running.clone(),
    ));
    let (ra, rb) = (a.await?, b.await?);
    // Both players have stopped: the game ended (one saw it; the other may have been
    // reconnecting) or the measurement did.
    if ra? | rb? {
        stats.games_finished.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// One of a gauge's count while it lives (a game in [`Stats::playing`], a move in
/// [`Stats::sending`]).
struct Counted<'a>(&'a AtomicU64);

impl<'a> Counted<'a> {
    fn start(gauge: &'a AtomicU64) -> Counted<'a> {
        gauge.fetch_add(1, Ordering::SeqCst);
        Counted(gauge)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Posts `body` to `url` and reads the answer, asking again after the `Retry-After` it is told
/// while the server answers 503 (a node behind with storing refuses new games and joins, and a
/// game's node may be gone until its lease runs out); each such refusal is counted. `None` once
/// the measurement is over.
async fn post_patiently(
    client: &reqwest::Client,
    url: &str,
    body: &Value,
    stats: &Stats,
    running: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<Option<Value>> {
    loop {
        if !running.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let answer = client.post(url).json(body).send().await?;
        if answer.status() != reqwest::StatusCode::SERVICE_UNAVAILABLE {
            return Ok(Some(answer.error_for_status()?.json().await?));
        }
        stats.busy.fetch_add(1, Ordering::Relaxed);
        let wait = answer
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
            .unwrap_or(1)
            .clamp(1, 30);
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
}

/// The parts of a server message a simulated player reads; everything else in it is skipped
/// without being built. A full state (`sync`, `catchup`) comes with `state`; after it, events
/// and presence bring `changes` (a server from before them sent the whole `state` every time).
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(borrow, rename = "type")]
    kind: &'a str,
    /// A refusal's HTTP status (503: the server is behind, send it again after a second).
    status: Option<u16>,
    #[serde(borrow)]
    state: Option<StateSeen<'a>>,
    changes: Option<ChangesSeen>,
}

/// What a player needs of a game's state.
#[derive(Deserialize)]
struct StateSeen<'a> {
    #[serde(borrow)]
    status: &'a str,
    version: i64,
    you: Option<u8>,
    to_move: u8,
    /// The compact legal moves.
    #[serde(default)]
    legal: Option<CompactLegal>,
    /// The legal moves spelled out (servers from before the compact form).
    #[serde(borrow, default)]
    legal_moves: PickOne<'a>,
}

/// What a player needs of the changes a message brings (absent: unchanged).
#[derive(Deserialize)]
struct ChangesSeen {
    version: i64,
    status: Option<String>,
    to_move: Option<u8>,
    #[serde(default, deserialize_with = "present")]
    legal: Option<Option<CompactLegal>>,
}

/// A field that is present (perhaps `null`), as opposed to absent.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// What a player holds of its game, kept up to date by the changes.
#[derive(Default)]
struct Held {
    status: String,
    version: i64,
    you: Option<u8>,
    to_move: u8,
    legal: Option<CompactLegal>,
    /// A move drawn from a whole list of legal moves (servers from before the compact form).
    listed: Option<String>,
}

impl Held {
    /// Takes in a message; false when it brings nothing to hold.
    fn take(&mut self, message: Incoming<'_>) -> bool {
        if let Some(s) = message.state {
            *self = Held {
                status: s.status.to_string(),
                version: s.version,
                you: s.you,
                to_move: s.to_move,
                legal: s.legal,
                listed: s.legal_moves.chosen.map(str::to_string),
            };
            return true;
        }
        let Some(c) = message.changes else {
            return false;
        };
        self.version = c.version;
        if let Some(status) = c.status {
            self.status = status;
        }
        if let Some(to_move) = c.to_move {
            self.to_move = to_move;
        }
        if let Some(legal) = c.legal {
            self.legal = legal;
        }
        true
    }

    /// A legal move drawn with `random`.
    fn pick(&self, random: u64) -> Option<String> {
        match &self.legal {
            Some(legal) => legal.pick(random),
            None => self.listed.clone(),
        }
    }
}

/// One of the legal moves of a message, drawn uniformly at random while the list is read
/// (reservoir sampling), with how many there were: nothing is collected.
#[derive(Default)]
struct PickOne<'a> {
    chosen: Option<&'a str>,
    len: u64,
}

thread_local! {
    /// The random numbers of [`PickOne`] (xorshift; any seed but 0).
    static PICK: std::cell::Cell<u64> = const { std::cell::Cell::new(0x2545_F491_4F6C_DD1D) };
}

impl<'de: 'a, 'a> Deserialize<'de> for PickOne<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = PickOne<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of moves")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut pick = PickOne::default();
                while let Some(mv) = seq.next_element::<&'de str>()? {
                    pick.len += 1;
                    // The n-th move replaces the one kept with probability 1/n.
                    let r = PICK.with(|c| {
                        let mut x = c.get();
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        c.set(x);
                        x
                    });
                    if r.is_multiple_of(pick.len) {
                        pick.chosen = Some(mv);
                    }
                }
                Ok(pick)
            }
        }
        deserializer.deserialize_seq(Visitor)
    }
}

/// How long a player keeps trying to connect again to its game before it gives up on it: a
/// dead node's games move after its lease (5 s by default), and a restart takes a few seconds.
const RECONNECT_FOR: Duration = Duration::from_secs(60);

/// How a player's socket ended.
enum Ended {
    /// The game is over (the server said `finished`).
    Finished,
    /// The measurement is over.
    Stopped,
    /// The socket closed (or failed) before the end of the game.
    Closed,
}

/// One simulated player: moves when it is its turn, after a think time, and times the ack.
/// When its socket closes before the end of the game, it connects again to `url` (the same
/// game, through the same address) and plays on, as the web page does. Returns whether it saw
/// the game finished.
async fn player(
    game: String,
    url: String,
    seed: u64,
    stats: Arc<Stats>,
    running: Arc<std::sync::atomic::AtomicBool>,
) -> anyhow::Result<bool> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut first = true;
    loop {
        let socket = match connect(&url, &running).await? {
            Some(socket) => socket,
            None => return Ok(false),
        };
        if first {
            stats.connected.fetch_add(1, Ordering::Relaxed);
            first = false;
        } else {
            stats.reconnections.fetch_add(1, Ordering::Relaxed);
        }
        match play(&game, socket, &mut next, &stats, &running).await {
            Ended::Finished => return Ok(true),
            Ended::Stopped => return Ok(false),
            Ended::Closed if !running.load(Ordering::Relaxed) => return Ok(false),
            Ended::Closed => {}
        }
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Connects to the game at `url`, trying again (from a tenth of a second to two seconds apart)
/// while it is refused or unreachable, for up to [`RECONNECT_FOR`]; `None` once the
/// measurement is over.
async fn connect(
    url: &str,
    running: &std::sync::atomic::AtomicBool,
) -> anyhow::Result<Option<Socket>> {
    // A small read buffer: tungstenite zero-fills all of it on every read.
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let until = Instant::now() + RECONNECT_FOR;
    let mut pause = Duration::from_millis(100);
    loop {
        if !running.load(Ordering::Relaxed) {
            return Ok(None);
        }
        match tokio_tungstenite::connect_async_with_config(url, Some(config), false).await {
            Ok((socket, _)) => return Ok(Some(socket)),
            Err(e) if Instant::now() >= until => {
                return Err(anyhow::Error::new(e).context(format!(
                    "connecting to the game again failed for {} s",
                    RECONNECT_FOR.as_secs()
                )));
            }
            Err(_) => {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

/// Plays on `socket` until the game ends, the measurement does, or the socket closes.
async fn play(
    game: &str,
    mut socket: Socket,
    next: &mut impl FnMut() -> u64,
    stats: &Stats,
    running: &std::sync::atomic::AtomicBool,
) -> Ended {
    // The version this player last moved at; a new socket starts afresh (a move whose answer
    // was lost with the old socket is either in the new state, which has a later version, or
    // is to be made again).
    let mut moved_at_version = -1i64;
    let mut held = Held::default();
    while let Some(msg) = socket.next().await {
        let text = match msg {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) | Err(_) => return Ended::Closed,
            Ok(_) => continue,
        };
        stats
            .bytes_down
            .fetch_add(text.len() as u64, Ordering::Relaxed);
        let Ok(message) = serde_json::from_str::<Incoming>(&text) else {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        if !held.take(message) {
            continue;
        }
        if held.status == "finished" {
            return Ended::Finished;
        }
        if !running.load(Ordering::Relaxed) {
            return Ended::Stopped;
        }
        if held.status != "live"
            || held.you != Some(held.to_move)
            || held.version <= moved_at_version
        {
            continue;
        }
        let Some(mv) = held.pick(next()) else {
            continue;
        };
        moved_at_version = held.version;
        let think_ms = stats.think_ms.load(Ordering::Relaxed);
        let think = think_ms / 2 + next() % (think_ms.max(1));
        tokio::time::sleep(Duration::from_millis(think)).await;
        // Counted as being sent before the end of the measurement is looked at (both in
        // sequential order): the check either sees this move in flight and waits for it, or
        // this player sees the end and sends nothing.
        let _sending = Counted::start(&stats.sending);
        if !running.load(Ordering::SeqCst) {
            return Ended::Stopped;
        }
        stats.tally(game, |t| t.sent += 1);
        let sent = Instant::now();
        let action = json!({"type": "move", "move": mv}).to_string();
        let mut finished = false;
        // A move refused because the server is behind (503) is sent again a second later, as
        // `Retry-After` says; the latency counts from the first sending.
        'send: loop {
            stats
                .bytes_up
                .fetch_add(action.len() as u64, Ordering::Relaxed);
            if socket
                .send(Message::Text(action.clone().into()))
                .await
                .is_err()
            {
                stats.unanswered.fetch_add(1, Ordering::Relaxed);
                return Ended::Closed;
            }
            // The answer to our action comes in order with the events; wait for it.
            loop {
                let text = match socket.next().await {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => {
                        stats.unanswered.fetch_add(1, Ordering::Relaxed);
                        return Ended::Closed;
                    }
                    Some(Ok(_)) => continue,
                };
                stats
                    .bytes_down
                    .fetch_add(text.len() as u64, Ordering::Relaxed);
                let Ok(r) = serde_json::from_str::<Incoming>(&text) else {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    continue;
                };
                let (kind, status) = (r.kind, r.status);
                if held.take(r) {
                    finished |= held.status == "finished";
                }
                match kind {
                    "ack" => {
                        let us = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                        stats
                            .latencies_us
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(us);
                        stats.moves.fetch_add(1, Ordering::Relaxed);
                        stats.tally(game, |t| t.acknowledged += 1);
                        break 'send;
                    }
                    "refused" if status == Some(503) && !finished => {
                        stats.moves_busy.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        if !running.load(Ordering::Relaxed) {
                            return Ended::Stopped;
                        }
                        continue 'send;
                    }
                    "refused" => {
                        stats.refused.fetch_add(1, Ordering::Relaxed);
                        break 'send;
                    }
                    _ => {}
                }
            }
        }
        if finished {
            return Ended::Finished;
        }
    }
    Ended::Closed
}

#[cfg(test)]
mod tests {
    use super::{Tally, back_from, verdict};

    #[test]
    fn a_game_agrees_when_it_holds_every_move_acknowledged_and_no_more_than_were_sent() {
        let tally = Tally {
            sent: 12,
            acknowledged: 10,
        };
        // Two moves sent whose answers were lost with their socket: stored or not, both fine.
        assert_eq!(verdict(10, tally), None);
        assert_eq!(verdict(12, tally), None);
        assert_eq!(
            verdict(9, tally).as_deref(),
            Some("9 moves stored, 10 acknowledged: 1 lost")
        );
        assert_eq!(
            verdict(13, tally).as_deref(),
            Some("13 moves stored, 12 sent: 1 doubled")
        );
    }

    #[test]
    fn a_phase_is_back_from_the_second_after_which_it_stays_near_the_load_offered() {
        // A burst of held-up moves, a dip, then the load offered: back from the dip's end.
        assert_eq!(
            back_from(&[2310, 271, 471, 1058, 1050, 898, 960], 938.0),
            Some(2)
        );
        assert_eq!(back_from(&[950, 940, 930, 945], 938.0), Some(0));
        // Never near it, or only in a window that falls away again.
        assert_eq!(back_from(&[100, 120, 110, 90], 938.0), None);
        assert_eq!(back_from(&[950, 940, 930, 100, 90, 80], 938.0), None);
        assert_eq!(back_from(&[950], 938.0), None);
    }
}
