//! The chat part of a game's or a match's WebSocket: the room's latest lines after the first
//! message, every new line as it is said, and what a client may send to the room (`chat`,
//! `mute`, `unmute`, `report`), each answered by `ack` or `refused`. A flood of lines is
//! refused with the reason, never dropped silently. Lines, mutes and unmutes are charged to
//! the connection, and to the account and the address across all their sockets and rooms
//! (`chat::public`: accounts are free, so a limit per connection alone is no limit). A player
//! may mute a watcher in their room, never their opponent: each may hide the other's lines
//! for themselves on their page.

use crate::accounts::viewer::Viewer;
use std::net::IpAddr;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::{Receiver, error::RecvError};

use crate::accounts::Accounts;
use crate::app::state::AppState;
use crate::chat::service::HISTORY;
use crate::chat::store::ChatLine;
use crate::chat::{Chat, ChatError, GameRoom, Speaker};
use crate::rate::{Limiter, Rate};

/// What a client may send to a room.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum RoomMessage {
    /// Say something.
    Chat {
        /// The line.
        text: String,
    },
    /// Mute an account in this room (the room's players only).
    Mute {
        /// The account's name.
        name: String,
    },
    /// Unmute it.
    Unmute {
        /// The account's name.
        name: String,
    },
    /// Report a line to the operator.
    Report {
        /// The line's number.
        seq: i64,
    },
}

/// A connection's place in a room.
pub struct RoomLink {
    chat: Arc<Chat>,
    accounts: Arc<Accounts>,
    room: String,
    /// Who speaks on this connection.
    pub speaker: Speaker,
    /// New lines (taken when the link is dropped, so that the room sees it leave).
    lines: Option<Receiver<Arc<ChatLine>>>,
    /// The last line sent to the client.
    last: i64,
    rate: Rate,
    limiter: Limiter,
    /// The accounts that play in the room (a game's seats, a match's players): nobody mutes
    /// them out of their own game.
    players: Vec<String>,
    /// The connection's address, charged with the account for what it says.
    address: Option<IpAddr>,
}

impl RoomLink {
    /// Joins `room` as `speaker`, with the server's limit of lines per connection.
    pub fn join(state: &AppState, room: String, speaker: Speaker) -> RoomLink {
        RoomLink::open(
            Arc::clone(&state.chat),
            Arc::clone(&state.accounts),
            room,
            speaker,
            state.hub.config().chat_rate,
        )
    }

    /// Joins `room` as `speaker`, with `rate` lines a connection may say.
    pub fn open(
        chat: Arc<Chat>,
        accounts: Arc<Accounts>,
        room: String,
        speaker: Speaker,
        rate: Rate,
    ) -> RoomLink {
        // Subscribed before the history is read, so that no line falls between the two.
        let lines = chat.subscribe(&room);
        RoomLink {
            chat,
            accounts,
            room,
            speaker,
            lines: Some(lines),
            last: 0,
            rate,
            limiter: Limiter::new(rate),
            players: Vec::new(),
            address: None,
        }
    }

    /// The link, knowing the accounts that play in its room and the connection's address.
    pub fn of(mut self, players: Vec<String>, address: Option<IpAddr>) -> RoomLink {
        self.players = players;
        self.address = address;
        self
    }

    /// Charges a mute or an unmute when it would be carried out: a player's (a watcher's is
    /// refused as such, charged nothing).
    fn charge_mute(&self) -> Result<(), String> {
        if self.speaker.seat.is_none() {
            return Ok(());
        }
        self.charge("mutes")
    }

    /// Charges one line (or mute) to the connection, then to the account and the address:
    /// the refusal to send when any is spent.
    fn charge(&self, what: &str) -> Result<(), String> {
        if let Err(wait) = self.limiter.take() {
            return Err(format!(
                "too many {what} on this connection: at most {}; try again in {} ms",
                self.rate.describe(),
                wait.as_millis().max(1)
            ));
        }
        self.chat
            .public_limits()
            .take(self.speaker.account.as_deref(), self.address)
    }

    /// `{"type": "chat_history", "lines": […], "muted": [names]}` with the room's latest
    /// lines and the accounts muted in it, if it has any lines.
    pub async fn history(&mut self) -> Option<String> {
        let lines = self.chat.history(&self.room, HISTORY).await.ok()?;
        self.last = lines.last()?.seq;
        let muted = self.chat.muted(&self.room).await.unwrap_or_default();
        let names = self.accounts.names_of(&muted).await.unwrap_or_default();
        let mut names: Vec<String> = names.into_values().collect();
        names.sort();
        Some(json!({"type": "chat_history", "lines": lines, "muted": names}).to_string())
    }

