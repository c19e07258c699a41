//! The ZÈRTZ game server: games between people and against the engine over HTTP and
//! WebSocket, server-authoritative clocks, best-of-N matches with the house rules of the online
//! host (seed 004), and durable storage on SQLite or PostgreSQL.
//!
//! One folder per feature: `games` (games and matches in memory), `http` (the routes and what
//! they share), `store` (the database). `util`, `rate` and `config` import nothing of the
//! features. The API is described in docs/server.md.

#![warn(missing_docs)]

pub mod accounts;
pub mod chat;
pub mod cluster;
pub mod config;
pub mod connections;
pub mod explorer;
pub mod fair_slots;
pub mod games;
pub mod http;
pub mod lessons;
pub mod new_boards;
pub mod pairing;
pub mod puzzles;
pub mod rate;
pub mod ratings;
pub mod store;
pub mod study;
pub mod token;
pub mod util;

use std::net::SocketAddr;
use std::sync::Arc;

pub use config::Config;
pub use games::hub::Hub;
use http::limit::PerAddress;

/// Opens the store, brings unfinished games back, and serves the API on `addr` until the
/// process is asked to stop (SIGTERM or Ctrl-C: the store is closed first). `on_ready` is called with the bound address once the server listens.
pub async fn serve(
    addr: SocketAddr,
    db: &str,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> anyhow::Result<()> {
    // Bound first: a node of a cluster tells the others where it listens.
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let (app, hub) = build(db, config, Some(listener.local_addr()?)).await?;
    match connections::raise_open_file_limit() {
        Ok(files) => tracing::info!("open files: up to {files} (sockets included)"),
        Err(e) => tracing::warn!("the open-file limit could not be raised: {e}"),
    }
    on_ready(listener.local_addr()?);
    let app = app.layer(axum::middleware::from_fn_with_state(
        PerAddress::new(hub.config().http_rate),
        http::limit::by_address,
    ));
    tokio::select! {
        served = connections::serve(listener, app, hub.config().connections) => served?,
        signal = stop_signal() => {
            // What was acknowledged is stored already; closing finishes the writes under way
            // and leaves the database whole (on SQLite, every recent event folded), so the
            // next start has nothing to tidy. A store that does not close in time is left
            // to that next start.
            tracing::info!("{signal}: stopping; closing the store");
            let store = hub.store_handle();
            let asked = std::time::Instant::now();
            match tokio::time::timeout(STOP_WITHIN, store.close()).await {
                Ok(()) => tracing::info!("store closed in {} ms", asked.elapsed().as_millis()),
                Err(_) => {
                    tracing::warn!("the store did not close within {STOP_WITHIN:?}: stopping anyway")
                }
            }
        }
    }
    Ok(())
}

/// How long a stopping server waits for its store to close.
const STOP_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// Waits for a request to stop: SIGTERM (a service manager, `kill`) or an interrupt (Ctrl-C).
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = terminate.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "interrupt",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "interrupt"
}

/// The service's routes on the store `db` with `config`, its games resumed and its background
/// work started, and its hub: what [`serve`] serves, before the limits per address and per
/// connection (which need a listener). Tests and fuzz targets drive it in-process (a request
/// then needs `ConnectInfo` among its extensions, as a listener would put it). On PostgreSQL
/// the node is reached at `--advertise`, which it then needs.
pub async fn app(db: &str, config: Config) -> anyhow::Result<(axum::Router, Arc<Hub>)> {
    build(db, config, None).await
}

