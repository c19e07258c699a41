//! Quick pairing over a WebSocket: `GET /api/pairing/ws?pool=KEY[&rated=false][&name=GUEST]`
//! waits for a game while the socket is open (`waiting` each second with the gap accepted now,
//! then `paired` with the game, the seat and its token); closing it withdraws the request.
//! `GET /api/pairing` says how many wait in each queue.

use crate::games::seats::Seats;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::viewer::viewer;
use crate::games::model::RATED_NEEDS_ACCOUNTS;
use crate::games::pools::Pool;
use crate::games::quota::{Held, Reservation};
use crate::http::error::{ApiResult, bad, bad_query};
use crate::pairing::{JoinError, Paired, Pairing, QueueKey, Ticket};
use crate::util::now_ms;
use axum::extract::FromRef;

/// The pairing routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<crate::games::hub::Hub>: FromRef<S>,
    Arc<crate::pairing::Pairing>: FromRef<S>,
    Arc<crate::games::quota::Quotas>: FromRef<S>,
    Arc<dyn crate::ratings::store::RatingStore>: FromRef<S>,
{
    Router::new()
        .route("/api/pairing", get(waiting))
        .route("/api/pairing/ws", get(pair))
}

async fn waiting(State(pairing): State<Arc<Pairing>>) -> ApiResult<Json<serde_json::Value>> {
    let queues: Vec<_> = pairing
        .waiting()
        .await
        .map_err(crate::games::hub::HubError::from)?
        .into_iter()
        .map(|(pool, rated, guests, n)| {
            json!({"pool": pool, "rated": rated, "guests": guests, "waiting": n})
        })
        .collect();
    Ok(Json(json!({ "queues": queues })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PairQuery {
    pool: String,
    rated: Option<bool>,
    name: Option<String>,
}

// An axum handler names each part of the state it takes: nine extractors, one argument each.
#[allow(clippy::too_many_arguments)]
async fn pair(
    State(accounts): State<Arc<crate::accounts::Accounts>>,
    State(hub): State<Arc<crate::games::hub::Hub>>,
    State(pairing): State<Arc<crate::pairing::Pairing>>,
    State(quotas): State<Arc<crate::games::quota::Quotas>>,
    State(ratings): State<Arc<dyn crate::ratings::store::RatingStore>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    query: Result<Query<PairQuery>, QueryRejection>,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let Query(q) = query.map_err(bad_query)?;
    let pool = Pool::parse(&q.pool).ok_or_else(|| {
        let keys: Vec<String> = Pool::all().iter().map(Pool::key).collect();
        bad(format!(
            "pool `{}`: expected one of {}",
            q.pool,
            keys.join(", ")
        ))
    })?;
    let viewer = viewer(&headers, &accounts, true, Some(peer.ip())).await?;
    let rated = q.rated.unwrap_or(viewer.account.is_some());
    if rated && viewer.account.is_none() {
        return Err(bad(RATED_NEEDS_ACCOUNTS));
    }
    let key = QueueKey {
        pool,
        rated,
        guests: viewer.account.is_none(),
    };
    let rating = match &viewer.account {
        Some(a) => Some(
            ratings
                .ratings_of(&a.id)
                .await
                .map_err(crate::games::hub::HubError::from)?
                .into_iter()
                .find(|r| r.pool == pool.key())
                .map_or(crate::ratings::glicko::START_RATING, |r| r.rating),
        ),
        None => None,
    };
    let reservation = quotas.reserve(&hub, &viewer, Held::Seek).await?;
    let seated = viewer.seated(q.name.as_deref());
    if seated.account.is_none() {
        crate::util::clean_name(&seated.name).map_err(bad)?;
    }
    let (ticket, told) = pairing
        .join(key, seated, rating)
        .await
        .map_err(join_refusal)?;
    let online = viewer.online(&accounts);
    Ok(upgrade.on_upgrade(move |socket| async move {
        let _online = online;
        serve(socket, ticket, told, reservation).await
    }))
}

/// The answer to a request the queue did not take: 409 for a player already waiting, 503 when
/// the shared queue could not be written (the player may try again).
fn join_refusal(e: JoinError) -> crate::http::error::ApiError {
    let status = match e {
        JoinError::AlreadyWaiting => axum::http::StatusCode::CONFLICT,
        JoinError::NotQueued(_) => axum::http::StatusCode::SERVICE_UNAVAILABLE,
    };
    crate::http::error::ApiError(status, e.to_string())
}

/// Keeps the request while the socket is open: `waiting` every second, then `paired`.
async fn serve(
    mut socket: WebSocket,
    ticket: Ticket,
    mut told: tokio::sync::oneshot::Receiver<Paired>,
    reservation: Reservation,
) {
    let mut every = tokio::time::interval(Duration::from_secs(1));
    // The request's place under the seeks' quota counts while it waits.
    let mut renew = tokio::time::interval_at(
        tokio::time::Instant::now() + crate::games::quota::RENEW_EVERY,
        crate::games::quota::RENEW_EVERY,
    );
    loop {
        tokio::select! {
            paired = &mut told => {
                if let Ok(p) = paired {
                    let text = json!({
                        "type": "paired",
                        "game": p.game,
                        "seat": p.seat,
                        "token": p.token,
                        "url": format!("/game/{}", p.game),
                    });
                    let _ = socket.send(Message::Text(text.to_string().into())).await;
                }
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            _ = every.tick() => {
                let text = json!({
                    "type": "waiting",
                    "pool": ticket.key.pool.key(),
                    "rated": ticket.key.rated,
                    "waited_ms": now_ms() - ticket.since_ms,
                    "gap": ticket.gap().round(),
                });
                if socket.send(Message::Text(text.to_string().into())).await.is_err() {
                    break;
                }
            }
            _ = renew.tick() => reservation.renew().await,
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    // The ticket is dropped here: the request leaves its queue.
    drop(ticket);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_that_cannot_be_written_is_the_servers_trouble_not_a_conflict() {
        let waiting = join_refusal(JoinError::AlreadyWaiting);
        assert_eq!(waiting.0, axum::http::StatusCode::CONFLICT);
        assert!(waiting.1.contains("already waiting"), "{}", waiting.1);
        let down = join_refusal(JoinError::NotQueued("connection refused".into()));
        assert_eq!(down.0, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            down.1.contains("not queued: connection refused"),
            "{}",
            down.1
        );
    }
}
