//! Tie-breaks (FIDE handbook C.07): Buchholz cut 1, Sonneborn-Berger, direct encounter and
//! the number of wins, with unplayed rounds handled as C.07 article 16 defines them.
//!
//! - A *voluntarily unplayed round* (VUR) is a requested bye (half-point `H` or zero-point
//!   `Z`, which also marks the rounds after a withdrawal) or a forfeit loss.
//! - As an **opponent's** score (16.3), an opponent's requested bye that is followed only by
//!   VURs (or falls in the last round) counts as a draw; every other round counts as scored.
//! - For a player's **own** unplayed rounds (16.4) the opponent is a dummy whose score is the
//!   player's own score, but at most the scheduled opponent's (adjusted) score for a
//!   forfeit, and at most half the maximum (a draw a round) otherwise.
//! - **Cut 1** (16.5) drops the lowest contribution; when the player has VURs, the lowest
//!   contribution of a VUR is dropped instead.
//! - **Direct encounter** counts the points scored in games played between the tied
//!   players, when every two of them have met; otherwise it does not separate them.
//! - **Wins** count the rounds scoring a win's points, unplayed ones included (7.1).
//!
//! Scores are in half-points; Sonneborn-Berger in quarter-points.

use crate::trf::{ResultCode, RoundEntry};
use std::collections::HashMap;

/// One player's results round by round (`None`: not paired, counted as a zero-point bye).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    /// The player's id (pairing number).
    pub id: u32,
    /// The rounds, round 1 first.
    pub rounds: Vec<Option<RoundEntry>>,
}

/// A player's place in the standings with the tie-breaks that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's id.
    pub id: u32,
    /// Points, in half-points.
    pub points: u32,
    /// Buchholz cut 1, in half-points.
    pub buchholz_cut1: u32,
    /// Sonneborn-Berger, in quarter-points.
    pub sonneborn_berger: u32,
    /// Points scored against the players tied on points, in half-points.
    pub direct_encounter: u32,
    /// Rounds scoring a win's points.
    pub wins: u32,
}

fn entry(r: &Results, round: usize) -> RoundEntry {
    r.rounds
        .get(round)
        .copied()
        .flatten()
        .unwrap_or(RoundEntry {
            opponent: None,
            colour: None,
            result: ResultCode::ZeroBye,
        })
}

fn requested_bye(e: &RoundEntry) -> bool {
    e.opponent.is_none() && matches!(e.result, ResultCode::HalfBye | ResultCode::ZeroBye)
}

fn voluntary(e: &RoundEntry) -> bool {
    requested_bye(e) || e.result == ResultCode::ForfeitLoss
}

fn played(e: &RoundEntry) -> bool {
    e.opponent.is_some() && e.result.is_played()
}

