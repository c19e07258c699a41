//! The prover's transposition table: proof and disproof numbers of (position, turns left)
//! pairs, in a fixed amount of memory.
//!
//! The same position is reached by many move orders (two placements in either order), so the
//! proof search would otherwise prove it again and again. The table is a plain array of
//! buckets of four entries; when a bucket is full the entry with the least work behind it is
//! replaced, which keeps the expensive results (and the proofs found, which have the most work
//! under them) and forgets cheap leaves that are quick to redo. Forgetting never makes an
//! answer wrong: the search only recomputes, and every proof is checked after extraction.

/// A proof or disproof number meaning "infinite": the node is decided.
pub const INF: u64 = 1 << 48;

/// What the table knows about one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// The proof number: how many leaves at least must still be proved to prove a win.
    pub pn: u64,
    /// The disproof number: how many leaves at least must be disproved to refute it.
    pub dn: u64,
}

impl Numbers {
    /// A win for the attacker, proven.
    pub const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
    /// No win within the turns left, proven.
    pub const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };

    /// True once the node is decided either way.
    pub fn is_solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    pn: u64,
    dn: u64,
    /// Expansions spent under this node (the replacement priority).
    work: u64,
}

const BUCKET: usize = 4;

/// The table.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two of buckets, at least 256).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let wanted = (bytes / (std::mem::size_of::<Slot>() * BUCKET)).max(256);
        let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            slots: vec![Slot::default(); buckets * BUCKET],
            mask: buckets - 1,
        }
    }

    /// The size in megabytes.
    pub fn megabytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize & self.mask) * BUCKET;
        start..start + BUCKET
    }

    /// The numbers stored for `key`, if any. Key 0 is never stored (it marks an empty slot).
    pub fn get(&self, key: u64) -> Option<Numbers> {
        let key = key.max(1);
        self.slots[self.bucket(key)]
            .iter()
            .find(|s| s.key == key)
            .map(|s| Numbers { pn: s.pn, dn: s.dn })
    }

    /// Stores `numbers` for `key` with `work` expansions behind them.
    pub fn put(&mut self, key: u64, numbers: Numbers, work: u64) {
        let key = key.max(1);
        let range = self.bucket(key);
        let bucket = &mut self.slots[range];
        let at = bucket
            .iter()
            .position(|s| s.key == key)
            .or_else(|| bucket.iter().position(|s| s.key == 0))
            .unwrap_or_else(|| {
                // The least work goes first; a solved entry counts as more work than any open
                // one of the same cost, since it is final.
                (0..BUCKET)
                    .min_by_key(|&i| {
                        let s = bucket[i];
                        let solved = s.pn == 0 || s.dn == 0;
                        (s.work, solved)
                    })
                    .unwrap_or(0)
            });
        bucket[at] = Slot {
            key,
            pn: numbers.pn,
            dn: numbers.dn,
            work,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_numbers_come_back_and_a_full_bucket_drops_the_least_work() {
        let mut t = Table::new(1);
        let n = |pn, dn| Numbers { pn, dn };
        t.put(42, n(3, 4), 10);
        assert_eq!(t.get(42), Some(n(3, 4)));
        assert_eq!(t.get(43), None);
        t.put(42, Numbers::PROVEN, 11);
        assert_eq!(t.get(42), Some(Numbers::PROVEN));
        // Five keys in one bucket (42 and four more): the one with the least work is the one forgotten.
        let stride = (t.mask as u64) + 1;
        let keys: Vec<u64> = (1..=4).map(|i| 42 + i * stride).collect();
        for (i, &k) in keys[..3].iter().enumerate() {
            t.put(k, n(1, 1), 100 + i as u64);
        }
        t.put(keys[3], n(2, 2), 1000);
        assert!(t.get(42).is_none(), "the least work (11) is replaced");
        assert_eq!(t.get(keys[3]), Some(n(2, 2)));
        for &k in &keys[..3] {
            assert!(t.get(k).is_some());
        }
    }
}
