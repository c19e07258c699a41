//! Solving a matching whose edge weights are vectors of criteria compared in order
//! (lexicographically): the vectors are packed into one wide integer, most important
//! criterion in the highest bits, each field wide enough that no sum over a matching can
//! spill into the next.

use crate::matching::{Big, IncrementalMatching, incremental_matching};

/// An edge between two vertices with its criteria, most important first.
pub type FieldEdge = (usize, usize, Vec<u64>);

fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

fn run<const N: usize>(
    n: usize,
    edges: &[FieldEdge],
    widths: &[u32],
    first: &[bool],
    removed: &[bool],
) -> Box<dyn IncrementalMatching> {
    // The fields never overlap: each is or-ed into its limbs directly.
    let total: u32 = widths.iter().sum();
    let weighted: Vec<(usize, usize, Big<N>)> = edges
        .iter()
        .map(|(u, v, f)| {
            let mut w = [0u64; N];
            let mut shift = total;
            for (&x, width) in f.iter().zip(widths) {
                shift -= width;
                if x != 0 {
                    let (limb, bit) = ((shift / 64) as usize, shift % 64);
                    w[limb] |= x << bit;
                    if bit > 0 && limb + 1 < N {
                        w[limb + 1] |= x >> (64 - bit);
                    }
                }
            }
            (*u, *v, Big(w))
        })
        .collect();
    incremental_matching(n, weighted, first, removed)
}

fn run_u128(
    n: usize,
    edges: &[FieldEdge],
    widths: &[u32],
    first: &[bool],
    removed: &[bool],
) -> Box<dyn IncrementalMatching> {
    let total: u32 = widths.iter().sum();
    let weighted: Vec<(usize, usize, u128)> = edges
        .iter()
        .map(|(u, v, f)| {
            let mut w = 0u128;
            let mut shift = total;
            for (&x, width) in f.iter().zip(widths) {
                shift -= width;
                if x != 0 {
                    w |= (x as u128) << shift;
                }
            }
            (*u, *v, w)
        })
        .collect();
    incremental_matching(n, weighted, first, removed)
}

/// A maximum matching under the lexicographic order of the summed criteria vectors, over
/// the edges not marked in `removed`, solved first on the edges marked in `first`; kept to
/// be solved again after more edges are removed.
pub fn solve(
    n: usize,
    edges: &[FieldEdge],
    first: &[bool],
    removed: &[bool],
) -> Box<dyn IncrementalMatching> {
    let nf = edges.first().map_or(0, |e| e.2.len());
    let pairs = (n / 2 + 1) as u64;
    let mut max = vec![0u64; nf];
    for (e, _) in edges.iter().zip(removed).filter(|(_, r)| !**r) {
        for (m, &x) in max.iter_mut().zip(&e.2) {
            *m = (*m).max(x);
        }
    }
    let widths: Vec<u32> = max.iter().map(|m| bits(m.saturating_mul(pairs))).collect();
    // Room for the duals: twice the weight and a little more.
    let total = widths.iter().sum::<u32>() as usize + 4;
    match total.div_ceil(64) {
        0..=1 => run_u128(n, edges, &widths, first, removed),
        2 => {
            if total < 127 {
                run_u128(n, edges, &widths, first, removed)
            } else {
                run::<2>(n, edges, &widths, first, removed)
            }
        }
        3 => run::<3>(n, edges, &widths, first, removed),
        4 => run::<4>(n, edges, &widths, first, removed),
        5..=6 => run::<6>(n, edges, &widths, first, removed),
        7..=8 => run::<8>(n, edges, &widths, first, removed),
        9..=12 => run::<12>(n, edges, &widths, first, removed),
        13..=16 => run::<16>(n, edges, &widths, first, removed),
        17..=24 => run::<24>(n, edges, &widths, first, removed),
        25..=32 => run::<32>(n, edges, &widths, first, removed),
        33..=64 => run::<64>(n, edges, &widths, first, removed),
        _ => run::<128>(n, edges, &widths, first, removed),
    }
}
