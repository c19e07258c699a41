//! One WebSocket connection to a game: the state (or the missed events) first, then the room's
//! chat, then every new event and chat line as it happens; a seat may send actions on it, and
//! anyone may talk in the room (see `chat_socket`), each answered by `ack` or `refused`.

use crate::games::seats::Seats;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::SinkExt;
use serde::Serialize;
use serde_json::json;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use zertz::Player;

use crate::accounts::viewer::{Payer, viewer};
use crate::app::chat_socket::{RoomLink, refused, spectator};
use crate::app::state::AppState;
use crate::chat::GameRoom;
use crate::chat::{Speaker, game_room};
use crate::games::hub::{Hub, Live};
use crate::games::model::{Action, Event};
use crate::games::wire::broadcast::Outgoing;
use crate::games::wire::view::GameView;
use crate::http::error::{ApiResult, bad_query};
use crate::http::heartbeat::{Beat, Heartbeat};
use crate::http::limit::Limiter;
use crate::http::socket::{MAX_FRAME, MAX_MESSAGE, READ_BUFFER};
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;

/// Serves a connection until it closes; `room` is its place in the game's chat, `client` (an
/// account or an address) is charged for a new board an action makes.
// The parts of a connection, each its own argument: a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub async fn serve(
    hub: Arc<Hub>,
    live: Arc<Live>,
    seat: Option<Player>,
    client: Payer,
    since: Option<i64>,
    mut receiver: Receiver<Outgoing>,
    mut room: RoomLink,
    mut socket: WebSocket,
) {
    let rate = hub.config().action_rate;
    let limiter = Limiter::new(rate);
    let mut heartbeat = Heartbeat::new(hub.config().ping_interval);
    // Given up for its silence: the seat is away from when it was last heard from.
    let mut silent = false;
    // The version the client has: what the receiver still holds from before the catch-up
    // (committed between the subscription and the catch-up) is not sent again.
    let (first, mut sent) = catch_up(&hub, &live, seat, since).await;
    let mut open = send(&mut socket, first.into()).await;
    if open && let Some(history) = room.history().await {
        open = send(&mut socket, history.into()).await;
    }
    if open {
        let stale = live.gone_stale();
        tokio::pin!(stale);
        loop {
            // In the order of how often each is ready: a wake-up polls the branches in turn
            // up to the first ready one, and most are the client's actions or the game's
            // events (a stale game, a chat line or a ping waits for a quiet moment). The
            // actions first: a channel's receive polled while an action is ready would join
            // the channel's waiters only to leave them at once, under the channel's lock;
            // the events an action causes leave with its answer (`feed_waiting`).
            tokio::select! {
                biased;
                incoming = socket.recv() => {
                    let received = Instant::now();
                    heartbeat.heard();
                    let text = match incoming {
                        Some(Ok(Message::Text(text))) => text,
                        Some(Ok(Message::Binary(_))) => {
                            let reply = refused(
                                400,
                                "binary messages are not understood: send each action as a \
                                 JSON text message"
                                    .into(),
                            );
                            if !send(&mut socket, reply.into()).await {
                                break;
                            }
                            continue;
                        }
                        Some(Ok(Message::Close(_))) | None => break,
                        Some(Err(e)) => {
                            if is_too_big(&e) {
                                close_too_big(&mut socket).await;
                            }
                            break;
                        }
                        Some(Ok(_)) => continue,
                    };
                    if text.len() > MAX_MESSAGE {
                        close_too_big(&mut socket).await;
                        break;
                    }
                    let reply = match limiter.take() {
                        Ok(()) => handle(&hub, &live, seat, &client, &mut room, text.as_str()).await,
                        Err(wait) => refused(
                            429,
                            format!(
                                "too many actions on this connection: at most {}; try again in {} ms",
                                rate.describe(),
                                wait.as_millis().max(1)
                            ),
                        ),
                    };
                    let handled = received.elapsed();
                    // The events the action caused are already waiting: they leave with the
                    // answer, in one write.
                    if !feed(&mut socket, reply.into()).await
                        || !feed_waiting(&hub, &live, seat, &mut sent, &mut receiver, &mut socket)
                            .await
                    {
                        break;
                    }
                    if let Some(slow) = crate::util::slow_ms()
                        && received.elapsed() >= slow
                    {
                        tracing::warn!(
                            game = %live.id(),
                            "slow action: answered in {:.1} ms (handled in {:.1} ms)",
                            received.elapsed().as_secs_f64() * 1e3,
                            handled.as_secs_f64() * 1e3
                        );
                    }
                }
                out = receiver.recv() => {
                    let open = match game_text(&hub, &live, seat, &mut sent, out).await {
                        Next::Send(text) => feed(&mut socket, text).await,
                        Next::Skip => true,
                        Next::Closed => false,
                    };
                    if !open
                        || !feed_waiting(&hub, &live, seat, &mut sent, &mut receiver, &mut socket)
                            .await
                    {
                        break;
                    }
                }
                () = &mut stale => {
                    close_moved(&mut socket).await;
                    break;
                }
                line = room.next_line() => {
                    let Some(line) = line else { break };
                    if !send(&mut socket, line.into()).await {
                        break;
                    }
                }
                beat = heartbeat.beat() => {
                    if beat == Beat::Silent {
                        tracing::debug!(game = %live.id(), "a WebSocket did not answer a ping: closed");
                        silent = true;
                        break;
                    }
                    if socket.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
    let heard_ms = if silent {
        heartbeat.heard_ms()
    } else {
        crate::util::now_ms()
    };
    hub.leave(&live, seat, heard_ms).await;
}

/// What a connection does with a message of its game's channel.
enum Next {
    /// Send this text.
    Send(Utf8Bytes),
    /// Nothing: the client already has it.
    Skip,
    /// The channel closed: the connection ends.
    Closed,
}

/// The text a connection sends for `out`, a message of its game's channel (or the channel's
/// error), given the version `sent` the client has, which it updates.
async fn game_text(
    hub: &Hub,
    live: &Live,
    seat: Option<Player>,
    sent: &mut i64,
    out: Result<Outgoing, RecvError>,
) -> Next {
    match out {
        Ok(Outgoing::Event(b)) if b.version <= *sent => Next::Skip,
        // Presence from before the catch-up, which already shows it.
        Ok(Outgoing::Presence(b)) if b.version < *sent => Next::Skip,
        Ok(out) => {
            if let Outgoing::Event(b) = &out {
                *sent = b.version;
            }
            Next::Send(out.broadcast().text())
        }
        // Too far behind: a full resync.
        Err(RecvError::Lagged(_)) => {
            let (text, version) = catch_up(hub, live, seat, None).await;
            *sent = version;
            Next::Send(text.into())
        }
        Err(RecvError::Closed) => Next::Closed,
    }
}

/// Queues every message already waiting in `receiver` behind what the socket holds, then
/// writes it all at once: a move's answer and its event, or a burst of events, cost one write
/// to the operating system instead of one each. False when the connection is to end.
async fn feed_waiting(
    hub: &Hub,
    live: &Live,
    seat: Option<Player>,
    sent: &mut i64,
    receiver: &mut Receiver<Outgoing>,
    socket: &mut WebSocket,
) -> bool {
    let mut open = true;
    loop {
        let out = match receiver.try_recv() {
            Ok(out) => Ok(out),
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
            Err(TryRecvError::Closed) => Err(RecvError::Closed),
        };
        match game_text(hub, live, seat, sent, out).await {
            Next::Send(text) => {
                if !feed(socket, text).await {
                    return false;
                }
            }
            Next::Skip => {}
            Next::Closed => {
                open = false;
                break;
            }
        }
    }
    socket.flush().await.is_ok() && open
}

/// Queues a text frame without writing it yet; false when the connection is gone.
async fn feed(socket: &mut WebSocket, text: Utf8Bytes) -> bool {
    socket.feed(Message::Text(text)).await.is_ok()
}

/// A missed event in a `catchup` message.
#[derive(Serialize)]
struct Missed<'a> {
    version: i64,
    event: &'a Event,
}

/// The first message of a connection: `catchup` or `sync`.
#[derive(Serialize)]
struct First<'a> {
    r#type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    since: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    events: Option<Vec<Missed<'a>>>,
    version: i64,
    state: &'a GameView,
}

/// The first message of a connection (or a resync) and the version it brings the client to.
async fn catch_up(
    hub: &Hub,
    live: &Live,
    seat: Option<Player>,
    since: Option<i64>,
) -> (String, i64) {
    let (state, missed) = hub.catch_up(live, seat, since).await;
    let version = state.version;
    let first = match &missed {
        Some(events) => First {
            r#type: "catchup",
            since,
            events: Some(
                events
                    .iter()
                    .map(|(version, event)| Missed {
                        version: *version,
                        event,
                    })
                    .collect(),
            ),
            version,
            state: &state,
        },
        None => First {
            r#type: "sync",
            since: None,
            events: None,
            version,
            state: &state,
        },
    };
    (serde_json::to_string(&first).unwrap_or_default(), version)
}

async fn handle(
    hub: &Hub,
    live: &Arc<Live>,
    seat: Option<Player>,
    client: &Payer,
    room: &mut RoomLink,
    text: &str,
) -> String {
    if let Some(answer) = room
        .handle(text, Some(GameRoom { hub, live, client }))
        .await
    {
        return answer;
    }
    let action: Action = match serde_json::from_str(text) {
        Ok(a) => a,
        Err(e) => return refused(400, format!("message: {e}")),
    };
    let Some(seat) = seat else {
        return refused(403, "spectators cannot act".into());
    };
    match hub.act_seat(live, seat, &action, client).await {
        Ok(version) => json!({"type": "ack", "version": version}).to_string(),
        Err(e) => refused(crate::games::routes::status_of(&e).as_u16(), e.to_string()),
    }
}

/// Whether a read failed because the frame was over [`MAX_FRAME`]. (axum hides the WebSocket
/// library's error type; its text is all there is.)
fn is_too_big(e: &axum::Error) -> bool {
    let text = e.to_string();
    text.contains("Space limit exceeded") || text.contains("too long")
}

/// Closes the connection with 1012 (service restart): this node's copy of the game is stale
/// (another node plays it now); the client reconnects and is served by that node.
async fn close_moved(socket: &mut WebSocket) {
    let frame = CloseFrame {
        code: close_code::RESTART,
        reason: Utf8Bytes::from_static("the game moved to another node of this service: reconnect"),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Closes the connection with 1009 (message too big) and says what the limit is.
async fn close_too_big(socket: &mut WebSocket) {
    let frame = CloseFrame {
        code: close_code::SIZE,
        reason: format!("message too big: at most {MAX_MESSAGE} bytes").into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Sends a text frame; false when the connection is gone.
async fn send(socket: &mut WebSocket, text: Utf8Bytes) -> bool {
    socket.send(Message::Text(text)).await.is_ok()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WsQuery {
    token: Option<String>,
    since: Option<i64>,
    /// A guest spectator's name in the chat.
    name: Option<String>,
}

/// `GET /api/games/{id}/ws`: a game's WebSocket, with its room's chat (docs/server.md,
/// "WebSocket"). The game and the token are checked before the upgrade, so that errors are
/// plain HTTP answers.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<WsQuery>, QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let viewer = viewer(&headers, &state.accounts, true, Some(peer.ip())).await?;
    // A guest's actions are charged to their address, as over HTTP.
    let hub = state.hub.clone();
    // Check the game and the token before upgrading, so errors are plain HTTP answers.
    let (live, seat, receiver) = hub.connect(&id, viewer.acting(q.token.as_deref())).await?;
    let speaker = match seat {
        Some(p) => {
            let seated = hub.seated(&live, p).await;
            Speaker {
                name: seated.name,
                account: seated.account,
                seat: Some(p.number()),
            }
        }
        None => spectator(&viewer, q.name.as_deref()),
    };
    let players = [Player::One, Player::Two];
    let mut accounts = Vec::new();
    for p in players {
        accounts.extend(hub.seated(&live, p).await.account);
    }
    let room = RoomLink::join(&state, game_room(&id), speaker).of(accounts, viewer.address);
    let client = viewer.payer();
    Ok(upgrade
        // Messages over the limit are refused by `ws::serve` with a close frame that says so;
        // the library's own limits are set higher, so that such a frame is read to its end.
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let _online = viewer.online(&state.accounts);
            serve(hub, live, seat, client, q.since, receiver, room, socket).await;
        }))
}
