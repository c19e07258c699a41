//! Any node answers any request: a request for a game that another node holds
//! (`/api/games/{id}…`, its WebSocket included) is passed to that node and its answer passed
//! back. The load balancer sends each game's requests to one node by a hash of its id, so
//! this is the exception (a node that just died or joined, a client that reached a node
//! directly), and it keeps the service correct when the balancer's choice and the lease
//! holder differ.
//!
//! A request passed on carries `x-zertz-via`: the node receiving it serves it itself, so a
//! request never goes round in circles (if its lease moved meanwhile, it is told to ask again).
//! An owner that cannot be reached (it died and its lease has not run out yet) gets the client
//! 503 with `Retry-After`: the game is taken over when the lease runs out.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::{self as tung, client::IntoClientRequest};

use crate::games::hub::Hub;
use crate::http::error::error;
use crate::store::owner;

/// The header marking a request passed on by another node.
pub const VIA: &str = "x-zertz-via";

/// The largest body passed on (the API's own limit is lower).
const MAX_BODY: usize = 4 << 20;

/// Headers that concern one connection only and are not passed on.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "content-length",
];

/// The game a path is about (`/api/games/{id}` and below), if any.
fn game_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/games/")?;
    let id = rest.split('/').next()?;
    crate::token::is_plausible_id(id).then_some(id)
}

/// The middleware: passes a request for a game held by another node to that node.
pub async fn to_owner(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let Some(cluster) = hub.cluster() else {
        return next.run(request).await;
    };
    if request.headers().contains_key(VIA) {
        return next.run(request).await;
    }
    let Some(id) = game_of(request.uri().path()) else {
        return next.run(request).await;
    };
    if hub.in_memory(id) {
        return next.run(request).await;
    }
    let addr = match owner(cluster.pool(), id).await {
        Ok(Some((node, addr))) if node != cluster.node() => addr,
        _ => return next.run(request).await,
    };
    let upgrade = request
        .headers()
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    // A holder that does not start answering within a lease is paused or gone (a paused
    // process still accepts connections): the client is told to ask again, by when the lease
    // has run out and the game moved.
    let patience = cluster.ttl().max(std::time::Duration::from_secs(2));
    let passed = async {
        if upgrade {
            websocket(cluster.node(), &addr, request).await
        } else {
            http(cluster.client(), cluster.node(), &addr, request).await
        }
    };
    match tokio::time::timeout(patience, passed).await {
        Ok(response) => response,
        Err(_) => unreachable(&addr, format!("no answer in {} ms", patience.as_millis())),
    }
}

/// The answer while the game's node cannot be reached.
fn unreachable(addr: &str, why: impl std::fmt::Display) -> Response {
    let mut response = error(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the node playing this game ({addr}) does not answer ({why}); the game moves to \
             another node within seconds: ask again shortly"
        ),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// The headers passed on: all but the connection's own, plus [`VIA`], and `X-Forwarded-For`
/// saying who the client is as this node knows it (`http::client`: the holder, trusting this
/// node with `--trusted-proxy`, keeps its limits on the client, not on this node).
fn passed_on(parts: &axum::http::request::Parts, node: &str) -> HeaderMap {
    let mut out = HeaderMap::new();
    for (name, value) in &parts.headers {
        if !HOP_BY_HOP.contains(&name.as_str())
            && !name.as_str().starts_with("sec-websocket")
            && name.as_str() != "x-forwarded-for"
        {
            out.append(name.clone(), value.clone());
        }
    }
    if let Ok(v) = HeaderValue::from_str(node) {
        out.insert(VIA, v);
    }
    let client = parts
        .extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(v) = client.and_then(|ip| HeaderValue::from_str(&ip.to_string()).ok()) {
        out.insert("x-forwarded-for", v);
    }
    out
}

async fn http(
    client: &crate::cluster::Client,
    node: &str,
    addr: &str,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let target = match parts.uri.path_and_query() {
        Some(pq) => format!("http://{addr}{pq}"),
        None => format!("http://{addr}{}", parts.uri.path()),
    };
    let body = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(b) => b,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("request body: {e}")),
    };
    let sent = client
        .http()
        .request(parts.method.clone(), &target)
        .headers(passed_on(&parts, node))
        .body(body)
        .send()
        .await;
    let answer = match sent {
        Ok(a) => a,
        Err(e) => return unreachable(addr, e),
    };
    let status = answer.status();
    let mut headers = HeaderMap::new();
    for (name, value) in answer.headers() {
        if !HOP_BY_HOP.contains(&name.as_str()) {
            headers.append(name.clone(), value.clone());
        }
    }
    match answer.bytes().await {
        Ok(bytes) => (status, headers, Body::from(bytes)).into_response(),
        Err(e) => unreachable(addr, e),
    }
}

