//! Sets of places, one bit per place index: [`Narrow`] (`u64`) for boards of up to 64 places
//! (every official board), [`Wide`] (`u128`) for BoardSpace's large "Zertz+xx" boards.
//!
//! Positions, games and the BoardSpace reader are generic over the [`PlaceSet`] they use, with
//! `u64` the default: widening every board to `u128` made perft on the official boards about
//! twice as slow (docs/performance.md), so the narrow type keeps the common case as it was and
//! the wide one is used only where a board needs it.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of places of a layout as `u64` (at most 64 places): the default everywhere.
pub type Narrow = u64;

/// A set of places of a layout as `u128` (at most 128 places).
pub type Wide = u128;

/// An integer used as a set of places: bit `i` for place index `i`.
pub trait PlaceSet:
    Copy
    + Eq
    + Hash
    + Debug
    + std::fmt::LowerHex
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// The most places a set can hold (its number of bits).
    const CAPACITY: usize;
    /// The set of place index `i` alone.
    fn bit(i: u8) -> Self;
    /// The number of places in the set.
    fn count(self) -> u32;
    /// The lowest index in the set (`CAPACITY` for the empty set).
    fn lowest(self) -> u32;
    /// The set without its lowest index.
    fn without_lowest(self) -> Self;
    /// The set of indices `0..n` (`n` at most `CAPACITY`).
    fn first(n: usize) -> Self;
    /// The same set as a `u128`.
    fn to_wide(self) -> Wide;
    /// The set of a `u128`, if every index fits.
    fn from_wide(set: Wide) -> Option<Self>;

    /// True when the set is not empty.
    #[inline]
    fn any(self) -> bool {
        self != Self::EMPTY
    }

    /// True when the set is empty.
    #[inline]
    fn none(self) -> bool {
        self == Self::EMPTY
    }

    /// True when index `i` is in the set.
    #[inline]
    fn has(self, i: u8) -> bool {
        (self & Self::bit(i)).any()
    }
}

macro_rules! place_set {
    ($t:ty) => {
        impl PlaceSet for $t {
            const EMPTY: Self = 0;
            const CAPACITY: usize = <$t>::BITS as usize;

            #[inline]
            fn bit(i: u8) -> Self {
                1 << i
            }

            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }

            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }

            #[inline]
            fn first(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }

            #[inline]
            fn to_wide(self) -> Wide {
                self as Wide
            }

            #[inline]
            fn from_wide(set: Wide) -> Option<Self> {
                <$t>::try_from(set).ok()
            }
        }
    };
}

place_set!(u64);
place_set!(u128);

/// Iterates over the indices of the set bits of a set of places, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits<S = Narrow>(pub S);

impl<S: PlaceSet> Iterator for Bits<S> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0.none() {
            return None;
        }
        let index = self.0.lowest() as u8;
        self.0 = self.0.without_lowest();
        Some(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<S: PlaceSet> ExactSizeIterator for Bits<S> {}

/// The bit of place index `i`.
#[inline]
pub(crate) fn bit<S: PlaceSet>(i: u8) -> S {
    S::bit(i)
}
