//! Choosing a puzzle: the next one for a solver (near their rating, of a theme if asked, not
//! one they have solved while others remain) and the daily puzzle (the same for everyone on a
//! UTC day).

use std::collections::HashMap;

use thiserror::Error;

use crate::puzzles::set::{Book, Loaded, THEMES};

/// How many of the nearest puzzles the next one is drawn from (so that two solvers of one
/// rating, or one solver asking twice, do not always get the same).
pub const NEAREST: usize = 3;

/// How much farther than the nearest puzzle's rating another may be to be drawn.
pub const WINDOW: f64 = 150.0;

/// A day, in ms.
const DAY_MS: i64 = 24 * 3600 * 1000;

/// Why no puzzle was chosen.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChooseError {
    /// The set has no puzzles.
    #[error("the puzzle set of this server is empty")]
    Empty,
    /// A theme the trainer does not know.
    #[error("unknown theme `{0}`: the themes are {list}", list = THEMES.join(", "))]
    UnknownTheme(String),
    /// No puzzle of the theme.
    #[error("no puzzle of the theme `{0}` in this server's set")]
    NoneOfTheme(String),
}

/// What a solver has done: for each puzzle tried, whether they solved it.
pub type History = HashMap<String, bool>;

/// The next puzzle for a solver rated `rating`: among the puzzles of `theme` (all if none),
/// those not tried yet, else those tried but never solved, else any; never `after` (the one
/// just played) while another remains. Of those, one of the [`NEAREST`] by rating that are at
/// most [`WINDOW`] farther than the nearest, drawn with `seed`. `rating_of` gives a puzzle's
/// current rating.
pub fn next<'a>(
    book: &'a Book,
    rating_of: impl Fn(&Loaded) -> f64,
    history: &History,
    rating: f64,
    theme: Option<&str>,
    after: Option<&str>,
    seed: u64,
) -> Result<&'a Loaded, ChooseError> {
    if let Some(t) = theme
        && !THEMES.contains(&t)
    {
        return Err(ChooseError::UnknownTheme(t.to_string()));
    }
    let of_theme: Vec<&Loaded> = book
        .all()
        .iter()
        .filter(|p| theme.is_none_or(|t| p.puzzle.themes.iter().any(|x| x == t)))
        .collect();
    if of_theme.is_empty() {
        return Err(match theme {
            Some(t) => ChooseError::NoneOfTheme(t.to_string()),
            None => ChooseError::Empty,
        });
    }
    let not_after = |p: &&&Loaded| Some(p.puzzle.id.as_str()) != after;
    let untried: Vec<&Loaded> = of_theme
        .iter()
        .filter(not_after)
        .filter(|p| !history.contains_key(&p.puzzle.id))
        .copied()
        .collect();
    let unsolved: Vec<&Loaded> = of_theme
        .iter()
        .filter(not_after)
        .filter(|p| history.get(&p.puzzle.id) == Some(&false))
        .copied()
        .collect();
    let others: Vec<&Loaded> = of_theme.iter().filter(not_after).copied().collect();
    let mut pool = [untried, unsolved, others]
        .into_iter()
        .find(|v| !v.is_empty())
        .unwrap_or(of_theme);
    pool.sort_by(|a, b| {
        let da = (rating_of(a) - rating).abs();
        let db = (rating_of(b) - rating).abs();
        da.total_cmp(&db)
            .then_with(|| a.puzzle.id.cmp(&b.puzzle.id))
    });
    let nearest = (rating_of(pool[0]) - rating).abs();
    let k = pool
        .iter()
        .take(NEAREST)
        .take_while(|p| (rating_of(p) - rating).abs() <= nearest + WINDOW)
        .count()
        .max(1);
    Ok(pool[(seed % k as u64) as usize])
}

/// SplitMix64: a day's number spread over 64 bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The daily puzzle at `now_ms`: the UTC day's number (days since 1970-01-01) mixed by
/// SplitMix64, modulo the number of puzzles, indexes the puzzles sorted by id. The same for
/// everyone all day; it changes at 00:00 UTC.
pub fn daily(book: &Book, now_ms: i64) -> Result<&Loaded, ChooseError> {
    let mut ids: Vec<&Loaded> = book.all().iter().collect();
    if ids.is_empty() {
        return Err(ChooseError::Empty);
    }
    ids.sort_by(|a, b| a.puzzle.id.cmp(&b.puzzle.id));
    let day = now_ms.div_euclid(DAY_MS) as u64;
    Ok(ids[(mix(day) % ids.len() as u64) as usize])
}

