//! Zobrist keys: one random 64-bit key per feature of a position, XORed together.
//!
//! The keys are fixed (generated at compile time from a constant seed), so hashes are the same
//! in every run and on every machine.

use crate::layout::{MAX_HUGE_PLACES, MAX_WIDE_PLACES};

pub(crate) const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(crate) const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(
            seed.wrapping_mul(0x1000_0000_01B3) ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407),
        );
        i += 1;
    }
    out
}

/// Keys of a ring on place `i`.
pub(crate) static RING: [u64; MAX_HUGE_PLACES] =
    per_place(table::<64>(1), table::<64>(4), table::<HUGE_ONLY>(6));
/// Keys of a marble of colour `c` on place `i`: `MARBLE[c][i]`.
pub(crate) static MARBLE: [[u64; MAX_HUGE_PLACES]; 3] = marble_keys(
    table::<192>(2),
    table::<192>(5),
    table::<{ 3 * HUGE_ONLY }>(7),
);

/// Places past [`MAX_WIDE_PLACES`] (boards of 256-bit sets).
pub(crate) const HUGE_ONLY: usize = MAX_HUGE_PLACES - MAX_WIDE_PLACES;

/// One key per place: places 0-63 keep the keys they had when every board had at most 64
/// places and places 64-127 those they had when boards had at most 128 (so hashes kept
/// anywhere stay valid); places 64 and up take theirs from `wide`, 128 and up from `huge`.
pub(crate) const fn per_place(
    low: [u64; 64],
    wide: [u64; 64],
    huge: [u64; HUGE_ONLY],
) -> [u64; MAX_HUGE_PLACES] {
    let mut out = [0u64; MAX_HUGE_PLACES];
    let mut i = 0;
    while i < MAX_HUGE_PLACES {
        out[i] = if i < 64 {
            low[i]
        } else if i < MAX_WIDE_PLACES {
            wide[i - 64]
        } else {
            huge[i - MAX_WIDE_PLACES]
        };
        i += 1;
    }
    out
}

/// Marble keys by colour and place, from tables indexed `colour * 64 + place` (the order of
/// the 64-place keys) and, past 128 places, `colour * HUGE_ONLY + place - 128`.
pub(crate) const fn marble_keys(
    low: [u64; 192],
    wide: [u64; 192],
    huge: [u64; 3 * HUGE_ONLY],
) -> [[u64; MAX_HUGE_PLACES]; 3] {
    let mut out = [[0u64; MAX_HUGE_PLACES]; 3];
    let mut c = 0;
    while c < 3 {
        let mut i = 0;
        while i < MAX_HUGE_PLACES {
            out[c][i] = if i < 64 {
                low[c * 64 + i]
            } else if i < MAX_WIDE_PLACES {
                wide[c * 64 + i - 64]
            } else {
                huge[c * HUGE_ONLY + i - MAX_WIDE_PLACES]
            };
            i += 1;
        }
        c += 1;
    }
    out
}

/// Key of a count: index `slot * 256 + n`, slots 0-2 the supply by colour, 3-5 player one's
/// captures, 6-8 player two's.
pub(crate) static COUNT: [u64; 9 * 256] = table::<{ 9 * 256 }>(3);
/// Key of player two to move.
pub(crate) const SIDE: u64 = splitmix(0x05EE_D0F2_E272_u64);

/// Key of `n` marbles in count slot `slot` (see [`COUNT`]).
#[inline]
pub(crate) fn count(slot: usize, n: u8) -> u64 {
    COUNT[slot * 256 + n as usize]
}

/// The hasher of maps keyed by Zobrist hashes: such a key is already uniformly random, so it
/// is its own hash (SipHash over it cost a game more than the rest of its bookkeeping).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are meant; any other bytes are still mixed in, not dropped.
        for &b in bytes {
            self.0 = splitmix(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 ^= key;
    }
}

/// A map keyed by Zobrist hashes.
pub(crate) type ByKey<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;
