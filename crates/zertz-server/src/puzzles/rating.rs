//! The rating rules of the trainer: a puzzle's starting rating from its length, and the bounds
//! a guest's rating (kept by the browser, sent with each attempt) must stay within.

use crate::ratings::glicko::{Rating, START_DEVIATION, START_VOLATILITY};

/// The starting rating of a win in 1.
pub const FIRST_RATING: f64 = 1200.0;
/// What each turn more adds to the starting rating.
pub const PER_TURN: f64 = 300.0;
/// A puzzle's starting deviation: below a new solver's, since its length already says much.
pub const PUZZLE_DEVIATION: f64 = 250.0;

/// A new solver's starting deviation, below the games' 350: with it the first miss of a
/// puzzle at the solver's own rating costs about 107 points instead of 170, and a first solve
/// gains as much. A solver's deviation never grows back past it.
pub const SOLVER_DEVIATION: f64 = 250.0;

/// The lowest and highest rating a guest may send.
pub const RATING_BOUNDS: (f64, f64) = (400.0, 3500.0);
/// The smallest deviation a guest may send (the largest is the start deviation).
pub const MIN_DEVIATION: f64 = 30.0;
/// The volatility bounds a guest may send.
pub const VOLATILITY_BOUNDS: (f64, f64) = (0.01, 0.2);

/// A puzzle's rating before its first rated attempt: 1200 for a win in 1, 300 more for each
/// turn more (a win in 3: 1800), capped at 3000.
pub fn start_rating(turns: u32) -> Rating {
    Rating {
        rating: (FIRST_RATING + PER_TURN * f64::from(turns.max(1) - 1)).min(3000.0),
        deviation: PUZZLE_DEVIATION,
        volatility: START_VOLATILITY,
    }
}

/// A new solver's rating: 1500, with [`SOLVER_DEVIATION`].
pub fn new_solver() -> Rating {
    Rating {
        deviation: SOLVER_DEVIATION,
        ..Rating::default()
    }
}

/// A solver's stored rating after `away_ms` without a rated attempt: its deviation grown as
/// [`Rating::after`] says, at most back to a new solver's.
pub fn solver_after(stored: Rating, away_ms: i64) -> Rating {
    let grown = stored.after(away_ms);
    Rating {
        deviation: grown.deviation.min(SOLVER_DEVIATION.max(stored.deviation)),
        ..grown
    }
}

/// A guest's rating as the browser sent it, checked: a sentence naming the value out of bounds.
pub fn guest_rating(
    rating: f64,
    deviation: Option<f64>,
    volatility: Option<f64>,
) -> Result<Rating, String> {
    let deviation = deviation.unwrap_or(SOLVER_DEVIATION);
    let volatility = volatility.unwrap_or(START_VOLATILITY);
    let within = |v: f64, (lo, hi): (f64, f64)| v.is_finite() && v >= lo && v <= hi;
    if !within(rating, RATING_BOUNDS) {
        return Err(format!(
            "rating {rating} is out of bounds: a puzzle rating is between {} and {}",
            RATING_BOUNDS.0, RATING_BOUNDS.1
        ));
    }
    if !within(deviation, (MIN_DEVIATION, START_DEVIATION)) {
        return Err(format!(
            "deviation {deviation} is out of bounds: between {MIN_DEVIATION} and {START_DEVIATION}"
        ));
    }
    if !within(volatility, VOLATILITY_BOUNDS) {
        return Err(format!(
            "volatility {volatility} is out of bounds: between {} and {}",
            VOLATILITY_BOUNDS.0, VOLATILITY_BOUNDS.1
        ));
    }
    Ok(Rating {
        rating,
        deviation,
        volatility,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_puzzles_start_higher_and_guest_ratings_are_bounded() {
        assert_eq!(start_rating(1).rating, 1200.0);
        assert_eq!(start_rating(3).rating, 1800.0);
        assert_eq!(start_rating(40).rating, 3000.0);
        assert!(guest_rating(1500.0, Some(200.0), None).is_ok());
        let e = guest_rating(9000.0, None, None).unwrap_err();
        assert!(e.contains("9000"), "{e}");
        assert!(guest_rating(f64::NAN, None, None).is_err());
        let e = guest_rating(1500.0, Some(5.0), None).unwrap_err();
        assert!(e.contains("deviation 5"), "{e}");
        assert!(guest_rating(1500.0, None, Some(3.0)).is_err());
    }

    #[test]
    fn a_new_solvers_first_miss_costs_less_than_170() {
        use crate::ratings::glicko::{START_DEVIATION, after_game};
        // The puzzle the trainer gives a new solver is the nearest to 1500: a win in 2.
        let puzzle = start_rating(2);
        let (missed, _) = after_game(new_solver(), puzzle, 0.0, [0, 0]);
        let cost = 1500.0 - missed.rating;
        assert!(cost > 50.0 && cost < 170.0, "{cost}");
        // With the games' starting deviation it would cost 170 or more: the reason for ours.
        let old = Rating {
            deviation: START_DEVIATION,
            ..new_solver()
        };
        let (missed_old, _) = after_game(old, puzzle, 0.0, [0, 0]);
        assert!(1500.0 - missed_old.rating >= 170.0, "{missed_old:?}");
        // A solved first puzzle gains as much as a miss costs.
        let (solved, _) = after_game(new_solver(), puzzle, 1.0, [0, 0]);
        assert!((solved.rating - 1500.0 - cost).abs() < 1.0, "{solved:?}");
    }

    #[test]
    fn a_solvers_deviation_grows_back_at_most_to_a_new_solvers() {
        let year = 365 * 24 * 3600 * 1000;
        let settled = Rating {
            deviation: 60.0,
            ..new_solver()
        };
        assert!(solver_after(settled, 24 * 3600 * 1000).deviation > 60.0);
        assert_eq!(solver_after(settled, 50 * year).deviation, SOLVER_DEVIATION);
        assert_eq!(new_solver().deviation, SOLVER_DEVIATION);
        assert_eq!(
            guest_rating(1500.0, None, None).unwrap().deviation,
            SOLVER_DEVIATION
        );
    }
}
