//! Memory: games leave it when nobody needs them. Every game anyone asks for is loaded into
//! memory (a finished game to read its record, an archived one to replay it), and without this
//! they would stay there for the life of the process. A sweep, a few times per `evict_after`,
//! drops every game that is **finished** or **open** (waiting for a second player, no clock
//! running), has no connection and no task working on it, and has not been asked for in
//! `evict_after`. Asked for again, it is loaded from storage like after a restart: nothing of
//! such a game lives only in memory.
//!
//! Live games stay: their clocks, engines and the away countdowns of their seats live in
//! memory (and a restart loads them all anyway).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::games::hub::Hub;
use crate::games::room::status;
use crate::util::now_ms;

/// The shortest and the longest time between two sweeps.
const SWEEP_BOUNDS: (Duration, Duration) = (Duration::from_millis(100), Duration::from_secs(60));

impl Hub {
    /// Starts the sweeps on the current runtime; they end with the hub.
    pub fn start_eviction(self: &Arc<Self>) {
        let every = (self.config().evict_after / 4).clamp(SWEEP_BOUNDS.0, SWEEP_BOUNDS.1);
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(hub) = hub.upgrade() else { break };
                let n = hub.evict_idle();
                if n > 0 {
                    tracing::debug!("{n} idle games left memory");
                }
            }
        });
    }

    /// Drops from memory every game that may go (see the module's documentation). Returns how
    /// many went.
    pub fn evict_idle(&self) -> usize {
        let idle_ms = i64::try_from(self.config().evict_after.as_millis()).unwrap_or(i64::MAX);
        let now = now_ms();
        let mut map = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let before = map.len();
        map.retain(|_, live| {
            // Only the map holds it: no connection, no request and no task (flag timer,
            // engine, rematch, match step) has it, and none can get it while the map is
            // locked.
            if Arc::strong_count(live) > 1 {
                return true;
            }
            if now.saturating_sub(live.last_used.load(Ordering::Relaxed)) < idle_ms {
                return true;
            }
            let Ok(state) = live.state.try_lock() else {
                return true;
            };
            let idle = matches!(state.room.status(), status::FINISHED | status::OPEN)
                && state.presence.connections == [0, 0];
            if idle && state.room.is_over() {
                // Its engine needs no line any more (a match's games share the match's).
                self.engine_slots.forget(&state.room.id);
            }
            !idle
        });
        before - map.len()
    }

    /// How many games are in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}
