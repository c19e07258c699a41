//! Zobrist keys: one random 64-bit key per feature of a position, XORed together.
//!
//! The keys are fixed (generated at compile time from a constant seed), so hashes are the same
//! in every run and on every machine.

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

/// Key of a ring on place `i`.
pub(crate) static RING: [u64; 64] = table::<64>(1);
/// Key of a marble of colour `c` on place `i`: index `c * 64 + i`.
pub(crate) static MARBLE: [u64; 192] = table::<192>(2);
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
