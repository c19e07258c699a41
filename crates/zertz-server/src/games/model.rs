//! What the server stores and sends: game settings, the events of a game's log, and the actions
//! a seat may take. All of it is JSON on the wire and in the database.

use serde::{Deserialize, Serialize};
use zertz::Player;

use crate::games::clock::{ClockSpec, ClockState};

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatKind {
    /// A person, holding a secret seat token.
    Human,
    /// The engine at a level from 1 to 10.
    Engine {
        /// 1 (beginner) to 10 (full strength).
        level: u8,
    },
}

/// Everything fixed when a game is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// The start position as a position string (board, rule set, supply, captures given as a
    /// handicap, player to move).
    pub start: String,
    /// `threefold` (the official draw) or `forbidden` (the no-repetition house rule).
    pub repetition: String,
    /// Whether the bribe-to-pass house rule is on.
    pub bribes: bool,
    /// The time control.
    pub clock: ClockSpec,
    /// Casual games allow takebacks; rated ones do not.
    pub casual: bool,
    /// Seat of player one (moves first) and player two.
    pub seats: [SeatKind; 2],
    /// Listed in the lobby for anyone to accept.
    pub open: bool,
    /// Turns played before the game came to this server, as a record (docs/formats.md) from
    /// `start`, under this game's rules: the game goes on after them with its whole history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<String>,
    /// The match this game is part of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_game: Option<MatchGame>,
    /// A rated game: both seats are accounts, no takebacks, and its result changes both
    /// players' ratings in `pool`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
    /// The rating pool the game belongs to (`standard-rapid`…), rated or not; none outside
    /// every pool (other boards, set-up positions, no clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// A "Zertz+xx" game: player one designs the board before play (`start` then gives only
    /// the rule set, on a placeholder board), and player two may swap (games/design.rs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub design: bool,
    /// An arena's game: each player may go berserk before their first move (half their
    /// clock, no increment), which the arena rewards (tournaments/arena.rs).
    #[serde(default, skip_serializing_if = "is_false")]
    pub berserk: bool,
}

/// Why a guest cannot take part in a rated game.
pub const RATED_NEEDS_ACCOUNTS: &str = "rated games need an account on both seats";

fn is_false(b: &bool) -> bool {
    !b
}

/// A game's place in its match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGame {
    /// The match.
    pub match_id: String,
    /// 1 for the first game.
    pub number: u32,
    /// Bribes each seat of this game proposed in the match's earlier games.
    pub bribes_used: [u32; 2],
    /// Bribes a player may propose in the whole match.
    pub bribe_limit: u32,
    /// Whether each seat's participant has already aborted a game of the match (one each).
    #[serde(default)]
    pub aborted_before: [bool; 2],
}

/// One entry of a game's log. The log is the game: replaying it rebuilds everything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The game was created.
    Created {
        /// Its settings.
        settings: GameSettings,
    },
    /// A person took a seat.
    Joined {
        /// 1 or 2.
        seat: u8,
        /// The name they gave (a guest's) or their account's name.
        name: String,
        /// The account bound to the seat: its holder may act for it from any device where
        /// they are logged in. None for a guest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<String>,
    },
    /// Both seats are filled: the clocks run from now.
    Started,
    /// A move, in official notation, with the mover's clock after it.
    Moved {
        /// 1 or 2.
        seat: u8,
        /// Official notation.
        notation: String,
        /// The mover's clock after the move.
        clock: ClockState,
    },
    /// A bribe was offered instead of a move.
    BribeProposed {
        /// 1 or 2.
        seat: u8,
        /// `white/grey/black`.
        marbles: String,
    },
    /// The bribe was answered; if accepted the proposer's turn passed (clock after it given).
    BribeAnswered {
        /// Who answered.
        seat: u8,
        /// Accepted or rejected.
        accepted: bool,
        /// The proposer's clock after the pass, when accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockState>,
        /// The answerer's clock after the decision, charged like a turn of theirs (absent
        /// without a clock, and in games stored before the answerer's clock ran).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        responder_clock: Option<ClockState>,
    },
    /// A draw was offered.
    DrawOffered {
        /// 1 or 2.
        seat: u8,
    },
    /// The draw offer was declined (or withdrawn by a move).
    DrawDeclined {
        /// 1 or 2.
        seat: u8,
    },
    /// Both agreed to a draw.
    DrawAgreed,
    /// A takeback was asked for.
    TakebackRequested {
        /// 1 or 2.
        seat: u8,
    },
    /// The takeback was declined.
    TakebackDeclined {
        /// 1 or 2.
        seat: u8,
    },
    /// Turns were taken back; the clocks are as given.
    TakenBack {
        /// How many turns.
        turns: u32,
        /// Both clocks after the takeback.
        clocks: [ClockState; 2],
    },
    /// A player resigned.
    Resigned {
        /// 1 or 2.
        seat: u8,
    },
    /// A player ran out of time.
    Flagged {
        /// 1 or 2.
        seat: u8,
    },
    /// The game was called off before it really started.
    Aborted {
        /// Who aborted (none when the server did).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
    },
    /// A player claimed the win after the opponent stayed away past the countdown.
    Claimed {
        /// The claimant.
        seat: u8,
    },
    /// A rematch was offered.
    RematchOffered {
        /// 1 or 2.
        seat: u8,
    },
    /// The rematch (or the match's next game) exists.
    NextGame {
        /// Its id.
        game_id: String,
    },
    /// The designer of a Zertz+xx board added a ring.
    RingAdded {
        /// The designer's seat.
        seat: u8,
        /// The place of the grid (`c3`).
        at: String,
    },
    /// The designer of a Zertz+xx board took a ring away again.
    RingRemoved {
        /// The designer's seat.
        seat: u8,
        /// The place of the grid.
        at: String,
    },
    /// The designer finished the board: the game starts on it, player two to move.
    DesignFinished {
        /// The designer's seat.
        seat: u8,
    },
    /// Player two swapped (the pie rule): the designer moves first.
    Swapped {
        /// The seat that swapped.
        seat: u8,
    },
    /// A player went berserk (an arena's game): their clock halved, no increment from now.
    Berserk {
        /// 1 or 2.
        seat: u8,
        /// The player's clock after halving.
        clock: ClockState,
    },
}

