//! One WebSocket connection to a game: the state (or the missed events) first, then every new
//! event as it happens; a seat may also send actions on it, each answered by `ack` or
//! `refused`.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use serde_json::json;
use tokio::sync::broadcast::{Receiver, error::RecvError};
use zertz::Player;

use crate::api::{outgoing_text, send_text};
use crate::hub::{Hub, Live, Outgoing};
use crate::model::Action;

/// Serves a connection until it closes.
pub async fn serve(
    hub: Arc<Hub>,
    live: Arc<Live>,
    seat: Option<Player>,
    token: Option<String>,
    since: Option<i64>,
    mut receiver: Receiver<Outgoing>,
    mut socket: WebSocket,
) {
    let you = seat.map(|p| p.number());
    // The version the client has: what the receiver still holds from before the catch-up
    // (committed between the subscription and the catch-up) is not sent again.
    let (first, mut sent) = catch_up(&hub, &live, seat, since).await;
    if send_text(&mut socket, first).await {
        loop {
            tokio::select! {
                out = receiver.recv() => {
                    let text = match out {
                        Ok(Outgoing::Event { version, .. }) if version <= sent => continue,
                        // Presence from before the catch-up, which already shows it.
                        Ok(Outgoing::Presence { state }) if state.version < sent => continue,
                        Ok(out) => {
                            if let Outgoing::Event { version, .. } = &out {
                                sent = *version;
                            }
                            outgoing_text(&out, seat)
                        }
                        // Too far behind: a full resync.
                        Err(RecvError::Lagged(_)) => {
                            let (text, version) = catch_up(&hub, &live, seat, None).await;
                            sent = version;
                            text
                        }
                        Err(RecvError::Closed) => break,
                    };
                    if !send_text(&mut socket, text).await {
                        break;
                    }
                }
                incoming = socket.recv() => {
                    let text = match incoming {
                        Some(Ok(Message::Text(text))) => text,
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                        Some(Ok(_)) => continue,
                    };
                    let reply = handle(&hub, &live, you, token.as_deref(), text.as_str()).await;
                    if !send_text(&mut socket, reply).await {
                        break;
                    }
                }
            }
        }
    }
    hub.leave(&live, seat).await;
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
    let text = match missed {
        Some(events) => {
            let events: Vec<_> = events
                .into_iter()
                .map(|(version, event)| json!({"version": version, "event": event}))
                .collect();
            json!({"type": "catchup", "since": since, "events": events, "version": state.version, "state": state})
                .to_string()
        }
        None => json!({"type": "sync", "version": state.version, "state": state}).to_string(),
    };
    (text, version)
}

async fn handle(
    hub: &Hub,
    live: &Live,
    you: Option<u8>,
    token: Option<&str>,
    text: &str,
) -> String {
    let refused = |status: u16, message: String| {
        json!({"type": "refused", "status": status, "error": message}).to_string()
    };
    let action: Action = match serde_json::from_str(text) {
        Ok(a) => a,
        Err(e) => return refused(400, format!("message: {e}")),
    };
    let (Some(_), Some(token)) = (you, token) else {
        return refused(403, "spectators cannot act".into());
    };
    match hub.act(live.id(), token, action).await {
        Ok(version) => json!({"type": "ack", "version": version}).to_string(),
        Err(e) => refused(crate::api::status_of(&e).as_u16(), e.to_string()),
    }
}
