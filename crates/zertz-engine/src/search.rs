//! The search: iterative deepening, principal-variation alpha-beta with a transposition table,
//! move ordering (hash move, isolations, killers, history), late-move reductions, and more
//! threads sharing the table (lazy SMP).
//!
//! Depth counts turns, in quarter turns (`ONE_TURN`): a placement or a capture is a turn. Below
//! the horizon captures cost nothing, so a position is never evaluated with a capture pending:
//! the captures are played out first, which is the quiescence search of this game. Two kinds of
//! forcing lines get more than their depth: a forced combination made in the last turn is
//! extended (`SearchOptions::extensions`), and a combination completed at the horizon leaves its
//! victim a turn to answer it (`SearchOptions::answers`).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use zertz::{Game, Move, Position, Repetition};

use crate::eval::{Weights, evaluate, quiet_rings, static_value, tempo_allowance};
use crate::isolation::{Isolation, capture_landings, isolations};
use crate::limits::{Budget, Limits};
use crate::moves::{HISTORY_SLOTS, MoveCode, history_slot};
use crate::score::{Score, WIN};
use crate::tt::{Bound, Entry, TranspositionTable};

/// Depth units per placement turn.
pub const ONE_TURN: i32 = 4;
/// The deepest a search goes, in plies from the root.
pub const MAX_PLY: usize = 96;
/// The deepest iteration, in turns.
pub const MAX_DEPTH: u32 = 30;
/// What a sacrifice at the frontier might set up (isolation chances), beyond the static score.
const SACRIFICE_MARGIN: i32 = 200;
/// Forcing extensions allowed on one line by default.
const DEFAULT_EXTENSIONS: u32 = 1;
/// Answers to a completed combination allowed on one line by default.
const DEFAULT_ANSWERS: u32 = 1;
/// Moves picked one by one before the rest are sorted at once.
const LAZY_PICKS: usize = 6;

/// What the search reports after each iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth of the iteration, in placement turns.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The score of the best line.
    pub score: Score,
    /// Positions searched so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The best line, from the root.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// The depth of the last completed iteration, in turns.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The best line.
    pub pv: Vec<Move>,
    /// Every root move with the score of the last iteration that searched it exactly (for
    /// analysis; moves cut off by the search have a bound only, and are marked so).
    pub root_scores: Vec<(Move, Score, bool)>,
}

/// Search settings that stay the same from move to move.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Evaluation weights.
    pub weights: Weights,
    /// Threads searching together.
    pub threads: usize,
    /// Random noise added to evaluations, up to this many points either way (weaker levels).
    pub eval_noise: i32,
    /// The seed of that noise: the same seed gives the same noise for the same position.
    pub noise_seed: u64,
    /// Depth a sacrifice (a placement that leaves the opponent a capture) costs, in quarter
    /// turns: less than a turn searches forcing lines deeper.
    pub sacrifice_cost: i32,
    /// Depth a capture costs while depth remains, in quarter turns (below the horizon captures
    /// are free: that is the quiescence search). A full turn keeps every line of a given depth
    /// ending with the same player to move; at 0 a sacrifice and its capture cost one turn
    /// together, which gives the sacrificing side an extra placement before the horizon and
    /// the evaluation's side-to-move terms to itself: the engine then "spite-sacrificed" to
    /// push threats out of sight (94% against `classic` at 300,000 nodes a move with a full
    /// turn, 86.5% with 0; docs/strength.md).
    pub capture_cost: i32,
    /// Late-move reductions on or off.
    pub reductions: bool,
    /// Null-move pruning on or off: when even passing keeps the score above beta, the node is
    /// cut after a shallower search (not when a capture is pending or every placement might
    /// give something away).
    pub null_move: bool,
    /// Forcing extensions allowed on one line (0: none). A forced combination made in the last
    /// turn of depth is extended: a sacrifice whose capture is the opponent's only move and
    /// leaves the sacrificer a capture or an isolation that takes marbles (the rulebook's
    /// combination, the threat of an isolation included). The sacrifice and the capture it
    /// forces then cost nothing, so the sacrificer's next turn is searched too and the line
    /// ends, like every other line of that depth, with the opponent to move. Wider rules
    /// (every sacrifice, or extensions away from the last turn) multiplied the tree by 10 to 700
    /// and lost strength (docs/strength.md).
    pub extensions: u32,
    /// Answers to a combination allowed on one line (0: none). A capture that follows the
    /// opponent's capture completes a combination (a sacrifice, its forced capture, the
    /// counter-capture). With a turn of depth to spare the opponent moves after it before the
    /// line ends; in the last turn or below the horizon the line would end there, so a search
    /// could put a combination off behind sacrifices whose captures use up the depth until its
    /// refutation fell past the horizon (the repeated sacrifices of docs/strength.md). Such a
    /// capture therefore leaves the opponent one turn to answer, once a line; the answer stands
    /// pat on the evaluation and searches only isolations and the sacrifices that have a single
    /// capture for a reply.
    pub answers: u32,
}

