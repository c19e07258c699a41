//! Who is at the table: each seat's open connections, and since when a seat without one counts
//! as away (the opponent may claim the game `claim_after` later).
//!
//! A seat with no connection is away even if it never connected: the game cannot wait for ever
//! for someone who never came, nor for someone whose server restarted under them. So a seat
//! counts as away from the latest of: when its last connection closed (or went silent, see
//! `heartbeat`), when the game was put in this server's memory (at a start, for a game that was
//! being played before it), and when the game became live (no one is away from a game that has
//! not started).

/// Presence of the two seats of a game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Presence {
    /// Connections per seat.
    pub connections: [usize; 2],
    /// When each seat was last seen (ms since the epoch): when its last connection closed, or
    /// when the game was loaded; `None` while connected.
    pub last_seen: [Option<i64>; 2],
}

impl Presence {
    /// The presence of a game put in memory at `now_ms`: nobody connected, both seats seen last
    /// at that moment.
    pub fn loaded_at(now_ms: i64) -> Presence {
        Presence {
            connections: [0, 0],
            last_seen: [Some(now_ms); 2],
        }
    }

    /// A connection of seat `i` opened.
    pub fn connect(&mut self, i: usize) {
        self.connections[i] += 1;
        self.last_seen[i] = None;
    }

    /// A connection of seat `i` closed; the peer was last heard from at `heard_ms`. Returns
    /// whether the seat has no connection left.
    pub fn disconnect(&mut self, i: usize, heard_ms: i64) -> bool {
        let c = &mut self.connections[i];
        *c = c.saturating_sub(1);
        if *c == 0 {
            self.last_seen[i] = Some(heard_ms);
        }
        *c == 0
    }

    /// Seat `i` was heard from over HTTP at `now_ms` (an action, or its game read with its
    /// token): a seat that plays without a socket is not away while it keeps coming back, so
    /// without a connection it counts as away from then on. With one, nothing changes.
    pub fn heard_from(&mut self, i: usize, now_ms: i64) {
        if self.connections[i] == 0 {
            self.last_seen[i] = Some(now_ms);
        }
    }

    /// Since when seat `i` counts as away (ms since the epoch), or `None` while it is
    /// connected. `live_since_ms` is when the game became live.
    pub fn away_since(&self, i: usize, live_since_ms: i64) -> Option<i64> {
        if self.connections[i] > 0 {
            return None;
        }
        self.last_seen[i].map(|seen| seen.max(live_since_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn away_from_the_latest_of_load_leave_and_start() {
        let mut p = Presence::loaded_at(1_000);
        // Never connected: away since the load, or since the start if that came later.
        assert_eq!(p.away_since(0, 500), Some(1_000));
        assert_eq!(p.away_since(0, 3_000), Some(3_000));
        p.connect(0);
        p.connect(0);
        assert_eq!(p.away_since(0, 500), None);
        assert!(!p.disconnect(0, 5_000), "one connection is left");
        assert_eq!(p.away_since(0, 500), None);
        assert!(p.disconnect(0, 6_000));
        assert_eq!(p.away_since(0, 500), Some(6_000));
        // The other seat is untouched.
        assert_eq!(p.away_since(1, 500), Some(1_000));
        // More closes than opens (never expected) do not wrap.
        assert!(p.disconnect(0, 7_000));
        assert_eq!(p.connections[0], 0);
        // Heard from over HTTP: away from then on, not from before.
        p.heard_from(1, 9_000);
        assert_eq!(p.away_since(1, 500), Some(9_000));
        p.connect(1);
        p.heard_from(1, 10_000);
        assert_eq!(p.away_since(1, 500), None);
        // The default (a view made without a server) is never away.
        assert_eq!(Presence::default().away_since(0, 0), None);
    }
}
