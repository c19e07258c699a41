//! Game clocks, server-authoritative: what each kind of time control charges for a turn and
//! when a player runs out. Pure arithmetic on milliseconds; the room supplies the times.

use serde::{Deserialize, Serialize};

/// A time control, the same for both players.
///
/// Unknown fields are refused (`{"kind": "sudden_death", "total_ms": 300, "increment_ms": 5}`
/// would otherwise be read as sudden death with the increment silently dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClockSpec {
    /// No clock. (A variant with braces, not a unit variant: serde refuses unknown fields
    /// only in variants with fields, so `{"kind": "unlimited", "total_ms": 300}` would pass.)
    Unlimited {},
    /// One amount of time for the whole game.
    SuddenDeath {
        /// Time for the game, in ms.
        total_ms: i64,
    },
    /// Base time plus an increment added after each turn (Fischer).
    Fischer {
        /// Starting time, in ms.
        base_ms: i64,
        /// Added after each completed turn, in ms.
        increment_ms: i64,
    },
    /// Main time, then periods: each turn must be made within one period; overrunning a
    /// period uses it up and starts the next; overrunning the last loses. Seed 004's
    /// "5 periods of 1 minute" is `main_ms: 0, periods: 5, period_ms: 60000`.
    Periods {
        /// Main time before the periods, in ms (0 for none).
        main_ms: i64,
        /// Number of periods.
        periods: u32,
        /// Length of a period, in ms.
        period_ms: i64,
    },
    /// A fixed time per turn plus a reserve for turns that take longer, charged in steps
    /// rounded up (seed 004: 1 minute a move, 3 minutes of reserve in 15-second steps).
    /// An empty reserve loses; the reserve is reset each game.
    PerMoveReserve {
        /// Free time for each turn, in ms.
        per_move_ms: i64,
        /// Reserve at the start of a game, in ms.
        reserve_ms: i64,
        /// The reserve is charged in whole steps of this length, in ms.
        step_ms: i64,
    },
    /// Correspondence: a fixed time for each turn (days per move), nothing carried over.
    Correspondence {
        /// Time for each turn, in ms.
        per_move_ms: i64,
    },
}

/// What is left on one player's clock between turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Main time (sudden death, Fischer, periods) or reserve (per move + reserve), in ms.
    pub remaining_ms: i64,
    /// Periods left (periods only).
    pub periods_left: u32,
}

/// The longest clock the server accepts: 400 days, so that sums never overflow.
pub const MAX_MS: i64 = 400 * 24 * 3600 * 1000;

/// Why a clock description was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("clock: {0}")]
pub struct ClockError(pub String);

impl ClockSpec {
    /// Checks that every length is positive (where it must be) and not absurdly long.
    pub fn validate(&self) -> Result<(), ClockError> {
        let positive = |name: &str, v: i64| {
            if v <= 0 || v > MAX_MS {
                Err(ClockError(format!(
                    "`{name}` must be between 1 and {MAX_MS} ms, not {v}"
                )))
            } else {
                Ok(())
            }
        };
        let non_negative = |name: &str, v: i64| {
            if !(0..=MAX_MS).contains(&v) {
                Err(ClockError(format!(
                    "`{name}` must be between 0 and {MAX_MS} ms, not {v}"
                )))
            } else {
                Ok(())
            }
        };
        match *self {
            ClockSpec::Unlimited {} => Ok(()),
            ClockSpec::SuddenDeath { total_ms } => positive("total_ms", total_ms),
            ClockSpec::Fischer {
                base_ms,
                increment_ms,
            } => {
                positive("base_ms", base_ms)?;
                non_negative("increment_ms", increment_ms)
            }
            ClockSpec::Periods {
                main_ms,
                periods,
                period_ms,
            } => {
                non_negative("main_ms", main_ms)?;
                positive("period_ms", period_ms)?;
                if periods == 0 || periods > 1000 {
                    return Err(ClockError(format!(
                        "`periods` must be between 1 and 1000, not {periods}"
                    )));
                }
                Ok(())
            }
            ClockSpec::PerMoveReserve {
                per_move_ms,
                reserve_ms,
                step_ms,
            } => {
                positive("per_move_ms", per_move_ms)?;
                non_negative("reserve_ms", reserve_ms)?;
                positive("step_ms", step_ms)
            }
            ClockSpec::Correspondence { per_move_ms } => positive("per_move_ms", per_move_ms),
        }
    }

