//! Matches between players: openings from random first plies, each played twice with the
//! players swapped, games in parallel, every move checked by the rules library, and the
//! statistics to read the result (score, Elo difference with error bars, SPRT).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use zertz::{Game, Layout, LayoutRef, Move, Outcome, Player as Side, RuleSet, Rules};

use crate::limits::{Clock, Limits};
use crate::players::{Rng, Think};

/// One side of a match: something that can choose moves. Built once per game thread.
pub trait Contestant: Send {
    /// A name for reports and records.
    fn name(&self) -> String;
    /// Called before each game.
    fn new_game(&mut self, game: &Game);
    /// The move to play now, or an error message (a crash, a timeout, a protocol error).
    fn choose(&mut self, game: &Game, think: &Think) -> Result<Move, String>;
    /// The positions searched for the move [`Contestant::choose`] last chose, when the
    /// contestant reports them (an external engine does in an `info … nodes N` line).
    fn nodes(&self) -> Option<u64> {
        None
    }
}

/// Builds a contestant for a game thread (`seed` differs per game).
pub type Factory<'a> = dyn Fn(u64) -> Result<Box<dyn Contestant>, String> + Sync + 'a;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The board.
    pub layout: LayoutRef,
    /// Rule set and house rules.
    pub rules: Rules,
    /// Number of openings; each is played twice, so the match has twice as many games.
    pub openings: usize,
    /// Random plies played from the start to make each opening.
    pub opening_plies: usize,
    /// Limits of each move (of A's moves, when [`MatchConfig::think_b`] is given).
    pub think: Think,
    /// Limits of B's moves when they differ from A's (time odds); `None`: B has `think`.
    pub think_b: Option<Think>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Seed of the openings and of the players' random choices.
    pub seed: u64,
    /// Turns after which an unfinished game is adjudicated a draw.
    pub max_turns: usize,
    /// SPRT bounds (Elo under H0 and H1) with alpha and beta, if wanted.
    pub sprt: Option<Sprt>,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            layout: Layout::standard().into(),
            rules: Rules {
                set: RuleSet::STANDARD,
                ..Rules::default()
            },
            openings: 10,
            opening_plies: 2,
            think: Think::default(),
            think_b: None,
            concurrency: 1,
            seed: 1,
            max_turns: 400,
            sprt: None,
        }
    }
}

/// Sequential probability ratio test settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under the null hypothesis.
    pub elo0: f64,
    /// Elo difference under the alternative.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index of the opening.
    pub opening: usize,
    /// True when player A moved first from the opening (the two games of an opening have A
    /// first in one and B first in the other).
    pub a_first: bool,
    /// The side A played. Moving first from the opening is not being player 1: after an odd
    /// number of opening plies player 2 is to move, so the record's Player1 is whoever did not
    /// move first.
    pub a_side: Side,
    /// The game, as played.
    pub game: Game,
    /// Its result from A's point of view: 1, ½ or 0.
    pub score_a: f64,
    /// Why it ended, in words.
    pub ending: String,
    /// A's name in this game, as its contestant gave it (an external engine's `id`).
    pub a_name: String,
    /// B's name in this game.
    pub b_name: String,
    /// How long A took for its moves, and the positions it said it searched.
    pub a_moves: MoveStats,
    /// The same for B.
    pub b_moves: MoveStats,
}

/// The time a side took for its moves (measured by the match, around each choice, so an
/// external engine's answer time is included) and the positions searched, where reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveStats {
    /// Moves chosen (including one that failed or was illegal).
    pub moves: usize,
    /// Their total time.
    pub total: Duration,
    /// The longest.
    pub longest: Duration,
    /// Moves whose positions searched were reported.
    pub reported: usize,
    /// The positions searched over those moves.
    pub nodes: u64,
}

impl MoveStats {
    /// Counts one move that took `time` and searched `nodes` positions, if known.
    pub fn add(&mut self, time: Duration, nodes: Option<u64>) {
        self.moves += 1;
        self.total += time;
        self.longest = self.longest.max(time);
        if let Some(n) = nodes {
            self.reported += 1;
            self.nodes += n;
        }
    }

