//! The chat part of a game's or a match's WebSocket: the room's latest lines after the first
//! message, every new line as it is said, and what a client may send to the room (`chat`,
//! `mute`, `unmute`, `report`), each answered by `ack` or `refused`. A flood of lines is
//! refused with the reason, never dropped silently.

use crate::accounts::viewer::Viewer;
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
        }
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
            RoomMessage::Chat { text } => match self.limiter.take() {
                Ok(()) => self
                    .chat
                    .say(&self.room, &self.speaker, &text, game)
                    .await
                    .map(|lines| lines.first().map_or(0, |l| l.seq)),
                Err(wait) => {
                    return Some(refused(
                        429,
                        format!(
                            "too many chat messages on this connection: at most {}; try again \
                             in {} ms",
                            self.rate.describe(),
                            wait.as_millis().max(1)
                        ),
                    ));
                }
            },
            RoomMessage::Mute { name } | RoomMessage::Unmute { name } if name.trim().is_empty() => {
                Err(ChatError::Invalid("mute: name the account".into()))
            }
            RoomMessage::Mute { name } => self.mute(&name, true, game).await,
            RoomMessage::Unmute { name } => self.mute(&name, false, game).await,
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
