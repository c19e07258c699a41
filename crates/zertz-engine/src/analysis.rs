//! Analysis: the top moves of a position with their scores, and a move-by-move review of a game
//! that marks the mistakes.

use std::sync::atomic::AtomicBool;

use zertz::{Game, Move, Turn};

use crate::Engine;
use crate::limits::Limits;
use crate::score::Score;
use crate::search::{Info, SearchResult};

/// A root move with its score and line.
#[derive(Clone, Debug)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its score for the player making it.
    pub score: Score,
    /// The line it leads to, starting with the move.
    pub pv: Vec<Move>,
}

/// The analysis of one position.
#[derive(Clone, Debug)]
pub struct PositionAnalysis {
    /// The main search.
    pub search: SearchResult,
    /// The best moves, best first, each scored by its own search.
    pub top: Vec<RankedMove>,
}

/// Searches `game`'s position and then scores its `count` most promising moves one by one.
pub fn analyse_position(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    count: usize,
    report: &mut dyn FnMut(&Info),
) -> PositionAnalysis {
    let stop = AtomicBool::new(false);
    let search = engine.search(game, limits, &stop, report);
    let mut candidates: Vec<Move> = search.root_scores.iter().map(|(m, _, _)| *m).collect();
    // The main search orders its root moves best first; the best move leads.
    if let Some(best) = search.best {
        candidates.retain(|m| *m != best);
        candidates.insert(0, best);
    }
    candidates.truncate(count.max(1));
    let depth = search.depth.max(1);
    let top = rank(engine, game, &candidates, depth);
    PositionAnalysis { search, top }
}

/// Scores each move of `moves` with a search of the position after it, `depth` turns deep in
/// all (one less below the move when it is a placement).
pub fn rank(engine: &Engine, game: &Game, moves: &[Move], depth: u32) -> Vec<RankedMove> {
    let mut out = Vec::new();
    for mv in moves {
        let mut child = game.clone();
        if child.play(mv).is_err() {
            continue;
        }
        let (score, mut pv) = if child.is_over() {
            let won = child.outcome().and_then(|o| o.winner()) == Some(game.to_move());
            (
                if won { Score::Win(1) } else { Score::Value(0) },
                Vec::new(),
            )
        } else {
            let below = if mv.is_capture() {
                depth
            } else {
                depth.saturating_sub(1).max(1)
            };
            let stop = AtomicBool::new(false);
            let r = engine.search(&child, &Limits::depth(below), &stop, &mut |_| {});
            let score = match r.score {
                Score::Value(v) => Score::Value(-v),
                Score::Win(n) => Score::Loss(n),
                Score::Loss(n) => Score::Win(n + 1),
            };
            (score, r.pv)
        };
        pv.insert(0, *mv);
        out.push(RankedMove { mv: *mv, score, pv });
    }
    out.sort_by_key(|r| std::cmp::Reverse(r.score.rank()));
    out
}

/// How a played move compares with the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// As good as the best move, or close.
    Good,
    /// Loses some ground.
    Inaccuracy,
    /// Loses a lot.
    Mistake,
    /// Throws away a win, or walks into a forced loss.
    Blunder,
}

impl Mark {
    /// `?!`, `?`, `??` or nothing.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Good => "",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// One turn of a reviewed game.
#[derive(Clone, Debug)]
pub struct Reviewed {
    /// Index of the turn (from 0).
    pub turn: usize,
    /// The move played.
    pub played: Move,
    /// Its score for the player who made it.
    pub played_score: Score,
    /// The best move found.
    pub best: Move,
    /// The best move's score.
    pub best_score: Score,
    /// The verdict.
    pub mark: Mark,
}

/// The verdict on a move scored `played` when `best` was available.
pub fn judge(played: Score, best: Score) -> Mark {
    match (best, played) {
        (Score::Win(_), Score::Win(_)) => Mark::Good,
        (Score::Win(_), _) => Mark::Blunder,
        (_, Score::Loss(_)) if !matches!(best, Score::Loss(_)) => Mark::Blunder,
        (Score::Value(b), Score::Value(p)) => {
            let loss = b - p;
            if loss >= 150 {
                Mark::Mistake
            } else if loss >= 50 {
                Mark::Inaccuracy
            } else {
                Mark::Good
            }
        }
        _ => Mark::Good,
    }
}

/// Reviews every move of `game` (passes are skipped) with `limits` per position, calling
/// `progress` after each.
pub fn review(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    progress: &mut dyn FnMut(&Reviewed),
) -> Vec<Reviewed> {
    let mut out = Vec::new();
    let mut replay = zertz::Game::from_position(*game.start(), game.rules());
    for (i, turn) in game.turns().iter().enumerate() {
        let Turn::Move(played) = *turn else {
            if let Turn::Pass { bribe } = turn {
                let _ = replay.propose_bribe(*bribe);
                let _ = replay.answer_bribe(true);
            }
            continue;
        };
        let moves = replay.legal_moves();
        let stop = AtomicBool::new(false);
        let search = engine.search(&replay, limits, &stop, &mut |_| {});
        let depth = search.depth.max(1);
        let best = search.best.unwrap_or(played);
        let list: Vec<Move> = if best == played {
            vec![played]
        } else {
            vec![best, played]
        };
        let ranked = rank(engine, &replay, &list, depth);
        let score_of = |m: Move| {
            ranked
                .iter()
                .find(|r| r.mv == m)
                .map(|r| r.score)
                .unwrap_or(search.score)
        };
        let (best_score, played_score) = (score_of(best), score_of(played));
        let mark = if moves.len() == 1 {
            Mark::Good
        } else {
            judge(played_score, best_score)
        };
        let entry = Reviewed {
            turn: i,
            played,
            played_score,
            best,
            best_score,
            mark,
        };
        progress(&entry);
        out.push(entry);
        if replay.play(&played).is_err() {
            break;
        }
    }
    out
}
