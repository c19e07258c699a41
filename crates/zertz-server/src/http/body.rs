//! How a request's body is read: within a deadline for the whole of it, and when it is
//! refused as too large, to its end before the refusal is sent.
//!
//! **The deadline.** A client that sends its body a byte every few seconds would hold a
//! connection and a handler for as long as it likes: a timeout per read is reset by every
//! byte. The whole body must arrive within [`ConnectionLimits::body_timeout`] of the request's
//! start (60 s by default: a 256 KiB body at 4.4 KB/s); after that, reading it fails and the
//! answer is `408 Request Timeout`.
//!
//! **The refused body.** When a request's body is too large, the handler answers 413 without
//! reading it. If the connection were then closed with the rest of the body unread, the kernel
//! would reset it, and a client still sending would lose the answer as well ("connection closed
//! before message completed"), so the user sees a network error instead of "too large". A web
//! server's "lingering close" does what this layer does: it reads and throws away the rest, up
//! to [`DRAIN_BYTES`] and [`DRAIN_TIME`] (and the deadline), so the connection ends cleanly and
//! the 413 arrives. A body beyond those bounds is still cut off.
//!
//! [`ConnectionLimits::body_timeout`]: crate::config::ConnectionLimits::body_timeout

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;
use http_body::{Body as _, Frame, SizeHint};
use tokio::time::Sleep;

/// Most bytes of a refused body read and thrown away.
pub const DRAIN_BYTES: usize = 4 << 20;

/// Longest time spent reading a refused body.
pub const DRAIN_TIME: Duration = Duration::from_secs(5);

/// What reading a body fails with once its time is up (the route answers 408).
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0} s")]
pub struct TooSlow(pub u64);

/// Middleware: passes the request on with its body under the deadline `within`, shared with
/// this layer; if the answer is 413, reads what the handler left of the body before answering.
pub async fn read_bodies(State(within): State<Duration>, request: Request, next: Next) -> Response {
    if request.body().size_hint().exact() == Some(0) {
        // Nothing to read (most requests: GETs): no deadline to keep.
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let shared = Arc::new(Mutex::new(Timed {
        body,
        deadline: Box::pin(tokio::time::sleep(within)),
        within,
    }));
    let request = Request::from_parts(parts, Body::new(SharedBody(shared.clone())));
    let response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let rest = Body::new(SharedBody(shared));
        let mut data = rest.into_data_stream();
        let mut read = 0usize;
        let _ = tokio::time::timeout(DRAIN_TIME, async {
            while let Some(Ok(chunk)) = data.next().await {
                read += chunk.len();
                if read > DRAIN_BYTES {
                    break;
                }
            }
        })
        .await;
    }
    response
}

/// A body and the moment it must have arrived by.
struct Timed {
    body: Body,
    deadline: Pin<Box<Sleep>>,
    within: Duration,
}

impl Timed {
    fn poll_frame(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if self.body.is_end_stream() {
            return Poll::Ready(None);
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(axum::Error::new(TooSlow(self.within.as_secs())))));
        }
        Pin::new(&mut self.body).poll_frame(cx)
    }
}

/// The request's body, read by the handler through a handle the middleware keeps too.
struct SharedBody(Arc<Mutex<Timed>>);

impl SharedBody {
    fn timed(&self) -> std::sync::MutexGuard<'_, Timed> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl http_body::Body for SharedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        self.timed().poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.timed().body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.timed().body.size_hint()
    }
}
