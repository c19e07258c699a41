//! Rate limits against floods: a token bucket per client address for HTTP requests, and one
//! per WebSocket connection for the actions sent on it. A request over the limit gets `429 Too
//! Many Requests` with `{"error": …}` and a `Retry-After` header; an action over the limit gets
//! `{"type": "refused", "status": 429, …}`. Nothing else happens to the game. Also the
//! largest body a request may carry.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use crate::rate::{Bucket, Rate};

use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Largest request body accepted (and largest WebSocket message).
pub const MAX_BODY: usize = 256 * 1024;

/// Buckets per client address.
#[derive(Debug)]
pub struct PerAddress {
    rate: Rate,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// Addresses remembered before full buckets are forgotten.
const PRUNE_AT: usize = 10_000;

impl PerAddress {
    /// Buckets of `rate` per address.
    pub fn new(rate: Rate) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            rate,
            buckets: Mutex::new(HashMap::new()),
        })
    }

    /// Takes a token for `address` at `now`.
    pub fn take(&self, address: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.rate.is_unlimited() {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= PRUNE_AT {
            let rate = self.rate;
            buckets.retain(|_, b| !b.is_full(rate, now));
        }
        buckets
            .entry(address)
            .or_insert_with(|| Bucket::new(self.rate, now))
            .take(self.rate, now)
    }
}

/// The middleware: a request from an address that is over its rate gets 429. Requests whose
/// address is unknown (no connection information) are let through.
pub async fn by_address(
    State(limits): State<Arc<PerAddress>>,
    request: Request,
    next: Next,
) -> Response {
    let address = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    if let Some(address) = address
        && let Err(wait) = limits.take(address, Instant::now())
    {
        return too_many(
            format!(
                "too many requests from your address: at most {}; try again in {} ms",
                limits.rate.describe(),
                wait.as_millis().max(1)
            ),
            wait,
        );
    }
    next.run(request).await
}

/// A 429 answer with `Retry-After` (whole seconds, rounded up).
fn too_many(message: String, wait: Duration) -> Response {
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({ "error": message })),
    )
        .into_response();
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    if let Ok(value) = HeaderValue::from_str(&seconds.max(1).to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_have_their_own_buckets() {
        let limits = PerAddress::new(Rate::new(1.0, 2.0));
        let t0 = Instant::now();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(limits.take(a, t0).is_ok());
        assert!(limits.take(a, t0).is_ok());
        assert!(limits.take(a, t0).is_err());
        assert!(limits.take(b, t0).is_ok());
    }
}