    /// The clock of each player at the start of a game.
    pub fn initial(&self) -> ClockState {
        match *self {
            ClockSpec::Unlimited {} | ClockSpec::Correspondence { .. } => ClockState::default(),
            ClockSpec::SuddenDeath { total_ms } => ClockState {
                remaining_ms: total_ms,
                periods_left: 0,
            },
            ClockSpec::Fischer { base_ms, .. } => ClockState {
                remaining_ms: base_ms,
                periods_left: 0,
            },
            ClockSpec::Periods {
                main_ms, periods, ..
            } => ClockState {
                remaining_ms: main_ms,
                periods_left: periods,
            },
            ClockSpec::PerMoveReserve { reserve_ms, .. } => ClockState {
                remaining_ms: reserve_ms,
                periods_left: 0,
            },
        }
    }

    /// How long the player to move may think this turn, from the start of the turn, before
    /// losing on time; `None` without a clock.
    pub fn allowance(&self, state: &ClockState) -> Option<i64> {
        match *self {
            ClockSpec::Unlimited {} => None,
            ClockSpec::SuddenDeath { .. } | ClockSpec::Fischer { .. } => Some(state.remaining_ms),
            ClockSpec::Periods { period_ms, .. } => {
                Some(state.remaining_ms + i64::from(state.periods_left) * period_ms)
            }
            ClockSpec::PerMoveReserve {
                per_move_ms,
                step_ms,
                ..
            } => {
                // Every started step costs a whole step, so only whole steps of the reserve
                // can be used: a reserve of 40 s in 15 s steps allows 30 s past the free time.
                let whole = state.remaining_ms / step_ms * step_ms;
                Some(per_move_ms + whole)
            }
            ClockSpec::Correspondence { per_move_ms } => Some(per_move_ms),
        }
    }

    /// Charges a turn that took `elapsed_ms` and returns the clock after it, or `None` when
    /// the player ran out of time during it.
    pub fn charge(&self, state: &ClockState, elapsed_ms: i64) -> Option<ClockState> {
        let elapsed = elapsed_ms.max(0);
        if let Some(allowed) = self.allowance(state)
            && elapsed >= allowed
        {
            return None;
        }
        Some(match *self {
            ClockSpec::Unlimited {} | ClockSpec::Correspondence { .. } => *state,
            ClockSpec::SuddenDeath { .. } => ClockState {
                remaining_ms: state.remaining_ms - elapsed,
                ..*state
            },
            ClockSpec::Fischer { increment_ms, .. } => ClockState {
                remaining_ms: (state.remaining_ms - elapsed + increment_ms).min(MAX_MS),
                ..*state
            },
            ClockSpec::Periods { period_ms, .. } => {
                let after = periods_after(state, period_ms, elapsed);
                if elapsed < state.remaining_ms {
                    after
                } else {
                    // Main time is gone: the next turn starts a period afresh.
                    ClockState {
                        remaining_ms: 0,
                        ..after
                    }
                }
            }
            ClockSpec::PerMoveReserve {
                per_move_ms,
                step_ms,
                ..
            } => ClockState {
                remaining_ms: state.remaining_ms - reserve_used(per_move_ms, step_ms, elapsed),
                ..*state
            },
        })
    }

    /// What a player's clock shows `elapsed_ms` into their turn (for display): the main time
    /// or reserve left, and the periods left. Never negative.
    pub fn showing(&self, state: &ClockState, elapsed_ms: i64) -> ClockState {
        let elapsed = elapsed_ms.max(0);
        match *self {
            ClockSpec::Unlimited {} => *state,
            ClockSpec::SuddenDeath { .. } | ClockSpec::Fischer { .. } => ClockState {
                remaining_ms: (state.remaining_ms - elapsed).max(0),
                ..*state
            },
            ClockSpec::Periods { period_ms, .. } => periods_after(state, period_ms, elapsed),
            ClockSpec::PerMoveReserve {
                per_move_ms,
                step_ms,
                ..
            } => ClockState {
                remaining_ms: (state.remaining_ms - reserve_used(per_move_ms, step_ms, elapsed))
                    .max(0),
                ..*state
            },
            ClockSpec::Correspondence { per_move_ms } => ClockState {
                remaining_ms: (per_move_ms - elapsed).max(0),
                ..*state
            },
        }
    }

