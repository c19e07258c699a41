//! The FIDE Dutch Swiss system, C.04.3 of the FIDE handbook as applied from 1 July 2025
//! (criteria C1-C21, the completion requirement, the pairing-allocated bye, colour
//! allocation, floats), with the general handling rules of C.04.2 it relies on (unplayed
//! rounds do not count for colours; paired players who did not play may meet again; board
//! order).
//!
//! [`pair`] pairs the next round of a tournament given as a [`SwissInput`];
//! [`SwissInput::from_trf`] reads one from a TRF file (as `zertz tournament pair` does).

mod bracket;
pub mod colour;
pub mod player;
mod solve;

use crate::trf::{Colour, ResultCode, RoundEntry, Trf};

/// One player of a Swiss tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPlayer {
    /// The pairing number (TRF start rank).
    pub id: u32,
    /// The entries of the rounds already played, round 1 first; `None` when the player has
    /// no entry for a round (not paired in it).
    pub entries: Vec<Option<RoundEntry>>,
    /// Not to be paired in the round being paired (a requested bye, an absence, a
    /// withdrawal).
    pub absent: bool,
}

/// A Swiss tournament before a round is paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissInput {
    /// The players.
    pub players: Vec<SwissPlayer>,
    /// The round to pair, from 1.
    pub round: u32,
    /// The number of rounds of the tournament (topscorers exist only in the last one).
    pub total_rounds: u32,
    /// The colour given to the first player (odd pairing numbers) by article 5.2.5.
    pub initial_colour: Colour,
}

/// A round's pairing.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pairing {
    /// The pairs in board order: (white, black), white moving first.
    pub pairs: Vec<(u32, u32)>,
    /// The player given the pairing-allocated bye.
    pub bye: Option<u32>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DutchError {
    /// No pairing satisfies the absolute criteria (C1-C3): the arbiter decides.
    #[error("no pairing of round {0} satisfies the absolute criteria")]
    NoPairing(u32),
    /// The tournament data is inconsistent.
    #[error("{0}")]
    Invalid(String),
}

impl SwissInput {
    /// Reads the tournament from a TRF file: the round to pair is the first round in which
    /// nobody has an opponent or the pairing-allocated bye; a player whose entry for that
    /// round is already there (a bye or absence known in advance) is not paired. The number
    /// of rounds comes from `XXR` (else the round to pair is taken as the last), the initial
    /// colour from `XXC` (else the round-1 colour of the highest-ranked player paired in
    /// round 1, else white).
    pub fn from_trf(trf: &Trf) -> Result<SwissInput, DutchError> {
        let mut lines: Vec<_> = trf.players().collect();
        lines.sort_by_key(|p| p.start_rank);
        let paired = |e: &Option<RoundEntry>| matches!(e, Some(e) if e.opponent.is_some() || e.result == ResultCode::PairingBye);
        let longest = lines.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
        let done = (0..longest)
            .rev()
            .find(|&r| lines.iter().any(|p| p.rounds.get(r).is_some_and(paired)))
            .map_or(0, |r| r + 1);
        let round = done as u32 + 1;
        let players = lines
            .iter()
            .map(|p| {
                let mut entries: Vec<Option<RoundEntry>> =
                    p.rounds.iter().take(done).copied().collect();
                entries.resize(done, None);
                let absent = p.rounds.get(done).copied().flatten().is_some();
                SwissPlayer {
                    id: p.start_rank,
                    entries,
                    absent,
                }
            })
            .collect();
        let initial_colour = trf
            .initial_colour()
            .or_else(|| {
                lines.iter().find_map(|p| match p.rounds.first() {
                    Some(Some(e)) if e.opponent.is_some() => e.colour,
                    _ => None,
                })
            })
            .unwrap_or(Colour::White);
        Ok(SwissInput {
            players,
            round,
            total_rounds: trf.total_rounds().unwrap_or(round).max(round),
            initial_colour,
        })
    }
}

