//! What bounds a search: depth, nodes, time per move, or a clock, and how the time is budgeted.

use std::time::{Duration, Instant};

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

impl Clock {
    /// The clock after a move that took `elapsed`, charged as the server charges it
    /// (`zertz-server`'s `games/clock.rs`), or `None` when the flag fell during the move:
    /// Fischer loses when the move takes all the time left and adds the increment after it;
    /// periods lose when the move takes all of them and use up one for each whole period
    /// overrun; a reserve is charged by started steps past the free time, and loses when the
    /// move takes the free time and every whole step left; per move loses when the move takes
    /// the whole limit.
    pub fn charge(&self, elapsed: Duration) -> Option<Clock> {
        match *self {
            Clock::Fischer {
                remaining,
                increment,
            } => (elapsed < remaining).then(|| Clock::Fischer {
                remaining: remaining - elapsed + increment,
                increment,
            }),
            Clock::Periods { period, left } => {
                let used = elapsed.as_nanos() / period.as_nanos().max(1);
                (used < u128::from(left)).then(|| Clock::Periods {
                    period,
                    left: left - used as u32,
                })
            }
            Clock::Reserve {
                per_move,
                reserve,
                step,
            } => {
                let step_ns = step.as_nanos().max(1);
                let whole = reserve.as_nanos() / step_ns;
                let over = elapsed.saturating_sub(per_move).as_nanos();
                let steps = over.div_ceil(step_ns);
                (elapsed < per_move + step * whole as u32).then(|| Clock::Reserve {
                    per_move,
                    reserve: reserve.saturating_sub(step * steps as u32),
                    step,
                })
            }
            Clock::PerMove { limit } => (elapsed < limit).then_some(Clock::PerMove { limit }),
        }
    }
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
    /// When the move was asked for: the time limits count from then, so that what comes
    /// before the search (reading the command, starting its thread) is part of the move's
    /// time. `None`: from the start of the search.
    pub asked: Option<Instant>,
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
/// Kept back from a time per move (`time <ms>`, at most a fifth of it): ending the search,
/// writing the answer and the pipe to the caller take under a millisecond on an idle machine;
/// the rest is room for a late one. At 8 ms the longest answers to `time 100` on an idle
/// machine came 16 to 20 ms after the engine's stop; once the search had its alarm, counted its
/// time from the question and a new game no longer emptied a fresh table (30 November 2026),
/// at most 8.3 ms after it in 5,238 moves, so 6 ms keep the longest within T + 10 ms and leave
/// more of the time to think (docs/strength.md, "An alarm, and the time counted from the
/// question").
const MOVETIME_MARGIN: Duration = Duration::from_millis(6);
/// Free time per move below which every move overruns it anyway (the answer alone takes a
/// few milliseconds), so a reserve step is spent whatever the engine does.
const TOO_SHORT: Duration = Duration::from_millis(100);
/// Kept back from a time per move besides [`MARGIN`]: an answer past that limit loses the game,
/// and how late an answer comes is a matter of milliseconds whatever the limit. Nine tenths of
/// 200 ms left 40 ms in all, and on an idle machine one answer in about 10,000 came 47 ms after
/// the engine's own stop (docs/strength.md, "On a quiet machine").
const PER_MOVE_ROOM: Duration = Duration::from_millis(50);

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
        if let Some(t) = self.movetime {
            // "Think this long": the whole time is spent, iteration after iteration, and the
            // last one (stopped at the hard limit) still counts its finished moves. Only the
            // answer's own few milliseconds are kept back.
            let hard = t
                .saturating_sub(MOVETIME_MARGIN.min(t / 5))
                .max(Duration::from_millis(1).min(t));
            b.soft = b.soft.min(hard);
            b.hard = b.hard.min(hard);
        }
        let mut tighten = |soft: Duration, hard: Duration| {
            let hard = hard.saturating_sub(MARGIN).max(Duration::from_millis(1));
            b.soft = b.soft.min(soft.min(hard));
            b.hard = b.hard.min(hard);
        };
        match self.clock {
            Some(Clock::Fischer {
                remaining,
                increment,
            }) => {
                // The increment less the margin: what a move gets back beyond its answer's
                // own cost. Planning on the whole increment let the clock drain to about
                // 100 ms at 1 s + 50 ms, where a machine's hiccup lost on time.
                let base = remaining / 30 + increment.saturating_sub(MARGIN) * 4 / 5;
                let hard = (base * 3).min(remaining / 4);
                tighten(base / 2, hard);
            }
            Some(Clock::Periods { period, left }) => {
                let (soft, hard) = periods_budget(period, left);
                tighten(soft, hard);
            }
            Some(Clock::Reserve {
                per_move,
                reserve,
                step,
            }) => {
                let (soft, hard) = reserve_budget(per_move, reserve, step);
                tighten(soft, hard);
            }
            Some(Clock::PerMove { limit }) => {
                let cap = Duration::from_secs(60);
                let hard = (limit * 9 / 10).min(limit.saturating_sub(PER_MOVE_ROOM));
                tighten((limit / 2).min(cap / 2), hard.min(cap));
            }
            None => {}
        }
        b
    }
}