    /// A short description: "5+3", "5 periods of 60 s", …
    pub fn describe(&self) -> String {
        let s = |ms: i64| {
            if ms % 60_000 == 0 {
                format!("{} min", ms / 60_000)
            } else {
                format!("{} s", ms as f64 / 1000.0)
            }
        };
        match *self {
            ClockSpec::Unlimited {} => "no clock".into(),
            ClockSpec::SuddenDeath { total_ms } => format!("{} for the game", s(total_ms)),
            ClockSpec::Fischer {
                base_ms,
                increment_ms,
            } => format!("{} + {} a move", s(base_ms), s(increment_ms)),
            ClockSpec::Periods {
                main_ms,
                periods,
                period_ms,
            } => {
                if main_ms > 0 {
                    format!("{} then {periods} periods of {}", s(main_ms), s(period_ms))
                } else {
                    format!("{periods} periods of {}", s(period_ms))
                }
            }
            ClockSpec::PerMoveReserve {
                per_move_ms,
                reserve_ms,
                step_ms,
            } => format!(
                "{} a move + {} reserve in {} steps",
                s(per_move_ms),
                s(reserve_ms),
                s(step_ms)
            ),
            ClockSpec::Correspondence { per_move_ms } => {
                if per_move_ms % 86_400_000 == 0 {
                    format!("{} days a move", per_move_ms / 86_400_000)
                } else {
                    format!("{} a move", s(per_move_ms))
                }
            }
        }
    }
}

/// A periods clock `elapsed` ms into a turn: the main time left while it lasts; after it, the
/// periods left once each whole period overrun is used up, and the time left in the current
/// period (0 once none is left).
fn periods_after(state: &ClockState, period_ms: i64, elapsed: i64) -> ClockState {
    if elapsed < state.remaining_ms {
        return ClockState {
            remaining_ms: state.remaining_ms - elapsed,
            ..*state
        };
    }
    let over = elapsed - state.remaining_ms;
    let used = u32::try_from(over / period_ms).unwrap_or(u32::MAX);
    ClockState {
        remaining_ms: if used >= state.periods_left {
            0
        } else {
            period_ms - over % period_ms
        },
        periods_left: state.periods_left.saturating_sub(used),
    }
}