    /// Adds another game's moves.
    pub fn merge(&mut self, other: &MoveStats) {
        self.moves += other.moves;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
        self.reported += other.reported;
        self.nodes += other.nodes;
    }

    /// The mean time per move (zero without moves).
    pub fn mean(&self) -> Duration {
        if self.moves == 0 {
            return Duration::ZERO;
        }
        self.total / self.moves as u32
    }

    /// The mean positions searched per move, over the moves that reported them (`None` when
    /// none did).
    pub fn mean_nodes(&self) -> Option<u64> {
        (self.reported > 0).then(|| self.nodes / self.reported as u64)
    }
}

/// Wins, draws and losses from A's point of view, and what follows from them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games A won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games A lost.
    pub losses: usize,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// A's score, 0 to 1.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// The Elo difference and its 95% confidence interval (from the normal approximation of the
    /// score; an end at a score of 0 or 1 is infinite).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        // Wilson's interval ends at exactly 0 or 1 when every game has the same result, but
        // in floating point it may fall a hair short (6 straight wins gave +6261 for +inf).
        let elo = |s: f64| {
            if s <= 1e-9 {
                f64::NEG_INFINITY
            } else if s >= 1.0 - 1e-9 {
                f64::INFINITY
            } else {
                -400.0 * (1.0 / s - 1.0).log10()
            }
        };
        if n < 1.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * (0.0 - s).powi(2);
        // Wilson's interval, with the variance of the win/draw/loss scores: it stays inside
        // (0, 1) and does not collapse when every game has the same result.
        let z: f64 = 1.96;
        let shrink = 1.0 + z * z / n;
        let centre = (s + z * z / (2.0 * n)) / shrink;
        let half = z * (var / n + z * z / (4.0 * n * n)).sqrt() / shrink;
        (elo(s), elo(centre - half), elo(centre + half))
    }

    /// The Elo difference written with its interval: `+241 (95%: +37 to +inf)`.
    pub fn elo_text(&self) -> String {
        let (e, lo, hi) = self.elo();
        let f = |x: f64| {
            if x.is_infinite() {
                if x > 0.0 {
                    "+inf".to_string()
                } else {
                    "-inf".to_string()
                }
            } else {
                format!("{x:+.0}")
            }
        };
        format!("{} (95%: {} to {})", f(e), f(lo), f(hi))
    }

    /// The log-likelihood ratio of the SPRT and its verdict, if one is reached.
    pub fn sprt(&self, t: &Sprt) -> (f64, Option<bool>) {
        let n = self.games() as f64;
        let lower = (t.beta / (1.0 - t.alpha)).ln();
        let upper = ((1.0 - t.beta) / t.alpha).ln();
        if n == 0.0 {
            return (0.0, None);
        }
        let s = self.score();
        // The variance of a game's score, estimated as if one more win and one more loss had
        // been seen. Without them a run of equal results has no variance at all and a single
        // won game would "prove" any Elo gain; with them it takes a handful of straight wins
        // to accept a large gain, and the estimate barely moves once many games are in.
        let m = n + 2.0;
        let (rw, rd, rl) = (
            (self.wins as f64 + 1.0) / m,
            self.draws as f64 / m,
            (self.losses as f64 + 1.0) / m,
        );
        let rs = rw + rd / 2.0;
        let var = (rw * (1.0 - rs).powi(2) + rd * (0.5 - rs).powi(2) + rl * rs.powi(2)).max(1e-9);
        let expected = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (expected(t.elo0), expected(t.elo1));
        let llr = (s1 - s0) * (2.0 * s - s0 - s1) * n / (2.0 * var);
        let verdict = if llr >= upper {
            Some(true)
        } else if llr <= lower {
            Some(false)
        } else {
            None
        };
        (llr, verdict)
    }

    fn add(&mut self, score_a: f64) {
        if score_a > 0.75 {
            self.wins += 1;
        } else if score_a < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// Random openings tried per opening wanted before giving up: on a board so small that most
/// random first plies end the game, a match must fail with a reason instead of looping.
const OPENING_TRIES: usize = 100;

/// The openings of a match: `config.openings` unfinished games, each reached by
/// `config.opening_plies` random legal moves. An error when too few random openings leave the
/// game unfinished (a tiny board, or more plies than its games last).
pub fn openings(config: &MatchConfig) -> Result<Vec<Game>, String> {
    let mut rng = Rng::new(config.seed);
    let mut out = Vec::with_capacity(config.openings);
    let tries = config.openings.saturating_mul(OPENING_TRIES).max(1000);
    for _ in 0..tries {
        if out.len() >= config.openings {
            break;
        }
        let mut game = Game::new(&config.layout, config.rules);
        for _ in 0..config.opening_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            if game.play(&mv).is_err() {
                break;
            }
        }
        if !game.is_over() {
            out.push(game);
        }
    }
    if out.len() < config.openings {
        return Err(format!(
            "cannot make {} openings of {} random plies: {} of {tries} random openings ended \
             the game (the board is too small for that many opening plies)",
            config.openings,
            config.opening_plies,
            tries - out.len()
        ));
    }
    Ok(out)
}

