//! The review of a whole game: every move searched, scored against the best move found and
//! marked (see [`crate::verdicts`]), with an accuracy figure per player.
//!
//! `zertz analyse` on a record and the server's game review both call [`review`] with
//! [`default_limits`] on an engine from [`engine`]: a fixed depth, one thread and a table
//! emptied first, so that the same game gets the same verdicts wherever it is reviewed.

use std::sync::atomic::{AtomicBool, Ordering};

use zertz::{Game, Move, Player, Position, Turn};

use crate::analysis::{Allowance, rank_within};
use crate::limits::Limits;
use crate::prove::Prover;
use crate::score::Score;
use crate::search::SearchOptions;
use crate::verdicts::{self, Mark};
use crate::{Engine, verdicts::win_chance};

/// The depth, in placement turns, each position of a reviewed game is searched to by default
/// (docs/study.md has the time a 40-move game takes).
pub const REVIEW_DEPTH: u32 = 3;

/// The most positions searched for one move of a review, all its searches together: opening
/// positions, with the most moves, would otherwise take several seconds each at
/// [`REVIEW_DEPTH`]. A node count rather than a time keeps the verdicts the same on any machine.
pub const REVIEW_NODES: u64 = 1_000_000;

/// The transposition table of a review engine, in megabytes.
pub const REVIEW_HASH_MB: usize = 32;

/// The most positions the prover expands to confirm one forced result the search reports (a
/// win or a loss in N): a review says "wins in N" only when the prover has proven it. Small,
/// so that a review stays fast; a result the prover cannot confirm within it is shown as the
/// search's, without the claim.
pub const REVIEW_PROOF_NODES: u64 = 20_000;

/// The prover's table in a review, in megabytes.
pub const REVIEW_PROOF_MB: usize = 8;

/// The limits a review searches each position with unless told otherwise.
pub fn default_limits() -> Limits {
    Limits {
        depth: Some(REVIEW_DEPTH),
        nodes: Some(REVIEW_NODES),
        ..Limits::default()
    }
}

/// An engine for reviews: default options on one thread (many threads would make the verdicts
/// depend on timing).
pub fn engine() -> Engine {
    let options = SearchOptions {
        threads: 1,
        ..SearchOptions::default()
    };
    Engine::new(options, REVIEW_HASH_MB)
}

/// One reviewed move.
#[derive(Clone, Debug)]
pub struct Reviewed {
    /// The index of the turn in the game's turns (from 0; passes are not reviewed).
    pub turn: usize,
    /// The player who made it.
    pub player: Player,
    /// The move played.
    pub played: Move,
    /// Its score for the player who made it.
    pub played_score: Score,
    /// The best move found.
    pub best: Move,
    /// The best move's score.
    pub best_score: Score,
    /// The line the best move leads to, starting with it.
    pub best_line: Vec<Move>,
    /// The verdict.
    pub mark: Mark,
    /// The depth the position was searched to.
    pub depth: u32,
    /// True when `best_score` is a forced result the prover has proven.
    pub best_proven: bool,
    /// True when `played_score` is a forced result the prover has proven.
    pub played_proven: bool,
}

impl Reviewed {
    /// The win chance the move gave away (0 for the best move).
    pub fn lost(&self) -> f64 {
        if self.mark == Mark::Only {
            0.0
        } else {
            verdicts::drop(self.best_score, self.played_score)
        }
    }

    /// The played move's score in words: `wins in N` / `loses in N` only when proven (see
    /// [`verdicts::claim`]).
    pub fn played_words(&self) -> String {
        verdicts::claim(self.played_score, self.played_proven)
    }

    /// The best move's score in words, as [`Reviewed::played_words`].
    pub fn best_words(&self) -> String {
        verdicts::claim(self.best_score, self.best_proven)
    }

    /// Player 1's win chance before the move, from the best move's score.
    pub fn first_player_chance_before(&self) -> f64 {
        for_first_player(self.player, win_chance(self.best_score))
    }

    /// Player 1's win chance after the move, from the played move's score.
    pub fn first_player_chance_after(&self) -> f64 {
        for_first_player(self.player, win_chance(self.played_score))
    }
}

/// `chance` of `player` turned into player 1's.
fn for_first_player(player: Player, chance: f64) -> f64 {
    if player == Player::One {
        chance
    } else {
        1.0 - chance
    }
}

