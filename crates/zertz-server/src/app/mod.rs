//! The composition, above every feature: the application state, the router, the aggregate
//! store and how it is opened, the cross-node proxy and notifications, and the game socket (a
//! game and its chat). `build` opens the store, starts each feature and wires them together.

pub mod chat_socket;
pub mod game_socket;
pub mod match_socket;
pub mod notify;
pub mod proxy;
pub mod room_socket;
pub mod router;
pub mod shed;
pub mod state;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;

use crate::config::Config;
use crate::games::hub::Hub;
use crate::{accounts, chat, cluster, explorer, games, pairing, puzzles, study, tournaments};

/// The service's routes on the store `db` with `config`, its games resumed and its background
/// work started, and its hub: what [`serve`] serves, before the limits per address and per
/// connection (which need a listener). Tests and fuzz targets drive it in-process (a request
/// then needs `ConnectInfo` among its extensions, as a listener would put it). On PostgreSQL
/// the node is reached at `--advertise`, which it then needs.
pub async fn app(db: &str, config: Config) -> anyhow::Result<(axum::Router, Arc<Hub>)> {
    build(db, config, None).await
}

/// [`app`], for a server listening on `local` when it does.
pub(crate) async fn build(
    db: &str,
    config: Config,
    local: Option<SocketAddr>,
) -> anyhow::Result<(axum::Router, Arc<Hub>)> {
    // On PostgreSQL the server is a node among several (see `cluster`): its appends hold leases.
    let (store, node): (Arc<dyn store::Store>, _) = if crate::store::is_postgres(db) {
        let holder = crate::store::LeaseHolder {
            node: config.node.clone().into(),
            ttl_ms: config.lease_ttl.as_millis().clamp(1, i64::MAX as u128) as i64,
        };
        let pg = crate::store::PostgresStore::open(db, crate::ratings::policy::POLICY)
            .await?
            .with_leases(holder);
        (Arc::new(pg.clone()), Some(pg))
    } else {
        (Arc::from(store::open(db).await?), None)
    };
    let accounts = Arc::new(accounts::Accounts::new(
        store.clone(),
        accounts::AccountSettings {
            secure_cookies: config.secure_cookies,
            sign_ups_per_hour: config.sign_ups_per_hour,
            ..accounts::AccountSettings::default()
        },
    ));
    let filled = accounts.fill_name_looks().await?;
    if filled > 0 {
        tracing::info!("how {filled} account names look, filled in (look-alike names refused)");
    }
    let chat = Arc::new(chat::Chat::new(store.clone(), config.guest_chat));
    let study = study::Study::new(store.clone(), &config);
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
    let trainer = puzzles::Puzzles::new(book, store.clone(), config.study_slots);
    let requeued = study.reviews.start().await?;
    if requeued > 0 {
        tracing::info!("{requeued} game reviews queued again");
    }
    let hub = Hub::new(store.clone(), config);
    // A finished game is announced once; who acts on it subscribes here.
    let explorer = explorer::Explorer::new(store.clone());
    let hearing = Arc::clone(&explorer);
    hub.on_game_end(move |ended| hearing.game_ended(ended));
    let matches = Arc::downgrade(&hub);
    hub.on_game_end(move |ended| {
        if let Some(hub) = matches.upgrade() {
            hub.game_ended(ended);
        }
    });
    let events = tournaments::Tournaments::new(
        store.clone(),
        store.clone(),
        Arc::clone(&hub),
        store.clone(),
        tournaments::service::CreationLimits::default(),
    );
    let hearing = Arc::downgrade(&events);
    hub.on_game_end(move |ended| {
        if let Some(events) = hearing.upgrade() {
            events.game_ended(ended);
        }
    });
    // A knockout's board is a match: the event hears its end.
    let hearing = Arc::downgrade(&events);
    hub.on_match_end(move |ended| {
        if let Some(events) = hearing.upgrade() {
            events.match_ended(ended);
        }
    });
    // Finished games the explorer missed at the last stop go in, in the background.
    let catching = Arc::clone(&explorer);
    tokio::spawn(async move {
        match catching.catch_up().await {
            // Said even when none was missing: the check has ended (tests wait for it).
            Ok(n) => tracing::info!("explorer: {n} finished games added at start"),
            Err(e) => tracing::warn!("explorer: finished games not checked at start: {e}"),
        }
    });
    // Expired sessions, and the quotas' places that no longer count (each taken place is
    // otherwise let go only when its client takes another), leave the database once an hour.
    let sweeper = (Arc::downgrade(&accounts), Arc::downgrade(&hub));
    tokio::spawn(async move {
        let mut hourly = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            hourly.tick().await;
            let (Some(accounts), Some(hub)) = (sweeper.0.upgrade(), sweeper.1.upgrade()) else {
                break;
            };
            match accounts.sweep_sessions().await {
                Ok(0) => {}
                Ok(n) => tracing::info!("{n} expired sessions deleted"),
                Err(e) => tracing::warn!("deleting expired sessions: {e}"),
            }
            match hub.store().sweep_holds(crate::util::now_ms()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!("{n} quota places no longer held deleted"),
                Err(e) => tracing::warn!("deleting quota places no longer held: {e}"),
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
        games::leases::round(&hub, &node).await?;
        games::leases::start(&hub, node);
    }
    // The pairing's queue is shared when the hub is a node among several (so after joining).
    let pairing = pairing::Pairing::new(Arc::clone(&hub));
    if let Some(node) = hub.cluster() {
        let hearers = notify::Hearers {
            store: store.clone(),
            accounts: Arc::downgrade(&accounts),
            hub: Arc::downgrade(&hub),
            pairing: Arc::downgrade(&pairing),
        };
        notify::start(node.pool().clone(), &accounts, hearers);
    }
    let resumed = hub.resume().await?;
    hub.resume_matches().await?;
    hub.start_eviction();
    tracing::info!("{resumed} unfinished games resumed");
    // After the games: an event's round paired at start plays on a hub that has its games.
    events.start();
    let app = router::router(state::AppState {
        store,
        explorer,
        hub: Arc::clone(&hub),
        accounts,
        chat,
        quotas: Arc::clone(hub.quotas()),
        pairing,
        study,
        puzzles: trainer,
        tournaments: events,
    });
    // A node behind with storing refuses new games and joins (after the proxy: judged by the
    // node that would do the work).
    let app = app.layer(axum::middleware::from_fn_with_state(
        Arc::clone(&hub),
        shed::new_work,
    ));
    // A request for a game another node holds is passed to that node.
    let app = app.layer(axum::middleware::from_fn_with_state(
        Arc::clone(&hub),
        proxy::to_owner,
    ));
    Ok((app, hub))
}