/// One side of a game being played: its contestant, its limits and what its moves took.
struct Seat<'a> {
    contestant: &'a mut dyn Contestant,
    think: &'a Think,
    stats: MoveStats,
    /// What is left on its clock, when its limits give one (`think.limits.clock` at the
    /// start of the game, charged after every move as [`Clock::charge`] says).
    clock: Option<Clock>,
}

/// Plays one game from `opening` between `first` and `second`; the rules library is the judge.
fn play_one<'a>(
    opening: &Game,
    first: &mut Seat<'a>,
    second: &mut Seat<'a>,
    max_turns: usize,
) -> (Game, Option<Side>, String) {
    let mut game = opening.clone();
    // The side to move at the opening is whoever plays "first" from here.
    let first_side = game.to_move();
    first.contestant.new_game(&game);
    second.contestant.new_game(&game);
    while !game.is_over() {
        if game.turns().len() >= max_turns {
            let _ = game.agree_draw();
            return (
                game,
                None,
                format!("adjudicated a draw after {max_turns} turns"),
            );
        }
        let side = game.to_move();
        let seat = if side == first_side {
            &mut *first
        } else {
            &mut *second
        };
        // Under a clock, the move is asked with what is left on it.
        let think = match seat.clock {
            Some(clock) => &Think {
                limits: Limits {
                    clock: Some(clock),
                    ..seat.think.limits.clone()
                },
            },
            None => seat.think,
        };
        let started = Instant::now();
        let chosen = seat.contestant.choose(&game, think);
        let elapsed = started.elapsed();
        seat.stats.add(elapsed, seat.contestant.nodes());
        let player = &seat.contestant;
        if let Some(clock) = seat.clock {
            seat.clock = clock.charge(elapsed);
            if seat.clock.is_none() {
                let _ = game.forfeit(side);
                return (
                    game,
                    Some(side.other()),
                    format!(
                        "{} lost on time ({} ms, with {clock:?})",
                        player.name(),
                        elapsed.as_millis()
                    ),
                );
            }
        }
        match chosen {
            Ok(mv) => {
                if let Err(e) = game.play(&mv) {
                    let _ = game.forfeit(side);
                    return (
                        game,
                        Some(side.other()),
                        format!("{} played an illegal move: {e}", player.name()),
                    );
                }
            }
            Err(e) => {
                let _ = game.forfeit(side);
                return (
                    game,
                    Some(side.other()),
                    format!("{} failed: {e}", player.name()),
                );
            }
        }
    }
    let outcome = game.outcome();
    let winner = outcome.and_then(|o| o.winner());
    let ending = match outcome {
        Some(o) => o.to_string(),
        None => "unfinished".into(),
    };
    (game, winner, ending)
}

