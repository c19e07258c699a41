//! Sets of places, one bit per place index: [`Narrow`] (`u64`) for boards of up to 64 places
//! (every official board), [`Wide`] (`u128`) for BoardSpace's large "Zertz+xx" boards of up to
//! 128 places, [`Huge`] (256 bits) for the largest ones (its grid holds 204 places).
//!
//! Positions, games and the BoardSpace reader are generic over the [`PlaceSet`] they use, with
//! `u64` the default: widening every board to `u128` made perft on the official boards about
//! twice as slow (docs/performance.md), so the narrow type keeps the common case as it was and
//! the wider ones are used only where a board needs them.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of places of a layout as `u64` (at most 64 places): the default everywhere.
pub type Narrow = u64;

/// A set of places of a layout as `u128` (at most 128 places).
pub type Wide = u128;

/// The number of `u64` words of a [`Huge`] set.
const HUGE_WORDS: usize = 4;

/// A set of places of a layout as 256 bits (four `u64` words, place `i` in word `i / 64`): the
/// widest set, for boards of more than 128 places. Every set converts to and from it
/// ([`PlaceSet::to_huge`], [`PlaceSet::from_huge`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Huge(pub [u64; HUGE_WORDS]);

impl Debug for Huge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Huge({self:#x})")
    }
}

impl std::fmt::LowerHex for Huge {
    /// The whole set as one hexadecimal number (most significant word first, leading zero
    /// words left out), as `u64` and `u128` print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let top = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        let mut text = format!("{:x}", self.0[top]);
        for w in self.0[..top].iter().rev() {
            text.push_str(&format!("{w:016x}"));
        }
        f.pad_integral(true, "0x", &text)
    }
}

macro_rules! huge_op {
    ($op:ident, $f:ident, $assign:ident, $fa:ident, $sym:tt) => {
        impl $op for Huge {
            type Output = Huge;
            #[inline]
            fn $f(self, rhs: Huge) -> Huge {
                Huge(std::array::from_fn(|i| self.0[i] $sym rhs.0[i]))
            }
        }
        impl $assign for Huge {
            #[inline]
            fn $fa(&mut self, rhs: Huge) {
                *self = *self $sym rhs;
            }
        }
    };
}

huge_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
huge_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
huge_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Huge {
    type Output = Huge;
    #[inline]
    fn not(self) -> Huge {
        Huge(self.0.map(|w| !w))
    }
}

impl PlaceSet for Huge {
    const EMPTY: Self = Huge([0; HUGE_WORDS]);
    const CAPACITY: usize = 64 * HUGE_WORDS;

    #[inline]
    fn bit(i: u8) -> Self {
        let mut words = [0; HUGE_WORDS];
        words[i as usize / 64] = 1 << (i % 64);
        Huge(words)
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn lowest(self) -> u32 {
        match self.0.iter().position(|&w| w != 0) {
            Some(k) => 64 * k as u32 + self.0[k].trailing_zeros(),
            None => Self::CAPACITY as u32,
        }
    }

    #[inline]
    fn without_lowest(mut self) -> Self {
        if let Some(w) = self.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        self
    }

    fn first(n: usize) -> Self {
        Huge(std::array::from_fn(|k| {
            let bits = n.saturating_sub(64 * k).min(64);
            if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            }
        }))
    }

    #[inline]
    fn to_huge(self) -> Huge {
        self
    }

