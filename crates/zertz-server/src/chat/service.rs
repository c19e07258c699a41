//! The public game room: every game and match has a chat, carried by its WebSocket and stored
//! with it. A line is checked (plain text, presets for guests who only watch, mutes), stored,
//! then sent to everyone in the room; the room itself answers what it reads in a line (a move
//! typed by the player to move, a question about a coordinate).

use std::sync::Arc;

use zertz::Player;

use crate::chat::rules::{clean, is_preset, presets_only};
use crate::chat::store::ChatLine;
use crate::chat::store::ChatStore;
use crate::chat::typed::{Typed, answer_coordinate, read_move};
use crate::games::hub::{Hub, HubError, Live};
use crate::games::model::Action;
use crate::games::watchers::Watchers;
use crate::store::StoreError;
use crate::util::now_ms;

/// Lines sent to a client when it opens a room (the latest).
pub const HISTORY: i64 = 200;

/// The name the room speaks with.
pub const ROOM_NAME: &str = "the room";

/// Who speaks in a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Speaker {
    /// The name shown.
    pub name: String,
    /// The account's id, if any.
    pub account: Option<String>,
    /// Their seat (1 or 2) in the game, or place in the match: a player of the room.
    pub seat: Option<u8>,
}

impl Speaker {
    fn is_guest(&self) -> bool {
        self.account.is_none()
    }
}

/// Why a line or a request was refused; the status is the HTTP one it would have.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    /// Malformed (empty, too long, control characters, unknown line).
    #[error("{0}")]
    Invalid(String),
    /// Not allowed (muted, presets only, not a player of the room).
    #[error("{0}")]
    Forbidden(String),
    /// No such line or player.
    #[error("{0}")]
    NotFound(String),
    /// Storage failed; nothing was said.
    #[error("storage failed, nothing was said: {0}")]
    Storage(String),
}

impl From<StoreError> for ChatError {
    fn from(e: StoreError) -> ChatError {
        ChatError::Storage(e.to_string())
    }
}

impl ChatError {
    /// The HTTP status of this refusal.
    pub fn status(&self) -> u16 {
        match self {
            ChatError::Invalid(_) => 400,
            ChatError::Forbidden(_) => 403,
            ChatError::NotFound(_) => 404,
            ChatError::Storage(_) => 503,
        }
    }
}

/// The game a room belongs to, for what the room reads in a line.
pub struct GameRoom<'a> {
    /// The games.
    pub hub: &'a Hub,
    /// The game.
    pub live: &'a Arc<Live>,
    /// Who sends (an account or an address), as the hub charges an action to it.
    pub client: &'a crate::accounts::viewer::Payer,
}

/// The chat of every room.
pub struct Chat {
    store: Arc<dyn ChatStore>,
    watchers: Watchers<Arc<ChatLine>>,
    /// Guests who do not play may say anything (`zertz serve --guest-chat`).
    guest_chat: bool,
    /// The public room's limits per account and per address.
    public: crate::chat::public::PublicLimits,
}

/// The room of a game.
pub fn game_room(id: &str) -> String {
    format!("game:{id}")
}

/// The room of a match.
pub fn match_room(id: &str) -> String {
    format!("match:{id}")
}

/// The room of a tournament.
pub fn tournament_room(id: &str) -> String {
    format!("tournament:{id}")
}

impl Chat {
    /// The chat on `store`; `guest_chat` lets guests who do not play say anything.
    pub fn new(store: Arc<dyn ChatStore>, guest_chat: bool) -> Chat {
        Chat {
            store,
            watchers: Watchers::new(64),
            guest_chat,
            public: Default::default(),
        }
    }

    /// The public room's limits per account and per address.
    pub fn public_limits(&self) -> &crate::chat::public::PublicLimits {
        &self.public
    }

    /// Subscribes to the new lines of `room`.
    pub fn subscribe(&self, room: &str) -> tokio::sync::broadcast::Receiver<Arc<ChatLine>> {
        self.watchers.subscribe(room)
    }

    /// A subscriber of `room` went away.
    pub fn unsubscribe(&self, room: &str) {
        self.watchers.forget_if_unwatched(room);
    }

    /// The latest lines of `room`, oldest first.
    pub async fn history(&self, room: &str, limit: i64) -> Result<Vec<ChatLine>, ChatError> {
        Ok(self.store.chat_lines(room, limit).await?)
    }

    /// The accounts muted in `room`.
    pub async fn muted(&self, room: &str) -> Result<Vec<String>, ChatError> {
        Ok(self.store.mutes(room).await?)
    }

    /// Stores a line and sends it to the room.
    async fn add(&self, line: ChatLine) -> Result<ChatLine, ChatError> {
        let stored = self.store.add_chat_line(&line).await?;
        self.watchers.send(&stored.room, Arc::new(stored.clone()));
        Ok(stored)
    }