/// Runs a match between the contestants built by `a` and `b`, calling `progress` after each game
/// with the game and the tally so far. Stops early when the SPRT reaches a verdict.
pub fn run_match(
    config: &MatchConfig,
    a: &Factory,
    b: &Factory,
    progress: &(dyn Fn(&MatchGame, &Tally) + Sync),
) -> Result<(Vec<MatchGame>, Tally), String> {
    let openings = openings(config)?;
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|i| [(i, true), (i, false)])
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<(Vec<MatchGame>, Tally, Option<String>)> =
        Mutex::new((Vec::new(), Tally::default(), None));
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(opening, a_first)) = jobs.get(j) else {
                        break;
                    };
                    let seed = config
                        .seed
                        .wrapping_mul(0x9E37_79B9)
                        .wrapping_add(j as u64 + 1);
                    let built = (a(seed), b(seed ^ 0xABCD));
                    let (mut pa, mut pb) = match built {
                        (Ok(pa), Ok(pb)) => (pa, pb),
                        (Err(e), _) | (_, Err(e)) => {
                            let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                            r.2 = Some(e);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    };
                    let (a_name, b_name) = (pa.name(), pb.name());
                    let mut seat_a = Seat {
                        contestant: pa.as_mut(),
                        think: &config.think,
                        stats: MoveStats::default(),
                        clock: config.think.limits.clock,
                    };
                    let mut seat_b = Seat {
                        contestant: pb.as_mut(),
                        think: config.think_b.as_ref().unwrap_or(&config.think),
                        stats: MoveStats::default(),
                        clock: config
                            .think_b
                            .as_ref()
                            .unwrap_or(&config.think)
                            .limits
                            .clock,
                    };
                    let (game, winner, ending) = if a_first {
                        play_one(
                            &openings[opening],
                            &mut seat_a,
                            &mut seat_b,
                            config.max_turns,
                        )
                    } else {
                        play_one(
                            &openings[opening],
                            &mut seat_b,
                            &mut seat_a,
                            config.max_turns,
                        )
                    };
                    let first_side = openings[opening].to_move();
                    let a_side = if a_first {
                        first_side
                    } else {
                        first_side.other()
                    };
                    let score_a = match winner {
                        Some(w) if w == a_side => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    let record = MatchGame {
                        opening,
                        a_first,
                        a_side,
                        game,
                        score_a,
                        ending,
                        a_name,
                        b_name,
                        a_moves: seat_a.stats,
                        b_moves: seat_b.stats,
                    };
                    let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                    r.1.add(score_a);
                    progress(&record, &r.1);
                    if let Some(t) = &config.sprt
                        && r.1.sprt(t).1.is_some()
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                    r.0.push(record);
                }
            });
        }
    });
    let (mut games, tally, error) = results.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = error {
        return Err(e);
    }
    games.sort_by_key(|g| (g.opening, !g.a_first));
    Ok((games, tally))
}

/// A built-in player as a contestant.
pub struct Builtin {
    /// The player.
    pub player: crate::players::Player,
}

impl Contestant for Builtin {
    fn name(&self) -> String {
        self.player.kind().to_string()
    }

    fn new_game(&mut self, _game: &Game) {
        self.player.new_game();
    }

    fn choose(&mut self, game: &Game, think: &Think) -> Result<Move, String> {
        self.player
            .choose(game, think)
            .ok_or_else(|| "no move to play".to_string())
    }
}

