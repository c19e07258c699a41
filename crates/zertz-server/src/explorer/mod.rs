//! The opening explorer: what was played from a position in BoardSpace's archive and on this
//! server, by position key (`zertz::symmetry`: positions equal under the board's symmetries,
//! and transpositions, share a key), with results, ratings, dates and example games.
//!
//! `key` turns a game into keyed steps, `games` builds the explorer's games (BoardSpace
//! records, this server's finished games), `import` counts them in memory into batches for the
//! store, `queries` answers a position (`cache` keeping the busy ones), `eval` adds the engine's word on each move. The
//! import of archives is the CLI's `zertz explorer import`; this server's games are added by
//! `adder` as they end (many at a time), and by `catch_up` at start for any a stop left out.

pub mod adder;
pub mod cache;
pub mod catch_up;
pub mod eval;
pub mod games;
pub mod import;
pub mod key;
pub mod leaf_buckets;
pub mod postgres;
pub mod queries;
pub mod routes;
pub(crate) mod sql;
pub mod sqlite;
pub mod store;
pub mod turned;

use std::sync::Arc;

use crate::explorer::store::ExplorerSources;
use crate::games::ended::GameEnded;
use crate::games::room::Room;
use crate::store::StoreError;

/// Adds one finished game of this server to the explorer (source `server`), unless it is
/// already there or was aborted (true when it was added). See [`finished_entry`] for the
/// ratings.
pub async fn add_finished(
    store: &dyn ExplorerSources,
    room: &Room,
    ended_ms: i64,
) -> Result<bool, StoreError> {
    let Some(entry) = finished_entry(store, room, ended_ms).await? else {
        return Ok(false);
    };
    let mut aggregate = import::Aggregate::with_capacity("server", 1);
    aggregate.add(entry);
    match store.add_explorer_batch(aggregate.take_batch()).await {
        Ok(()) => Ok(true),
        // Already counted (the end seen twice, or after a restart): nothing to do.
        Err(StoreError::Taken(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// A finished game of this server as the explorer counts it, or `None` when it has nothing
/// to count (aborted, not over, no move). Ratings are the players' ratings in the game's pool
/// where their profiles show them for this game (before it), else their current ones.
pub async fn finished_entry(
    store: &dyn ExplorerSources,
    room: &Room,
    ended_ms: i64,
) -> Result<Option<import::GameEntry>, StoreError> {
    if room.aborted || !room.game.is_over() || room.game.turns().is_empty() {
        return Ok(None);
    }
    let mut ratings = [None, None];
    if let Some(pool) = &room.settings.pool {
        for (seat, account) in room.accounts.iter().enumerate() {
            let Some(account) = account else { continue };
            let played = store
                .played_games(account, &Default::default(), None, 5)
                .await?;
            ratings[seat] = played
                .iter()
                .find(|g| g.game_id == room.id)
                .and_then(|g| g.rating_before)
                .or(store
                    .ratings_of(account)
                    .await?
                    .iter()
                    .find(|r| &r.pool == pool)
                    .map(|r| r.rating.round()));
        }
    }
    let names = [0, 1].map(|i| room.names[i].clone().unwrap_or_else(|| "?".into()));
    let date = crate::util::iso_time(ended_ms)[..10].to_string();
    Ok(Some(games::from_server(
        &room.id, names, ratings, date, &room.game,
    )))
}

/// The opening explorer of this server: its storage and its cache of answers for busy
/// positions (emptied when a game of this server is added).
pub struct Explorer {
    store: Arc<dyn ExplorerSources>,
    cache: Arc<cache::AnswerCache>,
    /// The queue of this server's finished games waiting to be added.
    finished: adder::Adder,
}

impl Explorer {
    /// The explorer on `store`.
    pub fn new(store: Arc<dyn ExplorerSources>) -> Arc<Explorer> {
        let cache = Arc::new(cache::AnswerCache::new());
        let finished = adder::Adder::start(Arc::clone(&store), Arc::clone(&cache));
        Arc::new(Explorer {
            store,
            cache,
            finished,
        })
    }

    /// The explorer's storage.
    pub fn store(&self) -> &dyn ExplorerSources {
        self.store.as_ref()
    }

    /// The answers kept for busy positions.
    pub fn cache(&self) -> &cache::AnswerCache {
        &self.cache
    }

    /// Hears a finished game (subscribed in `app`): it is queued and added in the background
    /// with the other games waiting (`adder`), then the cache is forgotten (its answers would
    /// miss the game); a failure is logged (the game itself is stored).
    pub fn game_ended(&self, ended: &Arc<GameEnded>) {
        self.finished.add(ended);
    }

    /// Adds the finished games a stop left out (see `catch_up`); returns how many.
    pub async fn catch_up(&self) -> Result<usize, StoreError> {
        catch_up::catch_up(self.store(), &self.cache).await
    }
}
