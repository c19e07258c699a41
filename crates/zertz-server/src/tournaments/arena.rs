//! Arenas on the server (docs/tournaments.md, "Arena on the server"): for a fixed time, every
//! free player is paired at once with a free player near them in the standings, never the
//! opponent of their last game when anyone else is free; 2 points a win, 1 a draw, double on
//! a streak of two wins, one more for a berserk win of 7 turns of one's own (the scoring and
//! the wave are `zertz_tournament::arena`'s). Players come and go: leaving is a withdrawal
//! that can be taken back by joining again, and late entries take the next number. At the
//! end no game is paired; the games under way finish and count, then the arena is over.
//!
//! Each wave of pairings is stored as a round (the key (event, round) keeps two nodes from
//! pairing one twice), so everything here is read back from the rows.

use std::collections::{HashMap, HashSet};

use zertz_tournament::arena::{Outcome, Score, Waiting, pair_wave};

use crate::tournaments::model::{PairingRow, Played, Settings, Stored, berserk, result};
use crate::tournaments::pair::{self, Player};
use crate::tournaments::{TournamentError, Tournaments};
use crate::util::now_ms;

impl Tournaments {
    /// Moves running arena `stored` on: forfeits first moves not made, then, before its end,
    /// pairs the players who are free; after it, finishes it once every game is over.
    pub(super) async fn advance_arena(
        &self,
        stored: &Stored,
        settings: &Settings,
    ) -> Result<(), TournamentError> {
        let id = &stored.row.id;
        self.forfeit_first_moves(stored, settings, None).await;
        let now = now_ms();
        match step(stored, settings, now) {
            Step::Wait => Ok(()),
            Step::Finish => {
                if self.store.finish_tournament(id, now).await? {
                    tracing::info!("arena {id} is over: its time is up and its games finished");
                }
                Ok(())
            }
            Step::Pair(pairs) => {
                let players = pair::players(stored);
                let next = u32::try_from(stored.row.round).unwrap_or(0) + 1;
                let (rows, made) = self.prepare_boards(settings, &players, next, &pairs)?;
                self.store_and_open(id, next, &rows, made).await
            }
        }
    }
}

/// What a running arena does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Pair these (first mover, second mover), by pairing numbers.
    Pair(Vec<(u32, u32)>),
    /// Nothing now: nobody to pair, or the time is up and games are under way.
    Wait,
    /// The time is up and every game is over.
    Finish,
}

/// What running arena `stored` does at `now_ms`: before its end, pair the free players; after
/// it, wait for the games under way (they finish and count), then finish.
pub fn step(stored: &Stored, settings: &Settings, now_ms: i64) -> Step {
    if ends_ms(stored, settings).is_none_or(|end| now_ms >= end) {
        return if all_over(&stored.pairings) {
            Step::Finish
        } else {
            Step::Wait
        };
    }
    match wave(stored) {
        pairs if pairs.is_empty() => Step::Wait,
        pairs => Step::Pair(pairs),
    }
}

/// When arena `stored` stops pairing (ms), once it has started.
pub fn ends_ms(stored: &Stored, settings: &Settings) -> Option<i64> {
    let start = stored.row.starts_ms?;
    Some(start + i64::from(settings.minutes.unwrap_or(0)) * 60_000)
}

/// One game on a player's score sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// The points it earned.
    pub points: u32,
    /// It counted double (the player was on fire).
    pub doubled: bool,
    /// The player went berserk in it.
    pub berserk: bool,
    /// `win`, `draw` or `loss`.
    pub outcome: &'static str,
}

/// One line of an arena's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The rank, from 1.
    pub rank: u32,
    /// The player.
    pub player: Player,
    /// Points, streak, games, berserk wins.
    pub score: Score,
    /// Wins.
    pub wins: u32,
    /// Each finished game, in the order played.
    pub sheet: Vec<Sheet>,
    /// A game of theirs is under way.
    pub playing: bool,
}

/// What a result gives the first mover and the second.
fn outcomes(result: &str) -> Option<(Outcome, Outcome)> {
    use Outcome::*;
    Some(match result {
        result::WHITE | result::WHITE_FORFEIT_WIN => (Win, Loss),
        result::BLACK | result::BLACK_FORFEIT_WIN => (Loss, Win),
        result::DRAW => (Draw, Draw),
        result::DOUBLE_FORFEIT => (Loss, Loss),
        _ => return None,
    })
}

