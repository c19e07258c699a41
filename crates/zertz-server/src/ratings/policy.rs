//! Who a finished game rates and by how much (the store's [`RatingPolicy`], called inside the
//! transaction that stores the game's result): Glicko-2 for a rated game between two accounts,
//! a game row for each account that played.

use crate::ratings::glicko::{self, Rating};
use crate::store::game_end::{GameEnd, PlayedGame, RatingPolicy, RatingRow};

/// The policy the store is opened with.
pub const POLICY: RatingPolicy = rate;

/// A stored rating as the rating maths takes it.
pub fn rating_of(row: &RatingRow) -> Rating {
    Rating {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    }
}

/// The writes a game's end makes, worked out from the ratings before (`current`, by seat;
/// `None` for a player new to the pool): the new ratings (rated games between two accounts
/// only) and the players' game rows.
pub fn rate(end: &GameEnd, current: [Option<RatingRow>; 2]) -> (Vec<RatingRow>, Vec<PlayedGame>) {
    let mut ratings = Vec::new();
    let rated_pool = end
        .pool
        .as_ref()
        .filter(|_| end.rated && end.accounts.iter().all(Option::is_some));
    let mut before: [Option<f64>; 2] = [None, None];
    let mut after: [Option<f64>; 2] = [None, None];
    if let (Some(pool), [Some(one), Some(two)]) = (rated_pool, &end.accounts) {
        let old = current
            .clone()
            .map(|r| r.map(|r| (rating_of(&r), r.games, r.updated_ms)));
        let rating = |i: usize| old[i].map_or(Rating::default(), |(r, _, _)| r);
        let away = |i: usize| old[i].map_or(0, |(_, _, at)| end.ended_ms - at);
        let (a, b) = glicko::after_game(rating(0), rating(1), end.score_one, [away(0), away(1)]);
        for (i, (account, new)) in [(one, a), (two, b)].into_iter().enumerate() {
            before[i] = Some(rating(i).rating);
            after[i] = Some(new.rating);
            ratings.push(RatingRow {
                account_id: account.clone(),
                pool: pool.clone(),
                rating: new.rating,
                deviation: new.deviation,
                volatility: new.volatility,
                games: old[i].map_or(0, |(_, games, _)| games) + 1,
                updated_ms: end.ended_ms,
            });
        }
    }
    let mut played = Vec::new();
    for seat in 0..2 {
        let Some(account) = &end.accounts[seat] else {
            continue;
        };
        let score = if seat == 0 {
            end.score_one
        } else {
            1.0 - end.score_one
        };
        let outcome = if score > 0.75 {
            "win"
        } else if score < 0.25 {
            "loss"
        } else {
            "draw"
        };
        played.push(PlayedGame {
            account_id: account.clone(),
            game_id: end.game.clone(),
            ended_ms: end.ended_ms,
            seat: seat as i64 + 1,
            outcome: outcome.into(),
            reason: end.reason.clone(),
            opponent_account: end.accounts[1 - seat].clone(),
            opponent_name: end.names[1 - seat].clone(),
            board: end.board.clone(),
            pool: end.pool.clone(),
            rated: rated_pool.is_some(),
            rating_before: before[seat],
            rating_after: after[seat],
        });
    }
    (ratings, played)
}
