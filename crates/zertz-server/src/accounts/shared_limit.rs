//! A limit of events per key and hour that every node of a cluster keeps together (issue 39,
//! item 8): the allowance lives in the database (`rate_limits`, one row per key), so that an
//! address spreading its sign-ups over the nodes behind a load balancer gets no more than from
//! one, and a restart forgets nothing. It behaves as the in-memory limits do (`crate::rate`):
//! `per_hour` at once, then one more every hour / `per_hour`.

use std::time::Duration;

use crate::accounts::store::AccountStore;
use crate::store::StoreError;

/// At most `per_hour` events an hour per key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedLimit {
    /// Events an hour per key, all of them at once if the hour before had none.
    pub per_hour: u32,
}

impl SharedLimit {
    /// The allowance as the store keeps it: one event every so many ms, so many at once.
    fn cells(&self) -> (i64, i64) {
        let per_hour = i64::from(self.per_hour.max(1));
        (3_600_000 / per_hour, per_hour)
    }

    /// How long until an event of `key` would fit at `now_ms`, if it would not now; takes
    /// nothing.
    pub async fn wait(
        &self,
        store: &dyn AccountStore,
        key: &str,
        now_ms: i64,
    ) -> Result<Option<Duration>, StoreError> {
        let (interval, burst) = self.cells();
        Ok(store
            .event_wait(key, now_ms, interval, burst)
            .await?
            .map(|ms| Duration::from_millis(ms.max(1) as u64)))
    }

    /// Takes an event of `key` at `now_ms` if the allowance has room for it; else takes
    /// nothing and says how long until it has.
    pub async fn take(
        &self,
        store: &dyn AccountStore,
        key: &str,
        now_ms: i64,
    ) -> Result<Result<(), Duration>, StoreError> {
        let (interval, burst) = self.cells();
        Ok(
            match store.take_event(key, now_ms, interval, burst).await? {
                None => Ok(()),
                Some(wait_ms) => Err(Duration::from_millis(wait_ms.max(1) as u64)),
            },
        )
    }
}
