//! Analysis: the top moves of a position with their scores (the review of a whole game is in
//! [`crate::review`]).
//!
//! An analysis is several searches: the main one, then one per move it scores. The time and
//! nodes it is given are for all of them together (the main search gets half, the moves share
//! the rest as it comes), so that `--time 1000` takes about a second, not a second and then
//! as long as the top moves' searches happen to take.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use zertz::{Game, Move};

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

/// What is left of an analysis's time and nodes, shared out among its searches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Allowance {
    /// When the whole analysis must be over (`None`: no time limit).
    deadline: Option<Instant>,
    /// Nodes left (`None`: no node limit).
    nodes: Option<u64>,
}

impl Allowance {
    /// No limit: the searches of the moves go to their depth.
    const UNLIMITED: Allowance = Allowance {
        deadline: None,
        nodes: None,
    };

    /// Splits `limits` between a main search, which gets half the time and half the nodes
    /// (and any depth or clock as given), and what is kept for the searches after it.
    pub(crate) fn split(limits: &Limits) -> (Limits, Allowance) {
        let mut main = limits.clone();
        main.movetime = limits
            .movetime
            .map(|t| (t / 2).max(Duration::from_millis(1)));
        main.nodes = limits.nodes.map(|n| (n / 2).max(1));
        let allowance = Allowance {
            deadline: limits.movetime.map(|t| Instant::now() + t),
            nodes: limits.nodes,
        };
        (main, allowance)
    }

    /// Takes `nodes` searched off what is left.
    pub(crate) fn spend(&mut self, nodes: u64) {
        if let Some(left) = &mut self.nodes {
            *left = left.saturating_sub(nodes);
        }
    }

    /// The limits of the next of `searches` searches still to come, each `depth` turns deep
    /// at most: an equal share of the time and nodes left (never nothing: a search always
    /// gets at least its first move scored).
    fn share(&self, depth: u32, searches: usize) -> Limits {
        let searches = searches.max(1) as u32;
        Limits {
            depth: Some(depth),
            nodes: self.nodes.map(|n| (n / u64::from(searches)).max(1)),
            movetime: self.deadline.map(|d| {
                (d.saturating_duration_since(Instant::now()) / searches)
                    .max(Duration::from_millis(1))
            }),
            ..Limits::default()
        }
    }
}

/// Searches `game`'s position and then scores its `count` most promising moves one by one,
/// all within `limits` (see the module's introduction).
pub fn analyse_position(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    count: usize,
    report: &mut dyn FnMut(&Info),
) -> PositionAnalysis {
    let stop = AtomicBool::new(false);
    let (mut main, mut allowance) = Allowance::split(limits);
    // In play, a position with one legal move is answered after one iteration; an analysis
    // searches it as deep as its time allows, so that its evaluation and its line agree with
    // the move's own score (a one-iteration evaluation could even have the other sign).
    if main.depth.is_none() {
        main.depth = Some(crate::search::MAX_DEPTH);
    }
    let search = engine.search(game, &main, &stop, report);
    allowance.spend(search.nodes);
    let mut candidates: Vec<Move> = search.root_scores.iter().map(|(m, _, _)| *m).collect();
    // The main search orders its root moves best first; the best move leads.
    if let Some(best) = search.best {
        candidates.retain(|m| *m != best);
        candidates.insert(0, best);
    }
    candidates.truncate(count.max(1));
    let depth = search.depth.max(1);
    let (top, _) = rank_within(engine, game, &candidates, depth, allowance, &stop);
    PositionAnalysis { search, top }
}

/// Scores each move of `moves` with a search of the position after it, `depth` turns deep in
/// all (one less below the move when it is a placement).
pub fn rank(engine: &Engine, game: &Game, moves: &[Move], depth: u32) -> Vec<RankedMove> {
    let never = AtomicBool::new(false);
    rank_within(engine, game, moves, depth, Allowance::UNLIMITED, &never).0
}