/// Periods: every move is planned within one period, and only a move whose last iteration
/// runs long may use one period up, and only while three or more are left (so that two are
/// always in hand: the last is never put at risk by choice). With two left the move stays
/// inside four fifths of its period, with the last one inside half of it.
fn periods_budget(period: Duration, left: u32) -> (Duration, Duration) {
    let soft = period * 2 / 5;
    let hard = if left >= 3 {
        // Less than two periods: an overrun uses up one period, never two.
        period * 9 / 5
    } else if left == 2 {
        period * 4 / 5
    } else {
        // The last period: overrunning it loses, so half of it is left for a machine that
        // answers late (at 200 ms periods, 250 fast games lost 3 on time with four fifths,
        // each by a last move of 206 to 248 ms).
        period / 2
    };
    (soft, hard)
}

/// The whole steps of `reserve` a move may spend: never the last one, and at most a quarter of
/// them (rounded up) on one move. Every started step is charged whole, so only whole steps
/// count. When the free time is too short to answer in, the move overruns it whatever it
/// does, so one step is allowed even if it is the last.
fn usable_steps(per_move: Duration, reserve: Duration, step: Duration) -> u32 {
    if step.is_zero() {
        return 0;
    }
    let steps = u32::try_from(reserve.as_nanos() / step.as_nanos()).unwrap_or(u32::MAX);
    let mut usable = if steps >= 2 { steps.div_ceil(4) } else { 0 };
    if per_move < TOO_SHORT && steps >= 1 {
        usable = usable.max(1);
    }
    usable
}

