//! What the Dutch system needs to know of each player before a round: score, colour history
//! and preference, floats, opponents met, whether the pairing-allocated bye may be given.

use crate::trf::{Colour, ResultCode, RoundEntry};
use std::collections::HashSet;

/// A player's colour preference (article 1.7 of C.04.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    /// No game played yet: no preference.
    None,
    /// Colour difference 0: alternate with the last game played.
    Mild(Colour),
    /// Colour difference +1 or -1: the colour that evens it.
    Strong(Colour),
    /// Colour difference beyond ±1, or the same colour in the last two games played.
    Absolute(Colour),
}

impl Preference {
    /// The colour wanted, if any.
    pub fn colour(self) -> Option<Colour> {
        match self {
            Preference::None => None,
            Preference::Mild(c) | Preference::Strong(c) | Preference::Absolute(c) => Some(c),
        }
    }

    /// 0 none, 1 mild, 2 strong, 3 absolute.
    pub fn strength(self) -> u8 {
        match self {
            Preference::None => 0,
            Preference::Mild(_) => 1,
            Preference::Strong(_) => 2,
            Preference::Absolute(_) => 3,
        }
    }
}

/// A float received in an earlier round (article 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// Played someone with a lower score, or scored more than a loss without playing.
    Down,
    /// Played someone with a higher score.
    Up,
}

/// The state of one player before the round to pair.
#[derive(Clone, Debug)]
pub struct PlayerState {
    /// The pairing number (start rank).
    pub id: u32,
    /// The position, from 1, of the player's pairing number among those of the players
    /// paired in this round.
    pub position: u32,
    /// The score in half-points.
    pub score: u32,
    /// The colours of the games played over the board, oldest first.
    pub colours: Vec<Colour>,
    /// Games with white minus games with black.
    pub colour_difference: i32,
    /// The colour preference.
    pub preference: Preference,
    /// The float of the previous round and of the round before it.
    pub floats: [Option<Float>; 2],
    /// Opponents met over the board.
    pub met: HashSet<u32>,
    /// May not receive the pairing-allocated bye (C2): had it, or scored a win's points
    /// without playing in one round.
    pub bye_barred: bool,
    /// Rounds without a game played over the board.
    pub unplayed: u32,
    /// Over 50% of the maximum possible score when pairing the final round.
    pub topscorer: bool,
}

/// The preference from a colour history of games played (oldest first).
pub fn preference(colours: &[Colour]) -> Preference {
    let Some(&last) = colours.last() else {
        return Preference::None;
    };
    let cd: i32 = colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let n = colours.len();
    let repeated = n >= 2 && colours[n - 2] == last;
    if cd > 1 {
        Preference::Absolute(Colour::Black)
    } else if cd < -1 {
        Preference::Absolute(Colour::White)
    } else if repeated {
        Preference::Absolute(last.opposite())
    } else if cd == 1 {
        Preference::Strong(Colour::Black)
    } else if cd == -1 {
        Preference::Strong(Colour::White)
    } else {
        Preference::Mild(last.opposite())
    }
}

/// Whether a round entry is a game played over the board.
fn played(e: &Option<RoundEntry>) -> bool {
    matches!(e, Some(RoundEntry { opponent: Some(_), result, .. }) if result.is_played())
}

/// Builds every player's state from the entries of the rounds already played
/// (`entries[p][r]`, `None` when the player has no entry for that round: not paired).
/// `done` rounds have been played; `total` is the number of rounds of the tournament.
pub fn states(
    ids: &[u32],
    entries: &[Vec<Option<RoundEntry>>],
    done: usize,
    total: u32,
) -> Vec<PlayerState> {
    let index: std::collections::HashMap<u32, usize> =
        ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    // Scores before each round.
    let mut before = vec![vec![0u32; done + 1]; ids.len()];
    for (p, e) in entries.iter().enumerate() {
        for r in 0..done {
            let pts = e
                .get(r)
                .copied()
                .flatten()
                .map(|e| e.result.half_points())
                .unwrap_or(0);
            before[p][r + 1] = before[p][r] + pts;
        }
    }
    let final_round = done as u32 + 1 == total;
    ids.iter()
        .enumerate()
        .map(|(p, &id)| {
            let e = &entries[p];
            let get = |r: usize| e.get(r).copied().flatten();
            let mut colours = Vec::new();
            let mut met = HashSet::new();
            let mut bye_barred = false;
            let mut unplayed = 0;
            for r in 0..done {
                let entry = get(r);
                if played(&entry) {
                    let entry = entry.expect("played");
                    if let Some(c) = entry.colour {
                        colours.push(c);
                    }
                    if let Some(o) = entry.opponent {
                        met.insert(o);
                    }
                } else {
                    unplayed += 1;
                    if let Some(entry) = entry
                        && matches!(
                            entry.result,
                            ResultCode::PairingBye | ResultCode::ForfeitWin | ResultCode::FullBye
                        )
                    {
                        bye_barred = true;
                    }
                }
            }
            let float = |r: usize| -> Option<Float> {
                let entry = get(r)?;
                if played(&Some(entry)) {
                    let o = *index.get(&entry.opponent?)?;
                    let (mine, theirs) = (before[p][r], before[o][r]);
                    match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Some(Float::Down),
                        std::cmp::Ordering::Less => Some(Float::Up),
                        std::cmp::Ordering::Equal => None,
                    }
                } else if entry.result.half_points() > 0 {
                    Some(Float::Down)
                } else {
                    None
                }
            };
            let floats = [
                if done >= 1 { float(done - 1) } else { None },
                if done >= 2 { float(done - 2) } else { None },
            ];
            let cd = colours
                .iter()
                .map(|c| if *c == Colour::White { 1 } else { -1 })
                .sum();
            let score = before[p][done];
            PlayerState {
                id,
                position: 0,
                score,
                preference: preference(&colours),
                colours,
                colour_difference: cd,
                floats,
                met,
                bye_barred,
                unplayed,
                topscorer: final_round && score > done as u32,
            }
        })
        .collect()
}
