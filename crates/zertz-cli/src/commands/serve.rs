//! `zertz serve`: the game server (HTTP + WebSocket API) on SQLite by default or PostgreSQL.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;
use zertz_server::Config;
use zertz_server::rate::Rate;

/// Options of `zertz serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database: a SQLite file (created if missing) or a `postgres://` URL.
    #[arg(long, default_value = "zertz.db")]
    db: String,
    /// The engine's thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 1500)]
    engine_ms: u64,
    /// Engine searches at once (default: the number of cores), given out round robin between
    /// the clients whose engine games wait for one.
    #[arg(long)]
    engine_slots: Option<usize>,
    /// Threads that serve the connections (default: the cores less one, at least one). The
    /// engine's searches and the SQLite writer run on threads of their own; on two cores one
    /// such thread spent 8 % less CPU per move than two, which mostly woke each other
    /// (docs/performance.md, "Measured, 27 November 2026").
    #[arg(long)]
    workers: Option<usize>,
    /// Analysis-board searches at once, apart from the games' engine slots (more wait in line,
    /// one turn per address). Default: half the cores, at least one.
    #[arg(long)]
    study_slots: Option<usize>,
    /// The longest one analysis-board search may run, in seconds.
    #[arg(long, default_value_t = 30)]
    analysis_time: u64,
    /// Analyses of finished games' positions (`GET /api/games/ID/analysis`) one client (an
    /// account, or an address for guests) may have waiting or running; more are refused with
    /// 429, their place in the line and when to ask again.
    #[arg(long, default_value_t = 8)]
    analyses_per_client: usize,
    /// Analyses of finished games' positions that may wait or run in all.
    #[arg(long, default_value_t = 64)]
    analysis_queue: usize,
    /// Game reviews one client (an account, or an address for guests) may have waiting.
    #[arg(long, default_value_t = 5)]
    reviews_per_client: usize,
    /// Game reviews that may wait in all; more are refused until the queue shortens.
    #[arg(long, default_value_t = 500)]
    review_queue: usize,
    /// Seconds a player may be away before the opponent may claim the game.
    #[arg(long, default_value_t = 60)]
    claim_after: u64,
    /// HTTP requests a second per client address (WebSocket upgrades included), on average;
    /// more get 429 Too Many Requests. 0: no limit.
    #[arg(long, default_value_t = 50.0)]
    http_rate: f64,
    /// Largest burst of HTTP requests from one address.
    #[arg(long, default_value_t = 500.0)]
    http_burst: f64,
    /// Actions a second per WebSocket connection, on average; more are refused with status
    /// 429. 0: no limit.
    #[arg(long, default_value_t = 20.0)]
    action_rate: f64,
    /// Largest burst of actions on one WebSocket connection.
    #[arg(long, default_value_t = 50.0)]
    action_burst: f64,
    /// Milliseconds between the server's pings on each WebSocket; a connection that answers
    /// nothing for a whole interval after a ping is closed and its seat counted away. 0: no
    /// pings.
    #[arg(long, default_value_t = 20_000)]
    ping_ms: u64,
    /// Seconds a finished (or open, never joined) game nobody uses stays in memory; it is
    /// loaded again from the database when asked for.
    #[arg(long, default_value_t = 300)]
    evict_after: u64,
    /// The server is reached over HTTPS (behind a proxy that ends TLS): session cookies are
    /// marked `Secure`, so that browsers never send them over plain HTTP.
    #[arg(long)]
    behind_https: bool,
    /// Guests who do not play in a game may say anything in its chat (by default they may
    /// only send the preset phrases, which keeps spam bots out).
    #[arg(long)]
    guest_chat: bool,
    /// Games against the engine one player may be playing at once (one address for guests;
    /// an address four players' worth); more are refused with 429. 0: no limit.
    #[arg(long, default_value_t = 3)]
    engine_games_per_client: usize,
    /// Open seeks (open games and matches in the lobby, quick-pairing requests) one player may
    /// have at once (one address for guests; an address four players' worth); more are
    /// refused with 429. 0: no limit.
    #[arg(long, default_value_t = 5)]
    seeks_per_client: usize,
    /// Games and matches with an invitation not yet taken one player may have at once (one
    /// address for guests; an address four players' worth); more are refused with 429. 0: no
    /// limit (a load test's server).
    #[arg(long, default_value_t = 10)]
    invitations_per_client: usize,
    /// Custom boards the server does not hold yet that one player (one address for guests)
    /// may bring in an hour, in games, positions, records and studies (each stays in memory
    /// while a game or request holds it); more are refused with 429. 0: no limit.
    #[arg(long, default_value_t = 20)]
    new_boards_per_client: usize,
    /// New studies (saved or copied) one account, and one address, may store in an hour;
    /// more are refused with 429. 0: no limit.
    #[arg(long, default_value_t = 30)]
    new_studies_per_hour: u32,
    /// Accounts one address (an IPv6 /64) may create in an hour; more are refused with 429
    /// until the hour has room. 0: no limit.
    #[arg(long, default_value_t = 5)]
    sign_ups_per_hour: u32,
    /// The address of a proxy (a load balancer) in front of the server whose
    /// `X-Forwarded-For` header names the client: every per-address limit then applies to the
    /// client, not to the proxy, and the proxy's connections are not capped. Repeat for each
    /// proxy. Without it the header is ignored (anybody can write it).
    #[arg(long = "trusted-proxy", value_name = "ADDRESS")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Connections one address may hold open at once (WebSockets included); the next is
    /// answered 429 and closed. 0: no cap.
    #[arg(long, default_value_t = 64)]
    connections_per_address: usize,
    /// Seconds the server waits for a request's headers, on a new connection and between the
    /// requests of a keep-alive connection (an idle one is then closed).
    #[arg(long, default_value_t = 20)]
    idle_timeout: u64,
    /// Seconds a request's whole body may take to arrive (a client trickling it is answered
    /// 408 and its connection closed).
    #[arg(long, default_value_t = 60)]
    body_timeout: u64,
    /// The puzzle trainer's set: a puzzle set's JSON file (as `zertz puzzles generate` writes
    /// it) instead of the one compiled in (`data/puzzles.json`). A file that does not read
    /// stops the server with its line and reason.
    #[arg(long)]
    puzzles: Option<std::path::PathBuf>,
    /// On PostgreSQL, this node's id among the servers sharing the database: each node its
    /// own (docs/server.md, "Several nodes"). A single server may keep the default.
    #[arg(long, default_value = "default")]
    node: String,
    /// On PostgreSQL, how long (ms) this node's hold on a game lasts unless renewed: a node
    /// that dies loses its games to the others after at most this long.
    #[arg(long, default_value_t = 5000)]
    lease_ms: u64,
    /// Moves (and other changes of games) being stored at once from which the server is behind
    /// and refuses new games, matches and joins with 503 and `Retry-After: 1`, while the games
    /// being played go on (docs/server.md, "A node that cannot keep up"). 0: never.
    #[arg(long, default_value_t = 64)]
    busy_commits: usize,
    /// Moves (and other changes of games) being stored at once from which the server refuses
    /// the players' moves and other actions too, with 503 and `Retry-After: 1`: the bound of
    /// the queue of moves waiting to be stored (docs/server.md, "A node that cannot keep up").
    /// 0: no bound.
    #[arg(long, default_value_t = 512)]
    max_commits: usize,
    /// On PostgreSQL, the address (`host:port`) the other nodes reach this one at (default:
    /// the address it listens on).
    #[arg(long)]
    advertise: Option<String>,
}