    /// The room's own line.
    async fn room_says(&self, room: &str, text: String, turn: i64) -> Result<ChatLine, ChatError> {
        self.add(ChatLine {
            room: room.to_string(),
            seq: 0,
            at_ms: now_ms(),
            kind: "room".into(),
            seat: None,
            account_id: None,
            name: ROOM_NAME.into(),
            guest: false,
            text,
            played: None,
            turn,
        })
        .await
    }

    /// `speaker` says `text` in `room` (of `game`, if it is a game's room). Returns the lines
    /// stored: the speaker's, then the room's answer if it has one. A line from the player to
    /// move that reads as one legal move is played as that move.
    pub async fn say(
        &self,
        room: &str,
        speaker: &Speaker,
        text: &str,
        game: Option<GameRoom<'_>>,
    ) -> Result<Vec<ChatLine>, ChatError> {
        let text = clean(text).map_err(ChatError::Invalid)?;
        if let Some(account) = &speaker.account
            && self.store.mutes(room).await?.contains(account)
        {
            return Err(ChatError::Forbidden(
                "you are muted in this room by its players".into(),
            ));
        }
        if speaker.is_guest() && speaker.seat.is_none() && !self.guest_chat && !is_preset(&text) {
            return Err(ChatError::Forbidden(presets_only()));
        }
        let snapshot = match &game {
            Some(g) => Some(g.hub.snapshot(g.live).await),
            None => None,
        };
        let turn = snapshot.as_ref().map_or(0, |s| s.turns as i64);
        let mut line = ChatLine {
            room: room.to_string(),
            seq: 0,
            at_ms: now_ms(),
            kind: if speaker.seat.is_some() {
                "player"
            } else {
                "spectator"
            }
            .into(),
            seat: speaker.seat.map(i64::from),
            account_id: speaker.account.clone(),
            name: speaker.name.clone(),
            guest: speaker.is_guest(),
            text: text.clone(),
            played: None,
            turn,
        };
        let mut answer = None;
        if let (Some(g), Some(s)) = (&game, &snapshot) {
            let mover = speaker
                .seat
                .and_then(|n| Player::from_index(usize::from(n).wrapping_sub(1)))
                .filter(|p| s.live && *p == s.to_move);
            let typed = mover.map(|seat| (seat, read_move(&s.position, &text)));
            match typed {
                Some((seat, Typed::Move(_, official))) => {
                    let action = Action::Move {
                        text: official.clone(),
                    };
                    match g.hub.act_seat(g.live, seat, &action, g.client).await {
                        Ok(_) => line.played = Some(official),
                        Err(HubError::Storage(e)) => return Err(ChatError::Storage(e)),
                        Err(e) => answer = Some(format!("`{text}` is not played: {e}")),
                    }
                }
                Some((_, Typed::Wrong(reason))) => {
                    answer = Some(format!("{}: {reason}; nothing was played", speaker.name));
                }
                Some((_, Typed::Chat)) | None => {
                    answer = answer_coordinate(&s.position, &text);
                }
            }
        }
        let mut said = vec![self.add(line).await?];
        if let Some(answer) = answer {
            said.push(self.room_says(room, answer, turn).await?);
        }
        Ok(said)
    }

    /// A player of the room mutes (or unmutes) the account `target` (id, name); the room says
    /// so (in a game, at the turn it has reached).
    pub async fn mute(
        &self,
        room: &str,
        by: &Speaker,
        target: (&str, &str),
        muted: bool,
        game: Option<GameRoom<'_>>,
    ) -> Result<ChatLine, ChatError> {
        if by.seat.is_none() {
            return Err(ChatError::Forbidden(
                "only the players of the game may mute someone in its room".into(),
            ));
        }
        let (id, name) = target;
        if by.account.as_deref() == Some(id) {
            return Err(ChatError::Invalid("you cannot mute yourself".into()));
        }
        self.store
            .set_mute(room, id, by.account.as_deref(), muted, now_ms())
            .await?;
        let what = if muted { "muted" } else { "unmuted" };
        let turn = match game {
            Some(g) => g.hub.snapshot(g.live).await.turns as i64,
            None => 0,
        };
        self.room_says(room, format!("{name} was {what} by {}", by.name), turn)
            .await
    }

    /// Reports line `seq` of `room` to the operator (`zertz admin reports`).
    pub async fn report(&self, room: &str, seq: i64, by: &Speaker) -> Result<(), ChatError> {
        if self.store.chat_line(room, seq).await?.is_none() {
            return Err(ChatError::NotFound(format!(
                "there is no line {seq} in this room"
            )));
        }
        let reporter = match &by.account {
            Some(id) => id.clone(),
            None => format!("guest:{}", by.name),
        };
        Ok(self
            .store
            .add_report(room, seq, &reporter, now_ms())
            .await?)
    }
}
