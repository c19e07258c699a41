//! Arena tournaments: players who are free are paired at once with a free player near them
//! in the standings (never the opponent they just played, when anyone else is free), and
//! scored 2 for a win, 1 for a draw; after two wins in a row a player is *on fire* and the
//! points of each game count double until a game is not won. A player who went *berserk*
//! (halved their clock) gets one point more for a win in which they made at least
//! [`BERSERK_MIN_TURNS`] turns.

/// A player waiting for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The player's id.
    pub id: u32,
    /// Arena points so far.
    pub points: u32,
    /// The rating, to order players with equal points.
    pub rating: u32,
    /// The opponent of the player's last game, if any.
    pub last_opponent: Option<u32>,
}

/// Pairs a wave of free players: ordered by points then rating (then id), each player is
/// paired with the nearest player below them who is not their last opponent (nor they
/// theirs). Returns the pairs (the higher-placed player first) and the one left waiting when
/// their number is odd or nobody else is allowed. Linear in the number of players but for
/// the rare look past a last opponent.
pub fn pair_wave(free: &[Waiting]) -> (Vec<(u32, u32)>, Vec<u32>) {
    let mut order: Vec<Waiting> = free.to_vec();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let mut taken = vec![false; order.len()];
    let mut pairs = Vec::with_capacity(order.len() / 2);
    let mut left = Vec::new();
    let rematch =
        |a: &Waiting, b: &Waiting| a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id);
    let mut next_free = 0;
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        taken[i] = true;
        while next_free < order.len() && taken[next_free] {
            next_free += 1;
        }
        let mut j = next_free;
        while j < order.len() && (taken[j] || rematch(&order[i], &order[j])) {
            j += 1;
        }
        if j < order.len() {
            taken[j] = true;
            pairs.push((order[i].id, order[j].id));
        } else {
            left.push(order[i].id);
        }
    }
    (pairs, left)
}

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// A berserk win counts only with at least this many turns of one's own.
pub const BERSERK_MIN_TURNS: u32 = 7;

/// One player's arena score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Points.
    pub points: u32,
    /// Wins in a row up to now.
    pub streak: u32,
    /// Games played.
    pub games: u32,
    /// Berserk wins that earned the extra point.
    pub berserk_wins: u32,
}

impl Score {
    /// Whether the next game counts double (the last two games were won).
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }

    /// Records a game: its outcome, whether the player went berserk, and the number of
    /// turns the player made in it. Returns the points it earned.
    pub fn record(&mut self, outcome: Outcome, berserk: bool, own_turns: u32) -> u32 {
        let base = match outcome {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        let mut earned = if self.on_fire() { base * 2 } else { base };
        if outcome == Outcome::Win && berserk && own_turns >= BERSERK_MIN_TURNS {
            earned += 1;
            self.berserk_wins += 1;
        }
        self.streak = if outcome == Outcome::Win {
            self.streak + 1
        } else {
            0
        };
        self.points += earned;
        self.games += 1;
        earned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: u32, points: u32, last: Option<u32>) -> Waiting {
        Waiting {
            id,
            points,
            rating: 1500,
            last_opponent: last,
        }
    }

    #[test]
    fn neighbours_in_the_standings_are_paired() {
        let free = [w(1, 10, None), w(2, 0, None), w(3, 8, None), w(4, 2, None)];
        let (pairs, left) = pair_wave(&free);
        assert_eq!(pairs, vec![(1, 3), (4, 2)]);
        assert!(left.is_empty());
    }

    #[test]
    fn never_the_same_opponent_twice_in_a_row() {
        let free = [
            w(1, 10, Some(2)),
            w(2, 9, Some(1)),
            w(3, 8, None),
            w(4, 7, None),
        ];
        let (pairs, _) = pair_wave(&free);
        assert_eq!(pairs, vec![(1, 3), (2, 4)]);
        // Only the last opponent is free: the player waits.
        let (pairs, left) = pair_wave(&[w(1, 3, Some(2)), w(2, 3, Some(1))]);
        assert!(pairs.is_empty());
        assert_eq!(left, vec![1, 2]);
        // An odd number: the last one waits.
        let (pairs, left) = pair_wave(&[w(1, 3, None), w(2, 2, None), w(3, 1, None)]);
        assert_eq!((pairs, left), (vec![(1, 2)], vec![3]));
    }

    #[test]
    fn streaks_double_and_berserk_adds_one() {
        let mut s = Score::default();
        assert_eq!(s.record(Outcome::Win, false, 20), 2);
        assert_eq!(s.record(Outcome::Win, false, 20), 2);
        assert!(s.on_fire());
        assert_eq!(s.record(Outcome::Win, false, 20), 4);
        assert_eq!(
            s.record(Outcome::Draw, false, 20),
            2,
            "a draw on fire counts double"
        );
        assert!(!s.on_fire());
        assert_eq!(s.record(Outcome::Win, true, 7), 3, "berserk win of 7 turns");
        assert_eq!(s.record(Outcome::Win, true, 6), 2, "too short for berserk");
        assert_eq!(s.record(Outcome::Win, true, 9), 5, "on fire and berserk");
        assert_eq!(s.record(Outcome::Loss, true, 30), 0);
        assert_eq!(s.points, 2 + 2 + 4 + 2 + 3 + 2 + 5);
        assert_eq!((s.games, s.berserk_wins, s.streak), (8, 2, 0));
    }
}