/// Describes an outcome from A's side, for reports.
pub fn describe(outcome: Option<Outcome>) -> String {
    outcome
        .map(|o| o.to_string())
        .unwrap_or_else(|| "unfinished".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let even = Tally {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        let (e, lo, hi) = even.elo();
        assert!(e.abs() < 1e-9 && lo < -60.0 && hi > 60.0 && (lo + hi).abs() < 1e-6);
        let strong = Tally {
            wins: 90,
            draws: 0,
            losses: 10,
        };
        let (elo, lo, hi) = strong.elo();
        assert!((elo - 381.7).abs() < 1.0, "{elo}");
        assert!(lo > 250.0 && hi < 600.0, "{lo} {hi}");
        let perfect = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        let (e, lo, hi) = perfect.elo();
        // Wilson: the lower end is a score of 10/13.84 = 0.72, about +166.
        assert!(
            e.is_infinite() && (lo - 166.0).abs() < 2.0 && hi.is_infinite(),
            "{lo} {hi}"
        );
        let many = Tally {
            wins: 400,
            draws: 0,
            losses: 0,
        };
        for n in 1..=50 {
            let all = Tally {
                wins: n,
                draws: 0,
                losses: 0,
            };
            assert_eq!(all.elo().2, f64::INFINITY, "{n} wins");
            let none = Tally {
                wins: 0,
                draws: 0,
                losses: n,
            };
            assert_eq!(none.elo().1, f64::NEG_INFINITY, "{n} losses");
        }
        let lo400 = many.elo().1;
        assert!(lo400 > 800.0 && lo400 < 850.0, "{lo400}");
    }

    /// Plays the first legal move whose placement is of its colour (else the first move): a
    /// player whose every choice can be recognised afterwards.
    struct Fond(zertz::Colour);

    impl Fond {
        fn pick(&self, game: &Game) -> Option<Move> {
            let moves = game.legal_moves();
            let fond = moves
                .iter()
                .find(|m| matches!(m, Move::Place(p) if p.colour == self.0));
            fond.or(moves.first()).copied()
        }
    }

    impl Contestant for Fond {
        fn name(&self) -> String {
            format!("fond of {}", self.0.name())
        }
        fn new_game(&mut self, _game: &Game) {}
        fn choose(&mut self, game: &Game, _think: &Think) -> Result<Move, String> {
            self.pick(game).ok_or_else(|| "no move".to_string())
        }
    }

    #[test]
    fn a_side_is_the_side_a_played_after_odd_and_even_openings() {
        for plies in [1, 2, 3] {
            let config = MatchConfig {
                openings: 3,
                opening_plies: plies,
                max_turns: 30,
                seed: 5,
                ..MatchConfig::default()
            };
            let a = |_| Ok(Box::new(Fond(zertz::Colour::White)) as Box<dyn Contestant>);
            let b = |_| Ok(Box::new(Fond(zertz::Colour::Black)) as Box<dyn Contestant>);
            let (games, tally) = run_match(&config, &a, &b, &|_, _| {}).unwrap();
            assert_eq!(games.len(), 6);
            assert_eq!(tally.games(), 6);
            let (fa, fb) = (Fond(zertz::Colour::White), Fond(zertz::Colour::Black));
            let mut distinct = 0;
            for g in &games {
                let opening_to_move = if plies % 2 == 0 { Side::One } else { Side::Two };
                let expected = if g.a_first {
                    opening_to_move
                } else {
                    opening_to_move.other()
                };
                assert_eq!(g.a_side, expected, "plies {plies}, opening {}", g.opening);
                // Replay the game after the opening: every move is the choice of the
                // contestant of the side that made it.
                let mut replay = Game::from_position(g.game.start().clone(), g.game.rules());
                for (i, turn) in g.game.turns().iter().enumerate() {
                    let zertz::Turn::Move(mv) = turn else {
                        panic!("no pass in a match")
                    };
                    if i >= plies {
                        let chooser = if replay.to_move() == g.a_side {
                            &fa
                        } else {
                            &fb
                        };
                        let other = if replay.to_move() == g.a_side {
                            &fb
                        } else {
                            &fa
                        };
                        assert_eq!(chooser.pick(&replay), Some(*mv), "turn {i}");
                        distinct += usize::from(other.pick(&replay) != Some(*mv));
                    }
                    replay.play(mv).unwrap();
                }
                let winner = g.game.outcome().and_then(|o| o.winner());
                let expected_score = match winner {
                    Some(w) if w == g.a_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                assert_eq!(g.score_a, expected_score);
            }
            // The two players' choices differ often enough for the check to mean something.
            assert!(distinct > 20, "{distinct}");
        }
    }

    /// Plays the first legal move and remembers the limits it was given and its own name.
    struct Recorder {
        name: &'static str,
        seen: std::sync::Arc<Mutex<Vec<(&'static str, Limits)>>>,
    }

    impl Contestant for Recorder {
        fn name(&self) -> String {
            self.name.to_string()
        }
        fn new_game(&mut self, _game: &Game) {}
        fn choose(&mut self, game: &Game, think: &Think) -> Result<Move, String> {
            self.seen
                .lock()
                .unwrap()
                .push((self.name, think.limits.clone()));
            game.legal_moves().first().copied().ok_or("no move".into())
        }
        fn nodes(&self) -> Option<u64> {
            (self.name == "a").then_some(7)
        }
    }

    #[test]
    fn each_side_thinks_with_its_own_limits_and_its_moves_are_counted() {
        let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
        let config = MatchConfig {
            openings: 2,
            max_turns: 20,
            think: Think {
                limits: Limits::movetime(Duration::from_millis(30)),
            },
            think_b: Some(Think {
                limits: Limits::movetime(Duration::from_millis(90)),
            }),
            ..MatchConfig::default()
        };
        let (sa, sb) = (seen.clone(), seen.clone());
        let a = move |_| {
            Ok(Box::new(Recorder {
                name: "a",
                seen: sa.clone(),
            }) as Box<dyn Contestant>)
        };
        let b = move |_| {
            Ok(Box::new(Recorder {
                name: "b",
                seen: sb.clone(),
            }) as Box<dyn Contestant>)
        };
        let (games, _) = run_match(&config, &a, &b, &|_, _| {}).unwrap();
        let seen = seen.lock().unwrap();
        let count = |who| seen.iter().filter(|(n, _)| *n == who).count();
        assert!(count("a") > 0 && count("b") > 0);
        for (who, limits) in seen.iter() {
            let ms = if *who == "a" { 30 } else { 90 };
            assert_eq!(limits.movetime, Some(Duration::from_millis(ms)), "{who}");
        }
        let moves_a: usize = games.iter().map(|g| g.a_moves.moves).sum();
        let moves_b: usize = games.iter().map(|g| g.b_moves.moves).sum();
        assert_eq!((moves_a, moves_b), (count("a"), count("b")));
        for g in &games {
            assert_eq!((g.a_name.as_str(), g.b_name.as_str()), ("a", "b"));
            assert_eq!(g.a_moves.nodes, 7 * g.a_moves.moves as u64);
            assert_eq!(g.a_moves.mean_nodes(), Some(7));
            assert_eq!((g.b_moves.reported, g.b_moves.mean_nodes()), (0, None));
            assert!(g.a_moves.longest <= g.a_moves.total);
        }
    }

    /// Plays the first legal move after sleeping `sleep`, and keeps the clocks it was given.
    struct Sleeper {
        sleep: Duration,
        seen: std::sync::Arc<Mutex<Vec<Option<Clock>>>>,
    }

    impl Contestant for Sleeper {
        fn name(&self) -> String {
            format!("sleeper {:?}", self.sleep)
        }
        fn new_game(&mut self, _game: &Game) {}
        fn choose(&mut self, game: &Game, think: &Think) -> Result<Move, String> {
            self.seen.lock().unwrap().push(think.limits.clock);
            std::thread::sleep(self.sleep);
            game.legal_moves().first().copied().ok_or("no move".into())
        }
    }

    #[test]
    fn a_clock_is_kept_per_side_and_its_flag_loses_the_game() {
        let ms = Duration::from_millis;
        let config = MatchConfig {
            openings: 1,
            max_turns: 40,
            think: Think {
                limits: Limits {
                    clock: Some(Clock::Fischer {
                        remaining: ms(200),
                        increment: ms(10),
                    }),
                    ..Limits::default()
                },
            },
            ..MatchConfig::default()
        };
        let fast_seen = std::sync::Arc::new(Mutex::new(Vec::new()));
        let slow_seen = std::sync::Arc::new(Mutex::new(Vec::new()));
        let (fs, ss) = (fast_seen.clone(), slow_seen.clone());
        let fast = move |_| {
            Ok(Box::new(Sleeper {
                sleep: Duration::ZERO,
                seen: fs.clone(),
            }) as Box<dyn Contestant>)
        };
        // 60 ms a move against 200 ms and 10 ms more a move: out of time on its fourth move.
        let slow = move |_| {
            Ok(Box::new(Sleeper {
                sleep: ms(60),
                seen: ss.clone(),
            }) as Box<dyn Contestant>)
        };
        let (games, tally) = run_match(&config, &fast, &slow, &|_, _| {}).unwrap();
        assert_eq!((tally.wins, tally.losses), (2, 0), "{games:?}");
        for g in &games {
            assert!(g.ending.contains("lost on time"), "{}", g.ending);
            assert!(g.ending.starts_with("sleeper 60ms"), "{}", g.ending);
        }
        // Each side is told what is left on its own clock: the slow side's falls by about 50
        // ms a move, the fast side's grows by its increment.
        let left = |clock: &Option<Clock>| match clock {
            Some(Clock::Fischer { remaining, .. }) => *remaining,
            other => panic!("{other:?}"),
        };
        let slow_seen = slow_seen.lock().unwrap();
        assert_eq!(left(&slow_seen[0]), ms(200));
        assert!(left(&slow_seen[1]) <= ms(150), "{slow_seen:?}");
        assert!(slow_seen.len() <= 2 * 4, "{slow_seen:?}");
        let fast_seen = fast_seen.lock().unwrap();
        assert!(left(&fast_seen[1]) > ms(200), "{fast_seen:?}");
    }

    #[test]
    fn openings_on_a_board_too_small_are_an_error() {
        // On two rings the first placement isolates the other ring or captures itself: every
        // one-ply opening ends the game.
        let config = MatchConfig {
            layout: Layout::from_spec("a1-2").unwrap(),
            openings: 2,
            opening_plies: 1,
            ..MatchConfig::default()
        };
        let error = openings(&config).unwrap_err();
        assert!(
            error.contains("cannot make 2 openings of 1 random plies"),
            "{error}"
        );
        let fail = |_| Err::<Box<dyn Contestant>, _>("not needed".to_string());
        assert_eq!(
            run_match(&config, &fail, &fail, &|_, _| {}).unwrap_err(),
            error
        );
        // Without opening plies the start itself is the opening.
        let config = MatchConfig {
            opening_plies: 0,
            ..config
        };
        assert_eq!(openings(&config).unwrap().len(), 2);
    }

    #[test]
    fn sprt_needs_more_than_one_game() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 200.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let one = Tally {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        assert_eq!(one.sprt(&t).1, None);
        let run = |wins, losses| {
            Tally {
                wins,
                draws: 0,
                losses,
            }
            .sprt(&t)
            .1
        };
        assert_eq!(run(20, 0), Some(true));
        assert_eq!(run(0, 20), Some(false));
        assert_eq!(run(1, 1), None);
    }

    #[test]
    fn sprt_decides() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let winning = Tally {
            wins: 600,
            draws: 0,
            losses: 400,
        };
        assert_eq!(winning.sprt(&t).1, Some(true));
        let losing = Tally {
            wins: 400,
            draws: 0,
            losses: 600,
        };
        assert_eq!(losing.sprt(&t).1, Some(false));
        let unclear = Tally {
            wins: 5,
            draws: 0,
            losses: 5,
        };
        assert_eq!(unclear.sprt(&t).1, None);
    }
}
