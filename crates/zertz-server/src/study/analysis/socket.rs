//! `GET /api/analysis/ws`: the WebSocket of an analysis board's engine (the protocol is in
//! `study::sessions` and docs/study.md). One analysis at a time per connection; the
//! connection's requests are rate-limited like a game's actions.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use tokio::sync::mpsc;

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::HeaderMap;
use axum::response::IntoResponse;

use crate::accounts::viewer::{Payer, viewer};
use crate::games::hub::Hub;
use crate::games::quota::Quotas;
use crate::http::heartbeat::{Beat, Heartbeat};
use crate::http::limit::Limiter;
use crate::http::socket::MAX_FRAME;
use crate::study::Study;
use crate::study::analysis::sessions::{self, Request, Running};
use axum::extract::FromRef;

/// The analysis socket's route.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
    Arc<crate::study::Study>: FromRef<S>,
{
    Router::new().route("/api/analysis/ws", get(upgrade))
}

async fn upgrade(
    State(study): State<Arc<Study>>,
    State(hub): State<Arc<Hub>>,
    State(quotas): State<Arc<Quotas>>,
    State(accounts): State<Arc<crate::accounts::Accounts>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // The session counts only from this site's pages, as on the other sockets: a page on
    // another site must not open a board that spends the player's analysis allowance.
    let viewer = match viewer(&headers, &accounts, true, Some(peer.ip())).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    // The board's searches wait in the line of this client's address, whatever the number of
    // its pages and accounts.
    let client = viewer.line();
    // A custom board new to the server is charged to the player and the address.
    let payer = viewer.payer();
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(crate::http::socket::READ_BUFFER)
        .on_upgrade(move |socket| serve(study, hub, quotas, client, payer, socket))
}

/// Serves one analysis board until its socket closes; the running analysis stops with it.
async fn serve(
    study: Arc<Study>,
    hub: Arc<Hub>,
    quotas: Arc<Quotas>,
    client: String,
    payer: Payer,
    mut socket: WebSocket,
) {
    let rate = hub.config().action_rate;
    let limiter = Limiter::new(rate);
    let mut heartbeat = Heartbeat::new(hub.config().ping_interval);
    let (out, mut found) = mpsc::channel::<sessions::Outgoing>(16);
    let mut running: Option<Running> = None;
    let mut number = 0;
    loop {
        tokio::select! {
            Some((of, text)) = found.recv() => {
                // What an analysis replaced or stopped still finds is not sent.
                if running.as_ref().is_some_and(|r| r.number() == of)
                    && socket.send(Message::Text(text.into())).await.is_err()
                {
                    break;
                }
            }
            beat = heartbeat.beat() => {
                if beat == Beat::Silent
                    || socket.send(Message::Ping(Default::default())).await.is_err()
                {
                    break;
                }
            }
            incoming = socket.recv() => {
                heartbeat.heard();
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let e = sessions::error("binary messages are not understood: send JSON text");
                        if socket.send(Message::Text(e.into())).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                if let Err(wait) = limiter.take() {
                    let e = sessions::error(format!(
                        "too many requests on this connection: at most {}; try again in {} ms",
                        rate.describe(),
                        wait.as_millis().max(1)
                    ));
                    if socket.send(Message::Text(e.into())).await.is_err() {
                        break;
                    }
                    continue;
                }
                let answer = match sessions::read(text.as_str()) {
                    Ok(Request::Analyse { position, lines }) => {
                        number += 1;
                        // The old analysis stops as the new one starts.
                        running = None;
                        // A custom board new to the server counts against this client's
                        // allowance (`new_boards`).
                        let started = quotas
                            .new_boards
                            .run(&payer, || {
                                sessions::start(&study, &client, number, &position, lines, out.clone())
                            })
                            .and_then(|r| r);
                        match started {
                            Ok(r) => {
                                running = Some(r);
                                None
                            }
                            Err(e) => Some(sessions::error(e)),
                        }
                    }
                    Ok(Request::Stop) => {
                        if let Some(r) = &running {
                            r.stop();
                        }
                        None
                    }
                    Err(e) => Some(sessions::error(e)),
                };
                if let Some(text) = answer
                    && socket.send(Message::Text(text.into())).await.is_err()
                {
                    break;
                }
            }
        }
    }
}