/// The standings: every player by points, then by rating at entry, then by number; with
/// their streaks and score sheets from the finished games in the order they were paired.
pub fn standings(stored: &Stored) -> Vec<Line> {
    let players = pair::players(stored);
    let mut lines: HashMap<&str, Line> = players
        .iter()
        .map(|p| {
            (
                p.account.as_str(),
                Line {
                    rank: 0,
                    player: p.clone(),
                    score: Score::default(),
                    wins: 0,
                    sheet: Vec::new(),
                    playing: false,
                },
            )
        })
        .collect();
    for p in &stored.pairings {
        let Some(black) = p.black.as_deref() else {
            continue;
        };
        let Some(result) = p.result.as_deref() else {
            for who in [p.white.as_str(), black] {
                if let Some(l) = lines.get_mut(who) {
                    l.playing = true;
                }
            }
            continue;
        };
        let Some((w, b)) = outcomes(result) else {
            continue;
        };
        for (who, outcome, white) in [(p.white.as_str(), w, true), (black, b, false)] {
            let Some(l) = lines.get_mut(who) else {
                continue;
            };
            let went = berserk::went(p.berserk.as_deref(), white);
            let own = Played::own_turns(p.turns.unwrap_or(0), white);
            let doubled = l.score.on_fire();
            let points = l.score.record(outcome, went, own);
            if outcome == Outcome::Win {
                l.wins += 1;
            }
            l.sheet.push(Sheet {
                points,
                doubled,
                berserk: went,
                outcome: match outcome {
                    Outcome::Win => "win",
                    Outcome::Draw => "draw",
                    Outcome::Loss => "loss",
                },
            });
        }
    }
    let mut out: Vec<Line> = lines.into_values().collect();
    out.sort_by(|a, b| {
        b.score
            .points
            .cmp(&a.score.points)
            .then(b.player.rating.total_cmp(&a.player.rating))
            .then(a.player.number.cmp(&b.player.number))
    });
    for (i, l) in out.iter_mut().enumerate() {
        l.rank = i as u32 + 1;
    }
    out
}

/// The next wave: the players free now (entered, not away, no game under way) paired by
/// [`pair_wave`], each pair as (first mover, second mover), by pairing numbers. The first move
/// goes to the one who has had it less often, the higher placed when equal.
pub fn wave(stored: &Stored) -> Vec<(u32, u32)> {
    let lines = standings(stored);
    let busy: HashSet<&str> = stored
        .pairings
        .iter()
        .filter(|p| p.result.is_none())
        .flat_map(|p| [Some(p.white.as_str()), p.black.as_deref()])
        .flatten()
        .collect();
    let mut last: HashMap<&str, &str> = HashMap::new();
    let mut firsts: HashMap<&str, u32> = HashMap::new();
    for p in &stored.pairings {
        if let Some(black) = p.black.as_deref() {
            last.insert(p.white.as_str(), black);
            last.insert(black, p.white.as_str());
            *firsts.entry(p.white.as_str()).or_default() += 1;
        }
    }
    let number: HashMap<&str, u32> = lines
        .iter()
        .map(|l| (l.player.account.as_str(), l.player.number))
        .collect();
    let free: Vec<Waiting> = lines
        .iter()
        .filter(|l| !l.player.withdrawn && !busy.contains(l.player.account.as_str()))
        .map(|l| Waiting {
            id: l.player.number,
            points: l.score.points,
            rating: l.player.rating.max(0.0).round() as u32,
            last_opponent: last
                .get(l.player.account.as_str())
                .and_then(|o| number.get(o).copied()),
        })
        .collect();
    let account: HashMap<u32, &str> = number.iter().map(|(a, n)| (*n, *a)).collect();
    let (pairs, _waiting) = pair_wave(&free);
    pairs
        .into_iter()
        .map(|(higher, lower)| {
            let had = |n: u32| {
                account
                    .get(&n)
                    .and_then(|a| firsts.get(a))
                    .copied()
                    .unwrap_or(0)
            };
            if had(lower) < had(higher) {
                (lower, higher)
            } else {
                (higher, lower)
            }
        })
        .collect()
}

