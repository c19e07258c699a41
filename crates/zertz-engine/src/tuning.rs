//! Tuning the evaluation weights by self-play with SPSA (simultaneous perturbation stochastic
//! approximation).
//!
//! Each iteration perturbs every weight at once by plus or minus its step, plays a few games
//! between the two perturbed versions (same openings, colours swapped, fixed nodes per move), and
//! moves the weights toward the version that scored better. Everything is seeded: the same
//! command gives the same weights on any machine.

use zertz::{Layout, Rules};

use crate::arena::{Builtin, Contestant, MatchConfig, run_match};
use crate::eval::Weights;
use crate::limits::Limits;
use crate::players::{Kind, Player, Rng, Think};
use crate::search::SearchOptions;

/// How a tuning run goes.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Iterations of SPSA.
    pub iterations: usize,
    /// Openings per iteration (each played twice).
    pub openings: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Seed of everything random.
    pub seed: u64,
    /// Learning rate at the start (decays as the run goes on).
    pub rate: f64,
    /// Board of the games.
    pub layout: &'static Layout,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            iterations: 200,
            openings: 2,
            nodes: 20_000,
            concurrency: 1,
            seed: 1,
            rate: 1.0,
            layout: Layout::standard(),
        }
    }
}

/// What one iteration did.
#[derive(Clone, Debug)]
pub struct Step {
    /// Iteration number (from 1).
    pub iteration: usize,
    /// Score of the plus version against the minus one (0 to 1).
    pub score: f64,
    /// Weights after the step.
    pub weights: Weights,
}

/// The perturbation step of a weight: a tenth of its size, at least 2.
fn step_of(value: i32) -> f64 {
    (value.abs() as f64 / 10.0).max(2.0)
}

fn apply(base: &Weights, values: &[f64]) -> Weights {
    let mut w = base.clone();
    for ((name, _), v) in base.named().iter().zip(values) {
        w.set(name, v.round() as i32);
    }
    w
}

fn contestant(weights: Weights, seed: u64) -> Box<dyn Contestant> {
    let options = SearchOptions {
        weights,
        ..SearchOptions::default()
    };
    Box::new(Builtin {
        player: Player::new(Kind::Level(10), seed, options, 8),
    })
}

/// Tunes `start`, calling `progress` after every iteration. Returns the final weights.
pub fn tune(start: &Weights, config: &TuneConfig, progress: &mut dyn FnMut(&Step)) -> Weights {
    let names = start.named();
    let mut theta: Vec<f64> = names.iter().map(|(_, v)| *v as f64).collect();
    let steps: Vec<f64> = names.iter().map(|(_, v)| step_of(*v)).collect();
    let mut rng = Rng::new(config.seed);
    for k in 1..=config.iterations {
        let delta: Vec<f64> = (0..theta.len())
            .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
            .collect();
        let plus: Vec<f64> = theta
            .iter()
            .zip(&delta)
            .zip(&steps)
            .map(|((t, d), c)| t + d * c)
            .collect();
        let minus: Vec<f64> = theta
            .iter()
            .zip(&delta)
            .zip(&steps)
            .map(|((t, d), c)| t - d * c)
            .collect();
        let (wp, wm) = (apply(start, &plus), apply(start, &minus));
        let match_config = MatchConfig {
            layout: config.layout,
            rules: Rules::default(),
            openings: config.openings,
            opening_plies: 2,
            think: Think {
                limits: Limits::nodes(config.nodes),
            },
            concurrency: config.concurrency,
            seed: rng.next_u64(),
            max_turns: 300,
            sprt: None,
        };
        let a = move |seed: u64| Ok(contestant(wp.clone(), seed));
        let b = move |seed: u64| Ok(contestant(wm.clone(), seed));
        let score = match run_match(&match_config, &a, &b, &|_, _| {}) {
            Ok((_, tally)) => tally.score(),
            Err(_) => 0.5,
        };
        // Move toward the better version; the rate decays slowly.
        let rate =
            config.rate / (1.0 + k as f64 / (config.iterations as f64 / 4.0).max(1.0)).powf(0.602);
        let signal = (score - 0.5) * 2.0;
        for i in 0..theta.len() {
            theta[i] += rate * signal * delta[i] * steps[i];
        }
        progress(&Step {
            iteration: k,
            score,
            weights: apply(start, &theta),
        });
    }
    apply(start, &theta)
}
