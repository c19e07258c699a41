//! What an event is: its format, its settings, its status, and the rows it is stored as.

use serde::{Deserialize, Serialize};

use crate::games::clock::ClockSpec;

/// How an event is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The FIDE Dutch Swiss system, a fixed number of rounds.
    Swiss,
    /// Every player meets every other (Berger tables), once or twice.
    RoundRobin,
    /// The host's death-match knockout: a single-elimination bracket of best-of-3 matches.
    Knockout,
    /// A fixed time in which every free player is paired at once with a free player near
    /// them in the standings (`arena.rs`).
    Arena,
}

impl Format {
    /// Its key in requests and storage.
    pub fn key(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::RoundRobin => "round_robin",
            Format::Knockout => "knockout",
            Format::Arena => "arena",
        }
    }

    /// The format of a key.
    pub fn parse(key: &str) -> Option<Format> {
        match key {
            "swiss" => Some(Format::Swiss),
            "round_robin" => Some(Format::RoundRobin),
            "knockout" => Some(Format::Knockout),
            "arena" => Some(Format::Arena),
            _ => None,
        }
    }
}

/// Where an event is in its life.
pub mod status {
    /// Players may join and withdraw.
    pub const REGISTERING: &str = "registering";
    /// Rounds are being played.
    pub const RUNNING: &str = "running";
    /// Held by its organiser: the games under way go on, no round is paired until it runs
    /// again.
    pub const PAUSED: &str = "paused";
    /// Over: the standings are final.
    pub const FINISHED: &str = "finished";
    /// Every status, in life order.
    pub const ALL: [&str; 4] = [REGISTERING, RUNNING, PAUSED, FINISHED];
}

/// The settings of an event, stored as JSON: the games' board, rule set and clock, whether
/// they are rated, and the format's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The board (`37`, `48`, `61`…).
    pub board: String,
    /// The rule set (`standard`, `blitz`, `custom:…`).
    pub rules: String,
    /// The clock of every game, as a game's.
    pub clock: ClockSpec,
    /// The games are rated.
    pub rated: bool,
    /// Swiss: the number of rounds. Round robin: the rounds planned, when fewer than the
    /// whole cycle (none: the whole cycle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Round robin: every pair meets twice, colours swapped.
    #[serde(default)]
    pub double: bool,
    /// Seconds a player has for each of the first two moves of a game (the first from the
    /// round's pairing, the second from the first move) before losing it by forfeit.
    #[serde(default = "default_first_move_s")]
    pub first_move_s: u32,
    /// Knockout: who moves first in game 1 of a match, `higher` or `lower` seed (the one
    /// "called into" the death match; the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_mover: Option<String>,
    /// Knockout: the semifinal losers play a match for third place beside the final.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub third_place: bool,
    /// Arena: how long it runs, in minutes from its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Arena: a player may go berserk at the start of a game (half the clock, no increment,
    /// one point more for a win of at least 7 turns of their own).
    #[serde(default)]
    pub berserk: bool,
    /// Entry: the lowest rating (in the event's pool, 1500 without one) a player may have to
    /// join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<u32>,
    /// Entry: the highest rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<u32>,
    /// Entry: how many days old an account must be to join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_account_days: Option<u32>,
}

impl Settings {
    /// Why a player of `rating` whose account was made `age_ms` ago may not join, if they may
    /// not: a sentence naming the limit.
    pub fn entry_refusal(&self, rating: f64, age_ms: i64) -> Option<String> {
        let shown = rating.round() as i64;
        if let Some(min) = self.min_rating
            && shown < i64::from(min)
        {
            return Some(format!(
                "your rating for this event's games, {shown}, is below its minimum of {min}"
            ));
        }
        if let Some(max) = self.max_rating
            && shown > i64::from(max)
        {
            return Some(format!(
                "your rating for this event's games, {shown}, is above its maximum of {max}"
            ));
        }
        if let Some(days) = self.min_account_days {
            let old = age_ms.max(0) / DAY_MS;
            if old < i64::from(days) {
                return Some(format!(
                    "this event takes accounts at least {days} day{} old; yours is {old}",
                    if days == 1 { "" } else { "s" }
                ));
            }
        }
        None
    }
}

/// A day, in ms.
const DAY_MS: i64 = 24 * 3600 * 1000;

/// Seconds for a first move when the organiser does not say (and for events stored before the
/// setting existed).
pub const DEFAULT_FIRST_MOVE_S: u32 = 60;

fn default_first_move_s() -> u32 {
    DEFAULT_FIRST_MOVE_S
}

/// An event as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id (random, as a game's).
    pub id: String,
    /// Its name.
    pub name: String,
    /// [`Format::key`].
    pub format: String,
    /// [`Settings`] as JSON.
    pub settings: String,
    /// When it starts by itself (ms since the epoch), if it does.
    pub starts_ms: Option<i64>,
    /// Most players.
    pub max_players: i64,
    /// The organiser's account id.
    pub organiser: String,
    /// The organiser's name.
    pub organiser_name: String,
    /// One of [`status::ALL`].
    pub status: String,
    /// The last round paired (0 before the first).
    pub round: i64,
    /// When it was created (ms).
    pub created_ms: i64,
    /// When it last changed (ms).
    pub updated_ms: i64,
}

/// A player's entry.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryRow {
    /// The account.
    pub account_id: String,
    /// The name shown.
    pub name: String,
    /// The rating in the event's pool when joining, then at the start.
    pub rating: f64,
    /// The pairing number (from 1), given at the start.
    pub number: Option<i64>,
    /// Withdrawn: before the start the entry no longer counts; after it, paired no more.
    pub withdrawn: bool,
    /// When the player joined (ms).
    pub joined_ms: i64,
    /// In a knockout, when it is this player's choice who begins a match's first game, they
    /// let the opponent begin (the default: they begin).
    pub gives_first: bool,
}