    /// The next new line for the client (`None`: the room closed).
    pub async fn next_line(&mut self) -> Option<String> {
        loop {
            let lines = self.lines.as_mut()?;
            match lines.recv().await {
                Ok(line) if line.seq <= self.last => continue,
                Ok(line) => {
                    self.last = line.seq;
                    return Some(json!({"type": "chat", "line": *line}).to_string());
                }
                // Too far behind: the latest lines again.
                Err(RecvError::Lagged(_)) => {
                    if let Some(text) = self.history().await {
                        return Some(text);
                    }
                }
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// Handles `text` if it is a message to the room, and returns the answer; `None` when it
    /// is not one (an action, for the caller).
    pub async fn handle(&mut self, text: &str, game: Option<GameRoom<'_>>) -> Option<String> {
        // Cheap test first: actions (the common case) are not parsed twice.
        if !["chat", "mute", "unmute", "report"]
            .iter()
            .any(|t| text.contains(&format!("\"{t}\"")))
        {
            return None;
        }
        let message: RoomMessage = serde_json::from_str(text).ok()?;
        let answer = match message {
            RoomMessage::Chat { text } => match self.charge("chat messages") {
                Ok(()) => self
                    .chat
                    .say(&self.room, &self.speaker, &text, game)
                    .await
                    .map(|lines| lines.first().map_or(0, |l| l.seq)),
                Err(why) => return Some(refused(429, why)),
            },
            RoomMessage::Mute { name } | RoomMessage::Unmute { name } if name.trim().is_empty() => {
                Err(ChatError::Invalid("mute: name the account".into()))
            }
            RoomMessage::Mute { name } => match self.charge_mute() {
                Ok(()) => self.mute(&name, true, game).await,
                Err(why) => return Some(refused(429, why)),
            },
            RoomMessage::Unmute { name } => match self.charge_mute() {
                Ok(()) => self.mute(&name, false, game).await,
                Err(why) => return Some(refused(429, why)),
            },
            RoomMessage::Report { seq } => self
                .chat
                .report(&self.room, seq, &self.speaker)
                .await
                .map(|()| seq),
        };
        Some(match answer {
            Ok(seq) => json!({"type": "ack", "chat": seq}).to_string(),
            Err(e) => refused(e.status(), e.to_string()),
        })
    }

    async fn mute(
        &self,
        name: &str,
        muted: bool,
        game: Option<GameRoom<'_>>,
    ) -> Result<i64, ChatError> {
        let account = self
            .accounts
            .named(name.trim())
            .await
            .map_err(|e| ChatError::Storage(e.to_string()))?
            .ok_or_else(|| ChatError::NotFound(format!("no player is named {name}")))?;
        if self.speaker.seat.is_some() && self.players.contains(&account.id) {
            return Err(ChatError::Forbidden(format!(
                "{} plays in this room and cannot be muted in it: hide their lines for \
                 yourself (ignore) or report a line",
                account.name
            )));
        }
        let line = self
            .chat
            .mute(
                &self.room,
                &self.speaker,
                (&account.id, &account.name),
                muted,
                game,
            )
            .await?;
        Ok(line.seq)
    }
}

impl Drop for RoomLink {
    fn drop(&mut self) {
        drop(self.lines.take());
        self.chat.unsubscribe(&self.room);
    }
}

/// The answer to a message that was not carried out.
pub fn refused(status: u16, message: String) -> String {
    json!({"type": "refused", "status": status, "error": message}).to_string()
}

/// A spectator in a room's chat: their account, or a guest with the name they gave (cleaned;
/// `Guest` when none).
pub(crate) fn spectator(viewer: &Viewer, name: Option<&str>) -> Speaker {
    match &viewer.account {
        Some(a) => Speaker {
            name: a.name.clone(),
            account: Some(a.id.clone()),
            seat: None,
        },
        None => Speaker {
            name: name
                .and_then(|n| crate::util::clean_name(n).ok())
                .filter(|n| n != "Anonymous")
                .unwrap_or_else(|| "Guest".into()),
            account: None,
            seat: None,
        },
    }
}