/// Whether every game of the arena has its result.
pub fn all_over(pairings: &[PairingRow]) -> bool {
    pairings.iter().all(|p| p.result.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournaments::model::{EntryRow, TournamentRow, status};

    fn stored(pairings: Vec<PairingRow>) -> Stored {
        let entries = (1..=4)
            .map(|n| EntryRow {
                account_id: format!("a{n}"),
                name: format!("P{n}"),
                rating: 1600.0 - f64::from(n) * 10.0,
                number: Some(i64::from(n)),
                withdrawn: n == 4,
                joined_ms: 0,
                gives_first: false,
            })
            .collect();
        Stored {
            row: TournamentRow {
                id: "t".into(),
                name: "Arena".into(),
                format: "arena".into(),
                settings: "{}".into(),
                starts_ms: Some(0),
                max_players: 8,
                organiser: "a1".into(),
                organiser_name: "P1".into(),
                status: status::RUNNING.into(),
                round: 0,
                created_ms: 0,
                updated_ms: 0,
            },
            entries,
            pairings,
            byes: Vec::new(),
        }
    }

    fn game(round: i64, w: u32, b: u32, result: Option<&str>, berserk: Option<&str>) -> PairingRow {
        PairingRow {
            round,
            board: 1,
            white: format!("a{w}"),
            black: Some(format!("a{b}")),
            game_id: Some(format!("g{round}{w}{b}")),
            result: result.map(String::from),
            berserk: berserk.map(String::from),
            turns: Some(20),
        }
    }

    #[test]
    fn streaks_and_berserk_on_the_sheet() {
        let s = stored(vec![
            game(1, 1, 2, Some(result::WHITE), Some(berserk::WHITE)),
            game(2, 3, 1, Some(result::BLACK), None),
            game(3, 1, 2, Some(result::WHITE), Some(berserk::BOTH)),
            game(4, 2, 3, Some(result::DRAW), None),
        ]);
        let lines = standings(&s);
        let p1 = &lines[0];
        assert_eq!(p1.player.name, "P1");
        // A berserk win (3), a win (2), then on fire and berserk (4 + 1).
        let points: Vec<u32> = p1.sheet.iter().map(|g| g.points).collect();
        assert_eq!(points, vec![3, 2, 5]);
        assert!(p1.sheet[2].doubled && p1.sheet[2].berserk);
        assert_eq!((p1.score.points, p1.wins, p1.score.streak), (10, 3, 3));
        // P2 lost twice (berserk in the second) and drew.
        let p2 = lines.iter().find(|l| l.player.name == "P2").unwrap();
        assert_eq!(p2.score.points, 1);
        assert!(p2.sheet[1].berserk && p2.sheet[1].points == 0);
    }

    fn settings(minutes: u32) -> Settings {
        serde_json::from_value(serde_json::json!({
            "board": "37", "rules": "standard", "rated": false, "minutes": minutes,
            "clock": {"kind": "fischer", "base_ms": 60000, "increment_ms": 0}
        }))
        .unwrap()
    }

    #[test]
    fn the_time_up_stops_pairing_and_the_games_under_way_finish_first() {
        let minute = 60_000;
        // Started at 0 for 2 minutes: P1 and P2 play, P3 is free alone.
        let s = stored(vec![game(1, 1, 2, None, None)]);
        assert_eq!(step(&s, &settings(2), minute), Step::Wait);
        // Their game over before the end: P1 meets P3.
        let over = stored(vec![game(1, 1, 2, Some(result::DRAW), None)]);
        assert_eq!(step(&over, &settings(2), minute), Step::Pair(vec![(3, 1)]));
        // At the end nobody is paired; a game under way holds the finish back.
        assert_eq!(step(&over, &settings(2), 2 * minute), Step::Finish);
        assert_eq!(step(&s, &settings(2), 2 * minute + 1), Step::Wait);
    }

    #[test]
    fn a_wave_pairs_the_free_and_gives_the_first_move_to_who_had_it_less() {
        // P1 and P2 just played (P1 first): P1 meets P3, P2 has nobody (P4 is away).
        let s = stored(vec![game(1, 1, 2, Some(result::WHITE), None)]);
        assert_eq!(wave(&s), vec![(3, 1)]);
        // A game under way keeps its players out of the wave.
        let s = stored(vec![game(1, 1, 2, None, None)]);
        assert!(wave(&s).is_empty(), "P3 alone is free");
        assert!(!all_over(&s.pairings));
        let lines = standings(&s);
        assert!(lines.iter().filter(|l| l.playing).count() == 2);
    }
}
