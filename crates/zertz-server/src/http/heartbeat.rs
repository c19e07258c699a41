//! WebSocket pings from the server. A connection whose network died without a close (a laptop
//! shut, a phone out of reach) would otherwise stay open for as long as the operating system
//! keeps the TCP connection, often hours, and its seat would never count as away. So the server
//! pings every connection at a fixed interval; a peer that has sent nothing at all (no pong, no
//! message) since the previous ping is given up: the connection is closed and its seat counted
//! away from the moment it was last heard from. Browsers answer pings by themselves.

use std::time::Duration;

use tokio::time::{Instant, Interval, MissedTickBehavior};

/// What to do at a beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beat {
    /// Send a ping.
    Ping,
    /// The peer did not answer the last ping in a whole interval: give up on it.
    Silent,
}

/// The ping schedule of one connection.
#[derive(Debug)]
pub struct Heartbeat {
    /// `None`: pings are off.
    ticks: Option<Interval>,
    /// When the last ping went out.
    pinged: Option<Instant>,
    /// When the peer was last heard from.
    heard: Instant,
    /// `heard` as ms since the epoch, for presence.
    heard_ms: i64,
}

impl Heartbeat {
    /// A schedule that pings every `every` (never when it is zero), from a connection just
    /// opened.
    pub fn new(every: Duration) -> Heartbeat {
        let ticks = (!every.is_zero()).then(|| {
            let mut ticks = tokio::time::interval_at(Instant::now() + every, every);
            // After a stall of the runtime, one beat, not a burst.
            ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
            ticks
        });
        Heartbeat {
            ticks,
            pinged: None,
            heard: Instant::now(),
            heard_ms: crate::util::now_ms(),
        }
    }

    /// The peer sent something (a message, a pong, a ping, a close).
    pub fn heard(&mut self) {
        self.heard = Instant::now();
        self.heard_ms = crate::util::now_ms();
    }

    /// When the peer was last heard from, in ms since the epoch.
    pub fn heard_ms(&self) -> i64 {
        self.heard_ms
    }

    /// Waits for the next beat (for ever when pings are off). Cancel-safe: it may be dropped
    /// in a `select!` and called again.
    pub async fn beat(&mut self) -> Beat {
        let Some(ticks) = self.ticks.as_mut() else {
            return std::future::pending().await;
        };
        let now = ticks.tick().await;
        if self.pinged.is_some_and(|pinged| self.heard < pinged) {
            return Beat::Silent;
        }
        self.pinged = Some(now);
        Beat::Ping
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_peer_that_answers_is_kept_and_a_silent_one_given_up() {
        let every = Duration::from_millis(40);
        let mut beat = Heartbeat::new(every);
        let opened = Instant::now();
        assert_eq!(beat.beat().await, Beat::Ping);
        assert!(
            opened.elapsed() >= every,
            "the first ping waits an interval"
        );
        beat.heard();
        assert_eq!(beat.beat().await, Beat::Ping);
        // Nothing heard since that ping: at the next beat the peer is given up.
        let heard = beat.heard_ms();
        assert_eq!(beat.beat().await, Beat::Silent);
        assert_eq!(beat.heard_ms(), heard);
    }

    #[tokio::test]
    async fn no_pings_when_off() {
        let mut beat = Heartbeat::new(Duration::ZERO);
        let waited = tokio::time::timeout(Duration::from_millis(200), beat.beat()).await;
        assert!(waited.is_err(), "no beat");
    }
}