/// Runs `zertz serve` until interrupted.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal; a log file or a pipe gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let mut config = Config {
        claim_after: Duration::from_secs(args.claim_after),
        engine_move_time: Duration::from_millis(args.engine_ms),
        http_rate: Rate::new(args.http_rate, args.http_burst),
        action_rate: Rate::new(args.action_rate, args.action_burst),
        ping_interval: Duration::from_millis(args.ping_ms),
        evict_after: Duration::from_secs(args.evict_after),
        secure_cookies: args.behind_https,
        guest_chat: args.guest_chat,
        engine_games_per_client: args.engine_games_per_client,
        seeks_per_client: args.seeks_per_client,
        invitations_per_client: args.invitations_per_client,
        new_boards_per_client: args.new_boards_per_client,
        new_studies_per_hour: args.new_studies_per_hour,
        sign_ups_per_hour: args.sign_ups_per_hour,
        connections: zertz_server::config::ConnectionLimits {
            per_address: args.connections_per_address,
            idle_timeout: Duration::from_secs(args.idle_timeout.max(1)),
            body_timeout: Duration::from_secs(args.body_timeout.max(1)),
            trusted_proxies: args.trusted_proxies.clone().into(),
        },
        study_slots: args
            .study_slots
            .unwrap_or(Config::default().study_slots)
            .max(1),
        analysis_time: Duration::from_secs(args.analysis_time.max(1)),
        review_limits: zertz_server::config::ReviewLimits {
            per_requester: args.reviews_per_client.max(1),
            total: args.review_queue.max(1),
        },
        analysis_limits: zertz_server::config::AnalysisLimits {
            per_client: args.analyses_per_client.max(1),
            total: args.analysis_queue.max(1),
        },
        puzzles: args.puzzles.clone(),
        node: args.node.clone(),
        lease_ttl: Duration::from_millis(args.lease_ms.max(100)),
        busy_commits: args.busy_commits,
        max_commits: args.max_commits,
        advertise: args.advertise.clone(),
        ..Config::default()
    };
    if let Some(n) = args.engine_slots {
        config.engine_slots = n.max(1);
    }
    let db = args.db.clone();
    let workers = args.workers.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1))
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers.max(1))
        .enable_all()
        .build()?;
    let served = runtime.block_on(zertz_server::serve(args.addr, &db, config, |addr| {
        let shown = if db.starts_with("postgres") {
            "PostgreSQL"
        } else {
            db.as_str()
        };
        println!("zertz serve: listening on http://{addr}/ (database: {shown})");
    }));
    // Stopped, the store closed: whatever still runs (an engine search, a connection) is
    // dropped, not waited for.
    runtime.shutdown_background();
    served
}
