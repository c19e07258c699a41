//! What a game that has just ended leaves in its players' records and ratings: who played, the
//! score, how it ended, its board and pool. An aborted game leaves nothing.

use zertz::{DrawReason, Outcome, Player, Turn, WinReason};

use crate::games::room::Room;
use crate::store::GameEnd;

/// The end of `room`'s game at `ended_ms`, or `None` if it was aborted (or is not over).
pub fn game_end(room: &Room, ended_ms: i64) -> Option<GameEnd> {
    if room.aborted {
        return None;
    }
    let outcome = room.game.outcome()?;
    let score_one = match outcome.winner() {
        Some(Player::One) => 1.0,
        Some(Player::Two) => 0.0,
        None => 0.5,
    };
    Some(GameEnd {
        game: room.id.clone(),
        ended_ms,
        accounts: room.accounts.clone(),
        names: [0, 1].map(|i| room.names[i].clone().unwrap_or_else(|| "?".into())),
        score_one,
        reason: reason(room, &outcome).into(),
        board: room.game.position().layout().kind().name().to_string(),
        pool: room.settings.pool.clone(),
        rated: room.settings.rated && moves_made(room) >= MOVES_TO_RATE,
    })
}

/// A rated game ended before both players had moved (a resignation, a flag, an abandonment or
/// a draw at move 0 or 1) says nothing of their play: it is not rated (as on lichess), so a
/// pair of accounts cannot trade points by resigning at once (issue 39, F5).
pub const MOVES_TO_RATE: usize = 2;

/// The turns played in this game (a game continued from a record counts from where it began).
fn moves_made(room: &Room) -> usize {
    room.game.turns().len().saturating_sub(room.history_turns)
}

/// How a game ended, in one word: a winning set reached by a capture or by an isolation, the
/// loser left without a move, resignation, time, abandonment (claimed), or a draw by
/// repetition or agreement.
fn reason(room: &Room, outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::WinningSet => match room.game.turns().last() {
                Some(Turn::Move(zertz::Move::Place(_))) => "isolation",
                _ => "captures",
            },
            WinReason::NoLegalMove => "no_legal_move",
            WinReason::Resignation => "resignation",
            WinReason::Time => "time",
            WinReason::Forfeit => "abandonment",
        },
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::Agreement) => "agreement",
    }
}