/// Reviews every move of `game` (passes are skipped, their bribes replayed) with `limits` per
/// position, for the search of the position and the scoring of the best and the played move
/// together, calling `progress` after each. The table is emptied first. Setting `stop` ends
/// the review after the move being searched; what was reviewed so far is returned.
pub fn review(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Reviewed),
) -> Vec<Reviewed> {
    engine.clear();
    let mut prover = Prover::new(REVIEW_PROOF_MB);
    let mut out = Vec::new();
    let mut replay = Game::from_position(game.start().clone(), game.rules());
    for (i, turn) in game.turns().iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Turn::Move(played) = *turn else {
            if let Turn::Pass { bribe } = turn {
                let _ = replay.propose_bribe(*bribe);
                let _ = replay.answer_bribe(true);
            }
            continue;
        };
        let entry = review_move(engine, &mut prover, &replay, i, played, limits);
        progress(&entry);
        out.push(entry);
        if replay.play(&played).is_err() {
            break;
        }
    }
    out
}

/// Reviews `played`, the move made in `game`'s position as turn `turn`.
fn review_move(
    engine: &Engine,
    prover: &mut Prover,
    game: &Game,
    turn: usize,
    played: Move,
    limits: &Limits,
) -> Reviewed {
    let only = game.legal_moves().len() == 1;
    let never = AtomicBool::new(false);
    let (main, mut allowance) = Allowance::split(limits);
    let search = engine.search(game, &main, &never, &mut |_| {});
    allowance.spend(search.nodes);
    let depth = search.depth.max(1);
    let best = search.best.unwrap_or(played);
    let list: Vec<Move> = if best == played {
        vec![played]
    } else {
        vec![best, played]
    };
    // Both moves are scored by searches of the same depth below them, so that the two scores
    // compare fairly (the main search's own score is for its best move at a different depth).
    let (ranked, _) = rank_within(engine, game, &list, depth, allowance, &never);
    let find = |m: Move| ranked.iter().find(|r| r.mv == m);
    let played_score = find(played).map_or(search.score, |r| r.score);
    let (mut best, mut best_score, mut best_line) = match find(best) {
        Some(r) => (r.mv, r.score, r.pv.clone()),
        None => (best, search.score, search.pv.clone()),
    };
    // The played move may turn out better than the one the main search preferred.
    if played_score.rank() > best_score.rank() {
        best = played;
        best_score = played_score;
        best_line = find(played).map_or_else(Vec::new, |r| r.pv.clone());
    }
    let mark = verdicts::mark(best_score, played_score, best == played, only);
    let position = game.position();
    let best_proven = confirm(prover, position, &best, best_score);
    let played_proven = if played == best {
        best_proven
    } else {
        confirm(prover, position, &played, played_score)
    };
    Reviewed {
        turn,
        player: game.to_move(),
        played,
        played_score,
        best,
        best_score,
        best_line,
        mark,
        depth,
        best_proven,
        played_proven,
    }
}

/// True when `score`, the search's score of `mv` in `position` for the player to move, is a
/// forced result the prover confirms within [`REVIEW_PROOF_NODES`]: a win in `n` by a checked
/// proof that `mv` wins within `n` turns, a loss in `n` by a checked proof that the opponent,
/// after `mv`, wins within `n` of their turns. Evaluations are never "proven".
pub fn confirm(prover: &mut Prover, position: &Position, mv: &Move, score: Score) -> bool {
    match score {
        Score::Value(_) => false,
        Score::Win(n) => matches!(
            prover.prove_move(position, mv, n, REVIEW_PROOF_NODES),
            Ok(Some(_))
        ),
        Score::Loss(n) => {
            let Ok(after) = position.play(mv) else {
                return false;
            };
            if let Some(outcome) = after.outcome() {
                return outcome.winner() == Some(position.to_move().other());
            }
            matches!(
                prover.proof_within(&after, n, REVIEW_PROOF_NODES),
                Ok(Some(proof)) if proof.turns <= n
            )
        }
    }
}

/// Each player's accuracy over the reviewed moves (see [`verdicts::accuracy`]), indexed by
/// player (`[player 1, player 2]`); moves without a choice are left out.
pub fn accuracies(moves: &[Reviewed]) -> [Option<f64>; 2] {
    Player::BOTH.map(|p| {
        let lost: Vec<f64> = moves
            .iter()
            .filter(|r| r.player == p && r.mark != Mark::Only)
            .map(Reviewed::lost)
            .collect();
        verdicts::accuracy(&lost)
    })
}