    #[inline]
    fn from_huge(set: Huge) -> Option<Self> {
        Some(set)
    }
}

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
    /// The same set as a [`Huge`], the widest set: every set converts to it.
    fn to_huge(self) -> Huge;
    /// The set of a [`Huge`], if every index fits.
    fn from_huge(set: Huge) -> Option<Self>;

    /// The same set in another width, if every index fits there (through [`Huge`]).
    #[inline]
    fn convert<T: PlaceSet>(self) -> Option<T> {
        T::from_huge(self.to_huge())
    }

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
            fn to_huge(self) -> Huge {
                // Word `k` holds bits `64 k ..`; a `u64` fills word 0, a `u128` words 0 and 1.
                Huge(std::array::from_fn(|k| {
                    if 64 * k < Self::CAPACITY {
                        (self >> (64 * k)) as u64
                    } else {
                        0
                    }
                }))
            }

            #[inline]
            fn from_huge(set: Huge) -> Option<Self> {
                let mut out: Self = 0;
                for (k, &w) in set.0.iter().enumerate() {
                    if 64 * k < Self::CAPACITY {
                        out |= (w as Self) << (64 * k);
                    } else if w != 0 {
                        return None;
                    }
                }
                Some(out)
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    /// The set of the given indices (each below `S::CAPACITY`).
    fn set_of<S: PlaceSet>(indices: &BTreeSet<u8>) -> S {
        indices.iter().fold(S::EMPTY, |acc, &i| acc | S::bit(i))
    }

    /// Every operation of a set of places against a `BTreeSet` of its indices.
    fn agrees<S: PlaceSet>(a: &BTreeSet<u8>, b: &BTreeSet<u8>) -> Result<(), TestCaseError> {
        let keep = |s: &BTreeSet<u8>| -> BTreeSet<u8> {
            s.iter()
                .copied()
                .filter(|&i| (i as usize) < S::CAPACITY)
                .collect()
        };
        let (a, b) = (keep(a), keep(b));
        let (x, y): (S, S) = (set_of(&a), set_of(&b));
        fn items<T: PlaceSet>(s: T) -> BTreeSet<u8> {
            Bits(s).collect()
        }
        prop_assert_eq!(items(x), a.clone());
        prop_assert_eq!(Bits(x).len(), a.len());
        prop_assert_eq!(x.count() as usize, a.len());
        prop_assert_eq!(x.any(), !a.is_empty());
        prop_assert_eq!(x.none(), a.is_empty());
        let lowest = a.first().map_or(S::CAPACITY as u32, |&i| i as u32);
        prop_assert_eq!(x.lowest(), lowest);
        prop_assert_eq!(
            items(x.without_lowest()),
            a.iter().skip(1).copied().collect()
        );
        for i in 0..S::CAPACITY.min(256) {
            prop_assert_eq!(x.has(i as u8), a.contains(&(i as u8)));
        }
        prop_assert_eq!(items(x & y), a.intersection(&b).copied().collect());
        prop_assert_eq!(items(x | y), a.union(&b).copied().collect());
        prop_assert_eq!(items(x ^ y), a.symmetric_difference(&b).copied().collect());
        let all: BTreeSet<u8> = (0..S::CAPACITY).map(|i| i as u8).collect();
        prop_assert_eq!(items(!x), all.difference(&a).copied().collect());
        let (mut m, mut o, mut e) = (x, x, x);
        m &= y;
        o |= y;
        e ^= y;
        prop_assert_eq!((m, o, e), (x & y, x | y, x ^ y));
        // Conversions through the widest set keep the indices, and refuse what does not fit.
        prop_assert_eq!(items(x.to_huge()).len(), a.len());
        prop_assert_eq!(S::from_huge(x.to_huge()), Some(x));
        let fits = |cap: usize| a.last().is_none_or(|&i| (i as usize) < cap);
        prop_assert_eq!(x.convert::<u64>().map(items), fits(64).then(|| a.clone()));
        prop_assert_eq!(x.convert::<u128>().map(items), fits(128).then(|| a.clone()));
        prop_assert_eq!(x.convert::<Huge>().map(items), Some(a.clone()));
        Ok(())
    }

    fn indices() -> impl Strategy<Value = BTreeSet<u8>> {
        prop::collection::btree_set(any::<u8>(), 0..40)
    }

    proptest! {
        #[test]
        fn sets_agree_with_a_btreeset(a in indices(), b in indices(), n in 0usize..300) {
            agrees::<u64>(&a, &b)?;
            agrees::<u128>(&a, &b)?;
            agrees::<Huge>(&a, &b)?;
            let first: BTreeSet<u8> = (0..n.min(256)).map(|i| i as u8).collect();
            prop_assert_eq!(Bits(Huge::first(n)).collect::<BTreeSet<u8>>(), first.clone());
            let narrow: BTreeSet<u8> = first.iter().copied().filter(|&i| i < 64).collect();
            prop_assert_eq!(Bits(u64::first(n)).collect::<BTreeSet<u8>>(), narrow);
        }

        #[test]
        fn huge_prints_as_one_number(words in any::<[u64; 2]>()) {
            let wide = words[0] as u128 | (words[1] as u128) << 64;
            let huge = wide.to_huge();
            prop_assert_eq!(format!("{huge:x}"), format!("{wide:x}"));
            prop_assert_eq!(format!("{huge:#x}"), format!("{wide:#x}"));
        }
    }

    #[test]
    fn huge_edges() {
        let top = Huge::bit(255);
        assert_eq!((top.lowest(), top.count()), (255, 1));
        assert_eq!(top.without_lowest(), Huge::EMPTY);
        assert_eq!(Huge::EMPTY.lowest(), 256);
        assert_eq!(Huge::first(300), !Huge::EMPTY);
        assert_eq!(Huge::first(204).count(), 204);
        assert_eq!(
            format!("{:x}", Huge::bit(200)),
            format!("1{}", "0".repeat(50))
        );
        assert_eq!(u128::from_huge(Huge::bit(128)), None);
        assert_eq!(u64::from_huge(Huge::bit(64)), None);
    }
}