/// [`rank`], the searches sharing `allowance` (a search cut short scores its move from the
/// depth it reached) and ending early when `stop` is set; also gives the nodes searched.
pub(crate) fn rank_within(
    engine: &Engine,
    game: &Game,
    moves: &[Move],
    depth: u32,
    mut allowance: Allowance,
    stop: &AtomicBool,
) -> (Vec<RankedMove>, u64) {
    let mut out = Vec::new();
    let mut searched = 0;
    for (i, mv) in moves.iter().enumerate() {
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
            let limits = allowance.share(below, moves.len() - i);
            let r = engine.search(&child, &limits, stop, &mut |_| {});
            allowance.spend(r.nodes);
            searched += r.nodes;
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
    (out, searched)
}

/// The best lines of a position at one depth, as [`lines`] reports them.
#[derive(Clone, Debug)]
pub struct Lines {
    /// The depth, in placement turns.
    pub depth: u32,
    /// Positions searched so far, all depths together.
    pub nodes: u64,
    /// Time since the analysis started.
    pub time: Duration,
    /// The best moves, best first, each scored by its own search at this depth.
    pub lines: Vec<RankedMove>,
}

/// Analyses `game`'s position deeper and deeper (depth 1, 2, …, up to `limits.depth` or the
/// search's limit), reporting its `count` best moves, each scored by its own search, after each
/// depth: the live lines of an analysis board. Ends when `stop` is set, the time or nodes of
/// `limits` are spent (a depth left unfinished is not reported), or the position is over.
/// Returns the last lines reported.
pub fn lines(
    engine: &Engine,
    game: &Game,
    count: usize,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Lines),
) -> Option<Lines> {
    let started = Instant::now();
    let deadline = limits.movetime.map(|t| started + t);
    let max_depth = limits.depth.unwrap_or(crate::search::MAX_DEPTH);
    let mut spent = 0u64;
    let mut last = None;
    if game.is_over() || game.legal_moves().is_empty() {
        return None;
    }
    for depth in 1..=max_depth {
        let left = |at: Instant| deadline.map(|d| d.saturating_duration_since(at));
        if left(Instant::now()).is_some_and(|t| t.is_zero())
            || limits.nodes.is_some_and(|n| spent >= n)
            || stop.load(std::sync::atomic::Ordering::Relaxed)
        {
            break;
        }
        let allowance = Allowance {
            deadline,
            nodes: limits.nodes.map(|n| n.saturating_sub(spent)),
        };
        let main = Limits {
            depth: Some(depth),
            movetime: left(Instant::now()),
            nodes: allowance.nodes,
            ..Limits::default()
        };
        let search = engine.search(game, &main, stop, &mut |_| {});
        spent += search.nodes;
        if search.depth < depth {
            break; // cut short: this depth is not finished
        }
        let mut candidates: Vec<Move> = search.root_scores.iter().map(|(m, _, _)| *m).collect();
        if let Some(best) = search.best {
            candidates.retain(|m| *m != best);
            candidates.insert(0, best);
        }
        candidates.truncate(count.max(1));
        let allowance = Allowance {
            deadline,
            nodes: limits.nodes.map(|n| n.saturating_sub(spent)),
        };
        let (ranked, searched) = rank_within(engine, game, &candidates, depth, allowance, stop);
        spent += searched;
        let cut = stop.load(std::sync::atomic::Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d);
        if cut || ranked.len() < candidates.len() {
            break;
        }
        let found = Lines {
            depth,
            nodes: spent,
            time: started.elapsed(),
            lines: ranked,
        };
        report(&found);
        let decided = found
            .lines
            .first()
            .is_some_and(|l| !matches!(l.score, Score::Value(_)));
        last = Some(found);
        if decided && depth > 1 {
            // A forced result at this depth stays one at every depth after it.
            break;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchOptions;

    #[test]
    fn the_main_search_gets_half_and_the_moves_share_the_rest() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            nodes: Some(10_000),
            depth: Some(4),
            ..Limits::default()
        };
        let (main, mut left) = Allowance::split(&limits);
        assert_eq!(main.movetime, Some(Duration::from_millis(500)));
        assert_eq!((main.nodes, main.depth), (Some(5000), Some(4)));
        left.spend(6000);
        let first = left.share(3, 4);
        assert_eq!((first.nodes, first.depth), (Some(1000), Some(3)));
        let time = first.movetime.unwrap();
        assert!(time <= Duration::from_millis(250) && time > Duration::from_millis(200));
        // Overspent: every search still gets the least there is.
        left.spend(1_000_000);
        let last = left.share(3, 2);
        assert_eq!(last.nodes, Some(1));
        // Without limits the moves are searched to their depth only.
        let (main, left) = Allowance::split(&Limits::depth(2));
        assert_eq!(main, Limits::depth(2));
        assert_eq!(left.share(2, 3), Limits::depth(2));
    }

    #[test]
    fn a_winning_capture_leads_the_top_moves() {
        // Player 1 holds three white marbles: taking the white one on d2 wins; taking the grey
        // one on f2 does not.
        let position: zertz::Position =
            "37 standard ..../...../....../WW...../....../GG.../.... 1/6/10 3/0/0 0/0/0 1"
                .parse()
                .unwrap();
        let game = Game::from_position(position.clone(), zertz::Rules::default());
        let engine = Engine::new(SearchOptions::default(), 1);
        let a = analyse_position(&engine, &game, &Limits::nodes(2000), 5, &mut |_| {});
        assert_eq!(a.search.score, Score::Win(1));
        assert_eq!(a.top.len(), game.legal_moves().len());
        assert_eq!(a.top.len(), 2);
        assert_eq!(a.top[0].score, Score::Win(1));
        assert_eq!(Some(a.top[0].mv), a.search.best);
        let after = position.play(&a.top[0].mv).unwrap();
        assert_eq!(after.winner_by_captures(), Some(zertz::Player::One));
        assert!(matches!(a.top[1].score, Score::Value(_)), "{:?}", a.top[1]);
    }

    /// The position of a random game where player 1 has a single legal move (a capture): in
    /// play it is answered after one iteration (+101), deeper the capture scores -28. An
    /// analysis with a time limit must not print the one-iteration evaluation beside the
    /// deeper line: both come from the full search.
    #[test]
    fn a_single_legal_move_is_analysed_as_deep_as_any() {
        let position: zertz::Position =
            "37 standard -W.-/...B./....../......./-...W./....G/-... 4/7/9 0/0/0 0/0/0 1"
                .parse()
                .unwrap();
        let game = Game::from_position(position, zertz::Rules::default());
        assert_eq!(game.legal_moves().len(), 1);
        let engine = Engine::new(SearchOptions::default(), 4);
        let limits = Limits::movetime(Duration::from_millis(300));
        let a = analyse_position(&engine, &game, &limits, 3, &mut |_| {});
        assert!(a.search.depth > 1, "depth {}", a.search.depth);
        let (eval, top) = (a.search.score.rank(), a.top[0].score.rank());
        assert_eq!(
            eval.signum(),
            top.signum(),
            "evaluation {} but the move scores {}",
            a.search.score,
            a.top[0].score
        );
    }

    #[test]
    fn live_lines_deepen_one_depth_at_a_time_and_stop_when_told() {
        let engine = Engine::new(SearchOptions::default(), 16);
        let game = Game::new(zertz::Layout::standard(), zertz::Rules::default());
        let never = AtomicBool::new(false);
        let mut depths = Vec::new();
        let last = lines(&engine, &game, 3, &Limits::depth(2), &never, &mut |l| {
            assert_eq!(l.lines.len(), 3);
            assert!(
                l.lines
                    .windows(2)
                    .all(|w| w[0].score.rank() >= w[1].score.rank())
            );
            assert!(l.lines.iter().all(|r| r.pv.first() == Some(&r.mv)));
            depths.push(l.depth);
        })
        .unwrap();
        assert_eq!(depths, [1, 2]);
        assert_eq!(last.depth, 2);
        // Stopped after the first depth: nothing deeper is reported.
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        lines(&engine, &game, 3, &Limits::depth(6), &stop, &mut |l| {
            seen.push(l.depth);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(seen, [1]);
    }

    #[test]
    fn live_lines_find_a_forced_win_and_stop_there() {
        let position: zertz::Position =
            "37 standard ..../...../....../WW...../....../GG.../.... 1/6/10 3/0/0 0/0/0 1"
                .parse()
                .unwrap();
        let game = Game::from_position(position.clone(), zertz::Rules::default());
        let engine = Engine::new(SearchOptions::default(), 16);
        let never = AtomicBool::new(false);
        let last = lines(&engine, &game, 2, &Limits::depth(8), &never, &mut |_| {}).unwrap();
        assert_eq!(last.lines[0].score, Score::Win(1));
        assert!(last.depth <= 2, "stopped at depth {}", last.depth);
        let finished = Game::from_position(
            position.play(&last.lines[0].mv).unwrap(),
            zertz::Rules::default(),
        );
        assert!(
            lines(
                &engine,
                &finished,
                2,
                &Limits::depth(2),
                &never,
                &mut |_| {}
            )
            .is_none()
        );
    }
}
