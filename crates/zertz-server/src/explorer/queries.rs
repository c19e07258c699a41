//! What the explorer answers for a position: its rows read by the position's canonical key,
//! filtered by source and rating, summed per move, and each move written back in the frame
//! of the position asked (not the canonical one).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde::Serialize;
use zertz::notation::official;
use zertz::symmetry::{Frame, parse_move_code};
use zertz::{Move, Position};

use crate::explorer::cache::AnswerCache;
use crate::explorer::store::MAX_EXAMPLES;
use crate::explorer::store::{ExplorerGame, ExplorerStore};
use crate::store::StoreError;

/// Which games to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Every source.
    All,
    /// BoardSpace's archive.
    BoardSpace,
    /// This server's games.
    Server,
}

impl Source {
    /// Reads `all`, `boardspace` or `server`.
    pub fn parse(text: &str) -> Option<Source> {
        match text {
            "all" => Some(Source::All),
            "boardspace" => Some(Source::BoardSpace),
            "server" => Some(Source::Server),
            _ => None,
        }
    }

    fn admits(self, source: &str) -> bool {
        match self {
            Source::All => true,
            Source::BoardSpace => source == "boardspace",
            Source::Server => source == "server",
        }
    }
}

/// One move of the answer.
#[derive(Clone, Debug, Serialize)]
pub struct MoveStats {
    /// In official notation, in the frame of the position asked.
    #[serde(rename = "move")]
    pub text: String,
    /// The move itself (same frame).
    #[serde(skip)]
    pub mv: Move,
    /// Games that played it here (or in a position equal under a symmetry, or reached by
    /// another order of moves).
    pub games: i64,
    /// Won by the first player.
    pub first_wins: i64,
    /// Won by the second player.
    pub second_wins: i64,
    /// Drawn.
    pub draws: i64,
    /// The mover's average rating, where known.
    pub average_rating: Option<f64>,
    /// The latest of those games' dates.
    pub last_date: Option<String>,
    /// A few of those games, the latest first.
    pub examples: Vec<ExplorerGame>,
    /// The engine's evaluation for the mover (filled by the route when asked).
    pub eval: Option<serde_json::Value>,
}

/// The answer for a position.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// Games through the position (the sum over its moves).
    pub games: i64,
    /// Its moves, the most played first.
    pub moves: Vec<MoveStats>,
}

/// One canonical move's figures summed over the rows asked for, with its example games.
#[derive(Clone, Debug, Default)]
pub struct Sum {
    games: i64,
    first_wins: i64,
    second_wins: i64,
    draws: i64,
    rating_sum: f64,
    rating_count: i64,
    last_date: Option<String>,
    examples: Vec<ExplorerGame>,
}

/// What the store holds for a key and a filter, summed per canonical move code, with the
/// example games read: the part of an answer that does not depend on the frame the position
/// is asked in (what [`AnswerCache`] keeps).
#[derive(Clone, Debug, Default)]
pub struct Gathered {
    moves: Vec<(String, Sum)>,
}

/// Reads and sums the rows of `key` that pass the filter; returns them with the number of
/// rows read.
async fn gather<S: ExplorerStore + ?Sized>(
    store: &S,
    key: i64,
    source: Source,
    min_band: Option<i64>,
) -> Result<(Gathered, usize), StoreError> {
    let rows = store.explorer_rows(key).await?;
    let read = rows.len();
    let mut sums: HashMap<String, (Sum, Vec<String>)> = HashMap::new();
    for row in rows {
        if !source.admits(&row.source) || min_band.is_some_and(|b| row.band < b) {
            continue;
        }
        let (s, ids) = sums.entry(row.mv).or_default();
        s.games += row.games;
        s.first_wins += row.first_wins;
        s.second_wins += row.second_wins;
        s.draws += row.draws;
        s.rating_sum += row.rating_sum;
        s.rating_count += row.rating_count;
        if row.last_date > s.last_date {
            s.last_date = row.last_date;
        }
        ids.extend(row.examples);
    }
    let mut wanted: Vec<String> = sums.values().flat_map(|(_, ids)| ids.clone()).collect();
    wanted.sort();
    wanted.dedup();
    let games: HashMap<String, ExplorerGame> = if wanted.is_empty() {
        HashMap::new()
    } else {
        store
            .explorer_games_brief(&wanted)
            .await?
            .into_iter()
            .map(|g| (g.id.clone(), g))
            .collect()
    };
    let moves = sums
        .into_iter()
        .map(|(code, (mut s, ids))| {
            s.examples = ids.iter().filter_map(|id| games.get(id).cloned()).collect();
            s.examples
                .sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.id.cmp(&b.id)));
            s.examples.dedup_by(|a, b| a.id == b.id);
            s.examples.truncate(MAX_EXAMPLES);
            (code, s)
        })
        .collect();
    Ok((Gathered { moves }, read))
}

/// The explorer's answer for `position`: games of `source` only, and with `min_rating` only
/// moves made by players rated at least that (to the hundred below: the rows keep ratings in
/// bands of 100), which leaves out every game without ratings. With a `cache`, a busy
/// position's figures are read from it when they are there, and kept there when they are not.
pub async fn explore<S: ExplorerStore + ?Sized>(
    store: &S,
    cache: Option<&AnswerCache>,
    position: &Position,
    source: Source,
    min_rating: Option<f64>,
) -> Result<Answer, StoreError> {
    let frame = Frame::of(position);
    let min_band = min_rating.map(|r| crate::explorer::key::band(Some(r.max(0.0))));
    let key = (frame.key().as_i64(), source, min_band);
    let gathered = match cache.and_then(|c| c.get(&key)) {
        Some(g) => g,
        None => {
            let generation = cache.map(AnswerCache::generation);
            let (g, rows) = gather(store, key.0, source, min_band).await?;
            let g = Arc::new(g);
            if let (Some(c), Some(generation)) = (cache, generation) {
                c.put(key, Arc::clone(&g), rows, generation);
            }
            g
        }
    };
    let legal: HashSet<Move> = position.legal_moves().into_iter().collect();
    let mut out: Vec<MoveStats> = Vec::with_capacity(gathered.moves.len());
    for (code, s) in &gathered.moves {
        // A row whose move is not legal here belongs to another position sharing the 64-bit
        // key (about one chance in 10¹³ per pair of positions): leave it out.
        let Some(canonical) = parse_move_code(position.layout(), code) else {
            continue;
        };
        let mv = frame.from_canonical(&canonical);
        if !legal.contains(&mv) {
            continue;
        }
        out.push(MoveStats {
            text: official::move_text(position, &mv),
            mv,
            games: s.games,
            first_wins: s.first_wins,
            second_wins: s.second_wins,
            draws: s.draws,
            average_rating: (s.rating_count > 0)
                .then(|| (s.rating_sum / s.rating_count as f64 * 10.0).round() / 10.0),
            last_date: s.last_date.clone(),
            examples: s.examples.clone(),
            eval: None,
        });
    }
    out.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.text.cmp(&b.text)));
    Ok(Answer {
        games: out.iter().map(|m| m.games).sum(),
        moves: out,
    })
}
