//! Verdicts on moves: a score turned into the chance of winning, the mark a played move earns
//! (best, good, inaccuracy, mistake, blunder) and an accuracy figure per player.
//!
//! Marks are judged on the win-chance scale rather than on raw scores, as lichess does: losing
//! 100 points in a level position matters, losing 100 points when 3000 ahead does not. The
//! scale is a logistic curve fitted on real games (`examples/win_chance.rs`), so a score of
//! `+s` means the player to move went on to win about `win_chance(s)` of the time.

use crate::score::Score;

/// The slope of the win-chance curve, per point of score: fitted by maximum likelihood on
/// 7,651 positions of 1,000 BoardSpace games, which gave 0.00233 (`cargo run --release -p
/// zertz-engine --example win_chance -- 1000 20000 PATH`, docs/study.md has its table).
pub const WIN_CHANCE_SLOPE: f64 = 0.0023;

/// A move that loses at least this much of the mover's win chance is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// … a mistake.
pub const MISTAKE: f64 = 0.10;
/// … a blunder.
pub const BLUNDER: f64 = 0.15;

/// The chance that the player the score is for wins, from 0 to 1: 1 for a forced win, 0 for a
/// forced loss, a logistic curve of the evaluation between.
pub fn win_chance(score: Score) -> f64 {
    match score {
        Score::Win(_) => 1.0,
        Score::Loss(_) => 0.0,
        Score::Value(v) => 1.0 / (1.0 + (-WIN_CHANCE_SLOPE * f64::from(v)).exp()),
    }
}

/// How a played move compares with the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The only legal move.
    Only,
    /// The engine's best move, or one scored as high.
    Best,
    /// Loses less than [`INACCURACY`] of the win chance.
    Good,
    /// Loses from [`INACCURACY`] to [`MISTAKE`].
    Inaccuracy,
    /// Loses from [`MISTAKE`] to [`BLUNDER`], or gives up a forced win for less.
    Mistake,
    /// Loses [`BLUNDER`] or more, or walks into a forced loss from a position that was not lost.
    Blunder,
}

impl Mark {
    /// Every mark, from the best to the worst.
    pub const ALL: [Mark; 6] = [
        Mark::Only,
        Mark::Best,
        Mark::Good,
        Mark::Inaccuracy,
        Mark::Mistake,
        Mark::Blunder,
    ];

    /// `?!`, `?`, `??` or nothing, as annotations are written after a move.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Only | Mark::Best | Mark::Good => "",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The word: `only`, `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Only => "only",
            Mark::Best => "best",
            Mark::Good => "good",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// True for the marks that count against a player: inaccuracy, mistake and blunder.
    pub fn is_error(self) -> bool {
        matches!(self, Mark::Inaccuracy | Mark::Mistake | Mark::Blunder)
    }
}

/// The win chance a move gave away: the best move's chance less the played move's, never
/// below 0 (a played move the search scores higher than its best gave nothing away).
pub fn drop(best: Score, played: Score) -> f64 {
    (win_chance(best) - win_chance(played)).max(0.0)
}

/// The mark of a move scored `played` when the best move scored `best`. `same_move` is true
/// when the played move is the best one; `only` when it was the only legal move.
pub fn mark(best: Score, played: Score, same_move: bool, only: bool) -> Mark {
    if only {
        return Mark::Only;
    }
    if same_move || played.rank() >= best.rank() {
        return Mark::Best;
    }
    let lost = drop(best, played);
    let by_chance = if lost >= BLUNDER {
        Mark::Blunder
    } else if lost >= MISTAKE {
        Mark::Mistake
    } else if lost >= INACCURACY {
        Mark::Inaccuracy
    } else {
        Mark::Good
    };
    match (best, played) {
        // Into a forced loss from a position that was not lost.
        (Score::Win(_) | Score::Value(_), Score::Loss(_)) => Mark::Blunder,
        // A forced win given up: a mistake at least, whatever the evaluation after it.
        (Score::Win(_), Score::Value(_)) => by_chance.max_with(Mark::Mistake),
        _ => by_chance,
    }
}

impl Mark {
    /// The worse of two marks.
    fn max_with(self, other: Mark) -> Mark {
        let at = |m: Mark| Mark::ALL.iter().position(|x| *x == m).unwrap_or(0);
        if at(other) > at(self) { other } else { self }
    }
}

