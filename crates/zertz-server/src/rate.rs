//! Rates and token buckets: how often a client may do something. The HTTP layer keeps a
//! bucket per address, the game's WebSocket one per connection.

use std::time::{Duration, Instant};

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
    pub(crate) fn is_full(&self, rate: Rate, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * rate.per_second >= rate.burst
    }
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
}
