//! At start, the server's finished games that the explorer missed: a game is added in the
//! background as it ends, so one that ended just before the process stopped may be stored
//! without its explorer rows. The newest finished games are checked and the missing ones
//! added (adding a game twice stores it once, so a game added meanwhile costs nothing).

use std::collections::HashSet;

use crate::explorer::cache::AnswerCache;
use crate::explorer::games::server_id;
use crate::explorer::store::ExplorerSources;
use crate::games::room::Room;
use crate::store::{Cursor, StoreError};

/// Finished games checked at start, the newest first: the games of the last moments before a
/// stop are among them; older ones were added long ago.
pub const CHECKED: usize = 500;

/// Adds the newest [`CHECKED`] finished games missing from the explorer; returns how many
/// were added. A game whose log cannot be read is left out (and logged).
pub async fn catch_up(
    store: &dyn ExplorerSources,
    cache: &AnswerCache,
) -> Result<usize, StoreError> {
    let known: HashSet<String> = store
        .explorer_game_ids("server")
        .await?
        .into_iter()
        .collect();
    let mut added = 0;
    let mut checked = 0;
    let mut before: Option<Cursor> = None;
    while checked < CHECKED {
        let page = store
            .list_games(Some("finished"), before.as_ref(), 100)
            .await?;
        let Some(last) = page.last() else { break };
        before = Some(Cursor {
            updated_ms: last.updated_ms,
            id: last.id.clone(),
        });
        for summary in page.iter().take(CHECKED - checked) {
            checked += 1;
            if known.contains(&server_id(&summary.id)) {
                continue;
            }
            let room = match load(store, &summary.id).await {
                Ok(room) => room,
                Err(e) => {
                    tracing::warn!(game = %summary.id, "explorer: cannot read the game: {e}");
                    continue;
                }
            };
            if crate::explorer::add_finished(store, &room, summary.updated_ms).await? {
                added += 1;
            }
        }
    }
    if added > 0 {
        cache.clear();
    }
    Ok(added)
}

/// A stored game rebuilt from its log.
async fn load(store: &dyn ExplorerSources, id: &str) -> Result<Room, String> {
    let (_, events) = store.load_game(id).await.map_err(|e| e.to_string())?;
    Room::from_stored(id, &events)
}
