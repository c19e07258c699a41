//! The body that creates an event, checked into its format and settings, and the settings of
//! its games.

use serde::Deserialize;
use zertz::{Layout, Position, RuleSet};

use crate::games::clock::ClockSpec;
use crate::games::model::{GameSettings, SeatKind};
use crate::games::pools::{pool_of, rated_pool_of};
use crate::tournaments::model::{DEFAULT_FIRST_MOVE_S, Format, Settings, first_mover};

/// Most players an event may take.
pub const MAX_PLAYERS: u32 = 256;
/// Players an event takes when the body does not say.
pub const DEFAULT_MAX_PLAYERS: u32 = 64;
/// Most rounds of a Swiss.
pub const MAX_SWISS_ROUNDS: u32 = 30;
/// How far ahead a start time may be.
pub const MAX_AHEAD_MS: i64 = 365 * 24 * 3600 * 1000;
/// Longest name, in characters.
pub const MAX_NAME: usize = 80;
/// Shortest arena, in minutes.
pub const MIN_ARENA_MINUTES: u32 = 1;
/// Longest arena, in minutes (a day).
pub const MAX_ARENA_MINUTES: u32 = 24 * 60;
/// Fewest seconds an organiser may give for a first move.
pub const MIN_FIRST_MOVE_S: u32 = 10;
/// Most seconds an organiser may give for a first move.
pub const MAX_FIRST_MOVE_S: u32 = 3600;

/// The body of `POST /api/tournaments`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    /// The event's name.
    pub name: String,
    /// `swiss`, `round_robin`, `knockout` or `arena`.
    pub format: String,
    /// The board (default `37`): one of the standard boards.
    #[serde(default)]
    pub board: Option<String>,
    /// The rule set (default `standard`).
    #[serde(default)]
    pub rules: Option<String>,
    /// The clock of every game (required).
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// Rated games (default false).
    #[serde(default)]
    pub rated: Option<bool>,
    /// Swiss: the number of rounds (required). Round robin: fewer rounds than the cycle.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Round robin: every pair meets twice.
    #[serde(default)]
    pub double: Option<bool>,
    /// When the event starts by itself (ms since the epoch); none: when the organiser starts
    /// it.
    #[serde(default)]
    pub start_ms: Option<i64>,
    /// Most players (default 64, at most 256).
    #[serde(default)]
    pub max_players: Option<u32>,
    /// Seconds for each of a game's first two moves before it is lost by forfeit (default
    /// 60, 10 to 3600).
    #[serde(default)]
    pub first_move_s: Option<u32>,
    /// Knockout: who moves first in game 1 of each match, `lower` (default) or `higher` seed.
    #[serde(default)]
    pub first_mover: Option<String>,
    /// Knockout: the semifinal losers play for third place (default false).
    #[serde(default)]
    pub third_place: Option<bool>,
    /// Arena: how long it runs, in minutes (required, 1 to 1440).
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Arena: players may go berserk (default true when the clock is sudden death or
    /// Fischer; refused with another clock).
    #[serde(default)]
    pub berserk: Option<bool>,
    /// Entry: the lowest rating a player may have (0 to 4000).
    #[serde(default)]
    pub min_rating: Option<u32>,
    /// Entry: the highest rating (0 to 4000, not below `min_rating`).
    #[serde(default)]
    pub max_rating: Option<u32>,
    /// Entry: how many days old an account must be (0 to 3650).
    #[serde(default)]
    pub min_account_days: Option<u32>,
}

/// The highest rating an entry limit may name.
pub const MAX_LIMIT_RATING: u32 = 4000;
/// The oldest an entry limit may ask an account to be, in days.
pub const MAX_ACCOUNT_DAYS: u32 = 3650;

/// A checked new event.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// Its name, trimmed.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// Its settings.
    pub settings: Settings,
    /// When it starts by itself.
    pub start_ms: Option<i64>,
    /// Most players.
    pub max_players: u32,
}

