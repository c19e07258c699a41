//! Counting games into explorer rows in memory, then handing them to the store in large
//! batches: an archive of tens of thousands of games becomes a few transactions, each row of a
//! batch is written once however many games of the batch went through it, and a position only
//! one game of the batch reached is a leaf (see `store::explorer`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use zertz::{Move, Player};

use crate::explorer::key::{Step, band, stored_move};
use crate::explorer::store::MAX_EXAMPLES;
use crate::explorer::store::{ExplorerBatch, ExplorerGame, Leaf, MoveRow};

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

/// One game's move in one position, as counted: 24 bytes, so that sorting half a million of
/// them moves little memory (a [`Move`] itself is 27 bytes; here it is its number in
/// [`Aggregate`]'s table of moves).
#[derive(Clone, Copy, Debug)]
struct Seen {
    position: i64,
    /// The move's number in the aggregate's table.
    mv: u32,
    /// The game's index in the batch.
    game: u32,
    band: i16,
    /// 0 for player one, 1 for player two.
    mover: u8,
}

impl Seen {
    /// The order a batch is summed in: by position (the store writes in key order), then by
    /// row (band and move), then by game.
    fn order(&self) -> (i64, i16, u32, u32) {
        (self.position, self.band, self.mv, self.game)
    }
}

/// Moves a game adds, on average, when an archive is counted (the list is sized for this).
const MOVES_PER_GAME: usize = 27;

/// Games and their moves being counted for one source.
///
/// Counting is appending: every (position, move) of every game goes to one list, which
/// [`Aggregate::take_batch`] sorts by position and sums run by run. A position reached by one
/// game of the batch becomes a [`Leaf`] (nearly all of them: no row of figures, no allocation
/// but its move's text), the others rows of figures.
#[derive(Debug)]
pub struct Aggregate {
    source: String,
    games: Vec<ExplorerGame>,
    seen: Vec<Seen>,
    ids: HashSet<String>,
    /// Every distinct move counted, numbered in order of first sight (a few thousand where
    /// the counted moves are hundreds of thousands), with its stored text once written.
    numbers: HashMap<Move, u32, foldhash::fast::FixedState>,
    codes: Vec<(Move, Option<Arc<str>>)>,
}

impl Aggregate {
    /// An empty aggregate for `source` (`boardspace` or `server`).
    pub fn new(source: &str) -> Aggregate {
        Aggregate {
            source: source.to_string(),
            games: Vec::new(),
            seen: Vec::new(),
            ids: HashSet::new(),
            numbers: HashMap::default(),
            codes: Vec::new(),
        }
    }

    /// An empty aggregate for `source` with room for `games` games, so that counting a batch
    /// of that many never grows its list (each regrowth copies it and touches fresh pages).
    pub fn with_capacity(source: &str, games: usize) -> Aggregate {
        let mut aggregate = Aggregate::new(source);
        aggregate.games.reserve(games);
        aggregate.seen.reserve(games.saturating_mul(MOVES_PER_GAME));
        aggregate
    }

    /// Games counted so far.
    pub fn games(&self) -> usize {
        self.games.len()
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
        if self.seen.capacity() == 0 {
            self.seen.reserve(MOVES_PER_GAME * 1_000);
        }
        let game = self.games.len() as u32;
        let bands = entry.game.ratings.map(band);
        for (i, step) in entry.steps.iter().enumerate() {
            // A position and move seen earlier in the game (a repetition) counts once: games
            // are short, a scan of the steps before is cheaper than a set.
            if entry.steps[..i]
                .iter()
                .any(|s| s.position == step.position && s.mv == step.mv)
            {
                continue;
            }
            let mover = match step.mover {
                Player::One => 0,
                Player::Two => 1,
            };
            let mv = self.number(step.mv);
            self.seen.push(Seen {
                position: step.position,
                band: bands[mover as usize].clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                mv,
                game,
                mover,
            });
        }
        self.games.push(entry.game);
        true
    }

    /// The number of a move in the table, given it if it is new.
    fn number(&mut self, mv: Move) -> u32 {
        let next = self.codes.len() as u32;
        let number = *self.numbers.entry(mv).or_insert(next);
        if number == next {
            self.codes.push((mv, None));
        }
        number
    }

    /// The stored text of move number `mv`, written the first time it is asked for.
    fn code(&mut self, mv: u32) -> Arc<str> {
        let (m, code) = &mut self.codes[mv as usize];
        code.get_or_insert_with(|| stored_move(m).into()).clone()
    }

    /// Everything counted so far as one batch for the store, leaving the aggregate empty.
    pub fn take_batch(&mut self) -> ExplorerBatch {
        let room = self.games.capacity();
        let games = std::mem::replace(&mut self.games, Vec::with_capacity(room));
        // The list is kept for the next batch: its pages are already in memory.
        let mut seen = std::mem::take(&mut self.seen);
        self.ids.clear();
        // By position first (the store writes in key order), then by row.
        seen.sort_unstable_by_key(Seen::order);
        let mut leaves = Vec::with_capacity(seen.len());
        let mut moves = Vec::new();
        let mut rest = &seen[..];
        while let Some(first) = rest.first() {
            let at = rest
                .iter()
                .position(|s| s.position != first.position)
                .unwrap_or(rest.len());
            let (here, after) = rest.split_at(at);
            rest = after;
            if let [one] = here {
                leaves.push(Leaf {
                    position: one.position,
                    game: one.game,
                    mover: one.mover,
                    mv: self.code(one.mv),
                });
                continue;
            }
            for row in here.chunk_by(|a, b| a.band == b.band && a.mv == b.mv) {
                moves.push(self.row(row, &games));
            }
        }
        seen.clear();
        self.seen = seen;
        ExplorerBatch {
            games,
            moves,
            leaves,
        }
    }

    /// The row of figures of one (position, band, move) seen by the games `seen` (of `games`).
    fn row(&mut self, seen: &[Seen], games: &[ExplorerGame]) -> MoveRow {
        let first = seen[0];
        let mut row = MoveRow {
            position: first.position,
            source: self.source.clone(),
            band: first.band.into(),
            mv: self.code(first.mv).to_string(),
            games: 0,
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            rating_sum: 0.0,
            rating_count: 0,
            last_date: None,
            examples: Vec::new(),
        };
        // The latest few games as examples (by date, then by their order in the batch).
        let mut examples: Vec<(u32, u32)> = Vec::with_capacity(seen.len());
        let mut last = 0;
        for s in seen {
            let game = &games[s.game as usize];
            row.games += 1;
            match game.result.as_str() {
                "1-0" => row.first_wins += 1,
                "0-1" => row.second_wins += 1,
                "1/2-1/2" => row.draws += 1,
                _ => {}
            }
            if let Some(r) = game.ratings[s.mover as usize] {
                row.rating_sum += r;
                row.rating_count += 1;
            }
            let date = date_number(game.date.as_deref());
            last = last.max(date);
            examples.push((date, s.game));
        }
        row.last_date = date_text(last);
        examples.sort_unstable_by(|a, b| b.cmp(a));
        row.examples = examples
            .iter()
            .take(MAX_EXAMPLES)
            .map(|&(_, i)| games[i as usize].id.clone())
            .collect();
        row
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
