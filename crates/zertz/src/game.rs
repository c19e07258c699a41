//! A game: a start position, the turns played since, and what depends on that history —
//! repetition, the bribe-to-pass house rule, and how the game ended.

use crate::bits::Narrow;
use crate::layout::{Layout, LayoutRef, LayoutWidth};
use crate::marbles::{Marbles, Player};
use crate::moves::Move;
use crate::position::{DrawReason, IllegalMove, MoveList, Outcome, Position, WinReason};
use crate::rules::{Repetition, Rules};

/// One turn of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A move.
    Move(Move),
    /// A pass bought with an accepted bribe (rules.md 7.3): the mover handed `bribe` to the
    /// opponent. Written `-` in official notation.
    Pass {
        /// The marbles handed over.
        bribe: Marbles,
    },
}

/// A bribe proposal and what became of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BribeProposal {
    /// Who proposed it.
    pub by: Player,
    /// The marbles offered.
    pub bribe: Marbles,
    /// The number of turns played before it was proposed.
    pub at_turn: usize,
    /// `None` while waiting for the answer, then whether it was accepted.
    pub accepted: Option<bool>,
}

/// Why a game refused an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move is not legal in the position.
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
    /// The game has ended.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// The move would recreate an earlier position under the no-repetition rule.
    #[error("this move recreates an earlier position, which the no-repetition rule forbids")]
    Repeats,
    /// A bribe is waiting for its answer.
    #[error("a bribe of {0} is waiting for an answer: accept or reject it first")]
    BribePending(Marbles),
    /// No bribe is waiting.
    #[error("no bribe has been proposed")]
    NoBribePending,
    /// The bribe rule is off in this game.
    #[error("bribes are not allowed in this game")]
    BribesOff,
    /// The player is not the one to act.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Player),
    /// Nothing to undo.
    #[error("there is no move to undo")]
    NothingToUndo,
}

/// A game with its history.
///
/// `S` is the type of the positions' sets of places: `u64` (the default) on boards of up to 64
/// places, [`crate::Wide`] on boards of up to 128, [`crate::Huge`] on larger ones.
#[derive(Clone, Debug)]
pub struct Game<S: LayoutWidth = Narrow> {
    rules: Rules,
    turns: Vec<Turn>,
    /// `positions[0]` is the start; `positions[i + 1]` follows `turns[i]`.
    positions: Vec<Position<S>>,
    bribes: Vec<BribeProposal>,
    outcome: Option<Outcome>,
    /// How many times each position hash has occurred (for repetition).
    seen: crate::zobrist::ByKey<u32>,
}

impl Game {
    /// A new game on `layout` under `rules`, from the start position. Panics on a layout of
    /// more than 64 places (see [`Position::new`]).
    pub fn new(layout: impl Into<LayoutRef>, rules: Rules) -> Game {
        Game::from_position(Position::new(layout, rules.set), rules)
    }

    /// A standard game on the 37-ring board.
    pub fn standard() -> Game {
        Game::new(Layout::standard(), Rules::default())
    }
}

impl<S: LayoutWidth> Game<S> {
    /// A game starting from `start` (a handicap, a puzzle, a position from a record). The rule
    /// set of `rules` is replaced by the position's.
    pub fn from_position(start: Position<S>, mut rules: Rules) -> Game<S> {
        rules.set = start.rule_set();
        let hash = start.hash();
        let mut game = Game {
            rules,
            turns: Vec::new(),
            positions: vec![start],
            bribes: Vec::new(),
            outcome: None,
            seen: Default::default(),
        };
        game.seen.insert(hash, 1);
        game.outcome = game.judge();
        game
    }

    /// Makes room for `turns` more turns, so that a game replayed from a record of known
    /// length is not copied as it grows.
    pub fn reserve(&mut self, turns: usize) {
        self.turns.reserve(turns);
        self.positions.reserve(turns);
        self.seen.reserve(turns);
    }

    /// The rules of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The position now.
    pub fn position(&self) -> &Position<S> {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The start position.
    pub fn start(&self) -> &Position<S> {
        &self.positions[0]
    }

    /// The turns played so far.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position<S>] {
        &self.positions
    }

    /// Every bribe proposed in this game, with its answer.
    pub fn bribes(&self) -> &[BribeProposal] {
        &self.bribes
    }

    /// How many bribes `player` has proposed in this game, accepted or not (a match adds these up
    /// to enforce its limit of three).
    pub fn bribes_proposed(&self, player: Player) -> usize {
        self.bribes.iter().filter(|b| b.by == player).count()
    }

    /// The bribe waiting for an answer, if any.
    pub fn pending_bribe(&self) -> Option<BribeProposal> {
        self.bribes.last().copied().filter(|b| b.accepted.is_none())
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.position().to_move()
    }

    fn repeats(&self, next: &Position<S>) -> bool {
        self.seen.contains_key(&next.hash()) && self.positions.iter().any(|p| p == next)
    }

    /// True when `p` has occurred at least three times.
    fn third_occurrence(&self, p: &Position<S>) -> bool {
        // The hash count is an upper bound (hashes may collide); count exactly only when needed.
        self.seen.get(&p.hash()).copied().unwrap_or(0) >= 3
            && self.positions.iter().filter(|q| *q == p).count() >= 3
    }

