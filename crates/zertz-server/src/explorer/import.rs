//! Counting games into explorer rows in memory, then handing them to the store in large
//! batches: an archive of tens of thousands of games becomes a few transactions, and each row
//! of a batch is written once however many games of the batch went through it.

use std::collections::{HashMap, HashSet};

use zertz::{Move, Player};

use super::key::{Step, band, stored_move};
use crate::store::explorer::MAX_EXAMPLES;
use crate::store::{ExplorerBatch, ExplorerGame, MoveRow};

/// A game ready to be counted: what is stored of it, and its steps.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The game's row (id, players, result, record…).
    pub game: ExplorerGame,
    /// Its moves, keyed.
    pub steps: Vec<Step>,
}

/// `YYYY-MM-DD` as a number that sorts like the date (0: none).
fn date_number(date: Option<&str>) -> u32 {
    date.map(|d| {
        d.bytes()
            .filter(u8::is_ascii_digit)
            .fold(0u32, |n, b| n * 10 + (b - b'0') as u32)
    })
    .unwrap_or(0)
}

fn date_text(n: u32) -> Option<String> {
    (n > 0).then(|| format!("{:04}-{:02}-{:02}", n / 10_000, n / 100 % 100, n % 100))
}

#[derive(Clone, Debug, Default)]
struct Counts {
    games: i64,
    first_wins: i64,
    second_wins: i64,
    draws: i64,
    rating_sum: f64,
    rating_count: i64,
    last_date: u32,
    /// (date, index of the game in the batch): the latest few, the first `kept` of them
    /// (inline: most rows have one game, and an allocation each was a large share of the
    /// import's time).
    examples: [(u32, u32); MAX_EXAMPLES],
    kept: u8,
}

/// The rows' map: keys are already well mixed (a position key is a hash), so a fast hasher
/// does; SipHash was a tenth of the import's time.
type Rows = HashMap<(i64, i64, Move), Counts, foldhash::fast::FixedState>;

/// Rows a game adds, on average, when an archive is counted (the map is sized for this).
const ROWS_PER_GAME: usize = 25;

/// Rows of one source being counted, and the games they come from.
#[derive(Debug)]
pub struct Aggregate {
    source: String,
    games: Vec<ExplorerGame>,
    rows: Rows,
    ids: HashSet<String>,
}

impl Aggregate {
    /// An empty aggregate for `source` (`boardspace` or `server`).
    pub fn new(source: &str) -> Aggregate {
        Aggregate {
            source: source.to_string(),
            games: Vec::new(),
            rows: Rows::default(),
            ids: HashSet::new(),
        }
    }

    /// Games counted so far.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Rows counted so far.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// True when a game of this id is already counted here.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    /// Counts a game: each (position, move) of it once, however often the game went through
    /// it. A game whose id is already counted here is left out (false).
    pub fn add(&mut self, entry: GameEntry) -> bool {
        if !self.ids.insert(entry.game.id.clone()) {
            return false;
        }
        if self.rows.capacity() == 0 {
            self.rows.reserve(ROWS_PER_GAME * 1_000);
        }
        let index = self.games.len() as u32;
        let date = date_number(entry.game.date.as_deref());
        let (one, two, draw) = match entry.game.result.as_str() {
            "1-0" => (1, 0, 0),
            "0-1" => (0, 1, 0),
            "1/2-1/2" => (0, 0, 1),
            _ => (0, 0, 0),
        };
        for (i, step) in entry.steps.iter().enumerate() {
            // A position and move seen earlier in the game (a repetition) counts once: games
            // are short, a scan of the steps before is cheaper than a set.
            if entry.steps[..i]
                .iter()
                .any(|s| s.position == step.position && s.mv == step.mv)
            {
                continue;
            }
            let rating = entry.game.ratings[match step.mover {
                Player::One => 0,
                Player::Two => 1,
            }];
            let c = self
                .rows
                .entry((step.position, band(rating), step.mv))
                .or_default();
            c.games += 1;
            c.first_wins += one;
            c.second_wins += two;
            c.draws += draw;
            if let Some(r) = rating {
                c.rating_sum += r;
                c.rating_count += 1;
            }
            c.last_date = c.last_date.max(date);
            if (c.kept as usize) < MAX_EXAMPLES {
                c.examples[c.kept as usize] = (date, index);
                c.kept += 1;
            } else if let Some(oldest) = c.examples.iter_mut().min()
                && oldest.0 < date
            {
                *oldest = (date, index);
            }
        }
        self.games.push(entry.game);
        true
    }

    /// Everything counted so far as one batch for the store, leaving the aggregate empty.
    pub fn take_batch(&mut self) -> ExplorerBatch {
        let games = std::mem::take(&mut self.games);
        self.ids.clear();
        let moves = self
            .rows
            .drain()
            .map(|((position, band, mv), mut c)| {
                let examples = &mut c.examples[..c.kept as usize];
                examples.sort_unstable_by(|a, b| b.cmp(a));
                MoveRow {
                    position,
                    source: self.source.clone(),
                    band,
                    mv: stored_move(&mv),
                    games: c.games,
                    first_wins: c.first_wins,
                    second_wins: c.second_wins,
                    draws: c.draws,
                    rating_sum: c.rating_sum,
                    rating_count: c.rating_count,
                    last_date: date_text(c.last_date),
                    examples: examples
                        .iter()
                        .map(|&(_, i)| games[i as usize].id.clone())
                        .collect(),
                }
            })
            .collect();
        ExplorerBatch { games, moves }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_sort_as_numbers_and_read_back() {
        assert_eq!(date_number(Some("2006-03-28")), 20_060_328);
        assert_eq!(date_text(20_060_328).as_deref(), Some("2006-03-28"));
        assert_eq!(date_text(0), None);
    }
}
