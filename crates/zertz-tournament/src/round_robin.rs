//! Round robin by the Berger tables (FIDE handbook C.05, annex 1): every player meets every
//! other once (single) or twice with the colours swapped (double).
//!
//! With `n` players (one more, a bye, when `n` is odd), player `n` stays on board 1 and the
//! others turn: in round `r`, with `m = n - 1` and `h = n / 2`, board 1 is player
//! `(r-1)h mod m + 1` against `n` (the turning player is white in odd rounds), and board
//! `j > 1` is `((r-1)h + j-1) mod m + 1` (white) against `((r-1)h - (j-1)) mod m + 1`.
//! That is the published table: with 6 players round 1 is 1-6 2-5 3-4, round 2 is 6-4 5-3
//! 1-2.

/// A refusal: too few players, or more rounds than the event has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoundRobinError {
    /// At least two players are needed.
    #[error("a round robin needs at least 2 players, not {0}")]
    TooFewPlayers(u32),
    /// The round asked for does not exist.
    #[error("round {round} does not exist: a round robin of {players} players has {rounds} rounds")]
    NoSuchRound {
        /// The round asked for.
        round: u32,
        /// The number of players.
        players: u32,
        /// The number of rounds of the event.
        rounds: u32,
    },
}

/// One round of a round robin: pairs (white, black) in board order and the player with the
/// bye (odd number of players).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPairing {
    /// (white, black), players numbered from 1.
    pub pairs: Vec<(u32, u32)>,
    /// The player who sits out, when the number of players is odd.
    pub bye: Option<u32>,
}

/// The number of rounds of a round robin of `players` (`double`: every pair twice).
pub fn rounds(players: u32, double: bool) -> u32 {
    let even = players + players % 2;
    let single = even.saturating_sub(1);
    if double { single * 2 } else { single }
}

/// Round `round` (from 1) of a round robin of `players` players.
pub fn round(players: u32, round: u32, double: bool) -> Result<RoundPairing, RoundRobinError> {
    if players < 2 {
        return Err(RoundRobinError::TooFewPlayers(players));
    }
    let total = rounds(players, double);
    if round == 0 || round > total {
        return Err(RoundRobinError::NoSuchRound {
            round,
            players,
            rounds: total,
        });
    }
    let n = players + players % 2;
    let m = n - 1;
    let h = n / 2;
    let second_cycle = round > m;
    let r = if second_cycle { round - m } else { round };
    let base = (r - 1) * h;
    let mut pairs = Vec::new();
    let turning = base % m + 1;
    let first = if r % 2 == 1 {
        (turning, n)
    } else {
        (n, turning)
    };
    pairs.push(first);
    for j in 1..h {
        let w = (base + j) % m + 1;
        let b = (base + m * j - j) % m + 1;
        pairs.push((w, b));
    }
    if second_cycle {
        for p in &mut pairs {
            *p = (p.1, p.0);
        }
    }
    let mut bye = None;
    if players % 2 == 1 {
        pairs.retain(|&(w, b)| {
            if w == n || b == n {
                bye = Some(if w == n { b } else { w });
                false
            } else {
                true
            }
        });
    }
    Ok(RoundPairing { pairs, bye })
}

/// Checks that a round robin with `planned` rounds is possible: it may not have more rounds
/// than there are opponents to meet.
pub fn check_rounds(players: u32, planned: u32, double: bool) -> Result<(), RoundRobinError> {
    if players < 2 {
        return Err(RoundRobinError::TooFewPlayers(players));
    }
    let total = rounds(players, double);
    if planned > total {
        return Err(RoundRobinError::NoSuchRound {
            round: planned,
            players,
            rounds: total,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_published_table_for_six() {
        let r1 = round(6, 1, false).unwrap().pairs;
        assert_eq!(r1, vec![(1, 6), (2, 5), (3, 4)]);
        let r2 = round(6, 2, false).unwrap().pairs;
        assert_eq!(r2, vec![(6, 4), (5, 3), (1, 2)]);
        let r5 = round(6, 5, false).unwrap().pairs;
        assert_eq!(r5, vec![(3, 6), (4, 2), (5, 1)]);
        let r4 = round(4, 2, false).unwrap().pairs;
        assert_eq!(r4, vec![(4, 3), (1, 2)]);
    }

    #[test]
    fn everyone_meets_everyone_once_and_colours_balance() {
        for n in 2..=16u32 {
            let mut met = HashSet::new();
            let mut whites = vec![0i32; n as usize + 1];
            for r in 1..=rounds(n, false) {
                let p = round(n, r, false).unwrap();
                let mut seen = HashSet::new();
                for &(w, b) in &p.pairs {
                    assert!(w != b && w <= n && b <= n);
                    assert!(seen.insert(w) && seen.insert(b), "{n} players round {r}");
                    assert!(met.insert((w.min(b), w.max(b))), "{w}-{b} twice");
                    whites[w as usize] += 1;
                    whites[b as usize] -= 1;
                }
                assert_eq!(p.bye.is_some(), n % 2 == 1);
                if let Some(b) = p.bye {
                    assert!(seen.insert(b));
                }
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            assert!(whites.iter().all(|d| d.abs() <= 1), "{n}: {whites:?}");
        }
    }

    #[test]
    fn the_double_round_robin_swaps_colours() {
        for n in [4u32, 5, 8] {
            let single = rounds(n, false);
            assert_eq!(rounds(n, true), 2 * single);
            for r in 1..=single {
                let a = round(n, r, true).unwrap();
                let b = round(n, r + single, true).unwrap();
                let swapped: Vec<_> = a.pairs.iter().map(|&(w, b)| (b, w)).collect();
                assert_eq!(b.pairs, swapped);
                assert_eq!(a.bye, b.bye);
            }
        }
    }

    #[test]
    fn impossible_requests_are_refused() {
        assert_eq!(round(1, 1, false), Err(RoundRobinError::TooFewPlayers(1)));
        assert!(round(6, 6, false).is_err());
        assert!(round(6, 0, false).is_err());
        assert!(check_rounds(6, 6, false).is_err());
        assert!(check_rounds(6, 10, true).is_ok());
        assert!(check_rounds(5, 6, false).is_err());
    }
}
