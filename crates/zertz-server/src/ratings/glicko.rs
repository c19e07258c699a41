//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), by the `skillratings` crate:
//! every rated game is a rating period of its own for its two players (as lichess does), and a
//! player's deviation grows with the time since their last rated game in the pool, by one
//! period's volatility for every day away. Imports nothing of the server.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation (also the largest a deviation ever grows to).
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// How far volatility may change in a period (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;
/// The length of a rating period for the growth of the deviation, in ms (a day).
pub const PERIOD_MS: i64 = 24 * 3600 * 1000;
/// Glicko-2's scale factor between the displayed scale and its own.
const SCALE: f64 = 173.7178;

/// A player's rating in one pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD).
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

impl Rating {
    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }

    /// The rating after `away_ms` without a rated game: the deviation grown by one period's
    /// volatility for each day (`φ' = √(φ² + t·σ²)`), never past the start deviation.
    pub fn after(self, away_ms: i64) -> Rating {
        if away_ms <= 0 {
            return self;
        }
        let periods = away_ms.max(0) as f64 / PERIOD_MS as f64;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.min(START_DEVIATION),
            ..self
        }
    }

    /// Provisional: the deviation is still above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

/// The configuration of every update.
fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// Both ratings after a game in which the first player scored `score` (1 a win, ½ a draw, 0 a
/// loss). Each rating is first grown for its time away (`away_ms`).
pub fn after_game(
    first: Rating,
    second: Rating,
    score: f64,
    away_ms: [i64; 2],
) -> (Rating, Rating) {
    let outcome = if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a, b) = glicko2(
        &first.after(away_ms[0]).glicko(),
        &second.after(away_ms[1]).glicko(),
        &outcome,
        &config(),
    );
    (Rating::from_glicko(a), Rating::from_glicko(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example: a 1500/200/0.06 player who beats a 1400/30 and loses to a
    /// 1550/100 and a 1700/300 in one period ends at ≈1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&player, &results, &config());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_game_moves_both_ratings_and_time_away_grows_the_deviation() {
        let (a, b) = after_game(Rating::default(), Rating::default(), 1.0, [0, 0]);
        assert!(a.rating > 1600.0 && b.rating < 1400.0, "{a:?} {b:?}");
        assert!(
            (a.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-6,
            "symmetric"
        );
        assert!(a.deviation < 350.0 && a.is_provisional());
        let (d1, d2) = after_game(a, b, 0.5, [0, 0]);
        assert!(d1.rating < a.rating && d2.rating > b.rating);

        let settled = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        assert!(!settled.is_provisional());
        assert_eq!(settled.after(0), settled);
        let year = settled.after(365 * PERIOD_MS);
        assert!(year.deviation > 190.0 && year.deviation < 220.0, "{year:?}");
        assert!(year.is_provisional());
        assert_eq!(
            settled.after(100_000 * PERIOD_MS).deviation,
            START_DEVIATION
        );
    }
}