impl NewEvent {
    /// The event, or a sentence that says what is wrong (a 400), at `now_ms`.
    pub fn check(&self, now_ms: i64) -> Result<Checked, String> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control)
        {
            return Err(format!(
                "name: give the event a name of 1 to {MAX_NAME} characters, without control \
                 characters"
            ));
        }
        let format = Format::parse(&self.format).ok_or_else(|| {
            format!(
                "format `{}`: expected swiss, round_robin, knockout or arena",
                self.format
            )
        })?;
        if format != Format::Arena && (self.minutes.is_some() || self.berserk.is_some()) {
            return Err("minutes, berserk: only an arena runs for a time, with berserk".into());
        }
        if self.first_mover.is_some() && format != Format::Knockout {
            return Err("first_mover: only a knockout's matches have a seed to choose".into());
        }
        if self.third_place.is_some() && format != Format::Knockout {
            return Err("third_place: only a knockout has semifinal losers to play for it".into());
        }
        let max_players = self.max_players.unwrap_or(DEFAULT_MAX_PLAYERS);
        if !(2..=MAX_PLAYERS).contains(&max_players) {
            return Err(format!(
                "max_players must be 2 to {MAX_PLAYERS}, not {max_players}"
            ));
        }
        let clock = match self.clock {
            None | Some(ClockSpec::Unlimited {}) => {
                return Err(
                    "clock: an event's games need a clock (give one as for a game), or a round \
                     could wait for ever"
                        .into(),
                );
            }
            Some(c) => c,
        };
        clock.validate().map_err(|e| format!("clock: {e}"))?;
        let board = self.board.as_deref().unwrap_or("37").trim().to_string();
        if !["37", "40", "43", "44", "48", "61"].contains(&board.as_str()) {
            return Err(format!(
                "board `{board}`: an event is played on one of the standard boards: 37, 40, \
                 43, 44, 48 or 61"
            ));
        }
        let rules = self
            .rules
            .as_deref()
            .unwrap_or("standard")
            .trim()
            .to_string();
        rules
            .parse::<RuleSet>()
            .map_err(|e| format!("rules `{rules}`: {e}"))?;
        let rated = self.rated.unwrap_or(false);
        // Berserk halves one amount of time: sudden death or Fischer.
        let halvable = matches!(
            clock,
            ClockSpec::SuddenDeath { .. } | ClockSpec::Fischer { .. }
        );
        match format {
            Format::Arena => {
                if self.rounds.is_some() || self.double.is_some() {
                    return Err(
                        "rounds: an arena has no rounds; it runs for its minutes, each player \
                         paired again as soon as their game ends"
                            .into(),
                    );
                }
                let Some(minutes) = self.minutes else {
                    return Err(format!(
                        "minutes: an arena needs its length ({MIN_ARENA_MINUTES} to \
                         {MAX_ARENA_MINUTES} minutes)"
                    ));
                };
                if !(MIN_ARENA_MINUTES..=MAX_ARENA_MINUTES).contains(&minutes) {
                    return Err(format!(
                        "minutes: an arena runs {MIN_ARENA_MINUTES} to {MAX_ARENA_MINUTES} \
                         minutes, not {minutes}"
                    ));
                }
                if self.berserk == Some(true) && !halvable {
                    return Err(
                        "berserk: going berserk halves a clock of one amount of time (sudden \
                         death or Fischer); this clock has none"
                            .into(),
                    );
                }
            }
            Format::Swiss => {
                if self.double.is_some() {
                    return Err("double: only a round robin is played double".into());
                }
                let Some(rounds) = self.rounds else {
                    return Err(format!(
                        "rounds: a Swiss needs its number of rounds (1 to {MAX_SWISS_ROUNDS})"
                    ));
                };
                if !(1..=MAX_SWISS_ROUNDS).contains(&rounds) {
                    return Err(format!(
                        "rounds: a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds, not {rounds}"
                    ));
                }
                if rounds >= max_players {
                    return Err(format!(
                        "rounds: a Swiss of at most {max_players} players has at most {} \
                         rounds (no two players meet twice), not {rounds}",
                        max_players - 1
                    ));
                }
            }
            Format::Knockout => {
                if self.rounds.is_some() || self.double.is_some() {
                    return Err(
                        "rounds: a knockout has as many rounds as its bracket needs (a player \
                         out at each match lost)"
                            .into(),
                    );
                }
                if let Some(f) = self.first_mover.as_deref()
                    && ![first_mover::LOWER, first_mover::HIGHER].contains(&f)
                {
                    return Err(format!(
                        "first_mover `{f}`: expected lower (the seed called into the death \
                         match) or higher"
                    ));
                }
            }
            Format::RoundRobin => {
                let double = self.double.unwrap_or(false);
                if let Some(rounds) = self.rounds {
                    let cycle = zertz_tournament::round_robin::rounds(max_players, double);
                    if rounds == 0 || rounds > cycle {
                        return Err(format!(
                            "rounds: a round robin of at most {max_players} players has {cycle} \
                             rounds, each player meeting every opponent {}; {rounds} is not \
                             possible",
                            if double { "twice" } else { "once" }
                        ));
                    }
                }
            }
        }
        if let Some(start) = self.start_ms {
            if start <= now_ms {
                return Err(format!(
                    "start_ms: the start time is in the past ({start} ms, now {now_ms})"
                ));
            }
            if start - now_ms > MAX_AHEAD_MS {
                return Err("start_ms: an event starts within a year".into());
            }
        }
        let first_move_s = self.first_move_s.unwrap_or(DEFAULT_FIRST_MOVE_S);
        if !(MIN_FIRST_MOVE_S..=MAX_FIRST_MOVE_S).contains(&first_move_s) {
            return Err(format!(
                "first_move_s: a player has {MIN_FIRST_MOVE_S} to {MAX_FIRST_MOVE_S} seconds \
                 for a first move, not {first_move_s}"
            ));
        }
        for (name, value) in [
            ("min_rating", self.min_rating),
            ("max_rating", self.max_rating),
        ] {
            if let Some(v) = value
                && v > MAX_LIMIT_RATING
            {
                return Err(format!(
                    "{name}: a rating limit is 0 to {MAX_LIMIT_RATING}, not {v}"
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (self.min_rating, self.max_rating)
            && lo > hi
        {
            return Err(format!(
                "min_rating {lo} is above max_rating {hi}: nobody could join"
            ));
        }
        if let Some(d) = self.min_account_days
            && d > MAX_ACCOUNT_DAYS
        {
            return Err(format!(
                "min_account_days: at most {MAX_ACCOUNT_DAYS} days, not {d}"
            ));
        }
        let settings = Settings {
            board,
            rules,
            clock,
            rated,
            rounds: self.rounds,
            double: self.double.unwrap_or(false),
            first_move_s,
            first_mover: (format == Format::Knockout).then(|| {
                self.first_mover
                    .clone()
                    .unwrap_or_else(|| first_mover::LOWER.into())
            }),
            third_place: format == Format::Knockout && self.third_place.unwrap_or(false),
            minutes: (format == Format::Arena).then_some(self.minutes).flatten(),
            berserk: format == Format::Arena && halvable && self.berserk.unwrap_or(true),
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            min_account_days: self.min_account_days,
        };
        // The pool must take the games of a rated event (the 37-ring board, Standard or
        // Blitz rules).
        let games = game_settings(&settings)?;
        if rated {
            if format == Format::Knockout {
                return Err(KNOCKOUT_UNRATED.into());
            }
            rated_pool_of(&games).map_err(|e| format!("rated: {e}"))?;
        }
        Ok(Checked {
            name: name.to_string(),
            format,
            settings,
            start_ms: self.start_ms,
            max_players,
        })
    }
}

/// Why a knockout cannot be rated: its matches follow the host's house rules, a rating the
/// official ones (issue 39, F15).
pub const KNOCKOUT_UNRATED: &str = "rated: a death-match knockout plays under the host's house \
     rules (no repetition; bribes in the final) and rated games follow the official rules: \
     make it casual";

/// The settings of every game of an event: its board and rules from the start, its clock,
/// the official repetition rule, no bribes, no takebacks, rated if the event is.
pub fn game_settings(s: &Settings) -> Result<GameSettings, String> {
    let layout = Layout::from_spec(&s.board).map_err(|e| format!("board `{}`: {e}", s.board))?;
    let rules: RuleSet = s
        .rules
        .parse()
        .map_err(|e| format!("rules `{}`: {e}", s.rules))?;
    let mut settings = GameSettings {
        start: Position::new(layout, rules).to_string(),
        repetition: "threefold".into(),
        bribes: false,
        clock: s.clock,
        casual: false,
        seats: [SeatKind::Human, SeatKind::Human],
        open: false,
        history: None,
        match_game: None,
        rated: false,
        pool: None,
        design: false,
        berserk: s.berserk,
    };
    settings.pool = pool_of(&settings).ok().map(|p| p.key());
    settings.rated = s.rated && settings.pool.is_some();
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(extra: serde_json::Value) -> Result<Checked, String> {
        let mut b = serde_json::json!({
            "name": "Spring", "format": "swiss", "rounds": 3,
            "clock": {"kind": "fischer", "base_ms": 300000, "increment_ms": 2000}
        });
        for (k, v) in extra.as_object().unwrap() {
            if v.is_null() {
                b.as_object_mut().unwrap().remove(k);
            } else {
                b[k] = v.clone();
            }
        }
        let e: NewEvent = serde_json::from_value(b).map_err(|e| e.to_string())?;
        e.check(1_000)
    }

    #[test]
    fn a_good_swiss_and_round_robin_pass() {
        let s = body(serde_json::json!({})).unwrap();
        assert_eq!((s.format, s.max_players), (Format::Swiss, 64));
        let g = game_settings(&s.settings).unwrap();
        assert_eq!((g.rated, g.casual), (false, false));
        let rr = body(serde_json::json!({"format": "round_robin", "rounds": null,
            "rated": true, "max_players": 4}))
        .unwrap();
        assert!(game_settings(&rr.settings).unwrap().rated);
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let cases = [
            (serde_json::json!({"name": " "}), "name"),
            (
                serde_json::json!({"format": "arena", "rounds": null}),
                "minutes: an arena needs",
            ),
            (
                serde_json::json!({"format": "arena", "rounds": null, "minutes": 0}),
                "1 to 1440 minutes, not 0",
            ),
            (
                serde_json::json!({"format": "arena", "minutes": 30}),
                "an arena has no rounds",
            ),
            (
                serde_json::json!({"format": "arena", "rounds": null, "minutes": 30,
                    "berserk": true, "clock": {"kind": "correspondence", "per_move_ms": 86400000}}),
                "berserk: going berserk halves",
            ),
            (serde_json::json!({"minutes": 30}), "only an arena"),
            (serde_json::json!({"third_place": true}), "only a knockout"),
            (
                serde_json::json!({"format": "knockout", "rounds": null, "first_mover": "eldest"}),
                "first_mover `eldest`",
            ),
            (
                serde_json::json!({"first_mover": "lower"}),
                "only a knockout",
            ),
            (
                serde_json::json!({"format": "ladder"}),
                "expected swiss, round_robin, knockout or arena",
            ),
            (serde_json::json!({"clock": null}), "need a clock"),
            (
                serde_json::json!({"clock": {"kind": "unlimited"}}),
                "need a clock",
            ),
            (
                serde_json::json!({"board": "custom:a1,b2"}),
                "standard boards",
            ),
            (serde_json::json!({"board": "61", "rated": true}), "rated:"),
            (
                serde_json::json!({"format": "knockout", "rated": true, "rounds": null}),
                "house rules (no repetition; bribes in the final)",
            ),
            (serde_json::json!({"rules": "chess"}), "rules `chess`"),
            (serde_json::json!({"rounds": null}), "number of rounds"),
            (
                serde_json::json!({"rounds": 4, "max_players": 4}),
                "at most 3",
            ),
            (
                serde_json::json!({"format": "round_robin", "rounds": 4, "max_players": 4}),
                "has 3 rounds",
            ),
            (serde_json::json!({"start_ms": 999}), "in the past"),
            (serde_json::json!({"max_players": 1}), "max_players"),
            (serde_json::json!({"double": true}), "only a round robin"),
            (serde_json::json!({"colour": "white"}), "unknown field"),
        ];
        for (extra, needle) in cases {
            let e = body(extra.clone()).unwrap_err();
            assert!(e.contains(needle), "{extra}: {e}");
        }
    }
}
