//! A refused body is read to its end before the refusal is sent, up to a bound.
//!
//! When a request's body is too large, the handler answers 413 without reading it. If the
//! connection were then closed with the rest of the body unread, the kernel would reset it, and
//! a client still sending would lose the answer as well ("connection closed before message
//! completed"), so the user sees a network error instead of "too large". A web server's
//! "lingering close" does what this layer does: it reads and throws away the rest, up to
//! [`DRAIN_BYTES`] and [`DRAIN_TIME`], so the connection ends cleanly and the 413 arrives. A body
//! beyond those bounds is still cut off; nobody can make the server read without end.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;
use http_body::{Frame, SizeHint};

/// Most bytes of a refused body read and thrown away.
pub const DRAIN_BYTES: usize = 4 << 20;

/// Longest time spent reading a refused body.
pub const DRAIN_TIME: Duration = Duration::from_secs(5);

/// Middleware: passes the request on with its body shared, and if the answer is 413, reads what
/// the handler left of the body before answering.
pub async fn drain_refused(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let shared = Arc::new(Mutex::new(body));
    let request = Request::from_parts(parts, Body::new(SharedBody(shared.clone())));
    let response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let rest = std::mem::take(&mut *shared.lock().unwrap_or_else(PoisonError::into_inner));
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

/// The request's body, read by the handler through a handle the middleware keeps too.
struct SharedBody(Arc<Mutex<Body>>);

impl SharedBody {
    fn body(&self) -> std::sync::MutexGuard<'_, Body> {
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
        Pin::new(&mut *self.body()).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body().is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body().size_hint()
    }
}