impl SearchOptions {
    /// Sets a search parameter by name (`threads`, `sacrifice_cost`, `capture_cost`,
    /// `reductions`, `null_move`, `extensions`, `answers`) or an evaluation weight by its name in
    /// the weights file (`single.black.1`, `tempo`…), for experiments from the command line.
    /// Returns false for an unknown name or bad value.
    pub fn set(&mut self, name: &str, value: &str) -> bool {
        match name {
            "threads" => value.parse().map(|v| self.threads = v).is_ok(),
            "sacrifice_cost" => value
                .parse()
                .map(|v: i32| self.sacrifice_cost = v.clamp(0, ONE_TURN))
                .is_ok(),
            "capture_cost" => value
                .parse()
                .map(|v: i32| self.capture_cost = v.clamp(0, ONE_TURN))
                .is_ok(),
            "reductions" => value.parse().map(|v| self.reductions = v).is_ok(),
            "null_move" => value.parse().map(|v| self.null_move = v).is_ok(),
            "extensions" => value
                .parse()
                .map(|v: u32| self.extensions = v.min(MAX_PLY as u32))
                .is_ok(),
            "answers" => value
                .parse()
                .map(|v: u32| self.answers = v.min(MAX_PLY as u32))
                .is_ok(),
            weight => value
                .parse()
                .is_ok_and(|v: i32| self.weights.set(weight, v)),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            weights: Weights::default(),
            threads: 1,
            eval_noise: 0,
            noise_seed: 0,
            sacrifice_cost: ONE_TURN,
            capture_cost: ONE_TURN,
            reductions: true,
            null_move: false,
            extensions: DEFAULT_EXTENSIONS,
            answers: DEFAULT_ANSWERS,
        }
    }
}

/// State shared by the threads of one search.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    /// The caller's flag: set from outside to end the search. Never written here, so that a
    /// caller may run several searches under one flag.
    stop: &'a AtomicBool,
    /// Set by the search itself when a limit is reached or the search is over, to end every
    /// thread.
    halt: AtomicBool,
    nodes: AtomicU64,
    start: Instant,
    budget: Budget,
    node_limit: Option<u64>,
    history: &'a HashSet<u64>,
    repetition: Repetition,
}

impl Shared<'_> {
    fn stopped(&self) -> bool {
        self.halt.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }
}

/// One thread's search.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    weights: &'a Weights,
    noise: (i32, u64),
    sacrifice_cost: i32,
    capture_cost: i32,
    reductions: bool,
    null_move: bool,
    /// Forcing extensions allowed on one line, and how many the current line has used.
    max_extensions: u32,
    extended: u32,
    /// Answers to a combination allowed on one line, and how many the current line has used.
    max_answers: u32,
    answered: u32,
    /// Plies reached by a capture (the move that led to the position at that ply).
    after_capture: [bool; MAX_PLY + 1],
    /// Plies where the player to move answers a completed combination.
    answer_at: [bool; MAX_PLY + 1],
    /// Plies reached by a null move (no two in a row).
    null_at: [bool; MAX_PLY + 1],
    main: bool,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    history: Vec<i32>,
    killers: [[MoveCode; 2]; MAX_PLY],
    pv: Vec<Vec<Move>>,
    path: Vec<u64>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i64>>,
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score + ply as i32
    } else if score < -(WIN - 1000) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score - ply as i32
    } else if score < -(WIN - 1000) {
        score + ply as i32
    } else {
        score
    }
}