/// [`app`], for a server listening on `local` when it does.
async fn build(
    db: &str,
    config: Config,
    local: Option<SocketAddr>,
) -> anyhow::Result<(axum::Router, Arc<Hub>)> {
    // On PostgreSQL the server is a node among several (see `cluster`): its appends hold leases.
    let (store, node): (Arc<dyn store::Store>, _) = if store::is_postgres(db) {
        let holder = store::LeaseHolder {
            node: config.node.clone().into(),
            ttl_ms: config.lease_ttl.as_millis().clamp(1, i64::MAX as u128) as i64,
        };
        let pg = store::PostgresStore::open(db).await?.with_leases(holder);
        (Arc::new(pg.clone()), Some(pg))
    } else {
        (Arc::from(store::open(db).await?), None)
    };
    let accounts = Arc::new(accounts::Accounts::new(
        Arc::clone(&store),
        accounts::AccountSettings {
            secure_cookies: config.secure_cookies,
            ..accounts::AccountSettings::default()
        },
    ));
    let chat = Arc::new(chat::Chat::new(Arc::clone(&store), config.guest_chat));
    let quotas = games::quota::Quotas::new(games::quota::Limits {
        engine_games: config.engine_games_per_client,
        seeks: config.seeks_per_client,
        new_boards_per_hour: config.new_boards_per_client,
    });
    let study = study::Study::new(Arc::clone(&store), &config);
    let book = match &config.puzzles {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("--puzzles {}: {e}", path.display()))?;
            puzzles::set::Book::from_json(&text)
                .map_err(|e| anyhow::anyhow!("--puzzles {}: {e}", path.display()))?
        }
        None => puzzles::set::Book::embedded()?,
    };
    tracing::info!("{} puzzles", book.all().len());
    let trainer = puzzles::Puzzles::new(book, Arc::clone(&store), config.study_slots);
    let requeued = study.reviews.start().await?;
    if requeued > 0 {
        tracing::info!("{requeued} game reviews queued again");
    }
    let hub = Hub::new(Arc::clone(&store), config);
    // Finished games the explorer missed at the last stop go in, in the background.
    let catching = Arc::clone(&hub);
    tokio::spawn(async move {
        let store = catching.store_handle();
        match explorer::catch_up::catch_up(store, catching.explorer_cache()).await {
            // Said even when none was missing: the check has ended (tests wait for it).
            Ok(n) => tracing::info!("explorer: {n} finished games added at start"),
            Err(e) => tracing::warn!("explorer: finished games not checked at start: {e}"),
        }
    });
    // Expired sessions leave the database once an hour.
    let sweeper = Arc::downgrade(&accounts);
    tokio::spawn(async move {
        let mut hourly = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            hourly.tick().await;
            let Some(accounts) = sweeper.upgrade() else {
                break;
            };
            match accounts.sweep_sessions().await {
                Ok(0) => {}
                Ok(n) => tracing::info!("{n} expired sessions deleted"),
                Err(e) => tracing::warn!("deleting expired sessions: {e}"),
            }
        }
    });
    if let Some(pg) = node {
        let advertised = match (&hub.config().advertise, local) {
            (Some(a), _) => a.clone(),
            (None, Some(local)) => local.to_string(),
            (None, None) => anyhow::bail!(
                "a node on PostgreSQL served in-process needs --advertise: the address the \
                 other nodes reach it at"
            ),
        };
        let node = cluster::Cluster::of(&pg, advertised)
            .ok_or_else(|| anyhow::anyhow!("a PostgreSQL store without leases"))?;
        tracing::info!(
            "node {} of a cluster, reached at {}",
            node.node(),
            node.addr()
        );
        hub.join_cluster(Arc::clone(&node));
        cluster::leases::round(&hub, &node).await?;
        cluster::leases::start(&hub, node);
    }
    // The pairing's queue is shared when the hub is a node among several (so after joining).
    let pairing = pairing::Pairing::new(Arc::clone(&hub));
    if let Some(node) = hub.cluster() {
        let hearers = cluster::notify::Hearers {
            store: Arc::clone(&store),
            accounts: Arc::downgrade(&accounts),
            hub: Arc::downgrade(&hub),
            pairing: Arc::downgrade(&pairing),
        };
        cluster::notify::start(node.pool().clone(), &accounts, hearers);
    }
    let resumed = hub.resume().await?;
    hub.resume_matches().await?;
    hub.start_eviction();
    tracing::info!("{resumed} unfinished games resumed");
    let app = http::router(http::state::AppState {
        hub: Arc::clone(&hub),
        accounts,
        chat,
        quotas,
        pairing,
        study,
        puzzles: trainer,
    });
    // A request for a game another node holds is passed to that node.
    let app = app.layer(axum::middleware::from_fn_with_state(
        Arc::clone(&hub),
        cluster::proxy::to_owner,
    ));
    Ok((app, hub))
}
