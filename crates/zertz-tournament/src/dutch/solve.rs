//! Solving a matching whose edge weights are vectors of criteria compared in order
//! (lexicographically): the vectors are packed into one wide integer, most important
//! criterion in the highest bits, each field wide enough that no sum over a matching can
//! spill into the next.

use crate::matching::{Big, Weight, max_weight_matching_sparse};

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
) -> Vec<Option<usize>> {
    let total: u32 = widths.iter().sum();
    let weighted: Vec<(usize, usize, Big<N>)> = edges
        .iter()
        .map(|(u, v, f)| {
            let mut w = Big::<N>::zero();
            let mut shift = total;
            for (x, width) in f.iter().zip(widths) {
                shift -= width;
                if *x != 0 {
                    w = w.plus(Big::<N>::shifted(*x, shift as usize));
                }
            }
            (*u, *v, w)
        })
        .collect();
    max_weight_matching_sparse(n, &weighted, first)
}

fn run_u128(n: usize, edges: &[FieldEdge], widths: &[u32], first: &[bool]) -> Vec<Option<usize>> {
    let total: u32 = widths.iter().sum();
    let weighted: Vec<(usize, usize, u128)> = edges
        .iter()
        .map(|(u, v, f)| {
            let mut w = 0u128;
            let mut shift = total;
            for (x, width) in f.iter().zip(widths) {
                shift -= width;
                w += (*x as u128) << shift;
            }
            (*u, *v, w)
        })
        .collect();
    max_weight_matching_sparse(n, &weighted, first)
}

/// A maximum matching under the lexicographic order of the summed criteria vectors,
/// solved first on the edges marked in `first`. Returns each vertex's partner.
pub fn solve(n: usize, edges: &[FieldEdge], first: &[bool]) -> Vec<Option<usize>> {
    let Some(head) = edges.first() else {
        return vec![None; n];
    };
    let nf = head.2.len();
    let pairs = (n / 2 + 1) as u64;
    let widths: Vec<u32> = (0..nf)
        .map(|f| {
            let max = edges.iter().map(|e| e.2[f]).max().unwrap_or(0);
            bits(max.saturating_mul(pairs))
        })
        .collect();
    // Room for the duals: twice the weight and a little more.
    let total = widths.iter().sum::<u32>() as usize + 4;
    match total.div_ceil(64) {
        0..=1 => run_u128(n, edges, &widths, first),
        2 => {
            if total < 127 {
                run_u128(n, edges, &widths, first)
            } else {
                run::<2>(n, edges, &widths, first)
            }
        }
        3 => run::<3>(n, edges, &widths, first),
        4 => run::<4>(n, edges, &widths, first),
        5..=6 => run::<6>(n, edges, &widths, first),
        7..=8 => run::<8>(n, edges, &widths, first),
        9..=12 => run::<12>(n, edges, &widths, first),
        13..=16 => run::<16>(n, edges, &widths, first),
        17..=24 => run::<24>(n, edges, &widths, first),
        25..=32 => run::<32>(n, edges, &widths, first),
        33..=64 => run::<64>(n, edges, &widths, first),
        _ => run::<128>(n, edges, &widths, first),
    }
}