/// True when `position` (a capture pending, after a sacrifice) is a forced combination: the
/// opponent has exactly one capture to make, and after it the sacrificer has a capture or an
/// isolation that takes marbles already on the board. These are the sacrifices of the rulebook's combinations; they are rare
/// enough to search deeper.
fn combination(position: &Position) -> bool {
    let replies = position.legal_moves();
    let [reply] = replies.as_slice() else {
        return false;
    };
    let mut after = position.clone();
    after.play_unchecked(reply);
    let occupied = after.occupied();
    after.winner_by_captures().is_none()
        && (after.has_capture()
            || isolations(&after)
                .iter()
                .any(|iso| iso.group & occupied != 0))
}

/// What a move does to the depth of the line (see `Worker::depth_after`).
struct Step {
    /// The depth left for the position after the move.
    depth: i32,
    /// The move is an extended sacrifice (counted on the line while it is searched).
    extended: bool,
    /// The move is a capture that completes a combination and leaves the opponent a turn to
    /// answer it (counted on the line while it is searched).
    answered: bool,
    /// The move is a sacrifice: a placement that leaves the opponent a capture.
    forcing: bool,
}

/// Does `mv` make one of the isolations? Returns the rings it takes (0 if none).
fn isolating(mv: &Move, isos: &[Isolation]) -> u64 {
    let Move::Place(p) = mv else { return 0 };
    let at = p.at.index() as u8;
    let remove = p.remove.map(|r| r.index() as u8);
    let mut taken = 0;
    for iso in isos {
        let removal_ok = iso.remove.is_none() || iso.remove == remove;
        let fill_ok = match iso.fill {
            Some(f) => f == at,
            None => iso.group & (1 << at) == 0,
        };
        if removal_ok && fill_ok {
            taken |= iso.group;
        }
    }
    taken
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, options: &'a SearchOptions, main: bool) -> Worker<'a> {
        Worker {
            shared,
            weights: &options.weights,
            noise: (options.eval_noise, options.noise_seed),
            sacrifice_cost: options.sacrifice_cost,
            capture_cost: options.capture_cost,
            reductions: options.reductions,
            null_move: options.null_move,
            max_extensions: options.extensions,
            extended: 0,
            max_answers: options.answers,
            answered: 0,
            after_capture: [false; MAX_PLY + 1],
            answer_at: [false; MAX_PLY + 1],
            null_at: [false; MAX_PLY + 1],
            main,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            history: vec![0; HISTORY_SLOTS],
            killers: [[MoveCode::NONE; 2]; MAX_PLY],
            pv: vec![Vec::new(); MAX_PLY + 1],
            path: Vec::with_capacity(MAX_PLY),
            moves: vec![Vec::new(); MAX_PLY + 1],
            scores: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// The evaluation, with the level's noise if any.
    fn eval(&self, position: &Position) -> i32 {
        let e = evaluate(self.weights, position);
        let (noise, seed) = self.noise;
        if noise == 0 {
            return e;
        }
        let mut z = position.hash() ^ seed;
        z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        z ^= z >> 33;
        e + (z % (2 * noise as u64 + 1)) as i32 - noise
    }

    /// Counts a node, checks the clock every 64 nodes (the main thread) and the node limit every
    /// 1024. A node can cost far more than the average (a thousand placements to generate,
    /// order and filter near the root): 1024 of those took over 50 ms, which overran a
    /// 100 ms move by half; 64 keep the overrun to a few milliseconds, and reading the clock that
    /// often costs well under 1% of the search.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.main
            && self.nodes & 63 == 0
            && self.shared.start.elapsed() >= self.shared.budget.hard
        {
            self.shared.halt.store(true, Ordering::Relaxed);
        }
        if self.nodes & 1023 == 0 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
                + (self.nodes - self.flushed);
            self.flushed = self.nodes;
            if let Some(limit) = self.shared.node_limit
                && total >= limit
            {
                self.shared.halt.store(true, Ordering::Relaxed);
            }
        }
        self.shared.stopped()
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// True when the position repeats one of the game or of the current line.
    fn repeated(&self, position: &Position) -> bool {
        // Positions can only repeat once the supply is empty.
        position.supply().is_empty()
            && (self.path.contains(&position.hash())
                || self.shared.history.contains(&position.hash()))
    }

    /// Scores moves for ordering: hash move, captures by length, isolations by rings taken,
    /// killers, then history.
    fn order_scores(
        &self,
        moves: &[Move],
        isos: &[Isolation],
        tt_move: MoveCode,
        ply: usize,
        scores: &mut Vec<i64>,
    ) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        scores.clear();
        scores.extend(moves.iter().map(|m| {
            let code = MoveCode::of(m);
            if code == tt_move {
                return 1 << 40;
            }
            let h = self.history[history_slot(m)] as i64;
            match m {
                Move::Capture(c) => (1 << 32) + (c.len() as i64) * 10_000 + h,
                Move::Place(_) => {
                    let taken = isolating(m, isos);
                    if taken != 0 {
                        (1 << 34) + (taken.count_ones() as i64) * 10_000
                    } else if code == killers[0] {
                        1 << 30
                    } else if code == killers[1] {
                        (1 << 30) - 1
                    } else {
                        h
                    }
                }
            }
        }));
    }

    fn reward(&mut self, mv: &Move, depth: i32, ply: usize, tried: &[Move]) {
        let bonus = (depth * depth / 4).min(400);
        let slot = history_slot(mv);
        let h = &mut self.history[slot];
        *h += bonus - *h * bonus / 16_384;
        for other in tried {
            if other != mv {
                let h = &mut self.history[history_slot(other)];
                *h -= bonus + *h * bonus / 16_384;
            }
        }
        if let Move::Place(_) = mv {
            let code = MoveCode::of(mv);
            let k = &mut self.killers[ply.min(MAX_PLY - 1)];
            if k[0] != code {
                k[1] = k[0];
                k[0] = code;
            }
        }
    }

    /// The depth a move costs: a placement a turn (a sacrifice `sacrifice_cost`), a capture
    /// `capture_cost` while depth remains and nothing below the horizon (quiescence).
    fn cost(&self, mv: &Move, forcing: bool, depth: i32) -> i32 {
        if mv.is_capture() {
            if depth > 0 { self.capture_cost } else { 0 }
        } else if forcing {
            self.sacrifice_cost
        } else {
            ONE_TURN
        }
    }

    /// Whether the placement that led to `child` (`forcing`: it left the opponent a capture) is
    /// extended: a forced [`combination`] made in the last turn of depth, while the line has
    /// extensions left.
    fn extends(&self, child: &Position, forcing: bool, depth: i32) -> bool {
        forcing
            && depth > 0
            && depth <= ONE_TURN
            && self.extended < self.max_extensions
            && combination(child)
    }

    /// The depth left after `mv` (played at `ply`, giving `child`). An extended sacrifice hands
    /// the capture it forces the depth that capture will cost, so the sacrificer moves again
    /// with the depth it had: the pair costs nothing and every line of a depth still ends with
    /// the same player to move. A capture that completes a combination leaves the opponent a
    /// turn to answer it, if the line has an answer left (`SearchOptions::answers`).
    fn depth_after(&self, mv: &Move, child: &Position, depth: i32, ply: usize) -> Step {
        let forcing = !mv.is_capture() && child.has_capture();
        if self.extends(child, forcing, depth) {
            return Step {
                depth: depth + self.capture_cost,
                extended: true,
                answered: false,
                forcing,
            };
        }
        let left = depth - self.cost(mv, forcing, depth);
        let answered = mv.is_capture()
            && self.after_capture[ply]
            && left < ONE_TURN
            && self.answered < self.max_answers;
        Step {
            depth: if answered { ONE_TURN } else { left },
            extended: false,
            answered,
            forcing,
        }
    }

    /// Starts searching the move of `step` (`mv`, played at `ply`): counts its extension and
    /// answer on the current line and marks what the next ply was reached by.
    fn enter(&mut self, step: &Step, mv: &Move, ply: usize) {
        self.extended += step.extended as u32;
        self.answered += step.answered as u32;
        self.after_capture[ply + 1] = mv.is_capture();
        self.answer_at[ply + 1] = step.answered;
    }

    /// Ends searching the move of `step`: uncounts what [`Worker::enter`] counted.
    fn leave(&mut self, step: &Step) {
        self.extended -= step.extended as u32;
        self.answered -= step.answered as u32;
    }

    /// Negamax alpha-beta with principal variation search. `depth` in quarter turns.
    fn search(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(winner) = position.winner_by_captures() {
            let score = WIN - ply as i32;
            return if winner == position.to_move() {
                score
            } else {
                -score
            };
        }
        if ply > 0 && self.repeated(position) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.eval(position);
        }
        let capture_pending = position.has_capture();
        if depth <= 0 && !capture_pending {
            return self.eval(position);
        }

        let key = position.hash();
        let mut tt_move = MoveCode::NONE;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        if self.null_move
            && !pv_node
            && !capture_pending
            && ply > 0
            && depth >= 2 * ONE_TURN
            && !self.null_at[ply]
            && beta.abs() < WIN - 1000
            && self.noise.0 == 0
            && !position.supply().is_empty()
            && quiet_rings(position) > 0
            && self.eval(position) >= beta
        {
            // Passing is not a move in ZÈRTZ, but while a quiet ring is left a player can
            // nearly always move without loss: if the opponent cannot reach beta even with a
            // free turn, the real moves will not let them either.
            if let Ok(null) = position.pass_with_bribe(zertz::Marbles::default()) {
                let reduction = if depth >= 4 * ONE_TURN {
                    2 * ONE_TURN
                } else {
                    ONE_TURN
                };
                self.null_at[ply + 1] = true;
                self.after_capture[ply + 1] = false;
                self.answer_at[ply + 1] = false;
                let score = -self.search(
                    &null,
                    depth - ONE_TURN - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                );
                self.null_at[ply + 1] = false;
                if self.shared.stopped() {
                    return 0;
                }
                if score >= beta {
                    return beta;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        position.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return -(WIN - ply as i32);
        }
        let isos = if moves[0].is_capture() {
            Vec::new()
        } else {
            isolations(position)
        };

        // At the frontier, a placement that neither isolates nor gives the opponent a capture
        // changes neither player's captures: the position after it is worth at most the static
        // score (without this side's isolation chances) less twice the tempo. When that cannot
        // reach alpha, such placements all fail low and are skipped; sacrifices and isolations
        // are still searched.
        // A sacrifice at the frontier hands the opponent a marble; only this side's isolation
        // chances afterwards could make up for it: they are pruned too when even a generous
        // allowance for those cannot reach alpha.
        let frontier = !pv_node && !capture_pending && depth <= ONE_TURN && self.noise.0 == 0;
        let bound = if frontier {
            static_value(self.weights, position) - 2 * self.weights.tempo
                + tempo_allowance(self.weights, position)
        } else {
            0
        };
        // The answer to a completed combination searches only what could change the material
        // at once (isolations, and sacrifices that are combinations themselves); any other
        // placement is taken to keep the static evaluation (standing pat), as in the
        // quiescence search of other games.
        let answer = self.answer_at[ply] && !capture_pending;
        let stand_pat = if answer {
            let e = self.eval(position);
            if e >= beta {
                self.moves[ply] = moves;
                return e;
            }
            alpha = alpha.max(e);
            e
        } else {
            -WIN - 1
        };
        let frontier_futile = (frontier && bound <= alpha) || answer;
        let sacrifices_futile = frontier && bound + SACRIFICE_MARGIN <= alpha && !answer;
        if frontier_futile {
            // Where a capture would land after a placement on each ring (0: none), computed
            // once per ring rather than once per move.
            let mut landings = [0u64; 64];
            if !sacrifices_futile {
                let layout = position.layout();
                for at in zertz::Bits(position.empty()) {
                    if let Some(place) = layout.place_at_index(at as usize) {
                        landings[at as usize] = capture_landings(position, place);
                    }
                }
            }
            moves.retain(|m| match m {
                Move::Place(p) => {
                    let removed = p.remove.map_or(0, |r| r.bit());
                    let sacrifice = landings[p.at.index()] & !removed != 0
                        && (!answer || {
                            // An answer's sacrifices: those the opponent has one way to take.
                            let mut after = position.clone();
                            after.play_unchecked(m);
                            after.legal_moves().len() == 1
                        });
                    sacrifice || MoveCode::of(m) == tt_move || isolating(m, &isos) != 0
                }
                Move::Capture(_) => true,
            });
            if moves.is_empty() {
                // Every placement fails low: the bound is the static one (or the standing pat).
                self.moves[ply] = moves;
                return alpha;
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order_scores(&moves, &isos, tt_move, ply, &mut scores);

        let original_alpha = alpha;
        let mut best = stand_pat;
        let mut best_move = None;
        let mut searched = 0usize;
        self.path.push(key);
        // One buffer for every move: `clone_from` copies the state and leaves the layout (no
        // reference counted per node on a custom board).
        let mut child = position.clone();
        for i in 0..moves.len() {
            if i < LAZY_PICKS {
                // Lazy selection: cut-offs usually come among the first few moves.
                let mut top = i;
                for j in i + 1..moves.len() {
                    if scores[j] > scores[top] {
                        top = j;
                    }
                }
                moves.swap(i, top);
                scores.swap(i, top);
            } else if i == LAZY_PICKS {
                // No cut-off yet: sort the rest once.
                let mut rest: Vec<(i64, Move)> = scores[i..]
                    .iter()
                    .copied()
                    .zip(moves[i..].iter().copied())
                    .collect();
                rest.sort_by_key(|r| std::cmp::Reverse(r.0));
                for (k, (sc, m)) in rest.into_iter().enumerate() {
                    scores[i + k] = sc;
                    moves[i + k] = m;
                }
            }
            let mv = &moves[i];
            child.clone_from(position);
            child.play_unchecked(mv);
            if self.shared.repetition == Repetition::Forbidden && self.repeated(&child) {
                continue;
            }
            let step = self.depth_after(mv, &child, depth, ply);
            let (new_depth, forcing) = (step.depth, step.forcing);
            self.enter(&step, mv, ply);
            // Late quiet placements are searched shallower first.
            let quiet = !mv.is_capture() && !forcing && scores[i] < (1 << 30) - 1;
            let mut reduction = 0;
            if self.reductions && quiet && depth >= 2 * ONE_TURN && searched >= 3 {
                reduction = if searched >= 12 && depth >= 3 * ONE_TURN {
                    2 * ONE_TURN
                } else {
                    ONE_TURN
                };
                if pv_node {
                    reduction -= ONE_TURN / 2;
                }
            }
            let mut score;
            if searched == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1);
            } else {
                score = -self.search(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && reduction > 0 {
                    score = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.leave(&step);
            searched += 1;
            if self.shared.stopped() {
                self.path.pop();
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(*mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(*mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !mv.is_capture() {
                            let tried: Vec<Move> = moves[..i]
                                .iter()
                                .filter(|m| !m.is_capture())
                                .copied()
                                .collect();
                            self.reward(mv, depth, ply, &tried);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if searched == 0 && !answer {
            // Every move repeats under the no-repetition rule: no legal move.
            return -(WIN - ply as i32);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move
                    .map(|m| MoveCode::of(&m))
                    .unwrap_or(MoveCode::NONE),
                score: to_tt(best, ply),
                // An answer is not a full search of its depth.
                depth: if answer { 0 } else { depth },
                bound,
            },
        );
        best
    }
}

/// Turns a raw score into a [`Score`].
pub fn score_of(raw: i32) -> Score {
    if raw > WIN - 1000 {
        Score::Win(((WIN - raw) as u32).div_ceil(2))
    } else if raw < -(WIN - 1000) {
        Score::Loss(((WIN + raw) as u32).div_ceil(2))
    } else {
        Score::Value(raw)
    }
}

/// Searches `game`'s position within `limits`, calling `report` after each completed iteration
/// (from the main thread). `stop` ends the search early when set by another thread.
pub fn search(
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    tt: &Arc<TranspositionTable>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = limits.asked.unwrap_or_else(Instant::now);
    // On a custom board, each search thread holds a copy of the layout of its own: a position
    // cloned at every node then counts references that no other thread (nor another search on
    // the same board) touches. Free on an official board.
    let root = game.position().with_private_layout();
    let root_moves = game.legal_moves();
    let budget = limits.budget(root.to_move());
    let history: HashSet<u64> = game.positions()[..game.positions().len() - 1]
        .iter()
        .map(|p| p.hash())
        .collect();
    tt.new_search();
    let shared = Shared {
        tt,
        stop,
        halt: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        start,
        budget,
        node_limit: limits.nodes,
        history: &history,
        repetition: game.rules().repetition,
    };
    let mut result = SearchResult {
        best: root_moves.first().copied(),
        score: Score::Value(0),
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: root_moves.first().copied().into_iter().collect(),
        root_scores: Vec::new(),
    };
    if root_moves.is_empty() {
        return result;
    }
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    // A capture at the root that follows a capture completes a combination.
    let last_was_capture =
        matches!(game.turns().last(), Some(zertz::Turn::Move(m)) if m.is_capture());
    // Under a time per move and nothing else, the whole time is thought ("think this long"),
    // even with one legal move or a proven result: the deeper search of the only move, or of
    // the won line, fills the table for the next move, which is what a fixed time per move is
    // for. A clock keeps the time such a move does not need (and a depth or node limit has
    // its own end).
    let spend_all = limits.movetime.is_some()
        && limits.clock.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && !limits.infinite;
    let single_reply = root_moves.len() == 1
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && !limits.infinite
        && !spend_all;

    // Dropped when the search is over, which wakes the alarm below before its time.
    let (over, alarm_off) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let deadline = (!limits.infinite && (limits.movetime.is_some() || limits.clock.is_some()))
            .then(|| start.checked_add(budget.hard))
            .flatten();
        if let Some(deadline) = deadline {
            // The alarm: the threads read the clock only every 64 nodes, and 64 nodes can take
            // tens of milliseconds (a thousand placements each to generate and order), so the
            // hard limit is also kept by a thread that only waits for it. What it sets is read
            // at every node.
            let shared = &shared;
            scope.spawn(move || {
                let left = deadline.saturating_duration_since(Instant::now());
                if let Err(RecvTimeoutError::Timeout) = alarm_off.recv_timeout(left) {
                    shared.halt.store(true, Ordering::Relaxed);
                }
            });
        }
        for t in 1..options.threads.max(1) {
            let shared = &shared;
            let root_moves = root_moves.clone();
            let root = root.with_private_layout();
            scope.spawn(move || {
                let mut worker = Worker::new(shared, options, false);
                worker.after_capture[0] = last_was_capture;
                let mut moves = root_moves;
                for d in 1..=max_depth {
                    // Helpers start one turn deeper every other thread, to spread the work.
                    let depth = (d + (t as u32 % 2)).min(MAX_DEPTH);
                    root_iteration(
                        &mut worker,
                        &root,
                        &mut moves,
                        depth as i32 * ONE_TURN,
                        None,
                    );
                    if shared.stopped() {
                        break;
                    }
                }
                worker.flush();
            });
        }
        let mut worker = Worker::new(&shared, options, true);
        worker.after_capture[0] = last_was_capture;
        let mut moves = root_moves.clone();
        let mut last_score = 0;
        for depth in 1..=max_depth {
            worker.seldepth = 0;
            let mut exact: Vec<(Move, i32, bool)> = Vec::new();
            let done = root_iteration(
                &mut worker,
                &root,
                &mut moves,
                depth as i32 * ONE_TURN,
                Some(&mut exact),
            );
            worker.flush();
            let Some((best, score, complete)) = done else {
                break;
            };
            result.best = Some(best);
            result.score = score_of(score);
            result.pv = worker.pv[0].clone();
            if result.pv.first() != Some(&best) {
                result.pv = vec![best];
            }
            if !complete {
                // Stopped inside the iteration, after its first move (the best so far) was
                // searched to the new depth: the best of the moves it finished is played.
                break;
            }
            result.depth = depth;
            result.root_scores = exact.iter().map(|&(m, s, e)| (m, score_of(s), e)).collect();
            let info = Info {
                depth,
                seldepth: worker.seldepth as u32,
                score: result.score,
                nodes: shared.nodes.load(Ordering::Relaxed),
                time: start.elapsed(),
                pv: result.pv.clone(),
            };
            report(&info);
            if single_reply {
                break;
            }
            // A forced win is a proof (win scores come only from lines where every defence was
            // searched to the end): play it. A forced loss found twice in a row will not change.
            if score > WIN - 1000 && !limits.infinite && !spend_all {
                break;
            }
            if score.abs() > WIN - 1000 && last_score == score && depth > 1 && !spend_all {
                break;
            }
            last_score = score;
            if !limits.infinite && start.elapsed() >= budget.soft {
                break;
            }
        }
        shared.halt.store(true, Ordering::Relaxed);
        drop(over);
    });
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result.time = start.elapsed();
    result
}

/// Searches every root move at `depth`; moves are re-sorted best first. Returns the best move,
/// its score and whether the iteration completed. A stopped iteration returns the best of the
/// moves it finished, provided it finished the first (the previous iteration's best, or any
/// move in the first iteration): a later move counts only once its search ended with an exact
/// score above the first's, so it is better at this depth. Otherwise `None`.
fn root_iteration(
    worker: &mut Worker,
    root: &Position,
    moves: &mut [Move],
    depth: i32,
    mut exact: Option<&mut Vec<(Move, i32, bool)>>,
) -> Option<(Move, i32, bool)> {
    let mut alpha = -WIN - 1;
    let beta = WIN + 1;
    let mut best: Option<(Move, i32)> = None;
    let mut scored: Vec<(Move, i32)> = Vec::with_capacity(moves.len());
    worker.path.push(root.hash());
    for (i, mv) in moves.iter().enumerate() {
        let mut child = root.clone();
        child.play_unchecked(mv);
        let step = worker.depth_after(mv, &child, depth, 0);
        let new_depth = step.depth;
        worker.enter(&step, mv, 0);
        let score = if i == 0 {
            -worker.search(&child, new_depth, -beta, -alpha, 1)
        } else {
            let s = -worker.search(&child, new_depth, -alpha - 1, -alpha, 1);
            if s > alpha && !worker.shared.stopped() {
                -worker.search(&child, new_depth, -beta, -alpha, 1)
            } else {
                s
            }
        };
        worker.leave(&step);
        if worker.shared.stopped() {
            break;
        }
        scored.push((*mv, score));
        if let Some(list) = exact.as_deref_mut() {
            list.push((*mv, score, score > alpha || i == 0));
        }
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((*mv, score));
            let (head, tail) = worker.pv.split_at_mut(1);
            head[0].clear();
            head[0].push(*mv);
            head[0].extend_from_slice(&tail[0]);
            alpha = alpha.max(score);
        }
    }
    worker.path.pop();
    let complete = scored.len() == moves.len();
    // Best moves first for the next iteration; unsearched moves keep their order after them
    // (the searched ones are exactly the first `scored.len()` of the list).
    let count = scored.len();
    let mut sorted = scored.clone();
    sorted.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (slot, (m, _)) in moves.iter_mut().zip(sorted) {
        *slot = m;
    }
    debug_assert!(count <= moves.len());
    if !complete {
        // Only finished searches were scored, and a move after the first is scored above it
        // only by a full-window search that ended (a null-window fail high alone is not
        // enough: its re-search was stopped, so it was not scored).
        return best.map(|(m, s)| (m, s, false));
    }
    {
        if let Some((m, s)) = best {
            worker.shared.tt.store(
                root.hash(),
                Entry {
                    mv: MoveCode::of(&m),
                    score: s,
                    depth,
                    bound: Bound::Exact,
                },
            );
        }
        best.map(|(m, s)| (m, s, true))
    }
}
