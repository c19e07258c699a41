//! The explorer's answers for busy positions, kept in memory for a while.
//!
//! Positions near the start are both the most asked (every game goes through them) and the
//! costliest to answer (hundreds of moves' rows and their example games), so without a cache
//! they make the slow tail of the explorer's latency. What is kept is the frame-free part of
//! an answer ([`Gathered`]), so one entry serves every position sharing the key, however the
//! board is turned.
//!
//! Freshness: the server's own writes (a finished game added) clear the cache; writes by
//! another process (`zertz explorer import` into the database of a running server) are seen
//! when an entry expires, after [`AnswerCache::TTL`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::explorer::queries::{Gathered, Source};

/// What an answer is cached under: the position's key, the source and the rating band asked.
pub type CacheKey = (i64, Source, Option<i64>);

/// A bounded, expiring map of gathered answers.
#[derive(Debug, Default)]
pub struct AnswerCache {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Bumped by every clear: an answer gathered before a clear is not kept after it.
    generation: u64,
    entries: HashMap<CacheKey, (Instant, Arc<Gathered>)>,
}

impl AnswerCache {
    /// How long an answer is kept.
    pub const TTL: Duration = Duration::from_secs(60);
    /// Most answers kept (the cache is emptied when it is full; the busy positions come back
    /// first).
    pub const MAX_ENTRIES: usize = 1_024;
    /// Answers built from fewer rows are cheap to build again and are not kept.
    pub const MIN_ROWS: usize = 24;

    /// An empty cache.
    pub fn new() -> AnswerCache {
        AnswerCache::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current generation: pass it back to [`AnswerCache::put`].
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// The answer kept for `key`, if it has not expired.
    pub fn get(&self, key: &CacheKey) -> Option<Arc<Gathered>> {
        let mut inner = self.lock();
        match inner.entries.get(key) {
            Some((at, g)) if at.elapsed() < Self::TTL => Some(Arc::clone(g)),
            Some(_) => {
                inner.entries.remove(key);
                None
            }
            None => None,
        }
    }

    /// Keeps `gathered` (read from `rows` rows) under `key`, unless the cache was cleared since
    /// `generation` was read (the answer may predate a write) or it was cheap to build.
    pub fn put(&self, key: CacheKey, gathered: Arc<Gathered>, rows: usize, generation: u64) {
        if rows < Self::MIN_ROWS {
            return;
        }
        let mut inner = self.lock();
        if inner.generation != generation {
            return;
        }
        if inner.entries.len() >= Self::MAX_ENTRIES {
            inner.entries.clear();
        }
        inner.entries.insert(key, (Instant::now(), gathered));
    }

    /// Forgets every answer (after a write to the explorer).
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.entries.clear();
    }

    /// Answers kept.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// True when no answer is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gathered() -> Arc<Gathered> {
        Arc::new(Gathered::default())
    }

    #[test]
    fn keeps_busy_answers_and_forgets_them_on_a_write() {
        let cache = AnswerCache::new();
        let key = (7, Source::All, None);
        let g = cache.generation();
        cache.put(key, gathered(), AnswerCache::MIN_ROWS - 1, g);
        assert!(cache.get(&key).is_none(), "a cheap answer is not kept");
        cache.put(key, gathered(), AnswerCache::MIN_ROWS, g);
        assert!(cache.get(&key).is_some());
        assert!(cache.get(&(7, Source::BoardSpace, None)).is_none());
        cache.clear();
        assert!(cache.get(&key).is_none(), "a write empties the cache");
    }

    #[test]
    fn an_answer_gathered_before_a_write_is_not_kept() {
        let cache = AnswerCache::new();
        let key = (7, Source::All, None);
        let before = cache.generation();
        cache.clear();
        cache.put(key, gathered(), 1_000, before);
        assert!(cache.is_empty());
    }

    #[test]
    fn stays_bounded() {
        let cache = AnswerCache::new();
        let g = cache.generation();
        for k in 0..(AnswerCache::MAX_ENTRIES as i64 + 10) {
            cache.put((k, Source::All, None), gathered(), 1_000, g);
        }
        assert!(cache.len() <= AnswerCache::MAX_ENTRIES);
    }
}
