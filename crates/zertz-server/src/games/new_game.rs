//! The body that creates a game or a match: board, rules or a position or a record to go on
//! from, house rules, clock, opponent and seat, checked into the game's settings.

use serde::Deserialize;
use zertz::{Layout, Position, Repetition, RuleSet, Rules};

use crate::games::clock::ClockSpec;
use crate::games::model::{GameSettings, RATED_NEEDS_ACCOUNTS, SeatKind};
use crate::games::pools::{pool_of, rated_pool_of};
use crate::http::error::{ApiResult, bad};

/// Who the opponent of a new game is.
/// Who the opponent of a new game is.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Opponent {
    /// The engine at a level.
    Engine {
        /// 1 to 10.
        level: u8,
    },
    /// A friend, through a link. (Braces, not a unit variant, so that unknown fields are
    /// refused: see `Action`.)
    Invite {},
    /// Anyone, from the lobby.
    Open {},
}

/// The creator's colour choice.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatChoice {
    /// Move first.
    #[default]
    First,
    /// Move second.
    Second,
    /// Drawn by lot.
    Random,
}

/// The body of `POST /api/games` and the game part of `POST /api/matches`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Board: `37`, `40`, `43`, `44`, `48`, `61`, `custom:a1,b2,…`, or `Zertz+xx` (player one
    /// designs the board before play, player two may swap: games/design.rs).
    #[serde(default)]
    pub board: Option<String>,
    /// Rule set: `standard`, `blitz` or `custom:W/G/B:w/g/b/each`.
    #[serde(default)]
    pub rules: Option<String>,
    /// A start position string instead of board and rules.
    #[serde(default)]
    pub position: Option<String>,
    /// A whole game to continue (a record in the project's format or a BoardSpace SGF),
    /// instead of a position or a board and rules: its turns are replayed and kept.
    #[serde(default)]
    pub record: Option<String>,
    /// The no-repetition house rule (default: off, or as the record says).
    #[serde(default)]
    pub no_repetition: Option<bool>,
    /// The bribe-to-pass house rule (default: off, or as the record says).
    #[serde(default)]
    pub bribes: Option<bool>,
    /// The clock (no clock if absent).
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// Casual (takebacks allowed); default true.
    #[serde(default)]
    pub casual: Option<bool>,
    /// Who plays against the creator.
    pub opponent: Opponent,
    /// The creator's seat.
    #[serde(default)]
    pub seat: SeatChoice,
    /// The creator's name.
    #[serde(default)]
    pub name: Option<String>,
    /// A rated game (both seats accounts, no takebacks): the result changes both ratings.
    #[serde(default)]
    pub rated: Option<bool>,
    /// Matches only: best of N (odd).
    #[serde(default)]
    pub best_of: Option<u32>,
    /// Matches only: bribes per player per match (default 3).
    #[serde(default)]
    pub bribe_limit: Option<u32>,
}

impl NewGame {
    /// What the new game will hold of its creator's quota (as [`crate::games::routes::held_by`] says
    /// of its settings), known before its board is read.
    pub fn held(&self) -> Option<crate::games::quota::Held> {
        use crate::games::quota::Held;
        match self.opponent {
            Opponent::Engine { .. } => Some(Held::EngineGame),
            Opponent::Open {} => Some(Held::Seek),
            Opponent::Invite {} => Some(Held::Invitation),
        }
    }

    /// What needs no board, checked: the clock and the opponent's kind. The routes check it
    /// before they take a place under the client's quota (a request refused for these holds
    /// none, however many are sent at once) and `settings` before it reads a board (a custom
    /// board read is charged to the client's allowance of new boards).
    pub fn without_board(&self) -> ApiResult<(ClockSpec, SeatKind)> {
        let given = [
            self.record.is_some(),
            self.position.is_some(),
            self.board.is_some() || self.rules.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(bad(
                "give one of: a record, a position, or a board and rules (not several)",
            ));
        }
        let clock = self.clock.unwrap_or(ClockSpec::Unlimited {});
        clock.validate().map_err(|e| bad(e.to_string()))?;
        let opponent = match self.opponent {
            Opponent::Engine { level } => {
                if !(1..=10).contains(&level) {
                    return Err(bad(format!("engine level must be 1 to 10, not {level}")));
                }
                SeatKind::Engine { level }
            }
            Opponent::Invite {} | Opponent::Open {} => SeatKind::Human,
        };
        Ok((clock, opponent))
    }