/// Time per move plus a reserve charged in steps: plan within the free time (as before the
/// reserve existed), but let a move whose last iteration runs long dip into the reserve, by at
/// most [`usable_steps`] whole steps; the hard limit keeps the overrun within them, so the
/// reserve never runs out. With next to no free time, the planned time comes from the reserve.
fn reserve_budget(per_move: Duration, reserve: Duration, step: Duration) -> (Duration, Duration) {
    let extra = step * usable_steps(per_move, reserve, step);
    let soft = per_move / 2 + extra / 8;
    let hard = (per_move + extra) * 9 / 10;
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_within_the_clock() {
        let p = Player::One;
        let b = Limits::movetime(Duration::from_secs(1)).budget(p);
        assert!(b.hard < Duration::from_secs(1) && b.soft <= b.hard);
        // `time <ms>` searches until 6 ms before it is up, a fifth of a shorter time.
        assert_eq!(Limits::movetime(ms(100)).budget(p).hard, ms(94));
        assert_eq!(Limits::movetime(ms(20)).budget(p).hard, ms(16));
        let periods = Limits {
            clock: Some(Clock::Periods {
                period: Duration::from_secs(60),
                left: 1,
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

    fn clocked(clock: Clock) -> Budget {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
        .budget(Player::Two)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Whole steps a move of `elapsed` is charged beyond `per_move` (a started step counts).
    fn charged(elapsed: Duration, per_move: Duration, step: Duration) -> u128 {
        let over = elapsed.saturating_sub(per_move).as_nanos();
        over.div_ceil(step.as_nanos())
    }

    #[test]
    fn periods_stay_in_the_last_two_and_may_use_one_of_several() {
        let period = Duration::from_secs(60);
        for left in [0, 1, 2] {
            let b = clocked(Clock::Periods { period, left });
            assert!(b.soft <= b.hard && b.hard < period, "{left}: {b:?}");
            // A fifth of the period is kept for the answer to arrive, half of the last one.
            assert!(b.hard <= period * 4 / 5, "{left}: {b:?}");
            if left <= 1 {
                assert!(b.hard <= period / 2, "{left}: {b:?}");
            }
        }
        for left in [3, 5, 100] {
            let b = clocked(Clock::Periods { period, left });
            // A long last iteration may run into the next period, never past it.
            assert!(
                b.hard > period && b.hard + MARGIN < period * 2,
                "{left}: {b:?}"
            );
            // New iterations are still planned inside the first period.
            assert!(b.soft < period / 2, "{left}: {b:?}");
        }
        // A short period: the same shares, never nothing.
        let b = clocked(Clock::Periods {
            period: ms(10),
            left: 1,
        });
        assert!(b.hard >= ms(1) && b.hard < ms(10), "{b:?}");
    }

    #[test]
    fn a_reserve_is_dipped_into_by_whole_steps_and_never_emptied_by_choice() {
        let (per_move, step) = (Duration::from_secs(60), Duration::from_secs(15));
        // Full reserve: a long move may use some of it, in whole steps, at most a quarter.
        let full = clocked(Clock::Reserve {
            per_move,
            reserve: Duration::from_secs(180),
            step,
        });
        assert!(full.hard > per_move, "{full:?}");
        assert!(charged(full.hard + MARGIN, per_move, step) <= 3, "{full:?}");
        assert!(full.soft < per_move, "{full:?}");
        // Two steps left: one may go; one step (or part of one) left: none.
        let two = clocked(Clock::Reserve {
            per_move,
            reserve: Duration::from_secs(30),
            step,
        });
        assert!(two.hard > per_move, "{two:?}");
        assert_eq!(charged(two.hard + MARGIN, per_move, step), 1, "{two:?}");
        for reserve in [ms(0), ms(1), ms(14_999), ms(15_000), ms(29_999)] {
            let b = clocked(Clock::Reserve {
                per_move,
                reserve,
                step,
            });
            assert!(b.hard < per_move, "{reserve:?}: {b:?}");
            assert_eq!(charged(b.hard + MARGIN, per_move, step), 0, "{reserve:?}");
        }
        // No free time at all: every move overruns anyway, so one step is used, never more
        // than the reserve holds; with no whole step left, as little time as can be.
        let b = clocked(Clock::Reserve {
            per_move: Duration::ZERO,
            reserve: ms(15_000),
            step,
        });
        assert!(b.hard > Duration::from_secs(10) && b.hard < step, "{b:?}");
        assert!(b.soft > Duration::ZERO && b.soft <= b.hard, "{b:?}");
        let b = clocked(Clock::Reserve {
            per_move: Duration::ZERO,
            reserve: ms(14_000),
            step,
        });
        assert_eq!(b.hard, ms(1), "{b:?}");
    }

    #[test]
    fn reserves_of_every_size_are_never_overrun() {
        for per_move in [0, 50, 99, 100, 1_000, 60_000] {
            for step in [1, 10, 1_000, 15_000] {
                for reserve in [0, 1, 9, 10, 11, 999, 1_000, 2_500, 15_000, 180_000] {
                    let (per_move, step, reserve) = (ms(per_move), ms(step), ms(reserve));
                    let b = clocked(Clock::Reserve {
                        per_move,
                        reserve,
                        step,
                    });
                    let whole = reserve.as_nanos() / step.as_nanos();
                    let used = charged(b.hard + MARGIN, per_move, step);
                    let case = format!("{per_move:?} {reserve:?} {step:?}: {b:?}");
                    assert!(b.soft <= b.hard, "{case}");
                    if per_move >= TOO_SHORT {
                        // Never the last step, never more than a quarter (rounded up).
                        assert!(used < whole.max(1), "{case}");
                        assert!(used <= whole.div_ceil(4), "{case}");
                    } else if b.hard > ms(1) {
                        assert!(used <= whole, "{case}");
                    }
                }
            }
        }
    }

    #[test]
    fn fischer_with_little_time_left() {
        for remaining in [1, 5, 20, 50, 200, 1_000] {
            for increment in [0, 100, 5_000] {
                let b = clocked(Clock::Fischer {
                    remaining: ms(remaining),
                    increment: ms(increment),
                });
                let case = format!("{remaining} ms + {increment} ms: {b:?}");
                assert!(b.soft <= b.hard && b.hard >= ms(1), "{case}");
                // A quarter of what is left at most (or the least search there is).
                assert!(b.hard <= ms(remaining / 4).max(ms(1)), "{case}");
            }
        }
        // Plenty of time: about a thirtieth of it planned, far more allowed on a long move.
        let b = clocked(Clock::Fischer {
            remaining: Duration::from_secs(300),
            increment: Duration::from_secs(2),
        });
        assert!(b.soft > Duration::from_secs(2) && b.soft < Duration::from_secs(10));
        assert!(
            b.hard > b.soft * 2 && b.hard < Duration::from_secs(75),
            "{b:?}"
        );
    }

    #[test]
    fn clocks_are_charged_as_the_server_charges_them() {
        let fischer = Clock::Fischer {
            remaining: ms(1_000),
            increment: ms(100),
        };
        assert_eq!(
            fischer.charge(ms(300)),
            Some(Clock::Fischer {
                remaining: ms(800),
                increment: ms(100)
            })
        );
        assert_eq!(fischer.charge(ms(1_000)), None);
        let periods = Clock::Periods {
            period: ms(100),
            left: 3,
        };
        assert_eq!(periods.charge(ms(99)), Some(periods));
        assert_eq!(
            periods.charge(ms(250)),
            Some(Clock::Periods {
                period: ms(100),
                left: 1
            })
        );
        assert_eq!(periods.charge(ms(300)), None);
        let reserve = Clock::Reserve {
            per_move: ms(100),
            reserve: ms(250),
            step: ms(100),
        };
        assert_eq!(reserve.charge(ms(100)), Some(reserve));
        assert_eq!(
            reserve.charge(ms(101)),
            Some(Clock::Reserve {
                per_move: ms(100),
                reserve: ms(150),
                step: ms(100)
            })
        );
        // Only whole steps can be used: 100 ms free and two whole steps.
        assert!(reserve.charge(ms(299)).is_some());
        assert_eq!(reserve.charge(ms(300)), None);
        let per_move = Clock::PerMove { limit: ms(500) };
        assert_eq!(per_move.charge(ms(499)), Some(per_move));
        assert_eq!(per_move.charge(ms(500)), None);
    }

    #[test]
    fn correspondence_and_movetime_caps() {
        let b = clocked(Clock::PerMove {
            limit: Duration::from_secs(86_400),
        });
        assert!(b.hard <= Duration::from_secs(60), "{b:?}");
        // A short limit keeps a fixed room for a late answer, a long one a tenth.
        let fast = clocked(Clock::PerMove { limit: ms(200) });
        assert_eq!(fast.hard, ms(200) - PER_MOVE_ROOM - MARGIN, "{fast:?}");
        assert_eq!(fast.soft, ms(100), "{fast:?}");
        let slow = clocked(Clock::PerMove { limit: ms(2000) });
        assert_eq!(slow.hard, ms(1800) - MARGIN, "{slow:?}");
        // The tighter of a time per move and a clock.
        let both = Limits {
            movetime: Some(Duration::from_secs(1)),
            clock: Some(Clock::Periods {
                period: Duration::from_secs(60),
                left: 5,
            }),
            ..Limits::default()
        }
        .budget(Player::One);
        assert!(both.hard < Duration::from_secs(1), "{both:?}");
    }
}
