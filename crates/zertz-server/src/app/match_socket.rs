//! A match's WebSocket: the match's state first, then its whole new state on every change (a
//! player joined, a game started or ended, the score, a bribe proposed, the winner), so that a
//! page follows a match without polling. It only sends: moves and the rest are made on the
//! games' own sockets or over HTTP.

use crate::games::seats::Seats;
use std::sync::Arc;

use axum::extract::ConnectInfo;
use axum::extract::ws::{Message, WebSocket};
use serde_json::json;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::viewer::viewer;
use crate::app::chat_socket::{RoomLink, refused, spectator};
use crate::app::state::AppState;
use crate::chat::{Speaker, match_room};
use crate::games::hub::Hub;
use crate::games::matches::state::MatchState;
use crate::games::model::Credential;
use crate::games::model::Holder;
use crate::http::error::{ApiError, ApiResult, bad_query};
use crate::http::heartbeat::{Beat, Heartbeat};
use crate::http::socket::MAX_MESSAGE;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MatchWsQuery {
    token: Option<String>,
    /// A guest spectator's name in the chat.
    name: Option<String>,
}

/// `GET /api/matches/{id}/ws`: a match's WebSocket, with its room's chat.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    query: Result<Query<MatchWsQuery>, QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let viewer = viewer(&headers, &state.accounts, true, Some(peer.ip())).await?;
    let hub = state.hub.clone();
    let who = viewer.holder(q.token.as_deref());
    // Subscribed before the state is read, so that no change falls between the two.
    let changes = hub.watch_match(&id);
    let first = hub.load_match(&id).await;
    let first = match first {
        Ok((m, _)) => m,
        Err(e) => {
            drop(changes);
            hub.unwatch_match(&id);
            return Err(e.into());
        }
    };
    if let Some(t) = &q.token
        && first.participant(Credential::Token(t)).is_none()
    {
        drop(changes);
        hub.unwatch_match(&id);
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "this token holds no place in the match".into(),
        ));
    }
    let speaker = match who.as_ref().and_then(|w| first.participant(w.credential())) {
        Some(i) => Speaker {
            name: first.players[i].name.clone().unwrap_or_default(),
            account: first.players[i].account.clone(),
            seat: Some(i as u8 + 1),
        },
        None => spectator(&viewer, q.name.as_deref()),
    };
    let players = first
        .players
        .iter()
        .filter_map(|p| p.account.clone())
        .collect();
    let room = RoomLink::join(&state, match_room(&id), speaker).of(players, viewer.address);
    Ok(upgrade
        .max_message_size(crate::http::socket::MAX_FRAME)
        .max_frame_size(crate::http::socket::MAX_FRAME)
        .read_buffer_size(crate::http::socket::READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _online = viewer.online(&state.accounts);
            serve(hub, first, who, changes, room, socket).await
        }))
}
