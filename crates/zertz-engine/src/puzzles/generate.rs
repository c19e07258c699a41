//! Finding puzzles in real games: every position of a game where the player to move has a
//! proven shortest forced win with exactly one winning first move.
//!
//! For each position of a game (the player to move about to play the game's move):
//!
//! 1. **Filter** (cheap): the prover looks for the shortest win within [`Settings::max_turns`]
//!    with at most [`Settings::filter_nodes`] expansions. A win whose proof needs more is
//!    missed (the documented price of scanning 18,000 games in minutes).
//! 2. **Tree**: the proof becomes the solution tree ([`super::solution::from_proof`]); a tree
//!    listing more than [`Settings::max_defences`] replies is dropped (quiet first moves that
//!    leave hundreds of defences make poor puzzles and heavy files).
//! 3. **Uniqueness**: every other legal first move must be proven not to win within the same
//!    turns ([`crate::prove::Prover::first_moves`] within [`Settings::unique_nodes`]); one
//!    undecided move is enough to drop the position.
//!
//! Once a player found a puzzle's solution, the rest of that winning line is part of the
//! puzzle: that player's later positions in the game are not puzzles of their own.

use zertz::symmetry::Frame;
use zertz::{Game, Move, Position, Turn};

use super::solution::{from_proof, size};
use super::themes::themes;
use super::{FORMAT_VERSION, Puzzle, PuzzleSet, Source};
use crate::prove::Prover;

/// The limits of a generation.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The longest win looked for, in the attacker's turns.
    pub max_turns: u32,
    /// Expansions the filter may spend on one position.
    pub filter_nodes: u64,
    /// Expansions the uniqueness proof may spend on one position.
    pub unique_nodes: u64,
    /// The most defender replies a solution tree may list.
    pub max_defences: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_turns: 3,
            filter_nodes: 200,
            unique_nodes: 20_000,
            max_defences: 200,
        }
    }
}

/// Why a position is not a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The game is over there.
    Over,
    /// No win found by the filter within the turns and its budget.
    NoWinFound,
    /// The solution tree lists more replies than allowed.
    TooBig,
    /// More than one first move wins in the shortest number of turns.
    NotUnique,
    /// A first move was left undecided by the uniqueness budget.
    Undecided,
}

/// A puzzle found in a position, before it is given a source.
#[derive(Clone, Debug)]
pub struct Found {
    /// The shortest win's length in the attacker's turns.
    pub turns: u32,
    /// The one winning first move.
    pub first: Move,
    /// The solution tree.
    pub solution: super::Attack,
    /// Its themes.
    pub themes: Vec<String>,
}

/// Looks for a puzzle in `position`; `game_line` is what the game played from there (the
/// attacker's move first; may be empty), which decides the main defences.
pub fn puzzle_at(
    prover: &mut Prover,
    position: &Position,
    game_line: &[Move],
    settings: &Settings,
) -> Result<Found, Rejection> {
    if position.is_over() {
        return Err(Rejection::Over);
    }
    let proof = prover
        .proof_within(position, settings.max_turns, settings.filter_nodes)
        .map_err(|_| Rejection::Over)?
        .ok_or(Rejection::NoWinFound)?;
    let turns = proof.turns;
    let solution =
        from_proof(&proof, position, game_line, settings.max_defences).ok_or(Rejection::TooBig)?;
    let first_moves = prover
        .first_moves(position, turns, settings.unique_nodes)
        .map_err(|_| Rejection::Over)?;
    if first_moves.winning.len() > 1 {
        return Err(Rejection::NotUnique);
    }
    let first = first_moves.unique().ok_or(Rejection::Undecided)?;
    if Some(first) != proof.first_move() {
        // Cannot happen with a sound prover (the proof's move wins); refuse rather than trust.
        return Err(Rejection::NotUnique);
    }
    let themes = themes(position, &solution);
    Ok(Found {
        turns,
        first,
        solution,
        themes,
    })
}

/// The stable id of a puzzle: 16 hex digits from the canonical key of its position under the
/// board's symmetries and its turns (the same for every symmetric copy).
pub fn puzzle_id(position: &Position, turns: u32) -> String {
    let key = Frame::of(position).key().0;
    let mut h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29) ^ u64::from(turns);
    // splitmix64's finaliser: every bit of the key and the turns reaches every bit of the id.
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^= h >> 31;
    format!("{h:016x}")
}

