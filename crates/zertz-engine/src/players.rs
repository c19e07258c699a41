//! Players that choose moves: the built-in opponents used to measure the engine (`random`,
//! `greedy`, `classic`) and the engine itself at levels 1 to 10.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use zertz::{Game, Move, Player as Side, Position};

use crate::limits::Limits;
use crate::search::SearchResult;
use crate::{Engine, SearchOptions};

/// A small, fast, seedable random number generator (SplitMix64), so that games can be replayed
/// from a seed on any machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Which player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Any legal move, uniformly at random.
    Random,
    /// The move that captures the most right now (ties at random).
    Greedy,
    /// Alpha-beta two placement turns deep, captures free, counting captured marbles: the
    /// strength class of BoardSpace's Dumbot.
    Classic,
    /// The engine at a level from 1 (beatable by a beginner) to 10 (full strength).
    Level(u8),
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Random => f.write_str("random"),
            Kind::Greedy => f.write_str("greedy"),
            Kind::Classic => f.write_str("classic"),
            Kind::Level(n) => write!(f, "level{n}"),
        }
    }
}

impl FromStr for Kind {
    type Err = String;

    /// `random`, `greedy`, `classic`, `levelN` or `N` (1-10), `engine` (level 10).
    fn from_str(s: &str) -> Result<Kind, String> {
        let lower = s.to_ascii_lowercase();
        let level = |n: &str| -> Result<Kind, String> {
            match n.parse::<u8>() {
                Ok(n) if (1..=10).contains(&n) => Ok(Kind::Level(n)),
                _ => Err(format!("`{s}`: a level is 1 to 10")),
            }
        };
        match lower.as_str() {
            "random" => Ok(Kind::Random),
            "greedy" => Ok(Kind::Greedy),
            "classic" => Ok(Kind::Classic),
            "engine" | "full" => Ok(Kind::Level(10)),
            other => match other.strip_prefix("level") {
                Some(n) => level(n),
                None if other.bytes().all(|b| b.is_ascii_digit()) && !other.is_empty() => {
                    level(other)
                }
                None => Err(format!(
                    "unknown player `{s}` (expected random, greedy, classic, engine or level1 to level10)"
                )),
            },
        }
    }
}

/// What limits a move's thinking, as given by whoever runs the game.
#[derive(Clone, Debug, Default)]
pub struct Think {
    /// The search limits (time, nodes, clock...). Levels below 10 cap these further.
    pub limits: Limits,
}

/// A player: a kind, with its own random generator and (for engine levels) an engine.
pub struct Player {
    kind: Kind,
    rng: Rng,
    engine: Option<Engine>,
}

impl Player {
    /// A player of `kind`, with a seed for its random choices and, for engine levels, `options`
    /// and a table of `hash_mb` MB.
    pub fn new(kind: Kind, seed: u64, options: SearchOptions, hash_mb: usize) -> Player {
        let engine = match kind {
            Kind::Level(_) => Some(Engine::new(options, hash_mb)),
            _ => None,
        };
        Player {
            kind,
            rng: Rng::new(seed),
            engine,
        }
    }

    /// A player of `kind` whose engine (for engine levels) has `engine`'s options and shares
    /// its transposition table instead of allocating one of its own: the protocol keeps one
    /// table for its analysis engine and its level player, so `hash` is what it holds.
    pub fn sharing(kind: Kind, seed: u64, engine: &Engine) -> Player {
        let engine = match kind {
            Kind::Level(_) => Some(Engine {
                options: engine.options.clone(),
                tt: engine.tt.clone(),
            }),
            _ => None,
        };
        Player {
            kind,
            rng: Rng::new(seed),
            engine,
        }
    }

    /// The engine of an engine level (`None` for the other players).
    pub fn engine(&self) -> Option<&Engine> {
        self.engine.as_ref()
    }

    /// Restarts the random choices from `seed`, as a new player would make them (the table is
    /// left as it is: [`Player::new_game`] empties it).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Which player this is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Forgets what it learned in earlier games.
    pub fn new_game(&mut self) {
        if let Some(e) = &self.engine {
            e.clear();
        }
    }

    /// Chooses a move (or `None` when there is none).
    pub fn choose(&mut self, game: &Game, think: &Think) -> Option<Move> {
        self.choose_until(game, think, &AtomicBool::new(false))
    }

