//! Rating pools: one per rule set (Standard, Blitz) and speed, the speed from the clock's
//! expected length of a game for one player, as lichess does: its main time plus what 20 turns
//! add. Only games on the 37-ring board from its start position belong to a pool.

use std::fmt;

use zertz::{Layout, Position, RuleSet};

use crate::games::clock::ClockSpec;
use crate::games::model::GameSettings;

/// Turns a player is expected to make in a game (for a clock's expected length).
pub const EXPECTED_TURNS: i64 = 20;
/// Below this expected length (per player) a game is blitz.
pub const BLITZ_BELOW_MS: i64 = 8 * 60 * 1000;
/// Below this, rapid; from it on, classical.
pub const RAPID_BELOW_MS: i64 = 25 * 60 * 1000;

/// How fast a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Under 8 minutes a player.
    Blitz,
    /// 8 to 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
    /// A time for each turn, in days.
    Correspondence,
}

impl Speed {
    /// All of them, fastest first.
    pub const ALL: [Speed; 4] = [
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a clock (`None`: no clock, no pool).
    pub fn of(clock: &ClockSpec) -> Option<Speed> {
        let expected = match *clock {
            ClockSpec::Unlimited {} => return None,
            ClockSpec::Correspondence { .. } => return Some(Speed::Correspondence),
            _ => timed_lengths(clock)?.1,
        };
        Some(if expected < BLITZ_BELOW_MS {
            Speed::Blitz
        } else if expected < RAPID_BELOW_MS {
            Speed::Rapid
        } else {
            Speed::Classical
        })
    }

    fn key(self) -> &'static str {
        match self {
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// A rating pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    /// `true` for the Blitz rule set (fewer marbles, smaller winning sets).
    pub blitz_rules: bool,
    /// The speed.
    pub speed: Speed,
}

impl Pool {
    /// Every pool: Standard rules first, fastest first.
    pub fn all() -> Vec<Pool> {
        [false, true]
            .into_iter()
            .flat_map(|blitz_rules| Speed::ALL.map(|speed| Pool { blitz_rules, speed }))
            .collect()
    }

    /// Its key in URLs and storage: `standard-rapid`, `blitz-classical`…
    pub fn key(&self) -> String {
        let rules = if self.blitz_rules {
            "blitz"
        } else {
            "standard"
        };
        format!("{rules}-{}", self.speed.key())
    }

    /// The pool with this key.
    pub fn parse(key: &str) -> Option<Pool> {
        Pool::all().into_iter().find(|p| p.key() == key)
    }

    /// Its name for people: `Standard rules, rapid`.
    pub fn name(&self) -> String {
        let rules = if self.blitz_rules {
            "Blitz"
        } else {
            "Standard"
        };
        format!("{rules} rules, {}", self.speed.key())
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// For a clock that counts time in the game (not correspondence): the time a player has for
/// their first turn, and the expected length of a game for one player (main time and what
/// [`EXPECTED_TURNS`] turns add).
fn timed_lengths(clock: &ClockSpec) -> Option<(i64, i64)> {
    let turns = EXPECTED_TURNS;
    Some(match *clock {
        ClockSpec::Unlimited {} | ClockSpec::Correspondence { .. } => return None,
        ClockSpec::SuddenDeath { total_ms } => (total_ms, total_ms),
        ClockSpec::Fischer {
            base_ms,
            increment_ms,
        } => (base_ms, base_ms + turns * increment_ms),
        ClockSpec::Periods {
            main_ms, period_ms, ..
        } => (main_ms + period_ms, main_ms + turns * period_ms),
        ClockSpec::PerMoveReserve {
            per_move_ms,
            reserve_ms,
            ..
        } => (per_move_ms + reserve_ms, turns * per_move_ms + reserve_ms),
    })
}

/// The pool of a game with these settings, or why it has none (the reason is a sentence for
/// the player who asked for a rated game).
pub fn pool_of(settings: &GameSettings) -> Result<Pool, String> {
    let start: Position = settings
        .start
        .parse()
        .map_err(|e| format!("start position: {e}"))?;
    let blitz_rules = match start.rule_set().to_string().as_str() {
        "standard" => false,
        "blitz" => true,
        other => {
            return Err(format!(
                "games under the rule set {other} are unrated (only Standard and Blitz are rated)"
            ));
        }
    };
    let Ok(layout) = Layout::from_spec("37") else {
        return Err("the 37-ring board is missing".into());
    };
    let rules: RuleSet = start.rule_set();
    if start != Position::new(layout, rules) {
        return Err(
            "only games on the 37-ring board from its start position are rated (not other \
             boards, custom layouts, or positions set up)"
                .into(),
        );
    }
    if settings.history.is_some() {
        return Err("a game continued from a record is unrated".into());
    }
    // A rating compares games played alike: the official rules only (issue 39, F15).
    if settings.repetition != "threefold" {
        return Err(
            "games under the no-repetition house rule are unrated (rated games follow the \
             official rules: a position repeated three times is a draw)"
                .into(),
        );
    }
    if settings.bribes {
        return Err(
            "games with the bribe-to-pass house rule are unrated (rated games follow the \
             official rules)"
                .into(),
        );
    }
    let speed = Speed::of(&settings.clock)
        .ok_or_else(|| "rated games need a clock (games without one are unrated)".to_string())?;
    Ok(Pool { blitz_rules, speed })
}

/// The shortest expected length of a rated game for one player (main time and 20 turns).
pub const RATED_MIN_EXPECTED_MS: i64 = 60 * 1000;
/// The least time a rated clock gives for a player's first turn.
pub const RATED_MIN_FIRST_TURN_MS: i64 = 10 * 1000;

/// The pool of a rated game with these settings, or why it cannot be rated: [`pool_of`], and a
/// clock that leaves time to play (a clock of 1 ms let the creator who moves first win on time
/// against whoever joined: issue 39, F12).
pub fn rated_pool_of(settings: &GameSettings) -> Result<Pool, String> {
    let pool = pool_of(settings)?;
    // No clock has no pool (refused above); correspondence gives days a move.
    let Some((first_turn, expected)) = timed_lengths(&settings.clock) else {
        return Ok(pool);
    };
    if first_turn < RATED_MIN_FIRST_TURN_MS || expected < RATED_MIN_EXPECTED_MS {
        return Err(format!(
            "the clock is too fast for a rated game: it must give at least {} s for the first \
             turn and {} s for a game of {EXPECTED_TURNS} turns (main time and increments)",
            RATED_MIN_FIRST_TURN_MS / 1000,
            RATED_MIN_EXPECTED_MS / 1000
        ));
    }
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(board: &str, rules: &str, clock: ClockSpec) -> GameSettings {
        let start = Position::new(
            Layout::from_spec(board).unwrap(),
            rules.parse::<RuleSet>().unwrap(),
        );
        GameSettings {
            start: start.to_string(),
            clock,
            ..GameSettings::for_tests(clock)
        }
    }

    #[test]
    fn house_rules_are_unrated_and_say_so() {
        let clock = ClockSpec::Fischer {
            base_ms: 300_000,
            increment_ms: 3_000,
        };
        let official = settings("37", "standard", clock);
        assert!(rated_pool_of(&official).is_ok());
        let no_repetition = GameSettings {
            repetition: "forbidden".into(),
            ..official.clone()
        };
        let e = rated_pool_of(&no_repetition).unwrap_err();
        assert!(e.contains("no-repetition house rule are unrated"), "{e}");
        let bribes = GameSettings {
            bribes: true,
            ..official
        };
        let e = rated_pool_of(&bribes).unwrap_err();
        assert!(e.contains("bribe-to-pass house rule are unrated"), "{e}");
    }

    #[test]
    fn speeds_follow_the_expected_length() {
        let minutes = |m: i64| m * 60_000;
        for (clock, speed) in [
            (
                ClockSpec::SuddenDeath {
                    total_ms: minutes(5),
                },
                Speed::Blitz,
            ),
            (
                ClockSpec::Fischer {
                    base_ms: minutes(5),
                    increment_ms: 8_000,
                },
                Speed::Blitz,
            ),
            (
                ClockSpec::Fischer {
                    base_ms: minutes(5),
                    increment_ms: 10_000,
                },
                Speed::Rapid,
            ),
            (
                ClockSpec::Periods {
                    main_ms: 0,
                    periods: 5,
                    period_ms: 60_000,
                },
                Speed::Rapid,
            ),
            (
                ClockSpec::PerMoveReserve {
                    per_move_ms: 60_000,
                    reserve_ms: minutes(3),
                    step_ms: 15_000,
                },
                Speed::Rapid,
            ),
            (
                ClockSpec::SuddenDeath {
                    total_ms: minutes(25),
                },
                Speed::Classical,
            ),
            (
                ClockSpec::Correspondence {
                    per_move_ms: 3 * 24 * 3600 * 1000,
                },
                Speed::Correspondence,
            ),
        ] {
            assert_eq!(Speed::of(&clock), Some(speed), "{clock:?}");
        }
        assert_eq!(Speed::of(&ClockSpec::Unlimited {}), None);
    }

    #[test]
    fn only_the_37_board_from_its_start_is_in_a_pool() {
        let blitz5 = ClockSpec::SuddenDeath { total_ms: 300_000 };
        let p = pool_of(&settings("37", "standard", blitz5)).unwrap();
        assert_eq!(p.key(), "standard-blitz");
        assert_eq!(p.name(), "Standard rules, blitz");
        let p = pool_of(&settings("37", "blitz", blitz5)).unwrap();
        assert_eq!(p.key(), "blitz-blitz");
        assert_eq!(Pool::parse("blitz-blitz"), Some(p));
        assert_eq!(Pool::all().len(), 8);
        for board in ["48", "61"] {
            let e = pool_of(&settings(board, "standard", blitz5)).unwrap_err();
            assert!(e.contains("37-ring board"), "{e}");
        }
        let e = pool_of(&settings("37", "standard", ClockSpec::Unlimited {})).unwrap_err();
        assert!(e.contains("need a clock"), "{e}");
        let mut moved = settings("37", "standard", blitz5);
        moved.history = Some("1. Wd4,a1".into());
        assert!(
            pool_of(&moved)
                .unwrap_err()
                .contains("continued from a record")
        );
    }

    #[test]
    fn rated_clocks_leave_time_to_play() {
        let rated = |clock: ClockSpec| rated_pool_of(&settings("37", "standard", clock));
        // Too fast: a millisecond, a first turn of 5 s, 30 s in all.
        for clock in [
            ClockSpec::SuddenDeath { total_ms: 1 },
            ClockSpec::Fischer {
                base_ms: 5_000,
                increment_ms: 30_000,
            },
            ClockSpec::Fischer {
                base_ms: 10_000,
                increment_ms: 1_000,
            },
            ClockSpec::Periods {
                main_ms: 0,
                periods: 3,
                period_ms: 1,
            },
        ] {
            let e = rated(clock).unwrap_err();
            assert!(e.contains("too fast for a rated game"), "{clock:?}: {e}");
        }
        // Time enough: a minute sudden death, 10 s + 3 s a turn, correspondence.
        for clock in [
            ClockSpec::SuddenDeath { total_ms: 60_000 },
            ClockSpec::Fischer {
                base_ms: 10_000,
                increment_ms: 3_000,
            },
            ClockSpec::Correspondence {
                per_move_ms: 24 * 3600 * 1000,
            },
        ] {
            assert!(rated(clock).is_ok(), "{clock:?}");
        }
        // An unrated game keeps its pool whatever its clock.
        assert!(
            pool_of(&settings(
                "37",
                "standard",
                ClockSpec::SuddenDeath { total_ms: 1 }
            ))
            .is_ok()
        );
    }
}