/// Something a seat asks for. Unknown fields are refused; the variants without fields are
/// written with braces because serde refuses unknown fields only in variants with braces
/// (`{"type": "resign", "seat": 2}` would pass as a unit variant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a move, in official or host notation.
    Move {
        /// The move.
        #[serde(rename = "move")]
        text: String,
    },
    /// Resign.
    Resign {},
    /// Offer a draw (or accept the opponent's offer).
    OfferDraw {},
    /// Accept the opponent's draw offer.
    AcceptDraw {},
    /// Decline the opponent's draw offer.
    DeclineDraw {},
    /// Ask to take back the last move (casual games).
    RequestTakeback {},
    /// Grant the opponent's takeback.
    AcceptTakeback {},
    /// Refuse the opponent's takeback.
    DeclineTakeback {},
    /// Call the game off (before both players have moved).
    Abort {},
    /// Offer (or accept) a rematch.
    Rematch {},
    /// Claim the win when the opponent has been away past the countdown.
    ClaimVictory {},
    /// Propose a bribe instead of moving (`white/grey/black`).
    ProposeBribe {
        /// The marbles offered, `w/g/b`.
        marbles: String,
    },
    /// Answer the opponent's bribe.
    AnswerBribe {
        /// Accept or reject.
        accept: bool,
    },
    /// Zertz+xx, the designer: add a ring to the board being designed.
    AddRing {
        /// A place of the grid (`c3`: columns a to q, rows 1 to 12).
        at: String,
    },
    /// Zertz+xx, the designer: take a ring of the design away again.
    RemoveRing {
        /// A place of the grid.
        at: String,
    },
    /// Zertz+xx, the designer: the board is finished.
    FinishDesign {},
    /// Zertz+xx, player two, before the first move: let the designer move first.
    Swap {},
    /// An arena's game, before one's first move: halve one's clock (and drop the increment)
    /// for an extra point on a win.
    Berserk {},
}

/// Who takes a seat: the name shown, and the account bound to it (none for a guest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    /// The name shown.
    pub name: String,
    /// The account's id.
    pub account: Option<String>,
}

impl Seated {
    /// A guest with the name they gave.
    pub fn guest(name: impl Into<String>) -> Seated {
        Seated {
            name: name.into(),
            account: None,
        }
    }
}

/// Who asks to act for a seat (or to see a game as its player): the holder of a seat token, or
/// a logged-in account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential<'a> {
    /// A secret seat token.
    Token(&'a str),
    /// The id of the account whose session the request carries.
    Account(&'a str),
}

/// A [`Credential`] that owns its text, as a connection keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    /// A secret seat token.
    Token(String),
    /// An account's id.
    Account(String),
}

impl Holder {
    /// The credential it holds.
    pub fn credential(&self) -> Credential<'_> {
        match self {
            Holder::Token(t) => Credential::Token(t),
            Holder::Account(a) => Credential::Account(a),
        }
    }
}

/// 1 or 2, from a player.
pub fn seat_number(p: Player) -> u8 {
    p.number()
}

/// The player of seat 1 or 2.
pub fn seat_player(seat: u8) -> Option<Player> {
    match seat {
        1 => Some(Player::One),
        2 => Some(Player::Two),
        _ => None,
    }
}

#[cfg(test)]
impl GameSettings {
    /// What the unit tests start from: a casual game between two people on the 37-ring board
    /// under the standard rules, the official threefold-repetition draw, no bribes, `clock`.
    /// A test that needs another setting changes that field (`..GameSettings::for_tests(c)`).
    pub(crate) fn for_tests(clock: ClockSpec) -> GameSettings {
        let start = zertz::Position::new(
            zertz::Layout::from_spec("37").unwrap(),
            "standard".parse::<zertz::RuleSet>().unwrap(),
        );
        GameSettings {
            start: start.to_string(),
            repetition: "threefold".into(),
            bribes: false,
            clock,
            casual: true,
            seats: [SeatKind::Human, SeatKind::Human],
            open: false,
            history: None,
            match_game: None,
            rated: false,
            pool: None,
            design: false,
            berserk: false,
        }
    }
}