    /// Chooses a move, thinking until `stop` is set (engine levels) or the limits are reached.
    pub fn choose_until(&mut self, game: &Game, think: &Think, stop: &AtomicBool) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        match self.kind {
            Kind::Random => Some(moves[self.rng.below(moves.len())]),
            Kind::Greedy => Some(greedy(game.position(), &moves, &mut self.rng)),
            Kind::Classic => Some(classic(game, &moves, &mut self.rng)),
            Kind::Level(level) => {
                let engine = self.engine.as_mut()?;
                Some(level_move(
                    engine,
                    game,
                    &moves,
                    level,
                    &think.limits,
                    &mut self.rng,
                    stop,
                ))
            }
        }
    }

    /// Searches with the engine (levels only) and returns the full result.
    pub fn search(&mut self, game: &Game, limits: &Limits) -> Option<SearchResult> {
        let engine = self.engine.as_ref()?;
        let stop = AtomicBool::new(false);
        Some(engine.search(game, limits, &stop, &mut |_| {}))
    }
}

/// Value of captures for the simple players: one per marble.
fn material(p: &Position, side: Side) -> i32 {
    p.captures(side).total() as i32
}

/// The move that gains the most marbles at once (a winning move above all); ties at random.
fn greedy(position: &Position, moves: &[Move], rng: &mut Rng) -> Move {
    let me = position.to_move();
    let mut best = Vec::new();
    let mut best_value = i32::MIN;
    for mv in moves {
        let mut next = position.clone();
        next.play_unchecked(mv);
        let value = if next.winner_by_captures() == Some(me) {
            i32::MAX
        } else {
            material(&next, me) - material(position, me)
        };
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(*mv);
        }
    }
    best[rng.below(best.len())]
}

const CLASSIC_WIN: i32 = 100_000;

/// The classic player's search: negamax alpha-beta, depth in placement turns, captures free,
/// material evaluation.
fn classic_search(p: &Position, turns: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if let Some(w) = p.winner_by_captures() {
        let s = CLASSIC_WIN - ply;
        return if w == p.to_move() { s } else { -s };
    }
    let capture = p.has_capture();
    if turns == 0 && !capture {
        let me = p.to_move();
        return material(p, me) - material(p, me.other());
    }
    let moves = p.legal_moves();
    if moves.is_empty() {
        return -(CLASSIC_WIN - ply);
    }
    let mut best = -CLASSIC_WIN - 1;
    for mv in &moves {
        let mut next = p.clone();
        next.play_unchecked(mv);
        let cost = if mv.is_capture() { 0 } else { 1 };
        let score = -classic_search(&next, turns - cost, -beta, -alpha, ply + 1);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The classic player's move: the best two turns deep, ties at random.
fn classic(game: &Game, moves: &[Move], rng: &mut Rng) -> Move {
    let p = game.position();
    let mut best = Vec::new();
    let mut best_score = -CLASSIC_WIN - 1;
    // Full window at the root would be slow; a window one above the best keeps ties visible.
    for mv in moves {
        let mut next = p.clone();
        next.play_unchecked(mv);
        let cost = if mv.is_capture() { 0 } else { 1 };
        let score = -classic_search(&next, 2 - cost, -CLASSIC_WIN - 1, -(best_score - 1), 1);
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(*mv);
        }
    }
    best[rng.below(best.len())]
}

/// The settings of each level: the search limit and how much noise blurs its choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Depth cap in turns (`None`: as deep as time allows).
    pub depth: Option<u32>,
    /// Node cap (`None`: none).
    pub nodes: Option<u64>,
    /// Random noise added to every evaluation, up to this many points either way (0: none).
    pub noise: i32,
}

/// The settings of level 1 to 10.
pub fn level_settings(level: u8) -> LevelSettings {
    let (depth, nodes, noise) = match level {
        1 => (Some(1), None, 400),
        2 => (Some(1), None, 150),
        3 => (Some(1), None, 40),
        4 => (Some(1), None, 0),
        5 => (Some(2), Some(20_000), 0),
        6 => (None, Some(30_000), 0),
        7 => (None, Some(100_000), 0),
        8 => (None, Some(300_000), 0),
        9 => (None, Some(1_000_000), 0),
        _ => (None, None, 0),
    };
    LevelSettings {
        depth,
        nodes,
        noise,
    }
}

