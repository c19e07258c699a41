//! The transposition table: a fixed-size hash table of search results shared by all search
//! threads.
//!
//! Each slot is two atomic words: the data, and the key XORed with the data. A reader accepts a
//! slot only when key ^ data matches, so a slot torn by two threads writing at once reads as a
//! miss instead of as wrong data (the "lockless hashing" of Hyatt and Mann).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::moves::MoveCode;

/// What a stored score is: exact, a lower bound (the search failed high) or an upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact = 0,
    /// The true score is at least this.
    Lower = 1,
    /// The true score is at most this.
    Upper = 2,
}

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found, as a code (see [`MoveCode`]); 0 for none.
    pub mv: MoveCode,
    /// The score, from the side to move's point of view (win scores relative to this node).
    pub score: i32,
    /// The depth searched, in quarter turns (stored up to 63).
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

const SCORE_BITS: u32 = 22;
const SCORE_OFFSET: i64 = 1 << (SCORE_BITS - 1);

fn pack(e: &Entry, generation: u8) -> u64 {
    let score = (e.score as i64 + SCORE_OFFSET).clamp(0, (1 << SCORE_BITS) - 1) as u64;
    let depth = e.depth.clamp(0, 63) as u64;
    (e.mv.0 as u64)
        | (score << 32)
        | ((e.bound as u64) << 54)
        | ((generation as u64 & 0x3) << 56)
        | (depth << 58)
}

fn unpack(data: u64) -> (Entry, u8) {
    let mv = MoveCode(data as u32);
    let score = (((data >> 32) & ((1 << SCORE_BITS) - 1)) as i64 - SCORE_OFFSET) as i32;
    let bound = match (data >> 54) & 0x3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    let generation = ((data >> 56) & 0x3) as u8;
    let depth = ((data >> 58) & 0x3f) as i32;
    (
        Entry {
            mv,
            score,
            depth,
            bound,
        },
        generation,
    )
}

/// The table.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power of two of slots, at least 1024).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let wanted = (bytes / 16).max(1024);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let slots = (0..count)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        let table = TranspositionTable {
            slots,
            mask: count - 1,
            generation: AtomicU64::new(0),
        };
        // Zeroed memory may come from the system as the shared zero page: the first write to
        // each page (or 2 MB huge page, where the allocator asks for them) then faults, and the
        // system clears, and may first compact, memory for it. Left to the first search, those
        // faults took hundreds of milliseconds that no clock check inside the search can
        // interrupt (a 100 ms move took 640 ms for 65 nodes); writing every slot now moves
        // them here, before any clock runs.
        table.clear();
        table
    }

    /// The size in megabytes.
    pub fn megabytes(&self) -> usize {
        self.slots.len() * 16 / (1024 * 1024)
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 0x3) as u8
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        if check ^ data == key && data != 0 {
            Some(unpack(data).0)
        } else {
            None
        }
    }

    /// Stores an entry for `key`, replacing the slot's entry unless that one is from this
    /// search, for another position, and deeper.
    pub fn store(&self, key: u64, entry: Entry) {
        let slot = &self.slots[key as usize & self.mask];
        let old = slot[1].load(Ordering::Relaxed);
        let old_key = slot[0].load(Ordering::Relaxed) ^ old;
        let generation = self.generation();
        if old != 0 && old_key != key {
            let (previous, old_generation) = unpack(old);
            if old_generation == generation && previous.depth > entry.depth + 8 {
                return;
            }
        }
        let mut entry = entry;
        // Keep the old best move when the new entry has none for the same position.
        if entry.mv.0 == 0 && old_key == key {
            entry.mv = unpack(old).0.mv;
        }
        let data = pack(&entry, generation);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// How full the table is, in permille of a sample of slots used in this search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let generation = self.generation();
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let e = Entry {
            mv: MoveCode(0x8123_4567),
            score: -987_654,
            depth: 37,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF_0000_1234, e);
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_1234), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_1235), None);
        let e2 = Entry {
            score: 123,
            depth: 63,
            bound: Bound::Exact,
            ..e
        };
        tt.store(0xDEAD_BEEF_0000_1234, e2);
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_1234), Some(e2));
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_1234), None);
    }
}
