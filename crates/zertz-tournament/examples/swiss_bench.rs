//! Times the Dutch pairing of every round of a simulated Swiss tournament:
//! `cargo run --release -p zertz-tournament --example swiss_bench -- PLAYERS ROUNDS SEED`.

use std::time::Instant;
use zertz_tournament::dutch::{self, SwissInput};
use zertz_tournament::simulate::simulate;
use zertz_tournament::trf::Trf;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: PLAYERS ROUNDS SEED"))
        .collect();
    let (players, rounds, seed) = (
        *args.first().unwrap_or(&1000) as u32,
        *args.get(1).unwrap_or(&9) as u32,
        *args.get(2).unwrap_or(&1),
    );
    let start = Instant::now();
    let trf = simulate(players, rounds, seed).expect("pairable");
    println!(
        "simulated {players} players, {rounds} rounds in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    // Re-pair each round from the file, timing each.
    let mut worst = 0f64;
    for k in 1..=rounds as usize {
        let mut t: Trf = trf.clone();
        for p in t.players_mut() {
            let e = p.rounds[k - 1];
            p.rounds.truncate(k - 1);
            if let Some(e) = e
                && e.opponent.is_none()
                && e.result != zertz_tournament::trf::ResultCode::PairingBye
            {
                p.rounds.push(Some(e));
            }
        }
        let input = SwissInput::from_trf(&t).expect("input");
        let t0 = Instant::now();
        let pairing = dutch::pair(&input).expect("pairs");
        let s = t0.elapsed().as_secs_f64();
        worst = worst.max(s);
        println!("round {k}: {} pairs in {s:.3} s", pairing.pairs.len());
    }
    println!("slowest round: {worst:.3} s");
}