/// What a scan saw, summed over games.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Games scanned.
    pub games: u64,
    /// Positions looked at.
    pub positions: u64,
    /// Positions skipped inside a solution the player found.
    pub inside_found: u64,
    /// Positions rejected, by reason: no win found, tree too big, not unique, undecided.
    pub no_win: u64,
    /// See `no_win`.
    pub too_big: u64,
    /// See `no_win`.
    pub not_unique: u64,
    /// See `no_win`.
    pub undecided: u64,
    /// Puzzles found (before symmetric copies are merged).
    pub puzzles: u64,
}

impl Stats {
    /// Adds another scan's counts.
    pub fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.positions += o.positions;
        self.inside_found += o.inside_found;
        self.no_win += o.no_win;
        self.too_big += o.too_big;
        self.not_unique += o.not_unique;
        self.undecided += o.undecided;
        self.puzzles += o.puzzles;
    }
}

/// Every puzzle in a game: `archive` and `name` go into each puzzle's source.
pub fn scan_game(
    prover: &mut Prover,
    archive: &str,
    name: &str,
    game: &Game,
    settings: &Settings,
    stats: &mut Stats,
) -> Vec<Puzzle> {
    stats.games += 1;
    let positions = game.positions();
    // The game's moves (a bribed pass ends the line: the prover knows no passes).
    let moves: Vec<Option<Move>> = game
        .turns()
        .iter()
        .map(|t| match t {
            Turn::Move(m) => Some(*m),
            Turn::Pass { .. } => None,
        })
        .collect();
    let mut out = Vec::new();
    // The ply until which the player who found a solution is still playing it out.
    let mut inside_until: [usize; 2] = [0, 0];
    for (ply, played) in moves.iter().enumerate() {
        let Some(played) = played else { continue };
        let position = &positions[ply];
        let who = position.to_move().index();
        stats.positions += 1;
        if ply < inside_until[who] {
            stats.inside_found += 1;
            continue;
        }
        let line: Vec<Move> = moves[ply..].iter().map_while(|m| *m).collect();
        match puzzle_at(prover, position, &line, settings) {
            Ok(found) => {
                stats.puzzles += 1;
                let was_found = found.first == *played;
                if was_found {
                    // The player's later moves of this win are the same puzzle.
                    inside_until[who] = ply + 2 * found.turns as usize;
                }
                out.push(Puzzle {
                    id: puzzle_id(position, found.turns),
                    position: position.to_string(),
                    turns: found.turns,
                    solution: found.solution,
                    themes: found.themes,
                    source: Source {
                        archive: archive.to_string(),
                        game: name.to_string(),
                        move_number: ply as u32 + 1,
                        played: zertz::notation::official::move_text(position, played),
                        found: was_found,
                    },
                });
            }
            Err(Rejection::Over) => {}
            Err(Rejection::NoWinFound) => stats.no_win += 1,
            Err(Rejection::TooBig) => stats.too_big += 1,
            Err(Rejection::NotUnique) => stats.not_unique += 1,
            Err(Rejection::Undecided) => stats.undecided += 1,
        }
    }
    out
}

/// The puzzles of many scans as one set: symmetric copies merged (the copy from the first
/// game in (archive, game, move number) order is kept), ordered by length, then source.
pub fn merge(mut puzzles: Vec<Puzzle>) -> PuzzleSet {
    puzzles.sort_by(|a, b| {
        (&a.source.archive, &a.source.game, a.source.move_number).cmp(&(
            &b.source.archive,
            &b.source.game,
            b.source.move_number,
        ))
    });
    let mut seen = std::collections::HashSet::new();
    puzzles.retain(|p| seen.insert(p.id.clone()));
    puzzles.sort_by(|a, b| {
        (a.turns, &a.source.archive, &a.source.game, a.source.move_number).cmp(&(
            b.turns,
            &b.source.archive,
            &b.source.game,
            b.source.move_number,
        ))
    });
    PuzzleSet {
        version: FORMAT_VERSION,
        puzzles,
    }
}

/// The number of replies a puzzle's solution lists (its size against the bound).
pub fn defences(puzzle: &Puzzle) -> usize {
    size(&puzzle.solution).defences
}
