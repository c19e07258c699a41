//! WebSocket pings from the server. A connection whose network died without a close (a laptop
//! shut, a phone out of reach) would otherwise stay open for as long as the operating system
//! keeps the TCP connection, often hours, and its seat would never count as away. So the server
//! looks at every connection at a fixed interval, and pings those it has heard nothing from
//! since it last looked; a peer that has sent nothing at all (no pong, no message) since the
//! previous ping is given up: the connection is closed and its seat counted away from the
//! moment it was last heard from. Browsers answer pings by themselves.
//!
//! A peer that sent a message since the last look (not a pong) is alive and is not pinged: a
//! player who moves every few seconds never is, which at 9,000 games spares the server a ping
//! and its pong for every five moves. A dead connection is found within two intervals of its
//! last pong (or of its opening), within three of its last message.

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
    /// When the last ping went out, while its answer is awaited.
    pinged: Option<Instant>,
    /// When the schedule last looked at the peer (or the connection opened).
    looked: Instant,
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
        let opened = Instant::now();
        Heartbeat {
            ticks,
            pinged: None,
            looked: opened,
            heard: opened,
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
        loop {
            let now = ticks.tick().await;
            if self.pinged.is_some_and(|pinged| self.heard < pinged) {
                return Beat::Silent;
            }
            // Heard from since the last look, and not in answer to a ping (a peer that only
            // answers pings is pinged at every look, as an idle one always was).
            let spoke = self.pinged.is_none() && self.heard > self.looked;
            self.looked = now;
            if spoke {
                continue;
            }
            self.pinged = Some(now);
            return Beat::Ping;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // On paused time: the clock moves only when every task waits, so the ticks fall where the
    // tests say however loaded the machine is (on real time a 40 ms interval could be missed
    // under load, and the test failed, 1 December 2026).

    #[tokio::test(start_paused = true)]
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

    #[tokio::test(start_paused = true)]
    async fn a_peer_that_spoke_since_the_last_look_is_not_pinged() {
        let every = Duration::from_millis(40);
        let mut beat = Heartbeat::new(every);
        let opened = Instant::now();
        // It speaks within the first interval and within the second: the looks at the first
        // two ticks find it alive, and the first ping goes out at the third.
        tokio::time::sleep(every / 2).await;
        beat.heard();
        let first_look = tokio::time::timeout_at(opened + every * 3 / 2, beat.beat()).await;
        assert!(first_look.is_err(), "no ping at the first look");
        beat.heard();
        assert_eq!(beat.beat().await, Beat::Ping);
        assert!(
            opened.elapsed() >= every * 5 / 2,
            "the ping waited for the third tick, not the second: {:?}",
            opened.elapsed()
        );
        // That ping unanswered: given up at the next tick.
        assert_eq!(beat.beat().await, Beat::Silent);
    }

    #[tokio::test(start_paused = true)]
    async fn no_pings_when_off() {
        let mut beat = Heartbeat::new(Duration::ZERO);
        let waited = tokio::time::timeout(Duration::from_millis(200), beat.beat()).await;
        assert!(waited.is_err(), "no beat");
    }
}