/// Pairs the next round by the Dutch system.
pub fn pair(input: &SwissInput) -> Result<Pairing, DutchError> {
    let done = input.round.saturating_sub(1) as usize;
    let present: Vec<&SwissPlayer> = input.players.iter().filter(|p| !p.absent).collect();
    let all_ids: Vec<u32> = input.players.iter().map(|p| p.id).collect();
    let entries: Vec<Vec<Option<RoundEntry>>> =
        input.players.iter().map(|p| p.entries.clone()).collect();
    let mut seen = std::collections::HashSet::new();
    for p in &input.players {
        if !seen.insert(p.id) {
            return Err(DutchError::Invalid(format!(
                "player {} appears twice",
                p.id
            )));
        }
    }
    let states = player::states(&all_ids, &entries, done, input.total_rounds);
    let mut states: Vec<player::PlayerState> = states
        .into_iter()
        .filter(|s| present.iter().any(|p| p.id == s.id))
        .collect();
    states.sort_by_key(|s| s.id);
    for (i, s) in states.iter_mut().enumerate() {
        s.position = i as u32 + 1;
    }
    if states.is_empty() {
        return Ok(Pairing::default());
    }
    let mut round = bracket::Round::new(&states, input.initial_colour);
    let (pairs, bye) = round.pair().ok_or(DutchError::NoPairing(input.round))?;
    let ps = &round.ps;
    let mut boards: Vec<(usize, usize)> = pairs;
    // C.04.2: higher score of the higher-ranked player, higher sum, higher rank.
    boards.sort_by(|&(a, b), &(c, d)| {
        let key = |x: usize, y: usize| (ps[x].score, ps[x].score + ps[y].score);
        key(c, d).cmp(&key(a, b)).then(a.cmp(&c))
    });
    let pairs = boards
        .into_iter()
        .map(|(a, b)| match round.colour(a, b) {
            Colour::White => (ps[a].id, ps[b].id),
            Colour::Black => (ps[b].id, ps[a].id),
        })
        .collect();
    Ok(Pairing {
        pairs,
        bye: bye.map(|b| ps[b].id),
    })
}

impl Pairing {
    /// The pairing as pairing programs print it: the number of pairs (the bye counted),
    /// then one line `WHITE BLACK` a pair and `N 0` for the pairing-allocated bye.
    pub fn to_text(&self) -> String {
        let mut s = format!("{}\n", self.pairs.len() + usize::from(self.bye.is_some()));
        for (w, b) in &self.pairs {
            s.push_str(&format!("{w} {b}\n"));
        }
        if let Some(b) = self.bye {
            s.push_str(&format!("{b} 0\n"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::Rng;

    /// Histories that no real tournament has (opponents that do not exist or did not play
    /// back, colours missing, odd results) are paired or refused, never a panic.
    #[test]
    fn inconsistent_histories_never_panic() {
        let mut rng = Rng::new(11);
        let codes = [
            ResultCode::Win,
            ResultCode::Loss,
            ResultCode::Draw,
            ResultCode::ForfeitWin,
            ResultCode::ForfeitLoss,
            ResultCode::HalfBye,
            ResultCode::PairingBye,
            ResultCode::ZeroBye,
        ];
        for _ in 0..300 {
            let n = 1 + rng.below(12) as u32;
            let done = rng.below(5) as usize;
            let players = (1..=n)
                .map(|id| SwissPlayer {
                    id,
                    entries: (0..done)
                        .map(|_| {
                            rng.chance(900).then(|| RoundEntry {
                                opponent: rng.chance(800).then(|| rng.below(15) as u32),
                                colour: match rng.below(3) {
                                    0 => Some(Colour::White),
                                    1 => Some(Colour::Black),
                                    _ => None,
                                },
                                result: codes[rng.below(codes.len() as u64) as usize],
                            })
                        })
                        .collect(),
                    absent: rng.chance(100),
                })
                .collect();
            let input = SwissInput {
                players,
                round: done as u32 + 1,
                total_rounds: rng.below(8) as u32,
                initial_colour: Colour::White,
            };
            if let Ok(p) = pair(&input) {
                let mut seen = std::collections::HashSet::new();
                for (w, b) in &p.pairs {
                    assert!(seen.insert(*w) && seen.insert(*b));
                }
                if let Some(b) = p.bye {
                    assert!(seen.insert(b));
                }
            }
        }
    }
}
