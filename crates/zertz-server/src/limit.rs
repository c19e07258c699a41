//! Rate limits against floods: a token bucket per client address for HTTP requests, and one
//! per WebSocket connection for the actions sent on it. A request over the limit gets `429 Too
//! Many Requests` with `{"error": …}` and a `Retry-After` header; an action over the limit gets
//! `{"type": "refused", "status": 429, …}`. Nothing else happens to the game.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A rate: so many a second on average, with bursts of up to `burst` at once. A rate of 0
/// means no limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Sustained rate, per second (0: unlimited).
    pub per_second: f64,
    /// Largest burst (at least 1 when limited).
    pub burst: f64,
}

impl Rate {
    /// `per_second` a second with bursts of `burst`.
    pub fn new(per_second: f64, burst: f64) -> Rate {
        Rate {
            per_second: per_second.max(0.0),
            burst: burst.max(1.0),
        }
    }

    /// No limit.
    pub fn unlimited() -> Rate {
        Rate::new(0.0, 1.0)
    }

    /// True when this rate limits nothing.
    pub fn is_unlimited(&self) -> bool {
        self.per_second <= 0.0
    }

    /// In words, for error messages: `50 a second (bursts of 500)`.
    pub fn describe(&self) -> String {
        format!("{} a second (bursts of {})", self.per_second, self.burst)
    }
}

/// A token bucket: full at first, refilled at the rate, one token per request.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket for `rate`.
    pub fn new(rate: Rate, now: Instant) -> Bucket {
        Bucket {
            tokens: rate.burst,
            last: now,
        }
    }

    /// Takes a token at `now`: `Ok` if there was one, else how long until there is.
    pub fn take(&mut self, rate: Rate, now: Instant) -> Result<(), Duration> {
        if rate.is_unlimited() {
            return Ok(());
        }
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - self.tokens) / rate.per_second,
            ))
        }
    }

    /// True when the bucket would be full again at `now` (it can be forgotten).
    fn is_full(&self, rate: Rate, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * rate.per_second >= rate.burst
    }
}

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
    fn bucket_allows_a_burst_then_the_rate() {
        let rate = Rate::new(2.0, 3.0);
        let t0 = Instant::now();
        let mut b = Bucket::new(rate, t0);
        for _ in 0..3 {
            assert!(b.take(rate, t0).is_ok());
        }
        let wait = b.take(rate, t0).unwrap_err();
        assert!(wait > Duration::from_millis(400) && wait <= Duration::from_millis(500));
        // Half a second later one token is back, not two.
        let t1 = t0 + Duration::from_millis(500);
        assert!(b.take(rate, t1).is_ok());
        assert!(b.take(rate, t1).is_err());
        // Long idle: full again, never more than the burst.
        let t2 = t1 + Duration::from_secs(60);
        for _ in 0..3 {
            assert!(b.take(rate, t2).is_ok());
        }
        assert!(b.take(rate, t2).is_err());
    }

    #[test]
    fn unlimited_never_refuses() {
        let rate = Rate::unlimited();
        let t0 = Instant::now();
        let mut b = Bucket::new(rate, t0);
        for _ in 0..10_000 {
            assert!(b.take(rate, t0).is_ok());
        }
    }

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