/// The accuracy of one move, from 0 to 100, from the win chance it gave away (the curve
/// lichess uses: 100 for nothing lost, about 80 for 5 %, 62 for 10 %, 48 for 15 %).
pub fn move_accuracy(lost: f64) -> f64 {
    let percent = (lost * 100.0).clamp(0.0, 100.0);
    (103.1668 * (-0.04354 * percent).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A player's accuracy over a game: the mean of their moves' accuracies (`None` for a player
/// who made no move that counts; only moves are counted where there was a choice).
pub fn accuracy(losses: &[f64]) -> Option<f64> {
    if losses.is_empty() {
        return None;
    }
    Some(losses.iter().map(|&l| move_accuracy(l)).sum::<f64>() / losses.len() as f64)
}

/// The score in words for people: `+35`, `wins in 3`, `loses in 2`.
pub fn words(score: Score) -> String {
    match score {
        Score::Value(v) => format!("{v:+}"),
        Score::Win(n) => format!("wins in {n}"),
        Score::Loss(n) => format!("loses in {n}"),
    }
}

/// The score in words, claiming a forced result only when `proven` (by the prover, see
/// [`crate::prove`]): `+35`, `wins in 3`, `loses in 2`; a forced result the search reports but
/// the prover has not confirmed is said as the search's: `search: win in 3, unproven`.
pub fn claim(score: Score, proven: bool) -> String {
    match score {
        Score::Value(_) => words(score),
        _ if proven => words(score),
        Score::Win(n) => format!("search: win in {n}, unproven"),
        Score::Loss(n) => format!("search: loss in {n}, unproven"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_win_chance_is_a_half_at_zero_and_follows_the_sign() {
        assert_eq!(win_chance(Score::Value(0)), 0.5);
        assert!(win_chance(Score::Value(200)) > 0.6);
        assert!(win_chance(Score::Value(-200)) < 0.4);
        let (a, b) = (
            win_chance(Score::Value(300)),
            win_chance(Score::Value(-300)),
        );
        assert!((a + b - 1.0).abs() < 1e-12);
        assert_eq!(win_chance(Score::Win(4)), 1.0);
        assert_eq!(win_chance(Score::Loss(1)), 0.0);
    }

    #[test]
    fn marks_follow_the_thresholds_on_the_win_chance_scale() {
        let v = Score::Value;
        assert_eq!(mark(v(10), v(10), true, false), Mark::Best);
        assert_eq!(mark(v(10), v(20), false, false), Mark::Best);
        assert_eq!(mark(v(10), v(0), false, true), Mark::Only);
        assert_eq!(mark(v(0), v(-40), false, false), Mark::Good);
        // 0 → -100: 50 % → 44.3 %, a drop of 5.7 %.
        assert_eq!(mark(v(0), v(-100), false, false), Mark::Inaccuracy);
        assert_eq!(mark(v(0), v(-200), false, false), Mark::Mistake);
        assert_eq!(mark(v(0), v(-400), false, false), Mark::Blunder);
        // The same 200 points matter little far ahead.
        assert_eq!(mark(v(3000), v(2800), false, false), Mark::Good);
    }

    #[test]
    fn forced_results_are_judged_as_such() {
        let v = Score::Value;
        assert_eq!(mark(v(0), Score::Loss(3), false, false), Mark::Blunder);
        assert_eq!(
            mark(Score::Win(2), Score::Loss(3), false, false),
            Mark::Blunder
        );
        assert_eq!(mark(Score::Win(2), v(3000), false, false), Mark::Mistake);
        assert_eq!(mark(Score::Win(2), v(0), false, false), Mark::Blunder);
        assert_eq!(mark(Score::Win(2), Score::Win(4), false, false), Mark::Good);
        // Already lost: a quicker loss costs nothing on this scale.
        assert_eq!(
            mark(Score::Loss(5), Score::Loss(1), false, false),
            Mark::Good
        );
    }

    #[test]
    fn only_proven_results_are_claimed() {
        assert_eq!(claim(Score::Win(3), true), "wins in 3");
        assert_eq!(claim(Score::Loss(2), true), "loses in 2");
        assert_eq!(claim(Score::Win(3), false), "search: win in 3, unproven");
        assert_eq!(claim(Score::Loss(1), false), "search: loss in 1, unproven");
        assert_eq!(claim(Score::Value(-12), false), "-12");
    }

    #[test]
    fn accuracy_is_100_without_loss_and_falls_with_it() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.05) < 81.0 && move_accuracy(0.05) > 79.0);
        assert_eq!(move_accuracy(1.0), 0.0);
        assert_eq!(accuracy(&[]), None);
        let a = accuracy(&[0.0, 0.1]).unwrap();
        assert!((a - (move_accuracy(0.0) + move_accuracy(0.1)) / 2.0).abs() < 1e-9);
    }
}
