//! Random Swiss tournaments paired round by round by the Dutch system, written as TRF: for
//! checking the pairing by other programs (`zertz tournament simulate`).
//!
//! Results follow the rating difference (the stronger player wins more often, draws are
//! common between close players); a few games are forfeited, a few players ask for a
//! half-point or zero-point bye before a round, and a few withdraw for good, as in real
//! events. The same seed gives the same tournament.

use crate::dutch::{self, DutchError, SwissInput, SwissPlayer};
use crate::trf::{Colour, Line, PlayerLine, ResultCode, RoundEntry, Trf};

/// A small deterministic random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
}

/// Simulates a tournament of `players` players over `rounds` rounds.
pub fn simulate(players: u32, rounds: u32, seed: u64) -> Result<Trf, DutchError> {
    let mut rng = Rng::new(seed);
    // Ratings from 2400 down, a little noise, sorted: start rank 1 is the strongest.
    let mut ratings: Vec<u32> = (0..players)
        .map(|i| 2400u32.saturating_sub(i * 1200 / players.max(1)) + rng.below(40) as u32)
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let n = players as usize;
    let mut entries: Vec<Vec<Option<RoundEntry>>> = vec![Vec::new(); n];
    let mut withdrawn = vec![false; n];
    let initial = if rng.chance(500) {
        Colour::White
    } else {
        Colour::Black
    };
    let absence = |result| {
        Some(RoundEntry {
            opponent: None,
            colour: None,
            result,
        })
    };
    for round in 1..=rounds {
        // Absences known before the pairing.
        for p in 0..n {
            if withdrawn[p] {
                entries[p].push(absence(ResultCode::ZeroBye));
            } else if round > 1 && round < rounds && rng.chance(8) {
                withdrawn[p] = true;
                entries[p].push(absence(ResultCode::ZeroBye));
            } else if rng.chance(15) {
                entries[p].push(absence(ResultCode::HalfBye));
            } else if rng.chance(10) {
                entries[p].push(absence(ResultCode::ZeroBye));
            }
        }
        let input = SwissInput {
            players: (0..n)
                .map(|p| SwissPlayer {
                    id: p as u32 + 1,
                    entries: entries[p][..round as usize - 1].to_vec(),
                    absent: entries[p].len() == round as usize,
                })
                .collect(),
            round,
            total_rounds: rounds,
            initial_colour: initial,
        };
        let pairing = dutch::pair(&input)?;
        if let Some(b) = pairing.bye {
            entries[b as usize - 1].push(absence(ResultCode::PairingBye));
        }
        for &(w, b) in &pairing.pairs {
            let (wi, bi) = (w as usize - 1, b as usize - 1);
            let (rw, rb) = if rng.chance(20) {
                // A forfeit: one did not come.
                if rng.chance(500) {
                    (ResultCode::ForfeitWin, ResultCode::ForfeitLoss)
                } else {
                    (ResultCode::ForfeitLoss, ResultCode::ForfeitWin)
                }
            } else {
                let diff = ratings[wi] as i64 - ratings[bi] as i64 + 30;
                let expected = 1000.0 / (1.0 + 10f64.powf(-diff as f64 / 400.0));
                let draw = 250 - diff.unsigned_abs().min(600) / 4;
                let x = rng.below(1000);
                if x < draw {
                    (ResultCode::Draw, ResultCode::Draw)
                } else if ((x - draw) as f64) < expected * (1000 - draw) as f64 / 1000.0 {
                    (ResultCode::Win, ResultCode::Loss)
                } else {
                    (ResultCode::Loss, ResultCode::Win)
                }
            };
            entries[wi].push(Some(RoundEntry {
                opponent: Some(b),
                colour: Some(Colour::White),
                result: rw,
            }));
            entries[bi].push(Some(RoundEntry {
                opponent: Some(w),
                colour: Some(Colour::Black),
                result: rb,
            }));
        }
    }
    let mut lines = vec![Line::Other(format!(
        "012 Simulated Swiss {players} players {rounds} rounds seed {seed}"
    ))];
    let points: Vec<u32> = entries
        .iter()
        .map(|e| e.iter().flatten().map(|e| e.result.half_points()).sum())
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    let mut rank = vec![0; n];
    for (i, &p) in order.iter().enumerate() {
        rank[p] = i as u32 + 1;
    }
    for p in 0..n {
        lines.push(Line::Player(PlayerLine {
            start_rank: p as u32 + 1,
            sex: String::new(),
            title: String::new(),
            name: format!("Player{:04}", p + 1),
            rating: ratings[p],
            federation: String::new(),
            fide_id: String::new(),
            birth_date: String::new(),
            points_tenths: Some(points[p] * 5),
            rank: Some(rank[p]),
            rounds: entries[p].clone(),
        }));
    }
    lines.push(Line::Rounds(rounds));
    lines.push(Line::InitialColour(initial));
    Ok(Trf { lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulated_tournament_re_pairs_identically() {
        for seed in 0..6 {
            let trf = simulate(17 + seed as u32 * 7, 7, seed).expect("pairable");
            let text = trf.write("\n");
            let back = Trf::parse(&text).expect("reads back");
            assert_eq!(back, trf);
            // Round by round, the pairing of the file is the one the engine makes again.
            for k in 1..=7usize {
                let mut t = back.clone();
                let mut want = std::collections::BTreeSet::new();
                let mut bye = None;
                for p in t.players_mut() {
                    let e = p.rounds[k - 1];
                    match e {
                        Some(RoundEntry {
                            opponent: Some(o),
                            colour: Some(Colour::White),
                            ..
                        }) => {
                            want.insert((p.start_rank, o));
                        }
                        Some(RoundEntry {
                            result: ResultCode::PairingBye,
                            ..
                        }) => bye = Some(p.start_rank),
                        _ => {}
                    }
                    let keep_absence = matches!(e, Some(RoundEntry { opponent: None, result, .. }) if result != ResultCode::PairingBye);
                    p.rounds.truncate(k - 1);
                    if keep_absence {
                        p.rounds.push(e);
                    }
                }
                let input = SwissInput::from_trf(&t).expect("input");
                assert_eq!(input.round as usize, k);
                let got = dutch::pair(&input).expect("pairs");
                let set: std::collections::BTreeSet<_> = got.pairs.iter().copied().collect();
                assert_eq!((set, got.bye), (want, bye), "seed {seed} round {k}");
            }
        }
    }

    #[test]
    fn the_seed_decides() {
        let a = simulate(12, 4, 7).unwrap();
        assert_eq!(a, simulate(12, 4, 7).unwrap());
        assert_ne!(a, simulate(12, 4, 8).unwrap());
    }
}