    /// The game's settings, the opponent's seat kind, and the creator's seat index.
    /// `logged_in`: the creator has an account (a rated game needs one).
    pub fn settings(&self, logged_in: bool) -> ApiResult<(GameSettings, SeatKind, usize)> {
        let (clock, opponent) = self.without_board()?;
        let mut repetition = Repetition::ThreefoldDraw;
        let mut bribes = false;
        let mut history = None;
        let design = self
            .board
            .as_deref()
            .is_some_and(|b| b.trim().eq_ignore_ascii_case("zertz+xx"));
        let start = match (&self.record, &self.position) {
            (Some(text), _) => {
                let game = self.continued(text)?;
                (repetition, bribes) = (game.rules().repetition, game.rules().bribes);
                if !game.turns().is_empty() {
                    history = Some(crate::games::records::history_text(&game));
                }
                game.start().clone()
            }
            (None, Some(text)) => {
                let p: Position = text.parse().map_err(|e| bad(format!("position: {e}")))?;
                if p.is_over() {
                    return Err(bad("position: the game is already over in this position"));
                }
                p
            }
            (None, None) => {
                let board = match self.board.as_deref() {
                    _ if design => crate::games::design::PLACEHOLDER_BOARD,
                    b => b.unwrap_or("37"),
                };
                let layout =
                    Layout::from_spec(board).map_err(|e| bad(format!("board `{board}`: {e}")))?;
                let rules = self.rules.as_deref().unwrap_or("standard");
                let set: RuleSet = rules
                    .parse()
                    .map_err(|e| bad(format!("rules `{rules}`: {e}")))?;
                Position::new(layout, set)
            }
        };
        let creator = match self.seat {
            SeatChoice::First => 0,
            SeatChoice::Second => 1,
            SeatChoice::Random => {
                let mut b = [0u8; 1];
                getrandom::fill(&mut b).map_err(|e| bad(e.to_string()))?;
                usize::from(b[0] & 1)
            }
        };
        if design
            && matches!(opponent, SeatKind::Engine { .. })
            && !matches!(self.seat, SeatChoice::First)
        {
            return Err(bad(
                "in a Zertz+xx game against the engine you design the board: play first \
                 (seat `first`); the engine cannot design one",
            ));
        }
        let mut seats = [SeatKind::Human, SeatKind::Human];
        seats[1 - creator] = opponent.clone();
        if let Some(forbid) = self.no_repetition {
            repetition = if forbid {
                Repetition::Forbidden
            } else {
                Repetition::ThreefoldDraw
            };
        }
        let mut settings = GameSettings {
            start: start.to_string(),
            repetition: repetition.name().into(),
            bribes: self.bribes.unwrap_or(bribes),
            clock,
            casual: self.casual.unwrap_or(true),
            seats,
            open: matches!(self.opponent, Opponent::Open {}),
            history,
            match_game: None,
            rated: false,
            pool: None,
            design,
            berserk: false,
        };
        settings.pool = pool_of(&settings).ok().map(|p| p.key());
        if self.rated == Some(true) {
            if design {
                return Err(bad(
                    "Zertz+xx games are unrated: their boards differ game to game",
                ));
            }
            if !logged_in {
                return Err(bad(RATED_NEEDS_ACCOUNTS));
            }
            if matches!(opponent, SeatKind::Engine { .. }) {
                return Err(bad(
                    "games against the engine are unrated: its levels have fixed ratings",
                ));
            }
            if self.casual == Some(true) {
                return Err(bad(
                    "a rated game has no takebacks: leave casual out or set it to false",
                ));
            }
            rated_pool_of(&settings).map_err(|e| bad(format!("rated: {e}")))?;
            settings.rated = true;
            settings.casual = false;
        }
        Ok((settings, opponent, creator))
    }

    /// The game of the record `text`, replayed under the rules of the new game (the record's
    /// own, unless `no_repetition` or `bribes` say otherwise). Refused when the rules end it:
    /// there is nothing to continue. (A record that ended by resignation, time or agreement
    /// goes on from its last position.)
    fn continued(&self, text: &str) -> ApiResult<zertz::Game> {
        let read = crate::games::records::read(text).map_err(bad)?;
        let own = read.game.rules();
        let rules = Rules {
            set: own.set,
            repetition: match self.no_repetition {
                Some(true) => Repetition::Forbidden,
                Some(false) => Repetition::ThreefoldDraw,
                None => own.repetition,
            },
            bribes: self.bribes.unwrap_or(own.bribes),
        };
        let game = crate::games::records::replay_under(&read.game, rules)
            .map_err(|e| bad(format!("record: {e}")))?;
        if let Some(outcome) = game.outcome() {
            return Err(bad(format!(
                "record: the game is over ({outcome}): there is nothing to continue"
            )));
        }
        Ok(game)
    }
}