/// The UTC date of `now_ms`, `YYYY-MM-DD`.
pub fn date(now_ms: i64) -> String {
    crate::util::iso_time(now_ms.div_euclid(DAY_MS) * DAY_MS)[..10].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three puzzles (the same win in 1 under three ids), themed `isolation`, `isolation`,
    /// `win-by-colour`.
    fn book() -> Book {
        let one = |id: &str, theme: &str| {
            format!(
                "{{\"id\":\"{id}\",\"position\":\"37 standard W.../-----/------/-------/------/-----/---- \
                 2/8/10 3/0/0 0/0/0 1\",\"turns\":1,\"solution\":{{\"move\":\"Wa3,a2\"}},\
                 \"themes\":[\"{theme}\"],\"source\":{{\"archive\":\"server\",\"game\":\"g\",\
                 \"move_number\":1,\"played\":\"Wa3,a2\",\"found\":true}}}}"
            )
        };
        let json = format!(
            "{{\"version\":1,\"puzzles\":[\n{},\n{},\n{}\n]}}",
            one("a", "isolation"),
            one("b", "isolation"),
            one("c", "win-by-colour")
        );
        Book::from_json(&json).unwrap()
    }

    fn rating(p: &Loaded) -> f64 {
        match p.puzzle.id.as_str() {
            "a" => 1200.0,
            "b" => 1600.0,
            _ => 2000.0,
        }
    }

    #[test]
    fn the_next_is_near_the_rating_of_the_theme_and_not_solved() {
        let b = book();
        let none = History::new();
        for seed in 0..8 {
            let pick = |r, theme, after| next(&b, rating, &none, r, theme, after, seed).unwrap();
            assert_eq!(pick(1150.0, None, None).puzzle.id, "a");
            assert_eq!(pick(1650.0, None, None).puzzle.id, "b");
            assert_eq!(pick(1200.0, Some("win-by-colour"), None).puzzle.id, "c");
            assert_eq!(pick(1200.0, None, Some("a")).puzzle.id, "b");
            // The only puzzle of its theme, even just after it.
            assert_eq!(
                pick(1200.0, Some("win-by-colour"), Some("c")).puzzle.id,
                "c"
            );
        }
        // Solved ones go last, failed ones before them.
        let mut h = History::new();
        h.insert("a".into(), true);
        h.insert("b".into(), false);
        let id = |h: &History| next(&b, rating, h, 1200.0, Some("isolation"), None, 0).unwrap();
        assert_eq!(id(&h).puzzle.id, "b");
        h.insert("b".into(), true);
        assert_eq!(id(&h).puzzle.id, "a", "all solved: the nearest again");
        // Within the window, the seed draws among the nearest.
        let drawn: std::collections::HashSet<String> = (0..16)
            .map(|s| {
                next(&b, |_| 1500.0, &none, 1500.0, None, None, s)
                    .unwrap()
                    .puzzle
                    .id
                    .clone()
            })
            .collect();
        assert_eq!(drawn.len(), 3, "{drawn:?}");
    }

    #[test]
    fn refusals_name_the_theme_and_the_daily_puzzle_is_fixed_for_a_day() {
        let b = book();
        let none = History::new();
        let e = next(&b, rating, &none, 1500.0, Some("luck"), None, 0).unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown theme `luck`: the themes are isolation"),
            "{e}"
        );
        let e = next(&b, rating, &none, 1500.0, Some("no-moves"), None, 0).unwrap_err();
        assert_eq!(e, ChooseError::NoneOfTheme("no-moves".into()));
        let empty = Book::default();
        assert_eq!(
            next(&empty, rating, &none, 1500.0, None, None, 0).unwrap_err(),
            ChooseError::Empty
        );
        assert_eq!(daily(&empty, 0).unwrap_err(), ChooseError::Empty);

        let day = 20_418 * DAY_MS; // 2025-11-26 00:00 UTC
        let first = daily(&b, day).unwrap().puzzle.id.clone();
        assert_eq!(daily(&b, day + DAY_MS - 1).unwrap().puzzle.id, first);
        let days: std::collections::HashSet<String> = (0..30)
            .map(|d| daily(&b, day + d * DAY_MS).unwrap().puzzle.id.clone())
            .collect();
        assert_eq!(days.len(), 3, "every puzzle comes up: {days:?}");
        assert_eq!(date(day + 5), "2025-11-26");
    }
}
