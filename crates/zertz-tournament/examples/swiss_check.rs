//! Saves a simulated Swiss tournament, or re-pairs the rounds of a saved one and checks that
//! each is paired as the file has it (who plays whom, who moves first, the bye), timing each:
//!
//! `cargo run --release -p zertz-tournament --example swiss_check -- simulate PLAYERS ROUNDS SEED FILE`
//! `cargo run --release -p zertz-tournament --example swiss_check -- check FILE [ROUND...]`
//!
//! A tournament simulated (and so paired) by one version of the engine, checked by another,
//! shows whether the two pair alike on fields larger than the reference tournaments.

use std::collections::BTreeSet;
use std::time::Instant;
use zertz_tournament::dutch::{self, SwissInput};
use zertz_tournament::simulate::simulate;
use zertz_tournament::trf::{Colour, ResultCode, Trf};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "simulate PLAYERS ROUNDS SEED FILE | check FILE [ROUND...]";
    match args.first().map(String::as_str) {
        Some("simulate") if args.len() == 5 => {
            let num = |i: usize| args[i].parse::<u64>().expect(usage);
            let start = Instant::now();
            let trf = simulate(num(1) as u32, num(2) as u32, num(3)).expect("pairable");
            std::fs::write(&args[4], trf.write("\n")).expect("writable file");
            println!(
                "simulated in {:.2} s, written to {}",
                start.elapsed().as_secs_f64(),
                args[4]
            );
        }
        Some("check") if args.len() >= 2 => {
            let text = std::fs::read_to_string(&args[1]).expect("readable file");
            let full = Trf::parse(&text).expect("a TRF file");
            let rounds = full.players().map(|p| p.rounds.len()).max().unwrap_or(0);
            let wanted: Vec<usize> = if args.len() > 2 {
                args[2..].iter().map(|a| a.parse().expect(usage)).collect()
            } else {
                (1..=rounds).collect()
            };
            let mut bad = 0;
            for k in wanted {
                let mut t = full.clone();
                let mut want = BTreeSet::new();
                let mut bye = None;
                for p in t.players_mut() {
                    let e = p.rounds.get(k - 1).copied().flatten();
                    match e {
                        Some(e) if e.opponent.is_some() && e.colour == Some(Colour::White) => {
                            want.insert((p.start_rank, e.opponent.expect("opponent")));
                        }
                        Some(e) if e.result == ResultCode::PairingBye => bye = Some(p.start_rank),
                        _ => {}
                    }
                    p.rounds.truncate(k - 1);
                    if let Some(e) = e
                        && e.opponent.is_none()
                        && e.result != ResultCode::PairingBye
                    {
                        p.rounds.push(Some(e));
                    }
                }
                let input = SwissInput::from_trf(&t).expect("input");
                let t0 = Instant::now();
                let got = dutch::pair(&input).expect("pairs");
                let s = t0.elapsed().as_secs_f64();
                let set: BTreeSet<(u32, u32)> = got.pairs.iter().copied().collect();
                let same = set == want && got.bye == bye;
                if !same {
                    bad += 1;
                }
                println!(
                    "round {k}: {} pairs in {s:.3} s, {}",
                    got.pairs.len(),
                    if same { "as in the file" } else { "DIFFERENT" }
                );
            }
            if bad > 0 {
                println!("{bad} rounds differ");
                std::process::exit(1);
            }
        }
        _ => {
            eprintln!("usage: {usage}");
            std::process::exit(2);
        }
    }
}