/// Player 1's win chance at each position of the reviewed moves and after the last one: the
/// evaluation graph under a reviewed game.
pub fn graph(moves: &[Reviewed]) -> Vec<f64> {
    let mut out: Vec<f64> = moves
        .iter()
        .map(Reviewed::first_player_chance_before)
        .collect();
    if let Some(last) = moves.last() {
        out.push(last.first_player_chance_after());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::Rules;

    /// The first 27 turns of a BoardSpace game (archive file 00011 of a sample): at turn 27,
    /// player 1, behind but not lost, plays Gc5,e5, after which player 2 wins in 2 by force.
    const BLUNDERED: [&str; 27] = [
        "Bf1,g1",
        "Wd4,f5",
        "Gb1,a1",
        "Wf4,a2",
        "Bf3,a4",
        "x f4Bf2",
        "x f1Wf3",
        "Bf1,g3",
        "Ba3,d7",
        "Bb2,b5",
        "x b1Bb3",
        "x a3Gc3We4Bg2",
        "Bf2,c6",
        "x f1Bf3",
        "x g2Be4",
        "Bb3,a3",
        "Gd1,g4",
        "Gd4,f4",
        "x e4Gc3",
        "x b3Bd3",
        "Gg2,e6",
        "Gc1,b3",
        "x d1Gb1",
        "Be3,c1",
        "x d3Bf3",
        "x g2Be4",
        "Gc5,e5",
    ];

    fn game_of(moves: &[&str]) -> Game {
        let mut game = Game::new(zertz::Layout::standard(), Rules::default());
        for m in moves {
            let mv = zertz::notation::official::parse(game.position(), m)
                .unwrap_or_else(|e| panic!("{m}: {e}"));
            game.play(&mv).unwrap();
        }
        game
    }

    /// The review of `game` at the default limits.
    fn review_whole(game: &Game) -> Vec<Reviewed> {
        let never = AtomicBool::new(false);
        review(&engine(), game, &default_limits(), &never, &mut |_| {})
    }

    #[test]
    fn a_move_into_a_forced_loss_is_a_blunder_and_the_better_move_is_shown() {
        let game = game_of(&BLUNDERED);
        let reviewed = review_whole(&game);
        assert_eq!(reviewed.len(), 27);
        let last = reviewed.last().unwrap();
        assert_eq!(last.player, Player::One);
        assert!(matches!(last.played_score, Score::Loss(_)), "{last:?}");
        // The loss is proven by the prover, so it is said as one.
        assert!(last.played_proven, "{last:?}");
        assert!(last.played_words().starts_with("loses in "), "{last:?}");
        assert!(!matches!(last.best_score, Score::Loss(_)), "{last:?}");
        assert_ne!(last.best, last.played);
        assert_eq!(last.best_line.first(), Some(&last.best));
        assert_eq!(last.mark, Mark::Blunder);
        // Forced captures are the only move there: never counted against anyone.
        let capture = &reviewed[5];
        assert_eq!(capture.mark, Mark::Only);
        assert_eq!(capture.lost(), 0.0);
        // The blunder lowers player 1's accuracy below player 2's, who made none as bad.
        let [one, two] = accuracies(&reviewed);
        let (one, two) = (one.unwrap(), two.unwrap());
        assert!((0.0..=100.0).contains(&one) && (0.0..=100.0).contains(&two));
        let blunders = |p| {
            reviewed
                .iter()
                .filter(|r| r.player == p && r.mark == Mark::Blunder)
                .count()
        };
        if blunders(Player::Two) == 0 {
            assert!(one < two, "{one} vs {two}");
        }
        // The graph has a point per reviewed move and one after the last, all chances, and
        // ends with player 1 lost.
        let g = graph(&reviewed);
        assert_eq!(g.len(), 28);
        assert!(g.iter().all(|c| (0.0..=1.0).contains(c)));
        assert_eq!(*g.last().unwrap(), 0.0);
    }

    #[test]
    fn the_same_game_gets_the_same_verdicts_twice() {
        let game = game_of(&BLUNDERED[..10]);
        let (a, b) = (review_whole(&game), review_whole(&game));
        assert_eq!(a.len(), 10);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(
                (x.best, x.best_score, x.played_score, x.mark),
                (y.best, y.best_score, y.played_score, y.mark)
            );
        }
    }

    #[test]
    fn a_stopped_review_returns_what_it_has() {
        let game = game_of(&BLUNDERED[..6]);
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        let out = review(&engine(), &game, &default_limits(), &stop, &mut |_| {
            seen += 1;
            if seen == 2 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert_eq!(out.len(), 2);
    }
}