async fn websocket(node: &str, addr: &str, request: Request) -> Response {
    let (mut parts, _body) = request.into_parts();
    let upgrade = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
        Ok(u) => u,
        Err(e) => return e.into_response(),
    };
    let path = parts
        .uri
        .path_and_query()
        .map_or(parts.uri.path(), |pq| pq.as_str());
    let mut upstream = match format!("ws://{addr}{path}").into_client_request() {
        Ok(r) => r,
        Err(e) => return unreachable(addr, e),
    };
    // The client's own headers (Host and Origin for the same-site check, cookies, token).
    for (name, value) in passed_on(&parts, node) {
        if let Some(name) = name {
            upstream.headers_mut().insert(name, value);
        }
    }
    // Connected before the client's upgrade is answered: an owner that is gone is a 503 the
    // client retries, not a socket that closes at once.
    let (owner, _) = match tokio_tungstenite::connect_async(upstream).await {
        Ok(pair) => pair,
        Err(tung::Error::Http(answer)) => {
            let status = answer.status();
            let body = answer
                .body()
                .as_ref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
            return (status, body).into_response();
        }
        Err(e) => return unreachable(addr, e),
    };
    upgrade.on_upgrade(move |client| bridge(client, owner))
}

/// Passes messages both ways until either side closes. Pings are answered by each side for
/// itself.
async fn bridge<S>(client: WebSocket, owner: tokio_tungstenite::WebSocketStream<S>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let (mut to_client, mut from_client) = client.split();
    let (mut to_owner, mut from_owner) = owner.split();
    let down = async {
        while let Some(Ok(m)) = from_owner.next().await {
            let m = match m {
                tung::Message::Text(t) => ws::Message::Text(t.as_str().into()),
                tung::Message::Binary(b) => ws::Message::Binary(b),
                tung::Message::Close(frame) => {
                    let frame = frame.map(|f| ws::CloseFrame {
                        code: u16::from(f.code),
                        reason: f.reason.as_str().into(),
                    });
                    let _ = to_client.send(ws::Message::Close(frame)).await;
                    break;
                }
                _ => continue,
            };
            if to_client.send(m).await.is_err() {
                break;
            }
        }
    };
    let up = async {
        while let Some(Ok(m)) = from_client.next().await {
            let m = match m {
                ws::Message::Text(t) => tung::Message::Text(t.as_str().into()),
                ws::Message::Binary(b) => tung::Message::Binary(b),
                ws::Message::Close(frame) => {
                    let frame = frame.map(|f| tung::protocol::CloseFrame {
                        code: f.code.into(),
                        reason: f.reason.as_str().into(),
                    });
                    let _ = to_owner.send(tung::Message::Close(frame)).await;
                    break;
                }
                _ => continue,
            };
            if to_owner.send(m).await.is_err() {
                break;
            }
        }
    };
    // Whichever side ends first ends the bridge; both sockets drop with it.
    tokio::select! {
        () = down => {}
        () = up => {}
    }
}
