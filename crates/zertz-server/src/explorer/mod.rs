//! The opening explorer: what was played from a position in BoardSpace's archive and on this
//! server, by position key (`zertz::symmetry`: positions equal under the board's symmetries,
//! and transpositions, share a key), with results, ratings, dates and example games.
//!
//! `key` turns a game into keyed steps, `games` builds the explorer's games (BoardSpace
//! records, this server's finished games), `import` counts them in memory into batches for the
//! store, `queries` answers a position (`cache` keeping the busy ones), `eval` adds the engine's word on each move. The
//! import of archives is the CLI's `zertz explorer import`; this server's games are added by
//! [`add_finished`] as they end, and by `catch_up` at start for any a stop left out.

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
/// already there or was aborted (true when it was added). Ratings are the players' ratings in the game's pool where
/// their profiles show them for this game (before it), else their current ones.
pub async fn add_finished(
    store: &dyn ExplorerSources,
    room: &Room,
    ended_ms: i64,
) -> Result<bool, StoreError> {
    if room.aborted || !room.game.is_over() || room.game.turns().is_empty() {
        return Ok(false);
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
    let entry = games::from_server(&room.id, names, ratings, date, &room.game);
    let mut aggregate = import::Aggregate::new("server");
    aggregate.add(entry);
    match store.add_explorer_batch(aggregate.take_batch()).await {
        Ok(()) => Ok(true),
        // Already counted (the end seen twice, or after a restart): nothing to do.
        Err(StoreError::Taken(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The opening explorer of this server: its storage and its cache of answers for busy
/// positions (emptied when a game of this server is added).
pub struct Explorer {
    store: Arc<dyn ExplorerSources>,
    cache: cache::AnswerCache,
}

impl Explorer {
    /// The explorer on `store`.
    pub fn new(store: Arc<dyn ExplorerSources>) -> Arc<Explorer> {
        Arc::new(Explorer {
            store,
            cache: cache::AnswerCache::new(),
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

    /// Hears a finished game (subscribed in `app`): it is added in the background, then the
    /// cache is forgotten (its answers would miss the game); a failure is logged (the game
    /// itself is stored).
    pub fn game_ended(self: &Arc<Self>, ended: &Arc<GameEnded>) {
        let explorer = Arc::clone(self);
        let ended = Arc::clone(ended);
        tokio::spawn(async move {
            match add_finished(explorer.store(), &ended.room, ended.ended_ms).await {
                Ok(true) => explorer.cache.clear(),
                // Aborted, empty, or added already: nothing new to show.
                Ok(false) => {}
                Err(e) => tracing::warn!(
                    game = %ended.room.id,
                    "explorer: the finished game was not added: {e}"
                ),
            }
        });
    }

    /// Adds the finished games a stop left out (see `catch_up`); returns how many.
    pub async fn catch_up(&self) -> Result<usize, StoreError> {
        catch_up::catch_up(self.store(), &self.cache).await
    }
}
