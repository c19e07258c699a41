//! Pairing benchmarks: a Dutch Swiss round (a simulated tournament re-paired at one round)
//! and an arena wave of 10,000 free players.
//! `cargo bench -p zertz-tournament --bench pairing`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use zertz_tournament::arena::{Waiting, pair_wave};
use zertz_tournament::dutch::{self, SwissInput};
use zertz_tournament::simulate::{Rng, simulate};
use zertz_tournament::trf::ResultCode;

/// The input for pairing round `k` of a simulated tournament.
fn round_input(players: u32, rounds: u32, k: usize) -> SwissInput {
    let mut t = simulate(players, rounds, 1).expect("pairable");
    for p in t.players_mut() {
        let e = p.rounds[k - 1];
        p.rounds.truncate(k - 1);
        if let Some(e) = e
            && e.opponent.is_none()
            && e.result != ResultCode::PairingBye
        {
            p.rounds.push(Some(e));
        }
    }
    SwissInput::from_trf(&t).expect("input")
}

fn swiss(c: &mut Criterion) {
    let mut g = c.benchmark_group("dutch");
    g.sample_size(10);
    for &(players, k) in &[(100u32, 5usize), (200, 5)] {
        let input = round_input(players, 7, k);
        g.bench_function(format!("{players} players, round {k}"), |b| {
            b.iter(|| dutch::pair(black_box(&input)).expect("pairs"))
        });
    }
    g.finish();
}

fn arena(c: &mut Criterion) {
    let mut rng = Rng::new(3);
    let free: Vec<Waiting> = (0..10_000u32)
        .map(|id| Waiting {
            id,
            points: rng.below(40) as u32,
            rating: 1200 + rng.below(1200) as u32,
            last_opponent: Some(rng.below(10_000) as u32),
        })
        .collect();
    c.bench_function("arena wave, 10000 players", |b| {
        b.iter(|| pair_wave(black_box(&free)))
    });
}

criterion_group!(benches, swiss, arena);
criterion_main!(benches);
