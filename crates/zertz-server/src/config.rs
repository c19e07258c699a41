//! The settings of the service, as `zertz serve` takes them: plain values, so that every part
//! of the server may read them and this file imports nothing of the features.

use std::time::Duration;

use crate::rate::Rate;

/// Settings of the service.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a player may be away before the opponent may claim the game.
    pub claim_after: Duration,
    /// The engine's thinking time per move (it uses less when its clock is short).
    pub engine_move_time: Duration,
    /// Engine searches running at once (the rest wait their turn).
    pub engine_slots: usize,
    /// HTTP requests (WebSocket upgrades included) per client address.
    pub http_rate: Rate,
    /// Actions per WebSocket connection.
    pub action_rate: Rate,
    /// How often the server pings each WebSocket; a connection silent for a whole interval
    /// after a ping is closed and its seat counted away (zero: no pings).
    pub ping_interval: Duration,
    /// How long a finished (or open, never joined) game nobody uses stays in memory
    /// (docs/server.md, "Memory"); it is loaded again from storage when asked for.
    pub evict_after: Duration,
    /// The server is reached over HTTPS (behind a proxy that ends TLS): session cookies are
    /// marked `Secure`.
    pub secure_cookies: bool,
    /// Chat lines per WebSocket connection.
    pub chat_rate: Rate,
    /// Guests who do not play in a game may say anything in its room (not only the presets).
    pub guest_chat: bool,
    /// Games against the engine one client (an account, or an address for guests) may be
    /// playing at once.
    pub engine_games_per_client: usize,
    /// Open seeks (open games and matches, quick-pairing requests) one client may have at once.
    pub seeks_per_client: usize,
    /// Invitations not yet taken one client may have at once (0: no limit): each game waits
    /// in memory for its invited player.
    pub invitations_per_client: usize,
    /// Custom boards new to the server one client may bring in an hour (0: no limit): each
    /// stays in memory while a game or request holds it (see `new_boards`).
    pub new_boards_per_client: usize,
    /// New studies (saved or copied) one account, and one address, may store in an hour (0:
    /// no limit): a study holds up to 512 KiB and accounts are free (docs/security.md).
    pub new_studies_per_hour: u32,
    /// Accounts one address (an IPv6 /64) may create in an hour (0: no limit): enough for a
    /// family or a club behind one address, few enough that accounts are not free to multiply
    /// (every limit kept per account would multiply with them: docs/security.md).
    pub sign_ups_per_hour: u32,
    /// Connections one address may hold, and how long an idle one stays open.
    pub connections: ConnectionLimits,
    /// Analysis-board searches running at once, apart from the games' engine slots (the rest
    /// wait in line, one turn per address); by default half the cores, at least one.
    pub study_slots: usize,
    /// The longest one analysis-board search may run.
    pub analysis_time: Duration,
    /// How many game reviews may wait, per requester and in all.
    pub review_limits: ReviewLimits,
    /// How many analyses of finished games' positions may wait or run, per client and in all.
    pub analysis_limits: AnalysisLimits,
    /// The puzzle set's file (`zertz serve --puzzles PATH`); `None`: the set compiled in
    /// (`data/puzzles.json`).
    pub puzzles: Option<std::path::PathBuf>,
    /// On PostgreSQL, how long a node's lease of a game lasts unless renewed: a node that dies
    /// loses its games to the others after at most this long (docs/server.md, "Several nodes").
    pub lease_ttl: Duration,
    /// Commits (moves and other changes of games being stored) in flight at once from which the
    /// server is behind and refuses new games and joins with 503 and `Retry-After` (the games
    /// being played go on); 0: never (docs/server.md, "Several nodes").
    pub busy_commits: usize,
    /// Commits in flight at once from which the server refuses the players' actions too
    /// (moves included) with 503 and `Retry-After`: the bound of the queue of moves waiting to
    /// be stored; 0: none (docs/server.md, "A node that cannot keep up").
    pub max_commits: usize,
    /// On PostgreSQL, the address (`host:port`) the other nodes reach this one at; `None`: the
    /// address it listens on.
    pub advertise: Option<String>,
    /// On PostgreSQL, this node's id among those sharing the database (each its own; see
    /// [`DEFAULT_NODE`]).
    pub node: String,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            claim_after: Duration::from_secs(60),
            engine_move_time: Duration::from_millis(1500),
            engine_slots: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            http_rate: Rate::new(50.0, 500.0),
            action_rate: Rate::new(20.0, 50.0),
            ping_interval: Duration::from_secs(20),
            evict_after: Duration::from_secs(300),
            secure_cookies: false,
            chat_rate: Rate::new(0.5, 5.0),
            guest_chat: false,
            engine_games_per_client: 3,
            seeks_per_client: 5,
            invitations_per_client: 10,
            new_boards_per_client: 20,
            new_studies_per_hour: 30,
            sign_ups_per_hour: 5,
            connections: Default::default(),
            // Half the machine: the games' engines have their own slots (`engine_slots`).
            study_slots: std::thread::available_parallelism()
                .map(|n| n.get() / 2)
                .unwrap_or(1)
                .max(1),
            analysis_time: Duration::from_secs(30),
            review_limits: Default::default(),
            analysis_limits: Default::default(),
            puzzles: None,
            lease_ttl: Duration::from_secs(5),
            busy_commits: 64,
            max_commits: 512,
            advertise: None,
            node: DEFAULT_NODE.to_string(),
        }
    }
}

/// Limits on the sockets of the service.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// Connections one address may hold open at once (0: no cap). The next is answered 429
    /// and closed.
    pub per_address: usize,
    /// How long the server waits for a request's headers: on a new connection, and on a
    /// keep-alive connection between requests (then it is idle and is closed).
    pub idle_timeout: Duration,
    /// How long a request's whole body may take to arrive (then 408: `http::body`).
    pub body_timeout: Duration,
    /// The proxies (load balancers) whose `X-Forwarded-For` names the client
    /// (`http::client`); empty: the connection's own address is the client's.
    pub trusted_proxies: std::sync::Arc<[std::net::IpAddr]>,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            per_address: 64,
            idle_timeout: Duration::from_secs(20),
            body_timeout: Duration::from_secs(60),
            trusted_proxies: std::sync::Arc::from([]),
        }
    }
}

/// How many reviews may wait.
#[derive(Clone, Copy, Debug)]
pub struct ReviewLimits {
    /// Waiting (or running) for one requester.
    pub per_requester: usize,
    /// Waiting in all.
    pub total: usize,
}

impl Default for ReviewLimits {
    fn default() -> ReviewLimits {
        ReviewLimits {
            per_requester: 5,
            total: 500,
        }
    }
}

/// How many analyses may wait or run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisLimits {
    /// Per client.
    pub per_client: usize,
    /// In all.
    pub total: usize,
}

impl Default for AnalysisLimits {
    fn default() -> AnalysisLimits {
        AnalysisLimits {
            per_client: 8,
            total: 64,
        }
    }
}

/// The node id of a server not given one (`zertz serve --node`): a single node restarted
/// takes back its own leases at once instead of waiting for them to run out. Nodes sharing a
/// database must each be given an id of their own (two processes under one id would both
/// pass the lease check; the version check still keeps them from writing one version twice).
pub const DEFAULT_NODE: &str = "default";
