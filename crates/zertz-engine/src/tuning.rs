//! Tuning the evaluation weights by self-play with SPSA (simultaneous perturbation stochastic
//! approximation).
//!
//! Each iteration perturbs every weight at once by plus or minus its step, plays a few games
//! between the two perturbed versions (same openings, colours swapped, fixed nodes per move), and
//! moves the weights toward the version that scored better. Everything is seeded: the same
//! command gives the same weights on any machine. Weights named in [`TuneConfig::fixed`] are
//! neither perturbed nor moved: they keep the value they start with.

use zertz::{Layout, LayoutRef, Rules};

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
    pub layout: LayoutRef,
    /// Weights held at their starting value, as patterns ([`pattern_matches`]).
    pub fixed: Vec<String>,
    /// Tune one curve for all four winning sets: the weights `single.white.N`,
    /// `single.grey.N`, `single.black.N` and `each.N` move together as one parameter per `N`
    /// (starting from their mean). Rare positions then cannot bend one colour's table on their
    /// own, which is what made the separately tuned tables irregular.
    pub shared_sets: bool,
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
            layout: Layout::standard().into(),
            fixed: Vec::new(),
            shared_sets: false,
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

/// True when `pattern` names the weight `name`: a glob over the whole name (`*` any run of
/// characters: `single.*.1`, `each.*`), or, without a `*`, the name itself or a prefix of it
/// that ends where a part of the name does (`single`, `single.black`, but not `sing`).
pub fn pattern_matches(pattern: &str, name: &str) -> bool {
    if pattern.contains('*') {
        return glob(pattern.as_bytes(), name.as_bytes());
    }
    name.strip_prefix(pattern)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// `*` matches any run of bytes; every other byte itself.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|i| glob(rest, &text[i..])),
        Some((c, rest)) => text
            .split_first()
            .is_some_and(|(t, tail)| t == c && glob(rest, tail)),
    }
}

/// The perturbation step of a weight: a tenth of its size, at least 2.
fn step_of(value: i32) -> f64 {
    (value.abs() as f64 / 10.0).max(2.0)
}

