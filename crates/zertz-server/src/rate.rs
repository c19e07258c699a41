//! Rates and their limiters: how often a client may do something. The HTTP layer keeps a
//! limiter per address, each WebSocket one per connection. The limiting itself is the
//! `governor` crate's (GCRA, which behaves as a token bucket: full at first, refilled at the
//! rate); this module turns the service's settings into its quotas and its answers into waits.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

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

    /// The rate as a `governor` quota, or `None` when it limits nothing.
    pub fn quota(&self) -> Option<Quota> {
        if self.is_unlimited() {
            return None;
        }
        let period = Duration::from_secs_f64(1.0 / self.per_second).max(Duration::from_nanos(1));
        let burst = NonZeroU32::new(self.burst.round().clamp(1.0, f64::from(u32::MAX)) as u32)
            .unwrap_or(NonZeroU32::MIN);
        Quota::with_period(period).map(|q| q.allow_burst(burst))
    }
}

/// The limiter of one connection: full at first, refilled at the rate, one token a message.
pub struct Limiter<C: Clock = DefaultClock> {
    limiter: Option<RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<C::Instant>>>,
    clock: C,
}

impl Limiter {
    /// A full limiter for `rate`.
    pub fn new(rate: Rate) -> Limiter {
        Limiter::with_clock(rate, DefaultClock::default())
    }
}

impl<C: Clock + Clone> Limiter<C> {
    /// A full limiter for `rate` on `clock` (tests use a clock they move by hand).
    pub fn with_clock(rate: Rate, clock: C) -> Limiter<C> {
        Limiter {
            limiter: rate
                .quota()
                .map(|q| RateLimiter::direct_with_clock(q, clock.clone())),
            clock,
        }
    }

    /// Takes a token: `Ok` if there was one, else how long until there is.
    pub fn take(&self) -> Result<(), Duration> {
        match &self.limiter {
            None => Ok(()),
            Some(limiter) => limiter
                .check()
                .map_err(|not_until| not_until.wait_time_from(self.clock.now())),
        }
    }
}

/// Limiters by key, forgotten when there are many (a forgotten key starts full again: a
/// little leniency, never a refusal).
pub struct Keyed<K> {
    rate: Rate,
    limiters: std::sync::Mutex<std::collections::HashMap<K, Limiter>>,
}

impl<K: std::hash::Hash + Eq> Keyed<K> {
    /// Limiters of `rate`, one per key.
    pub fn new(rate: Rate) -> Keyed<K> {
        Keyed {
            rate,
            limiters: std::sync::Mutex::new(std::collections::HashMap::new()),
        }
    }

    /// Takes one from `key`'s limiter; how long to wait when it is empty.
    pub fn take(&self, key: K) -> Result<(), std::time::Duration> {
        let mut map = self.limiters.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 10_000 {
            map.clear();
        }
        map.entry(key)
            .or_insert_with(|| Limiter::new(self.rate))
            .take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;

    #[test]
    fn a_limiter_allows_a_burst_then_the_rate() {
        let clock = FakeRelativeClock::default();
        let limiter = Limiter::with_clock(Rate::new(2.0, 3.0), clock.clone());
        for _ in 0..3 {
            assert!(limiter.take().is_ok());
        }
        let wait = limiter.take().unwrap_err();
        assert!(
            wait > Duration::from_millis(400) && wait <= Duration::from_millis(500),
            "{wait:?}"
        );
        // Half a second later one token is back, not two.
        clock.advance(Duration::from_millis(500));
        assert!(limiter.take().is_ok());
        assert!(limiter.take().is_err());
        // Long idle: full again, never more than the burst.
        clock.advance(Duration::from_secs(60));
        for _ in 0..3 {
            assert!(limiter.take().is_ok());
        }
        assert!(limiter.take().is_err());
    }

    #[test]
    fn a_slow_rate_waits_whole_periods() {
        // The chat's rate: one line every two seconds, bursts of five.
        let clock = FakeRelativeClock::default();
        let limiter = Limiter::with_clock(Rate::new(0.5, 5.0), clock.clone());
        for _ in 0..5 {
            assert!(limiter.take().is_ok());
        }
        let wait = limiter.take().unwrap_err();
        assert!(wait > Duration::from_millis(1900) && wait <= Duration::from_secs(2));
        clock.advance(Duration::from_secs(2));
        assert!(limiter.take().is_ok());
    }

    #[test]
    fn unlimited_never_refuses() {
        let limiter = Limiter::new(Rate::unlimited());
        for _ in 0..10_000 {
            assert!(limiter.take().is_ok());
        }
    }
}