    /// The legal moves now: empty when the game is over or a bribe awaits its answer; under the
    /// no-repetition rule, moves that recreate an earlier position are left out.
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() || self.pending_bribe().is_some() {
            return Vec::new();
        }
        let mut moves = self.position().legal_moves();
        if self.rules.repetition == Repetition::Forbidden {
            let here = self.position();
            moves.retain(|mv| {
                let mut next = here.clone();
                next.play_unchecked(mv);
                !self.repeats(&next)
            });
        }
        moves
    }

    /// Explains why `mv` cannot be played now, or `Ok(())`.
    pub fn check(&self, mv: &Move) -> Result<(), GameError> {
        self.checked_next(mv).map(|_| ())
    }

    /// The position `mv` leads to, or why it cannot be played now.
    fn checked_next(&self, mv: &Move) -> Result<Position<S>, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Over(outcome));
        }
        if let Some(b) = self.pending_bribe() {
            return Err(GameError::BribePending(b.bribe));
        }
        let next = self.position().play(mv)?;
        if self.rules.repetition == Repetition::Forbidden && self.repeats(&next) {
            return Err(GameError::Repeats);
        }
        Ok(next)
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        let next = self.checked_next(mv)?;
        self.push(Turn::Move(*mv), next);
        Ok(())
    }

    fn push(&mut self, turn: Turn, next: Position<S>) {
        self.turns.push(turn);
        *self.seen.entry(next.hash()).or_insert(0) += 1;
        self.positions.push(next);
        self.outcome = self.judge();
    }

    /// The outcome the rules give the current position and history.
    fn judge(&self) -> Option<Outcome> {
        let position = self.position();
        if let Some(outcome) = position.outcome() {
            return Some(outcome);
        }
        match self.rules.repetition {
            Repetition::ThreefoldDraw if self.third_occurrence(position) => {
                Some(Outcome::Draw(DrawReason::Repetition))
            }
            Repetition::Forbidden if self.legal_moves_ignoring_outcome_is_empty() => {
                Some(Outcome::Win {
                    winner: position.to_move().other(),
                    reason: WinReason::NoLegalMove,
                })
            }
            _ => None,
        }
    }

    fn legal_moves_ignoring_outcome_is_empty(&self) -> bool {
        let here = self.position();
        let mut found = false;
        let mut moves = Vec::new();
        here.legal_moves_into(&mut moves);
        for mv in &moves {
            let mut next = here.clone();
            next.play_unchecked(mv);
            if !self.repeats(&next) {
                found = true;
                break;
            }
        }
        !found
    }

    /// Takes back the last turn (a move or an accepted bribe's pass), and any bribe proposed
    /// after it. Returns the turn taken back.
    pub fn undo(&mut self) -> Result<Turn, GameError> {
        let turn = self.turns.pop().ok_or(GameError::NothingToUndo)?;
        if let Some(p) = self.positions.pop()
            && let Some(n) = self.seen.get_mut(&p.hash())
        {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&p.hash());
            }
        }
        let turns = self.turns.len();
        self.bribes.retain(|b| b.at_turn < turns);
        self.outcome = self.judge();
        Ok(turn)
    }

    /// The player to move proposes a bribe to pass (rules.md 7.3). Both players must hold the
    /// marbles offered. The opponent then accepts or rejects it.
    pub fn propose_bribe(&mut self, bribe: Marbles) -> Result<(), GameError> {
        if !self.rules.bribes {
            return Err(GameError::BribesOff);
        }
        if let Some(outcome) = self.outcome {
            return Err(GameError::Over(outcome));
        }
        if let Some(b) = self.pending_bribe() {
            return Err(GameError::BribePending(b.bribe));
        }
        // Validates the bribe itself, and under the no-repetition rule the pass it would buy.
        let next = self.position().pass_with_bribe(bribe)?;
        if self.rules.repetition == Repetition::Forbidden && self.repeats(&next) {
            return Err(GameError::Repeats);
        }
        self.bribes.push(BribeProposal {
            by: self.to_move(),
            bribe,
            at_turn: self.turns.len(),
            accepted: None,
        });
        Ok(())
    }

    /// The opponent answers the bribe waiting for an answer. If accepted, the proposer hands the
    /// marbles over and the turn passes; if rejected, the proposer must move normally.
    pub fn answer_bribe(&mut self, accept: bool) -> Result<(), GameError> {
        let pending = self.pending_bribe().ok_or(GameError::NoBribePending)?;
        if accept {
            let next = self.position().pass_with_bribe(pending.bribe)?;
            if self.rules.repetition == Repetition::Forbidden && self.repeats(&next) {
                return Err(GameError::Repeats);
            }
            if let Some(last) = self.bribes.last_mut() {
                last.accepted = Some(true);
            }
            self.push(
                Turn::Pass {
                    bribe: pending.bribe,
                },
                next,
            );
        } else if let Some(last) = self.bribes.last_mut() {
            last.accepted = Some(false);
        }
        Ok(())
    }

    /// `player` resigns: the opponent wins.
    pub fn resign(&mut self, player: Player) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: player.other(),
            reason: WinReason::Resignation,
        })
    }

    /// `player` ran out of time: the opponent wins.
    pub fn lose_on_time(&mut self, player: Player) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: player.other(),
            reason: WinReason::Time,
        })
    }

    /// `player` forfeits (left the game): the opponent wins.
    pub fn forfeit(&mut self, player: Player) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: player.other(),
            reason: WinReason::Forfeit,
        })
    }

    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end(Outcome::Draw(DrawReason::Agreement))
    }

    /// Ends the game with an outcome decided outside the rules proper (resignation, time,
    /// agreement). Refused if the game is already over.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        self.outcome = Some(outcome);
        Ok(())
    }
}
