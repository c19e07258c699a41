//! The leaderboard: the players of each pool who played a rated game there in the last 90
//! days, those whose rating is established (not provisional, counting the growth of the
//! deviation since their last game) first by rating, then the provisional ones by rating,
//! marked, so that a new server's leaderboard is not empty until someone has a dozen games.

use serde::Serialize;

use crate::games::pools::Pool;
use crate::ratings::glicko::PROVISIONAL_DEVIATION;
use crate::ratings::store::RatingStore;
use crate::store::StoreError;
use crate::util::now_ms;

/// Only players with a rated game in the pool this recently are listed.
pub const ACTIVE_MS: i64 = 90 * 24 * 3600 * 1000;

/// The length of a full leaderboard.
pub const TOP: usize = 100;

/// A line of the leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Leader {
    /// 1 for the best.
    pub rank: usize,
    /// The player.
    pub name: String,
    /// Rating, rounded.
    pub rating: i64,
    /// Deviation now, rounded.
    pub deviation: i64,
    /// Rated games in the pool.
    pub games: i64,
    /// The rating is still provisional (listed after the established ones, shown with `?`).
    pub provisional: bool,
}

/// The best `limit` (at most [`TOP`]) of `pool`.
pub async fn leaders(
    store: &dyn RatingStore,
    pool: &Pool,
    limit: usize,
) -> Result<Vec<Leader>, StoreError> {
    let now = now_ms();
    let limit = limit.min(TOP);
    // The stored deviation is the one at the last game: those below the line then are the
    // candidates; the deviation now (grown with the time away) decides. A few more are read
    // than needed in case some have grown past the line.
    let rows = store
        .top_ratings(
            &pool.key(),
            now - ACTIVE_MS,
            PROVISIONAL_DEVIATION,
            limit as i64 * 2 + 20,
        )
        .await?;
    let mut shown: Vec<_> = rows
        .into_iter()
        .filter_map(|(name, row)| {
            let r = crate::ratings::policy::rating_of(&row).after(now - row.updated_ms);
            (!r.is_provisional()).then_some((name, r, row.games))
        })
        .take(limit)
        .collect();
    if shown.len() < limit {
        // The provisional ones after them (any deviation), best first.
        let more = store
            .top_ratings(
                &pool.key(),
                now - ACTIVE_MS,
                1e9,
                (limit + shown.len()) as i64,
            )
            .await?;
        for (name, row) in more {
            let r = crate::ratings::policy::rating_of(&row).after(now - row.updated_ms);
            if shown.len() < limit && r.is_provisional() {
                shown.push((name, r, row.games));
            }
        }
    }
    Ok(shown
        .into_iter()
        .enumerate()
        .map(|(i, (name, r, games))| Leader {
            rank: i + 1,
            name,
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            games,
            provisional: r.is_provisional(),
        })
        .collect())
}
