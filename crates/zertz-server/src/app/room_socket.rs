//! The WebSockets of the rooms that belong to no game: the public room (`GET /api/room/ws`)
//! and each tournament's room (`GET /api/tournaments/{id}/chat/ws`). The room's latest lines
//! first, then every new line as it is said, and what a client may send (`chat`, `report`),
//! answered by `ack` or `refused`, as in a game's room. Nobody plays in them, so nobody mutes
//! for everyone; their lines are limited per account and per address too (`chat::public`):
//! opening more connections gives no more lines.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use crate::accounts::viewer::viewer;
use crate::app::chat_socket::{RoomLink, refused, spectator};
use crate::app::state::AppState;
use crate::chat::public::ROOM;
use crate::games::hub::Hub;
use crate::http::error::{ApiError, ApiResult, bad_query};
use crate::http::heartbeat::{Beat, Heartbeat};
use crate::http::socket::MAX_MESSAGE;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoomWsQuery {
    /// A guest's name in the room.
    name: Option<String>,
}

/// `GET /api/room/ws`: the public room.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    query: Result<Query<RoomWsQuery>, QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    open_room(state, peer, headers, ROOM.into(), q.name, upgrade).await
}

/// `GET /api/tournaments/{id}/chat/ws`: a tournament's room (404 for an unknown event).
pub(crate) async fn tournament_upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<RoomWsQuery>, QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    if let Err(e) = state.tournaments.get(&id).await {
        let status = match e {
            crate::tournaments::TournamentError::NotFound(_) => StatusCode::NOT_FOUND,
            _ => StatusCode::SERVICE_UNAVAILABLE,
        };
        return Err(ApiError(status, e.to_string()));
    }
    open_room(
        state,
        peer,
        headers,
        crate::chat::tournament_room(&id),
        q.name,
        upgrade,
    )
    .await
}

/// Upgrades to the room `room` for the viewer of `headers` (`name`: a guest's).
async fn open_room(
    state: AppState,
    peer: SocketAddr,
    headers: HeaderMap,
    room: String,
    name: Option<String>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let viewer = viewer(&headers, &state.accounts, true, Some(peer.ip())).await?;
    let room = RoomLink::join(&state, room, spectator(&viewer, name.as_deref()))
        .of(Vec::new(), viewer.address);
    let hub = Arc::clone(&state.hub);
    Ok(upgrade
        .max_message_size(crate::http::socket::MAX_FRAME)
        .max_frame_size(crate::http::socket::MAX_FRAME)
        .read_buffer_size(crate::http::socket::READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _online = viewer.online(&state.accounts);
            serve(&hub, room, socket).await
        }))
}

/// Serves one reader of a room until the connection closes.
async fn serve(hub: &Hub, mut room: RoomLink, mut socket: WebSocket) {
    let mut heartbeat = Heartbeat::new(hub.config().ping_interval);
    let mut outgoing = room.history().await;
    if outgoing.is_none() {
        outgoing =
            Some(serde_json::json!({"type": "chat_history", "lines": [], "muted": []}).to_string());
    }
    loop {
        if let Some(text) = outgoing.take()
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
            incoming = socket.recv() => {
                heartbeat.heard();
                match incoming {
                    Some(Ok(Message::Text(text))) if text.len() <= MAX_MESSAGE => {
                        let text = text.as_str();
                        // A line is charged to the connection, the account and the address
                        // (`RoomLink::handle`).
                        if text.contains("\"mute\"") || text.contains("\"unmute\"") {
                            outgoing = Some(refused(
                                403,
                                "nobody mutes for everyone in this room: ignore an account for \
                                 yourself (its lines are hidden on your page), or report a line"
                                    .into(),
                            ));
                            continue;
                        }
                        match room.handle(text, None).await {
                            Some(answer) => Some(answer),
                            None => Some(refused(
                                400,
                                "this room takes `chat` and `report` messages".into(),
                            )),
                        }
                    }
                    Some(Ok(Message::Text(_) | Message::Binary(_))) => Some(refused(
                        400,
                        "this room takes `chat` and `report` messages, as JSON text".into(),
                    )),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => None,
                }
            }
        };
    }
}