fn level_move(
    engine: &mut Engine,
    game: &Game,
    moves: &[Move],
    level: u8,
    limits: &Limits,
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Move {
    let settings = level_settings(level);
    let mut l = limits.clone();
    if let Some(d) = settings.depth {
        l.depth = Some(l.depth.map_or(d, |x| x.min(d)));
    }
    if let Some(n) = settings.nodes {
        l.nodes = Some(l.nodes.map_or(n, |x| x.min(n)));
    }
    if l.depth.is_none() && l.nodes.is_none() && l.movetime.is_none() && l.clock.is_none() {
        l.movetime = Some(Duration::from_secs(5));
    }
    engine.options.eval_noise = settings.noise;
    engine.options.noise_seed = rng.next_u64();
    let result = engine.search(game, &l, stop, &mut |_| {});
    result.best.unwrap_or(moves[0])
}

#[cfg(test)]
mod tests {
    use zertz::notation::official;

    use super::*;

    /// Material of the player to move minus the opponent's after a plain minimax (no pruning)
    /// of `turns` placement turns, every capture played out for free: the reference the
    /// classic player's alpha-beta must agree with, written without it.
    fn reference(p: &Position, turns: u32) -> i32 {
        if let Some(w) = p.winner_by_captures() {
            return if w == p.to_move() { 10_000 } else { -10_000 };
        }
        if turns == 0 && !p.has_capture() {
            let me = p.to_move();
            return material(p, me) - material(p, me.other());
        }
        let moves = p.legal_moves();
        if moves.is_empty() {
            return -10_000;
        }
        moves
            .iter()
            .map(|mv| {
                let next = p.play(mv).expect("a generated move is legal");
                let cost = u32::from(!mv.is_capture());
                -reference(&next, turns - cost)
            })
            .max()
            .unwrap_or(-10_000)
    }

    #[test]
    fn classic_sees_two_placement_turns_with_captures_free() {
        // From a random game. Player 1 (4 marbles to 3) can take the black marble on d7 at
        // once by isolating it (`Wg3,d6 x Bd7` and others): a marble up within one turn, but
        // player 2's reply wins one back. Placing on e5 first (`We5,d6 x Bd7` and others) gains
        // nothing within one turn, and three marbles within two.
        let position: Position =
            "37 standard ----/..G--/-B..--/W.....B/--W..-/--..W/-B.B 3/1/5 0/3/1 0/3/0 1"
                .parse()
                .unwrap();
        assert!(!position.has_capture());
        let me = position.to_move();
        let now = material(&position, me) - material(&position, me.other());
        let moves = position.legal_moves();
        let scored: Vec<(Move, i32, i32)> = moves
            .iter()
            .map(|mv| {
                let next = position.play(mv).unwrap();
                (*mv, -reference(&next, 0), -reference(&next, 1))
            })
            .collect();
        let best_one = scored.iter().map(|s| s.1).max().unwrap();
        let best_two = scored.iter().map(|s| s.2).max().unwrap();
        let one_turn: Vec<Move> = scored
            .iter()
            .filter(|s| s.1 == best_one)
            .map(|s| s.0)
            .collect();
        let two_turns: Vec<Move> = scored
            .iter()
            .filter(|s| s.2 == best_two)
            .map(|s| s.0)
            .collect();
        // The position is what the comment says: one turn deep the best moves win a marble,
        // two turns deep each of them is worse than the best, which wins more.
        assert_eq!(best_one, now + 1);
        assert!(best_two >= now + 2, "{now} {best_two}");
        for (mv, _, two) in scored.iter().filter(|s| s.1 == best_one) {
            assert!(
                *two < best_two,
                "{} is as good two turns deep",
                official::move_text(&position, mv)
            );
        }
        // Classic plays one of the two-turn moves, whatever its random tie-breaks.
        let game = Game::from_position(position.clone(), zertz::Rules::default());
        for seed in 1..=6 {
            let mut classic = Player::new(Kind::Classic, seed, SearchOptions::default(), 1);
            let chosen = classic.choose(&game, &Think::default()).unwrap();
            let text = official::move_text(&position, &chosen);
            assert!(two_turns.contains(&chosen), "classic played {text}");
            assert!(!one_turn.contains(&chosen), "classic played {text}");
        }
    }
}