/// The standings of a tournament after `rounds` rounds, best first, ranked by points, then
/// Buchholz cut 1, Sonneborn-Berger, direct encounter, wins, and the pairing number.
pub fn standings(players: &[Results], rounds: usize) -> Vec<Standing> {
    let score: HashMap<u32, u32> = players
        .iter()
        .map(|p| {
            (
                p.id,
                (0..rounds).map(|r| entry(p, r).result.half_points()).sum(),
            )
        })
        .collect();
    // 16.3: an opponent's score, late requested byes counted as draws.
    let adjusted: HashMap<u32, u32> = players
        .iter()
        .map(|p| {
            let s = (0..rounds)
                .map(|r| {
                    let e = entry(p, r);
                    let tail_voluntary = (r + 1..rounds).all(|q| voluntary(&entry(p, q)));
                    if requested_bye(&e) && tail_voluntary {
                        1
                    } else {
                        e.result.half_points()
                    }
                })
                .sum();
            (p.id, s)
        })
        .collect();
    let by_id: HashMap<u32, &Results> = players.iter().map(|p| (p.id, p)).collect();
    let mut out: Vec<Standing> = players
        .iter()
        .map(|p| {
            let own = score[&p.id];
            let mut contributions: Vec<(u32, bool)> = Vec::new();
            let mut sb = 0;
            let mut wins = 0;
            for r in 0..rounds {
                let e = entry(p, r);
                let pts = e.result.half_points();
                if pts == 2 {
                    wins += 1;
                }
                let opp = if played(&e) {
                    e.opponent
                        .and_then(|o| adjusted.get(&o).copied())
                        .unwrap_or(0)
                } else {
                    let cap = match (e.result, e.opponent) {
                        (ResultCode::ForfeitWin | ResultCode::ForfeitLoss, Some(o)) => {
                            adjusted.get(&o).copied().unwrap_or(0)
                        }
                        _ => rounds as u32,
                    };
                    own.min(cap)
                };
                contributions.push((opp, voluntary(&e)));
                sb += opp * pts;
            }
            let buchholz: u32 = contributions.iter().map(|c| c.0).sum();
            let cut = contributions
                .iter()
                .filter(|c| c.1)
                .map(|c| c.0)
                .min()
                .or_else(|| contributions.iter().map(|c| c.0).min())
                .unwrap_or(0);
            Standing {
                id: p.id,
                points: own,
                buchholz_cut1: buchholz - cut,
                sonneborn_berger: sb,
                direct_encounter: 0,
                wins,
            }
        })
        .collect();
    // Direct encounter within each group tied on points.
    let mut groups: HashMap<u32, Vec<u32>> = HashMap::new();
    for s in &out {
        groups.entry(s.points).or_default().push(s.id);
    }
    for ids in groups.values().filter(|g| g.len() > 1) {
        let mut met_all = true;
        let mut pts: HashMap<u32, u32> = HashMap::new();
        for &a in ids {
            for &b in ids {
                if a >= b {
                    continue;
                }
                let games: Vec<RoundEntry> = (0..rounds)
                    .map(|r| entry(by_id[&a], r))
                    .filter(|e| played(e) && e.opponent == Some(b))
                    .collect();
                if games.is_empty() {
                    met_all = false;
                }
                for g in games {
                    *pts.entry(a).or_default() += g.result.half_points();
                    *pts.entry(b).or_default() += 2 - g.result.half_points();
                }
            }
        }
        if met_all {
            for s in out.iter_mut().filter(|s| ids.contains(&s.id)) {
                s.direct_encounter = pts.get(&s.id).copied().unwrap_or(0);
            }
        }
    }
    out.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.buchholz_cut1.cmp(&a.buchholz_cut1))
            .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
            .then(b.direct_encounter.cmp(&a.direct_encounter))
            .then(b.wins.cmp(&a.wins))
            .then(a.id.cmp(&b.id))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trf::Colour;

    fn game(opp: u32, result: ResultCode) -> Option<RoundEntry> {
        Some(RoundEntry {
            opponent: Some(opp),
            colour: Some(Colour::White),
            result,
        })
    }

    fn bye(result: ResultCode) -> Option<RoundEntry> {
        Some(RoundEntry {
            opponent: None,
            colour: None,
            result,
        })
    }

    #[test]
    fn buchholz_sonneborn_berger_and_wins() {
        use ResultCode::*;
        // Four players, three rounds, all games played.
        let t = vec![
            Results {
                id: 1,
                rounds: vec![game(2, Win), game(3, Draw), game(4, Win)],
            },
            Results {
                id: 2,
                rounds: vec![game(1, Loss), game(4, Win), game(3, Win)],
            },
            Results {
                id: 3,
                rounds: vec![game(4, Win), game(1, Draw), game(2, Loss)],
            },
            Results {
                id: 4,
                rounds: vec![game(3, Loss), game(2, Loss), game(1, Loss)],
            },
        ];
        let s = standings(&t, 3);
        let get = |id| s.iter().find(|x| x.id == id).unwrap().clone();
        // Scores: 1: 2.5, 2: 2, 3: 1.5, 4: 0.
        assert_eq!(get(1).points, 5);
        // Buchholz of 1: 2 + 1.5 + 0 = 3.5, cut the lowest (0): 3.5 = 7 half-points.
        assert_eq!(get(1).buchholz_cut1, 7);
        // SB of 1: beat 2 (2 points) + drew 3 (1.5 / 2) + beat 4 (0) = 2.75 = 11 quarters.
        assert_eq!(get(1).sonneborn_berger, 4 * 2 + 3);
        assert_eq!(get(1).wins, 2);
        assert_eq!(s.iter().map(|x| x.id).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }

    #[test]
    fn unplayed_rounds_follow_article_16() {
        use ResultCode::*;
        let t = vec![
            // 1 had the pairing-allocated bye in round 1, then beat 2 and 3.
            Results {
                id: 1,
                rounds: vec![bye(PairingBye), game(2, Win), game(3, Win)],
            },
            Results {
                id: 2,
                rounds: vec![game(3, Win), game(1, Loss), bye(HalfBye)],
            },
            Results {
                id: 3,
                rounds: vec![game(2, Loss), bye(ZeroBye), game(1, Loss)],
            },
        ];
        let s = standings(&t, 3);
        let get = |id| s.iter().find(|x| x.id == id).unwrap().clone();
        // 2's half-point bye in the last round counts as a draw for its opponents: 2 has
        // 1 + 0 + 0.5 either way. 1's own bye: a dummy with 1's score (3) capped at 1.5.
        assert_eq!(get(1).points, 6);
        assert_eq!(get(1).wins, 3, "the bye scores a win's points");
        // Contributions of 1: dummy 3 (capped 1.5 = 3 half), 2: 3 half, 3: 0 -> cut 0.
        assert_eq!(get(1).buchholz_cut1, 3 + 3);
        // 3 has a zero-point bye (a VUR): the cut drops that round's dummy (own score 0).
        assert_eq!(get(3).buchholz_cut1, 3 + 6);
    }

    #[test]
    fn direct_encounter_only_when_all_tied_players_met() {
        use ResultCode::*;
        let t = vec![
            Results {
                id: 1,
                rounds: vec![game(2, Loss), game(3, Win)],
            },
            Results {
                id: 2,
                rounds: vec![game(1, Win), game(4, Loss)],
            },
            Results {
                id: 3,
                rounds: vec![game(4, Win), game(1, Loss)],
            },
            Results {
                id: 4,
                rounds: vec![game(3, Loss), game(2, Win)],
            },
        ];
        let s = standings(&t, 2);
        // All on 1 point, but 1 and 4 never met: direct encounter does not apply.
        assert!(s.iter().all(|x| x.direct_encounter == 0));
        let t2 = vec![
            Results {
                id: 5,
                rounds: vec![game(6, Loss)],
            },
            Results {
                id: 6,
                rounds: vec![game(5, Win)],
            },
        ];
        let s = standings(&t2, 1);
        assert_eq!(s[0].id, 6);
        assert_eq!(s[0].direct_encounter, 0, "not tied: no direct encounter");
    }
}
