//! What bounds a search: depth, nodes, time per move, or a clock, and how the time is budgeted.

use std::time::Duration;

use zertz::Player;

/// A game clock as the engine sees it on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Sudden death (`increment` zero) or Fischer: time left and the increment per move.
    Fischer {
        /// Time left on the engine's clock.
        remaining: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Periods ("5 periods of 1 minute"): each move within a period; overrunning uses one up.
    Periods {
        /// Length of a period.
        period: Duration,
        /// Periods left (overrunning the last loses).
        left: u32,
    },
    /// Time per move plus a reserve charged in steps ("1 minute a move, 3 minutes of reserve in
    /// 15-second steps").
    Reserve {
        /// Free time per move.
        per_move: Duration,
        /// Reserve left.
        reserve: Duration,
        /// The reserve is charged in whole steps of this length.
        step: Duration,
    },
    /// Correspondence: a long limit per move.
    PerMove {
        /// Time allowed for this move.
        limit: Duration,
    },
}

/// Limits of one search. Several may be given; the first reached stops the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in placement turns.
    pub depth: Option<u32>,
    /// Most positions to search.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The clock of the player to move.
    pub clock: Option<Clock>,
    /// Search until stopped (analysis).
    pub infinite: bool,
}

/// How long to search: stop starting new iterations after `soft`, stop at once at `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft: Duration,
    /// Stop now.
    pub hard: Duration,
}

const FOREVER: Duration = Duration::from_secs(1_000_000_000);
/// Kept back from every hard limit for the time it takes to answer.
const MARGIN: Duration = Duration::from_millis(20);

impl Limits {
    /// Search to a fixed depth (in turns).
    pub fn depth(turns: u32) -> Limits {
        Limits {
            depth: Some(turns),
            ..Limits::default()
        }
    }

    /// Search a fixed number of positions.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// The time budget for `player`'s move.
    pub fn budget(&self, _player: Player) -> Budget {
        if self.infinite {
            return Budget {
                soft: FOREVER,
                hard: FOREVER,
            };
        }
        let mut b = Budget {
            soft: FOREVER,
            hard: FOREVER,
        };
        let mut tighten = |soft: Duration, hard: Duration| {
            let hard = hard.saturating_sub(MARGIN).max(Duration::from_millis(1));
            b.soft = b.soft.min(soft.min(hard));
            b.hard = b.hard.min(hard);
        };
        if let Some(t) = self.movetime {
            // An iteration started after half the time would rarely finish.
            tighten(t / 2, t);
        }
        match self.clock {
            Some(Clock::Fischer {
                remaining,
                increment,
            }) => {
                let base = remaining / 30 + increment * 4 / 5;
                let hard = (base * 3).min(remaining / 4);
                tighten(base / 2, hard);
            }
            Some(Clock::Periods { period, .. }) => tighten(period * 2 / 5, period * 4 / 5),
            Some(Clock::Reserve { per_move, .. }) => tighten(per_move / 2, per_move * 9 / 10),
            Some(Clock::PerMove { limit }) => {
                let cap = Duration::from_secs(60);
                tighten((limit / 2).min(cap / 2), (limit * 9 / 10).min(cap));
            }
            None => {}
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_within_the_clock() {
        let p = Player::One;
        let b = Limits::movetime(Duration::from_secs(1)).budget(p);
        assert!(b.hard < Duration::from_secs(1) && b.soft <= b.hard);
        let periods = Limits {
            clock: Some(Clock::Periods {
                period: Duration::from_secs(60),
                left: 5,
            }),
            ..Limits::default()
        };
        assert!(periods.budget(p).hard < Duration::from_secs(60));
        let fischer = Limits {
            clock: Some(Clock::Fischer {
                remaining: Duration::from_secs(10),
                increment: Duration::ZERO,
            }),
            ..Limits::default()
        };
        assert!(fischer.budget(p).hard <= Duration::from_millis(2500));
        assert_eq!(Limits::depth(3).budget(p).hard, FOREVER);
    }
}
