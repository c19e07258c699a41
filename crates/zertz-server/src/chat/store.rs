//! What the public game room stores: the lines of each room's chat (numbered from 1 per room),
//! the accounts muted in it, and the lines reported to the operator.

use async_trait::async_trait;
use serde::Serialize;

use crate::store::StoreError;

/// A line of a room's chat, as stored and as sent (without the speaker's account id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// The room: `game:ID` or `match:ID`.
    #[serde(skip)]
    pub room: String,
    /// Its number in the room, from 1.
    pub seq: i64,
    /// When it was said.
    pub at_ms: i64,
    /// `player`, `spectator`, or `room` (the room's own answers).
    pub kind: String,
    /// The speaker's seat (1 or 2) or place in a match (1 or 2), for players.
    pub seat: Option<i64>,
    /// The speaker's account, if any.
    #[serde(skip)]
    pub account_id: Option<String>,
    /// The speaker's name.
    pub name: String,
    /// The speaker has no account.
    pub guest: bool,
    /// What was said (plain text: clients show it escaped).
    pub text: String,
    /// The move the line was played as, in official notation.
    pub played: Option<String>,
    /// Turns played in the game when it was said.
    pub turn: i64,
}

/// A reported line with who reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The line.
    pub line: ChatLine,
    /// Who reported it (an account's name, or `guest NAME`).
    pub reporter: String,
    /// When.
    pub at_ms: i64,
}

/// The chat's storage. Every method is one transaction.
#[async_trait]
pub trait ChatStore: Send + Sync {
    /// Adds `line` to its room with the next number there (its `seq` is ignored); returns the
    /// line as stored.
    async fn add_chat_line(&self, line: &ChatLine) -> Result<ChatLine, StoreError>;

    /// The last `limit` lines of `room`, oldest first.
    async fn chat_lines(&self, room: &str, limit: i64) -> Result<Vec<ChatLine>, StoreError>;

    /// One line of a room.
    async fn chat_line(&self, room: &str, seq: i64) -> Result<Option<ChatLine>, StoreError>;

    /// Mutes (or, with `muted` false, unmutes) `account` in `room`.
    async fn set_mute(
        &self,
        room: &str,
        account: &str,
        by: Option<&str>,
        muted: bool,
        at_ms: i64,
    ) -> Result<(), StoreError>;

    /// The accounts muted in `room`.
    async fn mutes(&self, room: &str) -> Result<Vec<String>, StoreError>;

    /// Reports line `seq` of `room` for `reporter` (an account id, or `guest:NAME`); a second
    /// report of the same line by the same reporter changes nothing.
    async fn add_report(
        &self,
        room: &str,
        seq: i64,
        reporter: &str,
        at_ms: i64,
    ) -> Result<(), StoreError>;

    /// The latest `limit` reports, newest first, with their lines and reporters' names.
    async fn reports(&self, limit: i64) -> Result<Vec<Report>, StoreError>;
}
