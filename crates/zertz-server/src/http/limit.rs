//! Rate limits against floods: a limiter per client address for HTTP requests, and one
//! per WebSocket connection for the actions sent on it. A request over the limit gets `429 Too
//! Many Requests` with `{"error": …}` and a `Retry-After` header; an action over the limit gets
//! `{"type": "refused", "status": 429, …}`. Nothing else happens to the game. Also the
//! largest body a request may carry.

use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

pub use crate::rate::{Limiter, Rate};

use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use serde_json::json;

/// Largest request body accepted (and largest WebSocket message).
pub const MAX_BODY: usize = 256 * 1024;

/// A limiter per key (`governor`'s keyed limiter): per address, per account.
pub struct PerKey<K: Hash + Eq + Clone> {
    rate: Rate,
    limiter: Option<DefaultKeyedRateLimiter<K>>,
    clock: DefaultClock,
}

/// A limiter per client address.
pub type PerAddress = PerKey<IpAddr>;

/// Keys remembered before those whose limiter is full again are forgotten.
const PRUNE_AT: usize = 10_000;

impl<K: Hash + Eq + Clone> PerKey<K> {
    /// A limiter of `rate` per key.
    pub fn new(rate: Rate) -> Arc<PerKey<K>> {
        let clock = DefaultClock::default();
        Arc::new(PerKey {
            rate,
            limiter: rate
                .quota()
                .map(|q| RateLimiter::dashmap_with_clock(q, clock.clone())),
            clock,
        })
    }

    /// Takes a token for `key`: `Ok` if there was one, else how long until there is.
    pub fn take(&self, key: &K) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if limiter.len() >= PRUNE_AT {
            limiter.retain_recent();
        }
        limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
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
        && let Err(wait) = limits.take(&address)
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
/// 429 with `message` and a `Retry-After` of `wait` (whole seconds, at least one).
pub fn too_many(message: String, wait: Duration) -> Response {
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({ "error": message })),
    )
        .into_response();
    let seconds = crate::util::whole_seconds(wait);
    if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_have_their_own_limits() {
        let limits = PerAddress::new(Rate::new(1.0, 2.0));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(limits.take(&a).is_ok());
        assert!(limits.take(&a).is_ok());
        let wait = limits.take(&a).unwrap_err();
        assert!(wait > Duration::from_millis(500), "{wait:?}");
        assert!(limits.take(&b).is_ok());
    }

    #[test]
    fn no_rate_is_no_limit() {
        let limits = PerAddress::new(Rate::unlimited());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        assert!((0..10_000).all(|_| limits.take(&a).is_ok()));
    }
}