/// The reserve a turn of `elapsed` ms takes under the host's clock: past the free time per
/// move, every started step costs a whole step.
fn reserve_used(per_move_ms: i64, step_ms: i64, elapsed: i64) -> i64 {
    let over = (elapsed - per_move_ms).max(0);
    (over + step_ms - 1) / step_ms * step_ms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sudden_death_runs_down_and_flags() {
        let c = ClockSpec::SuddenDeath { total_ms: 10_000 };
        let s = c.initial();
        let s = c.charge(&s, 4_000).unwrap();
        assert_eq!(s.remaining_ms, 6_000);
        assert_eq!(c.allowance(&s), Some(6_000));
        assert!(c.charge(&s, 6_000).is_none());
        assert_eq!(c.showing(&s, 7_000).remaining_ms, 0);
    }

    #[test]
    fn fischer_adds_the_increment() {
        let c = ClockSpec::Fischer {
            base_ms: 10_000,
            increment_ms: 2_000,
        };
        let s = c.charge(&c.initial(), 3_000).unwrap();
        assert_eq!(s.remaining_ms, 9_000);
        assert!(c.charge(&s, 9_000).is_none());
        assert_eq!(c.charge(&s, 8_999).unwrap().remaining_ms, 2_001);
    }

    #[test]
    fn periods_are_used_up_one_by_one() {
        // Seed 004: 5 periods of 1 minute.
        let c = ClockSpec::Periods {
            main_ms: 0,
            periods: 5,
            period_ms: 60_000,
        };
        let s = c.initial();
        // Within the period: nothing used.
        let s = c.charge(&s, 59_999).unwrap();
        assert_eq!(s.periods_left, 5);
        // 61 s: one period used up.
        let s = c.charge(&s, 61_000).unwrap();
        assert_eq!(s.periods_left, 4);
        // 3 min 30 s: three more.
        let s = c.charge(&s, 210_000).unwrap();
        assert_eq!(s.periods_left, 1);
        // The last period overrun loses.
        assert_eq!(c.allowance(&s), Some(60_000));
        assert!(c.charge(&s, 60_000).is_none());
        let shown = c.showing(&s, 45_000);
        assert_eq!((shown.remaining_ms, shown.periods_left), (15_000, 1));
    }

    #[test]
    fn periods_after_main_time() {
        let c = ClockSpec::Periods {
            main_ms: 30_000,
            periods: 2,
            period_ms: 10_000,
        };
        let s = c.charge(&c.initial(), 20_000).unwrap();
        assert_eq!((s.remaining_ms, s.periods_left), (10_000, 2));
        let s = c.charge(&s, 25_000).unwrap();
        assert_eq!((s.remaining_ms, s.periods_left), (0, 1));
        assert!(c.charge(&s, 10_000).is_none());
    }

    #[test]
    fn reserve_is_charged_in_whole_steps() {
        // Seed 004: 1 minute a move, 3 minutes of reserve in 15-second steps.
        let c = ClockSpec::PerMoveReserve {
            per_move_ms: 60_000,
            reserve_ms: 180_000,
            step_ms: 15_000,
        };
        let s = c.initial();
        assert_eq!(c.charge(&s, 60_000).unwrap().remaining_ms, 180_000);
        // 1 s over costs a whole step.
        let s = c.charge(&s, 61_000).unwrap();
        assert_eq!(s.remaining_ms, 165_000);
        // 31 s over costs three steps.
        let s = c.charge(&s, 91_000).unwrap();
        assert_eq!(s.remaining_ms, 120_000);
        // The whole reserve may be used, not a millisecond more.
        assert_eq!(c.allowance(&s), Some(180_000));
        assert_eq!(c.charge(&s, 179_999).unwrap().remaining_ms, 0);
        assert!(c.charge(&s, 180_000).is_none());
        // With an empty reserve the free minute is all there is.
        let empty = ClockState::default();
        assert!(c.charge(&empty, 60_000).is_none());
        assert_eq!(c.charge(&empty, 59_000), Some(empty));
    }

    #[test]
    fn correspondence_is_per_move() {
        let day = 86_400_000;
        let c = ClockSpec::Correspondence {
            per_move_ms: 3 * day,
        };
        let s = c.charge(&c.initial(), 2 * day).unwrap();
        assert_eq!(c.allowance(&s), Some(3 * day));
        assert!(c.charge(&s, 3 * day).is_none());
        assert_eq!(c.describe(), "3 days a move");
    }

    #[test]
    fn unlimited_never_flags() {
        let c = ClockSpec::Unlimited {};
        assert_eq!(c.allowance(&c.initial()), None);
        assert!(c.charge(&c.initial(), i64::MAX / 2).is_some());
    }

    #[test]
    fn unknown_fields_are_refused() {
        let read = |text: &str| serde_json::from_str::<ClockSpec>(text);
        let e = read(r#"{"kind":"sudden_death","total_ms":300,"increment_ms":5}"#).unwrap_err();
        assert!(e.to_string().contains("increment_ms"), "{e}");
        let e = read(r#"{"kind":"unlimited","total_ms":300}"#).unwrap_err();
        assert!(e.to_string().contains("total_ms"), "{e}");
        let e = read(r#"{"kind":"fischer","base_ms":1,"increment_ms":2,"periods":3}"#).unwrap_err();
        assert!(e.to_string().contains("periods"), "{e}");
        // What the server writes reads back.
        for spec in [
            ClockSpec::Unlimited {},
            ClockSpec::SuddenDeath { total_ms: 300 },
            ClockSpec::PerMoveReserve {
                per_move_ms: 1,
                reserve_ms: 2,
                step_ms: 3,
            },
        ] {
            assert_eq!(read(&serde_json::to_string(&spec).unwrap()).unwrap(), spec);
        }
    }

    #[test]
    fn validation_names_the_field() {
        let e = ClockSpec::Fischer {
            base_ms: 0,
            increment_ms: 1,
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("base_ms"), "{e}");
        assert!(
            ClockSpec::Periods {
                main_ms: 0,
                periods: 0,
                period_ms: 1000
            }
            .validate()
            .is_err()
        );
    }
}
