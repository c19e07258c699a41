//! perft: the number of move sequences of a given length, the standard test of move generation.
//!
//! A move is one placement (colour, ring, removed ring or none) or one complete capture chain.
//! Repetition is not considered (it needs a game's history).
//!
//! Generic over the set of places: each width is its own monomorphised copy, so the official
//! boards (`u64`) run the same code as before wider sets existed.

use crate::layout::LayoutWidth;
use crate::moves::Move;
use crate::position::Position;

/// The number of move sequences of length `depth` from `position`, counting the last ply in bulk
/// ([`Position::count_moves`]).
pub fn perft<S: LayoutWidth>(position: &Position<S>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(),
        _ => {
            let mut total = 0;
            let mut moves = Vec::new();
            position.legal_moves_into(&mut moves);
            // One buffer for every move: `clone_from` copies the state and leaves the layout.
            let mut next = position.clone();
            for mv in &moves {
                next.clone_from(position);
                next.play_unchecked(mv);
                total += perft(&next, depth - 1);
            }
            total
        }
    }
}

/// The same count, generating and playing every move down to the last ply (slower; the check
/// on the bulk count).
pub fn perft_full<S: LayoutWidth>(position: &Position<S>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    let mut moves = Vec::new();
    position.legal_moves_into(&mut moves);
    let mut next = position.clone();
    for mv in &moves {
        next.clone_from(position);
        next.play_unchecked(mv);
        total += perft_full(&next, depth - 1);
    }
    total
}

/// perft split by first move: each legal move with the count below it (`depth` >= 1).
pub fn divide<S: LayoutWidth>(position: &Position<S>, depth: u32) -> Vec<(Move, u64)> {
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = position.clone();
            next.play_unchecked(&mv);
            (mv, perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}
