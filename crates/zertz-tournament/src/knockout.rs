//! Single-elimination brackets (the host's death-match knockout): seeded by rating, the
//! field filled up to a power of two with byes that go to the top seeds, and the standard
//! seeding order so that seeds 1 and 2 can meet only in the final, 1-4 only in the semifinals
//! and so on. A match is a best-of-3: who moves first in game 1 is chosen by the seed the
//! organiser names, and alternates after; in the final, each player may propose a bribe
//! instead of moving at most three times across the games of the match.

/// One entrant: an id and a rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The player's id.
    pub id: u32,
    /// The rating used for seeding.
    pub rating: u32,
}

/// A match of the bracket: the higher seed first; `None` is a bye (the other goes through).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// The higher-seeded player (or the only one).
    pub high: Option<u32>,
    /// The lower-seeded player.
    pub low: Option<u32>,
}

impl Match {
    /// The player who goes through without playing, if this is a bye.
    pub fn walkover(&self) -> Option<u32> {
        match (self.high, self.low) {
            (Some(a), None) | (None, Some(a)) => Some(a),
            _ => None,
        }
    }
}

/// The seed order of the slots of a bracket of `size` (a power of two): slot i holds the
/// seed `order[i]`, and matches are slots (0,1), (2,3), ...
pub fn seed_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let k = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, k + 1 - s]).collect();
    }
    order
}

/// The first round: entrants seeded by rating (ties by id), byes to the top seeds.
pub fn first_round(entrants: &[Entrant]) -> Vec<Match> {
    let mut seeded: Vec<Entrant> = entrants.to_vec();
    seeded.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
    let size = seeded.len().next_power_of_two().max(2);
    let order = seed_order(size);
    let at = |seed: usize| seeded.get(seed - 1).map(|e| e.id);
    order
        .chunks(2)
        .map(|c| Match {
            high: at(c[0].min(c[1])),
            low: at(c[0].max(c[1])),
        })
        .collect()
}

/// The next round from the winners of the previous one, in bracket order; the winner of
/// the match that was higher in the bracket is listed first.
pub fn next_round(winners: &[u32]) -> Vec<Match> {
    winners
        .chunks(2)
        .map(|c| Match {
            high: c.first().copied(),
            low: c.get(1).copied(),
        })
        .collect()
}

/// Which player chooses who moves first in game 1 (the organiser's setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// The lower seed: the one "called into" the death match.
    LowerSeed,
    /// The higher seed.
    HigherSeed,
}

/// The player who chooses the first move of game 1.
pub fn chooser(m: &Match, rule: Chooser) -> Option<u32> {
    match rule {
        Chooser::LowerSeed => m.low.or(m.high),
        Chooser::HigherSeed => m.high.or(m.low),
    }
}

/// Who moves first in game `game` (from 1) when `first` moved first in game 1 and
/// `second` is the opponent: they alternate.
pub fn first_mover(game: u32, first: u32, second: u32) -> u32 {
    if game % 2 == 1 { first } else { second }
}

/// The bribes proposed in a final, counted per player across all games of the match
/// (accepted or rejected alike).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bribes {
    counts: Vec<(u32, u32)>,
}

/// At most this many bribe proposals per player and match.
pub const MAX_BRIBES: u32 = 3;

impl Bribes {
    /// The proposals `player` has made.
    pub fn made(&self, player: u32) -> u32 {
        self.counts
            .iter()
            .find(|c| c.0 == player)
            .map_or(0, |c| c.1)
    }

    /// Records a proposal; refused (false) when the player has used all three.
    pub fn propose(&mut self, player: u32) -> bool {
        let made = self.made(player);
        if made >= MAX_BRIBES {
            return false;
        }
        match self.counts.iter_mut().find(|c| c.0 == player) {
            Some(c) => c.1 += 1,
            None => self.counts.push((player, 1)),
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u32) -> Vec<Entrant> {
        (1..=n)
            .map(|id| Entrant {
                id,
                rating: 2000 - id * 10,
            })
            .collect()
    }

    /// Plays the bracket with the higher seed always winning; returns the final.
    fn play_out(mut round: Vec<Match>) -> Match {
        while round.len() > 1 {
            let winners: Vec<u32> = round
                .iter()
                .map(|m| match (m.high, m.low) {
                    (Some(a), Some(b)) => a.min(b),
                    _ => m.walkover().expect("a player"),
                })
                .collect();
            round = next_round(&winners);
        }
        round[0]
    }

    #[test]
    fn one_and_two_meet_only_in_the_final() {
        for n in 2..=40 {
            let fin = play_out(first_round(&field(n)));
            assert_eq!((fin.high, fin.low), (Some(1), Some(2)), "{n} players");
        }
        assert_eq!(seed_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        let r = first_round(&field(6));
        assert_eq!(r.len(), 4);
        let byes: Vec<u32> = r.iter().filter_map(|m| m.walkover()).collect();
        assert_eq!(byes, vec![1, 2]);
        // Seeding is by rating, not by id.
        let mut f = field(4);
        f[3].rating = 3000;
        let r = first_round(&f);
        assert_eq!(
            r[0],
            Match {
                high: Some(4),
                low: Some(3)
            }
        );
        assert_eq!(
            r[1],
            Match {
                high: Some(1),
                low: Some(2)
            }
        );
    }

    #[test]
    fn first_moves_and_bribes() {
        let m = Match {
            high: Some(1),
            low: Some(8),
        };
        assert_eq!(chooser(&m, Chooser::LowerSeed), Some(8));
        assert_eq!(chooser(&m, Chooser::HigherSeed), Some(1));
        assert_eq!(
            (1..=3).map(|g| first_mover(g, 8, 1)).collect::<Vec<_>>(),
            vec![8, 1, 8]
        );
        let mut b = Bribes::default();
        assert!(b.propose(1) && b.propose(1) && b.propose(8) && b.propose(1));
        assert!(!b.propose(1), "a fourth proposal is refused");
        assert_eq!((b.made(1), b.made(8)), (3, 1));
        assert!(b.propose(8));
    }
}
