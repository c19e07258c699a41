//! The explorer's view of a game: for each turn, the key of the position it was played in and
//! the move in that position's canonical frame (`zertz::symmetry`).

use zertz::symmetry::{Frame, Tracker, move_code};
use zertz::{Game, Move, Player, Position, Turn};

/// One turn of a game as the explorer counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The position's canonical key, its first 64 bits (see `zertz::symmetry::Key::as_i64`).
    pub position: i64,
    /// The move in the canonical frame.
    pub mv: Move,
    /// Who played it.
    pub mover: Player,
}

/// The steps of `game`: every move turn (a pass after a bribe is no move of the explorer, but
/// the positions after it still are keyed as they are). The symmetry hashes follow the game
/// move by move, so a turn costs a few places' worth of hashing.
pub fn steps(game: &Game) -> Vec<Step> {
    let positions = game.positions();
    let mut out = Vec::with_capacity(game.turns().len());
    let Some(first) = positions.first() else {
        return out;
    };
    let mut tracker = tracker_of(first);
    for (turn, p) in game.turns().iter().zip(positions) {
        tracker.advance(p);
        if let Turn::Move(m) = turn {
            let frame = tracker.frame(p);
            out.push(Step {
                position: frame.key().as_i64(),
                mv: frame.to_canonical(m),
                mover: p.to_move(),
            });
        }
    }
    out
}

thread_local! {
    /// The last start position tracked from scratch and its hashes: nearly every game of an
    /// archive starts from its board's empty start, whose twelve hashes cost more to compute
    /// than a dozen moves to follow.
    static LAST_START: std::cell::RefCell<Option<(Position, Tracker)>> =
        const { std::cell::RefCell::new(None) };
}

/// A tracker of `start`: a copy of the last one made when `start` is the same position. Only
/// starts on official boards are kept: a custom board's layout is freed with its last holder,
/// and this thread's copy would hold it for as long as the thread lives.
fn tracker_of(start: &Position) -> Tracker {
    if start.layout().kind() == zertz::BoardKind::Custom {
        return Tracker::new(start);
    }
    LAST_START.with_borrow_mut(|last| match last {
        Some((p, tracker)) if p == start => tracker.clone(),
        _ => {
            let tracker = Tracker::new(start);
            *last = Some((start.clone(), tracker.clone()));
            tracker
        }
    })
}

/// The key of a position, as the explorer's rows hold it.
pub fn position_key(p: &Position) -> i64 {
    Frame::of(p).key().as_i64()
}

/// The text a canonical move is stored as.
pub fn stored_move(m: &Move) -> String {
    move_code(m)
}

pub use crate::explorer::store::band;
