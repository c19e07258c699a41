//! What a best-of-N match is: its participants, its games so far, the score and the bribes
//! used, as stored (with tokens) and as shown (without). `matches` plays it.

use serde::{Deserialize, Serialize};

use crate::games::model::{Credential, GameSettings, SeatKind, Seated};
use crate::store::MatchRow;
use crate::token;
use crate::util::now_ms;

/// What a new match is made of.
#[derive(Clone, Debug)]
pub struct NewMatch {
    /// Settings of every game (seats are filled per game).
    pub template: GameSettings,
    /// Best of N (odd).
    pub best_of: u32,
    /// The creator: a guest's name or an account.
    pub creator: Seated,
    /// Who plays the creator.
    pub opponent: SeatKind,
    /// The participant (0: the creator, 1: the opponent) who moves first in game 1.
    pub first: usize,
    /// Bribes a player may propose in the whole match.
    pub bribe_limit: u32,
    /// Listed in the lobby for anyone to take.
    pub open: bool,
}

/// One of the two people (or engines) of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// Human or engine.
    pub kind: SeatKind,
    /// The name, once known.
    pub name: Option<String>,
    /// The participant's secret token (the same in every game of the match).
    pub token: Option<String>,
    /// The invitation to an invited place: it takes the place once (which then gets a token
    /// of its own) and is kept to refuse a second use. Matches stored before it held the
    /// invitation as the place's token, which a place nobody took still honours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The account bound to the participant (none for a guest or an engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

/// A game of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGameEntry {
    /// The game.
    pub id: String,
    /// The participant (0 or 1) who moves first in it.
    pub first: usize,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` once over.
    pub result: Option<String>,
    /// The participant who won it.
    pub winner: Option<usize>,
}

/// A match, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchState {
    /// The match.
    pub id: String,
    /// Best of this many (odd).
    pub best_of: u32,
    /// Settings of every game (the seats are filled per game).
    pub template: GameSettings,
    /// The two participants.
    pub players: [Participant; 2],
    /// The participant who moves first in game 1.
    pub first: usize,
    /// Games so far.
    pub games: Vec<MatchGameEntry>,
    /// Wins of each participant.
    pub score: [u32; 2],
    /// Bribes each participant proposed in finished games.
    pub bribes_used: [u32; 2],
    /// Bribes a participant may propose in the whole match.
    pub bribe_limit: u32,
    /// The winner, once decided.
    pub winner: Option<usize>,
    /// Open to anyone in the lobby.
    pub open: bool,
    /// The participant who resigned the match, if one did.
    #[serde(default)]
    pub resigned: Option<usize>,
    /// Games each participant aborted (at most one each).
    #[serde(default)]
    pub aborts: [u32; 2],
}

/// A match as shown to clients (no tokens).
#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    /// The match.
    pub id: String,
    /// Best of N.
    pub best_of: u32,
    /// `open`, `live` or `finished`.
    pub status: &'static str,
    /// Names (or engine levels) of the participants.
    pub players: [ParticipantView; 2],
    /// The viewer's participant index (0 or 1), if any.
    pub you: Option<usize>,
    /// Wins of each participant.
    pub score: [u32; 2],
    /// The games so far.
    pub games: Vec<MatchGameEntry>,
    /// The game being played now.
    pub current_game: Option<String>,
    /// Bribes each participant may still propose (when bribes are on).
    pub bribes_left: Option<[u32; 2]>,
    /// The winner, once decided.
    pub winner: Option<usize>,
    /// The participant who resigned the match, if one did (the other is the winner).
    pub resigned: Option<usize>,
    /// Board, rules and clock of the games.
    pub clock_text: String,
    /// The start position of each game.
    pub start: String,
    /// No-repetition house rule.
    pub repetition: String,
    /// Bribes allowed.
    pub bribes: bool,
    /// Listed in the lobby for anyone to take (an invitation is not).
    pub open: bool,
    /// Every game is rated (both participants are accounts).
    pub rated: bool,
    /// The games' rating pool, if they belong to one.
    pub pool: Option<String>,
}

/// A participant as shown.
#[derive(Clone, Debug, Serialize)]
pub struct ParticipantView {
    /// `human` or `engine`.
    pub kind: &'static str,
    /// Name.
    pub name: Option<String>,
    /// Engine level.
    pub level: Option<u8>,
    /// A person without an account.
    pub guest: bool,
    /// The engine level's published rating.
    pub rating: Option<i32>,
}

impl MatchState {
    /// `open` until both participants are known, `live`, then `finished`.
    pub fn status(&self) -> &'static str {
        if self.winner.is_some() {
            "finished"
        } else if self.players.iter().all(|p| p.name.is_some()) {
            "live"
        } else {
            "open"
        }
    }

    /// The participant `who` is (by token or account).
    pub fn participant(&self, who: Credential<'_>) -> Option<usize> {
        (0..2).find(|&i| match who {
            Credential::Token(token) => self.players[i]
                .token
                .as_deref()
                .is_some_and(|t| token::same(t, token)),
            Credential::Account(a) => self.players[i].account.as_deref() == Some(a),
        })
    }

    /// The view for `who`.
    pub fn view(&self, who: Option<Credential<'_>>) -> MatchView {
        MatchView {
            id: self.id.clone(),
            best_of: self.best_of,
            status: self.status(),
            players: [0, 1].map(|i| {
                let p = &self.players[i];
                let (kind, level) = match p.kind {
                    SeatKind::Human => ("human", None),
                    SeatKind::Engine { level } => ("engine", Some(level)),
                };
                ParticipantView {
                    kind,
                    name: p.name.clone(),
                    level,
                    guest: kind == "human" && p.name.is_some() && p.account.is_none(),
                    rating: level.and_then(crate::games::engine_ratings::rating),
                }
            }),
            you: who.and_then(|w| self.participant(w)),
            score: self.score,
            games: self.games.clone(),
            current_game: self
                .games
                .last()
                .filter(|g| g.result.is_none())
                .map(|g| g.id.clone()),
            bribes_left: self
                .template
                .bribes
                .then(|| [0, 1].map(|i| self.bribe_limit.saturating_sub(self.bribes_used[i]))),
            winner: self.winner,
            resigned: self.resigned,
            clock_text: self.template.clock.describe(),
            start: self.template.start.clone(),
            repetition: self.template.repetition.clone(),
            bribes: self.template.bribes,
            open: self.open,
            rated: self.template.rated,
            pool: self.template.pool.clone(),
        }
    }

    /// The participant who moves first in the next game: game 1 as chosen, then alternating
    /// (a replayed draw counts as a game, so the first player keeps alternating).
    pub(crate) fn next_first(&self) -> usize {
        if self.games.len().is_multiple_of(2) {
            self.first
        } else {
            1 - self.first
        }
    }
}

/// The stored form of a match.
pub(crate) fn match_row(m: &MatchState, created_ms: i64) -> MatchRow {
    MatchRow {
        id: m.id.clone(),
        created_ms,
        state: serde_json::to_string(m).unwrap_or_default(),
        accounts: [0, 1].map(|i| m.players[i].account.clone()),
        status: m.status().to_string(),
        updated_ms: now_ms(),
    }
}
