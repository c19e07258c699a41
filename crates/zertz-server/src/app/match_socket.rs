//! A match's WebSocket: the match's state first, then its whole new state on every change (a
//! player joined, a game started or ended, the score, a bribe proposed, the winner), so that a
//! page follows a match without polling. It only sends: moves and the rest are made on the
//! games' own sockets or over HTTP.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use serde_json::json;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

use crate::app::chat_socket::{RoomLink, refused};
use crate::app::game_socket::MAX_MESSAGE;
use crate::games::hub::Hub;
use crate::games::matches::state::MatchState;
use crate::games::model::Holder;
use crate::http::heartbeat::{Beat, Heartbeat};

/// Serves a watcher of `first` (the match as it was when the connection opened) until the
/// connection closes or the server gives it up.
pub async fn serve(
    hub: Arc<Hub>,
    first: MatchState,
    who: Option<Holder>,
    mut changes: Receiver<Arc<MatchState>>,
    mut room: RoomLink,
    mut socket: WebSocket,
) {
    let id = first.id.clone();
    let mut heartbeat = Heartbeat::new(hub.config().ping_interval);
    let mut outgoing = Some(message(&hub, &first, who.as_ref()).await);
    let mut history = true;
    loop {
        if let Some(text) = outgoing.take()
            && socket.send(Message::Text(text.into())).await.is_err()
        {
            break;
        }
        // The chat's latest lines follow the first message.
        if std::mem::take(&mut history)
            && let Some(text) = room.history().await
            && socket.send(Message::Text(text.into())).await.is_err()
        {
            break;
        }
        outgoing = tokio::select! {
            line = room.next_line() => match line {
                Some(line) => Some(line),
                None => break,
            },
            beat = heartbeat.beat() => {
                if beat == Beat::Silent
                    || socket.send(Message::Ping(Default::default())).await.is_err()
                {
                    break;
                }
                None
            }
            change = changes.recv() => match change {
                Ok(m) => Some(message(&hub, &m, who.as_ref()).await),
                // Too far behind: the match as it is now.
                Err(RecvError::Lagged(_)) => match hub.load_match(&id).await {
                    Ok((m, _)) => Some(message(&hub, &m, who.as_ref()).await),
                    Err(_) => break,
                },
                Err(RecvError::Closed) => break,
            },
            incoming = socket.recv() => {
                heartbeat.heard();
                match incoming {
                    Some(Ok(Message::Text(text))) if text.len() <= MAX_MESSAGE => {
                        match room.handle(text.as_str(), None).await {
                            Some(answer) => Some(answer),
                            None => Some(not_for_this_socket()),
                        }
                    }
                    Some(Ok(Message::Text(_) | Message::Binary(_))) => Some(not_for_this_socket()),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => None,
                }
            }
        };
    }
    drop(changes);
    hub.unwatch_match(&id);
}

/// `{"type": "match", "match": view}` for `who`.
async fn message(hub: &Hub, m: &MatchState, who: Option<&Holder>) -> String {
    let view = hub.match_view(m, who.map(Holder::credential)).await;
    json!({"type": "match", "match": view}).to_string()
}

/// The answer to anything but a message to the room.
fn not_for_this_socket() -> String {
    refused(
        400,
        "a match's socket carries the match's state and its room's chat: play on the games' \
         sockets or over HTTP"
            .into(),
    )
}
