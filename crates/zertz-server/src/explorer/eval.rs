//! The engine's word on the explorer's moves: each move searched a fixed small depth, all of a
//! position's moves within one strict time budget, one request at a time on a blocking thread
//! (never on the async runtime, never on the games' engine slots), the scores kept in a
//! bounded cache so that the same position asked again costs nothing.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Semaphore;
use zertz::symmetry::Frame;
use zertz::{Game, Move, Position, Rules};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

/// Depth of each move's search (placement turns below the move).
pub const DEPTH: u32 = 2;

/// Engine time one request may use in all.
pub const BUDGET: Duration = Duration::from_millis(300);

/// Most moves of one position evaluated (the most played ones).
pub const MAX_MOVES: usize = 24;

/// Most scores kept (the cache is emptied when it is full).
const CACHE: usize = 50_000;

fn cache() -> &'static Mutex<HashMap<(u128, Move), Score>> {
    static CACHE_MAP: OnceLock<Mutex<HashMap<(u128, Move), Score>>> = OnceLock::new();
    CACHE_MAP.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A score as the study's JSON writes it, for the player making the move.
pub fn score_json(score: Score) -> Value {
    match score {
        Score::Value(v) => json!({ "cp": v }),
        Score::Win(n) => json!({ "win": n }),
        Score::Loss(n) => json!({ "loss": n }),
    }
}

/// Scores `moves` of `position` for the player making them; `None` for a move not reached
/// within the budget (or when another request holds the evaluator for longer than the
/// budget).
pub async fn evaluate(position: Position, moves: Vec<Move>) -> Vec<Option<Value>> {
    static SLOT: OnceLock<Semaphore> = OnceLock::new();
    let slot = SLOT.get_or_init(|| Semaphore::new(1));
    let Ok(Ok(permit)) = tokio::time::timeout(BUDGET, slot.acquire()).await else {
        return vec![None; moves.len()];
    };
    let n = moves.len();
    let scores = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        search_all(&position, &moves)
    })
    .await
    .unwrap_or_else(|_| vec![None; n]);
    scores.into_iter().map(|s| s.map(score_json)).collect()
}

fn search_all(position: &Position, moves: &[Move]) -> Vec<Option<Score>> {
    let started = Instant::now();
    // Keyed in the canonical frame, so that a position seen turned another way hits too.
    let frame = Frame::of(position);
    let key = frame.key().0;
    let engine = Engine::new(SearchOptions::default(), 4);
    let game = Game::from_position(
        position.clone(),
        Rules {
            set: position.rule_set(),
            ..Rules::default()
        },
    );
    let mut out = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        let canonical = frame.to_canonical(mv);
        if let Some(s) = cache()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(key, canonical))
        {
            out.push(Some(*s));
            continue;
        }
        let left = BUDGET.saturating_sub(started.elapsed());
        if left.is_zero() {
            out.push(None);
            continue;
        }
        let mut child = game.clone();
        if child.play(mv).is_err() {
            out.push(None);
            continue;
        }
        let score = if child.is_over() {
            match child.outcome().and_then(|o| o.winner()) {
                Some(w) if w == position.to_move() => Score::Win(1),
                Some(_) => Score::Loss(0),
                None => Score::Value(0),
            }
        } else {
            let limits = Limits {
                depth: Some(DEPTH),
                // The rest of the budget shared among the moves still to search.
                movetime: Some(left / (moves.len() - i) as u32),
                ..Limits::default()
            };
            let r = engine.search(&child, &limits, &AtomicBool::new(false), &mut |_| {});
            if r.depth < DEPTH {
                // Cut short by the budget: not a fixed-depth score, not cached.
                out.push(None);
                continue;
            }
            match r.score {
                Score::Value(v) => Score::Value(-v),
                Score::Win(n) => Score::Loss(n),
                Score::Loss(n) => Score::Win(n + 1),
            }
        };
        let mut c = cache().lock().unwrap_or_else(|e| e.into_inner());
        if c.len() >= CACHE {
            c.clear();
        }
        c.insert((key, canonical), score);
        out.push(Some(score));
    }
    out
}
