//! Calibrates the win-chance scale of `zertz_engine::verdicts`: how a score turns into the
//! chance that the player to move wins, fitted on real games.
//!
//! ```sh
//! cargo run --release -p zertz-engine --example win_chance -- GAMES NODES PATH...
//! cargo run --release -p zertz-engine --example win_chance -- 1500 20000 ../shared/boardspace
//! ```
//!
//! It reads BoardSpace records (`.sgf` files, folders, `.zip` archives), keeps the first
//! `GAMES` games that ended with a winner (by the rules or a resignation), searches every third
//! position of each with a budget of `NODES` nodes, and fits `k` of the logistic curve
//! `1 / (1 + e^(-k·score))` to whether the player to move went on to win (maximum likelihood,
//! positions with a forced result left out). It prints `k`, the number of positions, and the
//! observed and fitted win rate by score bucket, to judge the fit by eye.

#[path = "common/records.rs"]
mod records;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use records::records;
use zertz::Game;
use zertz::boardspace::{self, Ending, RecordedResult};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(games), Some(nodes)) = (
        args.first().and_then(|a| a.parse::<usize>().ok()),
        args.get(1).and_then(|a| a.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: win_chance GAMES NODES PATH...");
        std::process::exit(2);
    };
    let mut texts = Vec::new();
    for path in &args[2..] {
        records(Path::new(path), &mut texts);
    }
    let engine = Engine::new(SearchOptions::default(), 64);
    // (score for the player to move, did that player win)
    let mut samples: Vec<(f64, bool)> = Vec::new();
    let mut used = 0;
    for (_, text) in &texts {
        if used >= games {
            break;
        }
        let Ok(r) = boardspace::import(text) else {
            continue;
        };
        let winner_bs = match (r.ending, &r.result) {
            (Ending::Rules(_), _) => r.rules_winner(),
            (Ending::Resigned(loser), _) => Some(1 - loser),
            (_, RecordedResult::Winner(w)) => Some(*w),
            _ => None,
        };
        let Some(winner) = winner_bs.map(|w| r.player_of(w)) else {
            continue;
        };
        used += 1;
        let mut game = Game::from_position(r.game.start().clone(), r.game.rules());
        for (i, turn) in r.game.turns().iter().enumerate() {
            if i % 3 == 1 && !game.is_over() {
                let stop = AtomicBool::new(false);
                let result = engine.search(&game, &Limits::nodes(nodes), &stop, &mut |_| {});
                if let Score::Value(v) = result.score {
                    samples.push((f64::from(v), game.to_move() == winner));
                }
            }
            if let zertz::Turn::Move(mv) = turn {
                if game.play(mv).is_err() {
                    break;
                }
            } else {
                break;
            }
        }
    }
    let k = fit(&samples);
    println!("games {used}, positions {}, k = {k:.5}", samples.len());
    println!("score bucket   positions   won    fitted");
    let edges = [
        -1e9, -3000.0, -1000.0, -400.0, -200.0, -100.0, -50.0, -20.0, 0.0, 20.0, 50.0, 100.0,
        200.0, 400.0, 1000.0, 3000.0, 1e9,
    ];
    for w in edges.windows(2) {
        let inside: Vec<_> = samples
            .iter()
            .filter(|(s, _)| *s >= w[0] && *s < w[1])
            .collect();
        if inside.is_empty() {
            continue;
        }
        let won = inside.iter().filter(|(_, w)| *w).count() as f64 / inside.len() as f64;
        let mid = inside.iter().map(|(s, _)| s).sum::<f64>() / inside.len() as f64;
        println!(
            "[{:>5}, {:>5})   {:>8}   {:.3}   {:.3}",
            w[0],
            w[1],
            inside.len(),
            won,
            chance(k, mid)
        );
    }
}

fn chance(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// The `k` that maximises the likelihood, by golden-section search on (0, 0.1].
fn fit(samples: &[(f64, bool)]) -> f64 {
    let loss = |k: f64| -> f64 {
        samples
            .iter()
            .map(|&(s, won)| {
                let p = chance(k, s).clamp(1e-9, 1.0 - 1e-9);
                -(if won { p.ln() } else { (1.0 - p).ln() })
            })
            .sum()
    };
    let (mut a, mut b) = (1e-5, 0.1);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}