/// The parameters tuned: groups of weights (by their index in [`Weights::named`]) that move
/// together. Each weight is its own group, except the set weights with `shared_sets`, grouped
/// by the number of marbles still needed.
fn parameters(names: &[(String, i32)], shared_sets: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut by_need: Vec<(String, usize)> = Vec::new();
    for (i, (name, _)) in names.iter().enumerate() {
        let need = name
            .strip_prefix("single.")
            .and_then(|rest| rest.split_once('.').map(|(_, n)| n))
            .or_else(|| name.strip_prefix("each."));
        match need.filter(|_| shared_sets) {
            Some(n) => match by_need.iter().find(|(m, _)| m == n) {
                Some(&(_, g)) => groups[g].push(i),
                None => {
                    by_need.push((n.to_string(), groups.len()));
                    groups.push(vec![i]);
                }
            },
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// The weights with each group of `groups` set to its value in `values`.
fn apply(base: &Weights, groups: &[Vec<usize>], values: &[f64]) -> Weights {
    let names = base.named();
    let mut w = base.clone();
    for (group, v) in groups.iter().zip(values) {
        for &i in group {
            w.set(&names[i].0, v.round() as i32);
        }
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
    let mut play = |plus: &Weights, minus: &Weights, seed: u64| {
        let match_config = MatchConfig {
            layout: config.layout.clone(),
            rules: Rules::default(),
            openings: config.openings,
            opening_plies: 2,
            think: Think {
                limits: Limits::nodes(config.nodes),
            },
            think_b: None,
            concurrency: config.concurrency,
            seed,
            max_turns: 300,
            sprt: None,
        };
        let (wp, wm) = (plus.clone(), minus.clone());
        let a = move |seed: u64| Ok(contestant(wp.clone(), seed));
        let b = move |seed: u64| Ok(contestant(wm.clone(), seed));
        match run_match(&match_config, &a, &b, &|_, _| {}) {
            Ok((_, tally)) => tally.score(),
            Err(_) => 0.5,
        }
    };
    tune_with(start, config, &mut play, progress)
}

/// [`tune`] with the games played by `play`, which gets the plus and the minus version and a
/// seed, and answers the plus version's score (0 to 1).
fn tune_with(
    start: &Weights,
    config: &TuneConfig,
    play: &mut dyn FnMut(&Weights, &Weights, u64) -> f64,
    progress: &mut dyn FnMut(&Step),
) -> Weights {
    let names = start.named();
    let groups = parameters(&names, config.shared_sets);
    // A group starts at the mean of its weights.
    let mut theta: Vec<f64> = groups
        .iter()
        .map(|g| g.iter().map(|&i| names[i].1 as f64).sum::<f64>() / g.len() as f64)
        .collect();
    let fixed: Vec<bool> = groups
        .iter()
        .map(|g| {
            g.iter()
                .any(|&i| config.fixed.iter().any(|p| pattern_matches(p, &names[i].0)))
        })
        .collect();
    // A fixed parameter has no step: it is never perturbed, so it never moves.
    let steps: Vec<f64> = theta
        .iter()
        .zip(&fixed)
        .map(|(&v, &f)| if f { 0.0 } else { step_of(v.round() as i32) })
        .collect();
    let mut rng = Rng::new(config.seed);
    for k in 1..=config.iterations {
        // Drawn for every weight, fixed or not, so that fixing one leaves the others' draws.
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
        let (wp, wm) = (apply(start, &groups, &plus), apply(start, &groups, &minus));
        let score = play(&wp, &wm, rng.next_u64());
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
            weights: apply(start, &groups, &theta),
        });
    }
    apply(start, &groups, &theta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_globs_or_prefixes_at_a_dot() {
        for (pattern, name) in [
            ("single.*", "single.white.1"),
            ("*.1", "each.1"),
            ("single.*.8", "single.grey.8"),
            ("single", "single.black.3"),
            ("single.black", "single.black.3"),
            ("tempo", "tempo"),
            ("*", "isolation"),
        ] {
            assert!(pattern_matches(pattern, name), "{pattern} {name}");
        }
        for (pattern, name) in [
            ("sing", "single.white.1"),
            ("single.*.8", "single.grey.1"),
            ("each.1", "each.10"),
            ("tempo.*", "tempo"),
            ("material.white", "material"),
        ] {
            assert!(!pattern_matches(pattern, name), "{pattern} {name}");
        }
    }

    fn config(fixed: &[&str]) -> TuneConfig {
        TuneConfig {
            iterations: 12,
            fixed: fixed.iter().map(|p| p.to_string()).collect(),
            ..TuneConfig::default()
        }
    }

    /// Games that the version with the larger tempo always wins.
    fn tempo_wins(plus: &Weights, minus: &Weights, _seed: u64) -> f64 {
        match plus.tempo.cmp(&minus.tempo) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        }
    }

    #[test]
    fn a_weight_that_wins_games_moves_unless_fixed() {
        let start = Weights::baseline();
        let free = tune_with(&start, &config(&[]), &mut tempo_wins, &mut |_| {});
        assert!(
            free.tempo > start.tempo + 10,
            "{} -> {}",
            start.tempo,
            free.tempo
        );
        let held = tune_with(&start, &config(&["tempo"]), &mut tempo_wins, &mut |_| {});
        assert_eq!(held.tempo, start.tempo);
    }

    #[test]
    fn fixed_weights_are_never_perturbed() {
        let start = Weights::baseline();
        let patterns = ["single.*", "each"];
        let is_fixed = |name: &str| patterns.iter().any(|p| pattern_matches(p, name));
        let fixed_count = start.named().iter().filter(|(n, _)| is_fixed(n)).count();
        assert_eq!(fixed_count, 4 * 8);
        let mut calls = 0;
        let mut play = |plus: &Weights, minus: &Weights, seed: u64| {
            calls += 1;
            for ((name, p), (_, m)) in plus.named().iter().zip(minus.named()) {
                if is_fixed(name) {
                    assert_eq!(*p, m, "{name} perturbed");
                } else {
                    assert_ne!(*p, m, "{name} not perturbed");
                }
            }
            (seed % 3) as f64 / 2.0
        };
        let tuned = tune_with(&start, &config(&patterns), &mut play, &mut |_| {});
        assert_eq!(calls, 12);
        let mut moved = 0;
        for ((name, before), (_, after)) in start.named().iter().zip(tuned.named()) {
            if is_fixed(name) {
                assert_eq!(*before, after, "{name}");
            } else if *before != after {
                moved += 1;
            }
        }
        assert!(moved > 0, "nothing else moved either");
    }

    #[test]
    fn shared_sets_move_every_set_table_together() {
        let start = Weights::baseline();
        let names = start.named();
        let groups = parameters(&names, true);
        // 32 set weights in 8 groups of 4, the other weights alone.
        assert_eq!(groups.len(), names.len() - 32 + 8);
        assert_eq!(groups.iter().filter(|g| g.len() == 4).count(), 8);
        let shared = TuneConfig {
            shared_sets: true,
            ..config(&[])
        };
        let mut play = |plus: &Weights, minus: &Weights, _: u64| {
            for w in [plus, minus] {
                for n in 1..=crate::eval::MAX_NEED {
                    let v = w.each[n];
                    assert!(w.single.iter().all(|t| t[n] == v), "need {n} not shared");
                }
            }
            f64::from(u8::from(plus.each[1] > minus.each[1]))
        };
        let tuned = tune_with(&start, &shared, &mut play, &mut |_| {});
        let mean = (3 * start.single[0][1] + start.each[1]) as f64 / 4.0;
        assert!(
            tuned.each[1] as f64 > mean + 10.0,
            "the shared curve moved toward the winner: {mean} -> {}",
            tuned.each[1]
        );
        assert!(tuned.single.iter().all(|t| t[1] == tuned.each[1]));
    }

    #[test]
    fn the_same_seed_gives_the_same_weights() {
        let start = Weights::baseline();
        let mut play = |_: &Weights, _: &Weights, seed: u64| (seed % 3) as f64 / 2.0;
        let mut steps = Vec::new();
        let a = tune_with(&start, &config(&[]), &mut play, &mut |s| {
            steps.push(s.weights.clone())
        });
        let b = tune_with(&start, &config(&[]), &mut play, &mut |_| {});
        assert_eq!(a, b);
        assert_eq!(steps.len(), 12);
        assert_eq!(steps.last(), Some(&a));
        let other = TuneConfig {
            seed: 2,
            ..config(&[])
        };
        assert_ne!(tune_with(&start, &other, &mut play, &mut |_| {}), a);
    }
}