/// One board of a round, or a bye.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingRow {
    /// The round, from 1.
    pub round: i64,
    /// The board, from 1 (a bye after the games).
    pub board: i64,
    /// The account that moves first (the bye's player for a bye).
    pub white: String,
    /// The account that moves second (`None`: a bye).
    pub black: Option<String>,
    /// The game (`None`: a bye).
    pub game_id: Option<String>,
    /// The result (see [`result`]); `None` while the game is played.
    pub result: Option<String>,
    /// Who went berserk in the game (see [`berserk`]), recorded with the result.
    pub berserk: Option<String>,
    /// The turns played in the game, recorded with the result.
    pub turns: Option<i64>,
}

/// What a finished game tells its pairing besides the result: who went berserk and how many
/// turns were played (an arena's berserk point needs 7 turns of the player's own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// [`berserk::WHITE`], [`berserk::BLACK`], [`berserk::BOTH`] or none.
    pub berserk: Option<&'static str>,
    /// Turns played (both players').
    pub turns: i64,
}

impl Played {
    /// The turns the first mover (`white`) or the second made out of `turns`.
    pub fn own_turns(turns: i64, white: bool) -> u32 {
        let turns = turns.max(0) as u32;
        if white { turns.div_ceil(2) } else { turns / 2 }
    }
}

/// Who went berserk in a game, as a pairing stores it.
pub mod berserk {
    /// The first mover.
    pub const WHITE: &str = "white";
    /// The second mover.
    pub const BLACK: &str = "black";
    /// Both.
    pub const BOTH: &str = "both";

    /// The stored word for the seats that went berserk (first mover, second mover).
    pub fn word(seats: [bool; 2]) -> Option<&'static str> {
        match seats {
            [true, true] => Some(BOTH),
            [true, false] => Some(WHITE),
            [false, true] => Some(BLACK),
            [false, false] => None,
        }
    }

    /// Whether the first mover (`white`) or the second went berserk, by the stored word.
    pub fn went(word: Option<&str>, white: bool) -> bool {
        matches!(
            (word, white),
            (Some(BOTH), _) | (Some(WHITE), true) | (Some(BLACK), false)
        )
    }
}

/// An event with its entries and its pairings, read in one snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The event.
    pub row: TournamentRow,
    /// Its entries, in the order they joined.
    pub entries: Vec<EntryRow>,
    /// Every pairing, by round and board.
    pub pairings: Vec<PairingRow>,
    /// The byes players asked for, by round.
    pub byes: Vec<ByeRow>,
}

/// A bye a player asked for: a Swiss round sat out.
#[derive(Clone, Debug, PartialEq)]
pub struct ByeRow {
    /// The account.
    pub account_id: String,
    /// The round, from 1.
    pub round: i64,
    /// [`bye::HALF`] or [`bye::ZERO`].
    pub points: String,
}

/// The points a requested bye gives.
pub mod bye {
    /// Half a point.
    pub const HALF: &str = "half";
    /// No point.
    pub const ZERO: &str = "zero";
}

/// What a bye request asked of the store came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByeAsked {
    /// Recorded (or withdrawn, for a request of no bye).
    Done,
    /// The round is paired already (or the event is over).
    TooLate,
    /// The player is not in the event (or withdrew).
    NotEntered,
    /// No such event.
    NotFound,
}

/// The results a pairing row holds, from the first mover's side.
pub mod result {
    /// The first mover won.
    pub const WHITE: &str = "1-0";
    /// The second mover won.
    pub const BLACK: &str = "0-1";
    /// A draw.
    pub const DRAW: &str = "1/2-1/2";
    /// The second mover forfeited (aborted the game).
    pub const WHITE_FORFEIT_WIN: &str = "+-";
    /// The first mover forfeited.
    pub const BLACK_FORFEIT_WIN: &str = "-+";
    /// Both forfeited (a game aborted by nobody in particular).
    pub const DOUBLE_FORFEIT: &str = "--";
    /// The Swiss pairing-allocated bye: a win's points (C.04.1).
    pub const BYE: &str = "bye";
    /// A bye the player asked for, half a point.
    pub const HALF_BYE: &str = "half-bye";
    /// A bye the player asked for, no point.
    pub const ZERO_BYE: &str = "zero-bye";
    /// A round robin's odd player out: no points (everyone rests once a cycle).
    pub const REST: &str = "rest";
}

/// Who moves first in game 1 of a knockout match.
pub mod first_mover {
    /// The higher seed.
    pub const HIGHER: &str = "higher";
    /// The lower seed: the one called into the death match (the host's custom).
    pub const LOWER: &str = "lower";
}

/// What a join asked of the store came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// The player is in (again, after a withdrawal).
    Joined,
    /// The player was in already: nothing changed.
    Already,
    /// The event has its most players.
    Full,
    /// The event no longer registers.
    Closed,
    /// No such event.
    NotFound,
}

/// What a player's choice of who begins (`gives_first`) asked of the store came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// Stored.
    Chosen,
    /// The player is not entered (or withdrew).
    NotEntered,
    /// The event is over.
    Closed,
    /// No such event.
    NotFound,
}

/// What a withdrawal asked of the store came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawn {
    /// The player is out.
    Withdrawn,
    /// The player was not in.
    NotEntered,
    /// The event is over.
    Closed,
    /// No such event.
    NotFound,
}
