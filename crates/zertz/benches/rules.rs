//! Benchmarks of the rules library: perft with bulk counting, perft with full generation, and
//! move generation + play on positions from real games. Figures and the commands that made them
//! are in docs/performance.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use zertz::perft::{perft, perft_full};
use zertz::{BoardKind, Layout, Position, RuleSet};

fn start(kind: BoardKind) -> Position {
    Position::new(Layout::official(kind), RuleSet::STANDARD)
}

fn real_positions() -> Vec<Position> {
    include_str!("../tests/data/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(" ; ").next()?.parse().ok())
        .collect()
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let p37 = start(BoardKind::Rings37);
    group.throughput(Throughput::Elements(4_114_538_424));
    group.bench_function("37 depth 3, bulk", |b| b.iter(|| perft(black_box(&p37), 3)));
    group.throughput(Throughput::Elements(3_277_260));
    group.bench_function("37 depth 2, full generation", |b| {
        b.iter(|| perft_full(black_box(&p37), 2))
    });
    let p48 = start(BoardKind::Rings48);
    group.throughput(Throughput::Elements(7_824_600));
    group.bench_function("48 depth 2, full generation", |b| {
        b.iter(|| perft_full(black_box(&p48), 2))
    });
    group.finish();
}

fn bench_real(c: &mut Criterion) {
    let positions = real_positions();
    let moves: u64 = positions.iter().map(|p| p.legal_moves().len() as u64).sum();
    let mut group = c.benchmark_group("real positions");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("generate every move", |b| {
        let mut list = Vec::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                p.legal_moves_into(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("generate and play every move", |b| {
        let mut list = Vec::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                p.legal_moves_into(&mut list);
                for mv in &list {
                    let mut next = p.clone();
                    next.play_unchecked(mv);
                    n += next.hash() & 1;
                }
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_real);
criterion_main!(benches);
