//! The host's death-match knockout on the server (docs/tournaments.md, "Knockout"): a
//! single-elimination bracket of best-of-3 matches, seeded by rating with byes to the top
//! seeds (`zertz_tournament::knockout`). A board of the bracket is a match, not a game: its
//! pairing row holds the match's id where the other formats hold a game's, its first game is
//! stored with the round, and its result comes from the match's end (`Hub::on_match_end`).
//! Every game is played under the host's house rules: no repetition; in the final a player
//! may propose a bribe instead of moving, three times at most across the match.
//!
//! A round's boards are numbered by their slot in the bracket (slots 2k-1 and 2k of one round
//! meet in slot k of the next), so the bracket is read back from the rows alone.

use std::collections::HashMap;

use zertz_tournament::knockout::{Entrant, MAX_BRIBES, first_round};

use crate::games::matches::state::MatchState;
use crate::games::model::{Credential, GameSettings, Seated};
use crate::tournaments::model::{PairingRow, Settings, Stored, first_mover, result, status};
use crate::tournaments::new_event::game_settings;
use crate::tournaments::pair::{self, Player};
use crate::tournaments::{TournamentError, Tournaments};
use crate::util::now_ms;

/// Games of a match: best of three.
pub const BEST_OF: u32 = 3;

/// The board of the final round that holds the third-place match, when the event has one
/// (the final is board 1).
pub const THIRD_PLACE_BOARD: u32 = 2;

/// Whether `p` is the third-place match of a knockout of `total` rounds.
pub fn is_third_place(p: &PairingRow, total: u32) -> bool {
    p.round == i64::from(total) && p.board == i64::from(THIRD_PLACE_BOARD)
}

/// The third-place match of a knockout of `total` rounds, once its semifinals are decided: the
/// two semifinal losers (both still playing), the one who moves first in game 1 first.
pub fn third_place_board(
    players: &[Player],
    pairings: &[PairingRow],
    total: u32,
    higher_first: bool,
) -> Option<Board> {
    if total < 2 {
        return None;
    }
    let number: HashMap<&str, u32> = players
        .iter()
        .filter(|p| !p.withdrawn)
        .map(|p| (p.account.as_str(), p.number))
        .collect();
    let losers: Vec<u32> = pairings
        .iter()
        .filter(|p| p.round == i64::from(total - 1))
        .filter_map(|p| {
            let black = p.black.as_deref()?;
            let lost = if winner(p)? == p.white {
                black
            } else {
                &p.white
            };
            number.get(lost).copied()
        })
        .collect();
    let [a, b] = losers[..] else {
        return None;
    };
    Some(seeded(a, b, higher_first, players))
}

/// The match of players numbered `a` and `b`. One of them chooses who moves first in game 1:
/// the higher seed (the lower number) when `higher_first`, else the lower seed (the one
/// "called into" the death match); they begin, unless they said they let the opponent begin
/// (`gives_first`).
fn seeded(a: u32, b: u32, higher_first: bool, players: &[Player]) -> Board {
    let (high, low) = (a.min(b), a.max(b));
    let (chooser, other) = if higher_first {
        (high, low)
    } else {
        (low, high)
    };
    let gives = players.iter().any(|p| p.number == chooser && p.gives_first);
    let (first, second) = if gives {
        (other, chooser)
    } else {
        (chooser, other)
    };
    Board::Match { first, second }
}

/// One board of a knockout round, by pairing numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// A match: who moves first in its game 1, and the opponent.
    Match {
        /// Moves first in game 1 (the pairing's "white").
        first: u32,
        /// The opponent.
        second: u32,
    },
    /// A player through without playing: a bye of the bracket, or an opponent who withdrew.
    Walkover(u32),
}

/// The rounds of a knockout of `players`: enough for the bracket, a power of two.
pub fn rounds(players: u32) -> u32 {
    players.max(2).next_power_of_two().trailing_zeros()
}

/// The account that won a board: the first mover's or the other's, none while it is played
/// (or when both players were out).
pub fn winner(p: &PairingRow) -> Option<&str> {
    match p.result.as_deref()? {
        result::WHITE | result::WHITE_FORFEIT_WIN | result::BYE => Some(p.white.as_str()),
        result::BLACK | result::BLACK_FORFEIT_WIN => p.black.as_deref(),
        _ => None,
    }
}

/// The pairing's result of a decided match (participant 0 moved first in game 1: the
/// pairing's white); `None` while it is played.
pub fn match_result(m: &MatchState) -> Option<&'static str> {
    match m.winner? {
        0 => Some(result::WHITE),
        _ => Some(result::BLACK),
    }
}

/// The boards of round `round` with their slots (from 1). Round 1 pairs the seeds (pairing
/// numbers are given by rating, so a number is a seed), a later round the winners of the
/// round before. A slot with one player is a walkover; a slot with none has no board.
/// `higher_first`: the higher seed moves first in game 1 (else the lower, the host's custom).
pub fn boards(
    players: &[Player],
    pairings: &[PairingRow],
    round: u32,
    higher_first: bool,
) -> Vec<(u32, Board)> {
    let in_play = |n: u32| players.iter().any(|p| p.number == n && !p.withdrawn);
    let board = |a: Option<u32>, b: Option<u32>| match (
        a.filter(|&n| in_play(n)),
        b.filter(|&n| in_play(n)),
    ) {
        (Some(a), Some(b)) => Some(seeded(a, b, higher_first, players)),
        (Some(a), None) | (None, Some(a)) => Some(Board::Walkover(a)),
        (None, None) => None,
    };
    if round <= 1 {
        let entrants: Vec<Entrant> = players
            .iter()
            .filter(|p| !p.withdrawn)
            .map(|p| Entrant {
                id: p.number,
                // Seeds by pairing number (given by rating at the start, ties by name).
                rating: u32::MAX - p.number,
            })
            .collect();
        return first_round(&entrants)
            .iter()
            .enumerate()
            .filter_map(|(k, m)| Some((k as u32 + 1, board(m.high, m.low)?)))
            .collect();
    }
    let number: HashMap<&str, u32> = players
        .iter()
        .map(|p| (p.account.as_str(), p.number))
        .collect();
    let through = |slot: u32| -> Option<u32> {
        let row = pairings
            .iter()
            .find(|p| p.round == i64::from(round - 1) && p.board == i64::from(slot))?;
        number.get(winner(row)?).copied()
    };
    let slots = pairings
        .iter()
        .filter(|p| p.round == i64::from(round - 1))
        .map(|p| p.board as u32)
        .max()
        .unwrap_or(0)
        .div_ceil(2);
    (1..=slots)
        .filter_map(|k| Some((k, board(through(2 * k - 1), through(2 * k))?)))
        .collect()
}

/// Where a player stands in a knockout.
#[derive(Clone, Debug, PartialEq)]
pub struct Placing {
    /// 1 for the winner, 2 for the finalist, 3 for both semifinal losers (3 and 4 after a
    /// third-place match), 5 for the quarterfinal losers…; `None` while the player is still in.
    pub rank: Option<u32>,
    /// The player.
    pub player: Player,
    /// The round the player went out in.
    pub out_in: Option<u32>,
    /// Matches won (walkovers not counted).
    pub wins: u32,
}

/// Every player's place, the best first (those still in first while the event runs).
pub fn placings(stored: &Stored, total: u32) -> Vec<Placing> {
    let over = stored.row.status == status::FINISHED;
    let mut out: Vec<Placing> = pair::players(stored)
        .into_iter()
        .map(|p| {
            let mut mine: Vec<&PairingRow> = stored
                .pairings
                .iter()
                .filter(|r| r.white == p.account || r.black.as_deref() == Some(&p.account))
                .collect();
            mine.sort_by_key(|r| r.round);
            let won = |r: &PairingRow| winner(r) == Some(p.account.as_str());
            let wins = mine.iter().filter(|r| won(r) && r.black.is_some()).count() as u32;
            let champion = mine
                .iter()
                .any(|r| r.round == i64::from(total) && !is_third_place(r, total) && won(r));
            // The loser of a third-place match is fourth.
            let fourth = mine
                .iter()
                .any(|r| is_third_place(r, total) && r.result.is_some() && !won(r));
            let last = mine.last().map_or(0, |r| r.round as u32);
            let lost = mine
                .iter()
                .find(|r| r.result.is_some() && !won(r))
                .map(|r| r.round as u32);
            // A player who withdrew, or is left when the event ends early, goes out after
            // their last board.
            let out_in = lost.or_else(|| {
                (!champion && (p.withdrawn || over)).then(|| (last + 1).min(total.max(1)))
            });
            let rank = match out_in {
                Some(_) if fourth => Some(4),
                Some(r) => Some(2u32.pow(total.saturating_sub(r)) + 1),
                None => champion.then_some(1),
            };
            Placing {
                rank,
                player: p,
                out_in,
                wins,
            }
        })
        .collect();
    out.sort_by_key(|p| (p.rank.unwrap_or(0), p.player.number));
    out
}

/// The settings of the games of a knockout's match: the event's, with the house rules (no
/// repetition) and, in the final, bribes.
pub fn match_template(settings: &Settings, final_round: bool) -> Result<GameSettings, String> {
    let mut games = game_settings(settings)?;
    games.repetition = "forbidden".into();
    games.bribes = final_round;
    Ok(games)
}

impl Tournaments {
    /// Pairs and stores round `next` of knockout `id` (of `total`): its matches (each stored
    /// with its first game, with the round's rows, in one transaction) and its walkovers.
    pub(super) async fn pair_knockout(
        &self,
        stored: &Stored,
        settings: &Settings,
        next: u32,
        total: u32,
    ) -> Result<(), TournamentError> {
        let id = &stored.row.id;
        let players = pair::players(stored);
        let higher_first = settings.first_mover.as_deref() == Some(first_mover::HIGHER);
        let mut boards = boards(&players, &stored.pairings, next, higher_first);
        // The semifinal losers meet for third place beside the final, under its rules.
        if next == total
            && settings.third_place
            && let Some(third) = third_place_board(&players, &stored.pairings, total, higher_first)
        {
            boards.push((THIRD_PLACE_BOARD, third));
        }
        let by_number: HashMap<u32, &Player> = players.iter().map(|p| (p.number, p)).collect();
        let seat = |n: u32| -> Result<&Player, TournamentError> {
            by_number
                .get(&n)
                .copied()
                .ok_or_else(|| TournamentError::Storage(format!("no player number {n}")))
        };
        let final_round = next == total;
        let template = match_template(settings, final_round).map_err(TournamentError::Storage)?;
        let bribes = if final_round { MAX_BRIBES } else { 0 };
        let mut rows = Vec::new();
        let mut made = Vec::new();
        for (slot, board) in boards {
            match board {
                Board::Walkover(n) => rows.push(PairingRow {
                    round: i64::from(next),
                    board: i64::from(slot),
                    white: seat(n)?.account.clone(),
                    black: None,
                    game_id: None,
                    result: Some(result::BYE.into()),
                    berserk: None,
                    turns: None,
                }),
                Board::Match { first, second } => {
                    let (a, b) = (seat(first)?, seat(second)?);
                    let seated = [a, b].map(|p| Seated {
                        name: p.name.clone(),
                        account: Some(p.account.clone()),
                    });
                    let (m, row, game) =
                        self.hub
                            .prepare_event_match(template.clone(), seated, BEST_OF, bribes)?;
                    rows.push(PairingRow {
                        round: i64::from(next),
                        board: i64::from(slot),
                        white: a.account.clone(),
                        black: Some(b.account.clone()),
                        game_id: Some(m.id.clone()),
                        result: None,
                        berserk: None,
                        turns: None,
                    });
                    made.push((m, row, game));
                }
            }
        }
        let games: Vec<_> = made
            .iter()
            .map(|(_, _, g)| (g.row.clone(), g.events.clone()))
            .collect();
        let matches: Vec<_> = made.iter().map(|(_, row, _)| row.clone()).collect();
        if self
            .store
            .store_round(id, i64::from(next), &rows, &games, &matches, now_ms())
            .await?
        {
            for (m, _, game) in made {
                self.hub.open_event_match(&m, game).await;
            }
            tracing::info!("tournament {id}: knockout round {next} paired");
        } else {
            tracing::info!("tournament {id}: round {next} was paired already, or the event ended");
        }
        Ok(())
    }

    /// Hears a decided match (subscribed in `app`): a knockout's records its result and moves
    /// the event on, in a task of its own.
    pub fn match_ended(self: &std::sync::Arc<Self>, m: &std::sync::Arc<MatchState>) {
        let Some(result) = match_result(m) else {
            return;
        };
        let me = std::sync::Arc::clone(self);
        let id = m.id.clone();
        tokio::spawn(async move {
            if let Err(e) = me.record(&id, result, &Default::default()).await {
                tracing::warn!("tournaments: the result of match {id} was not recorded: {e}");
            }
        });
    }

    /// The result of knockout match `id` when it is decided (the catch-up after a restart).
    pub(super) async fn decided_match(
        &self,
        id: &str,
    ) -> Result<Option<&'static str>, TournamentError> {
        let (m, _) = self.hub.load_match(id).await?;
        Ok(match_result(&m))
    }

    /// The game a knockout match is playing now, if one is under way.
    pub(super) async fn current_game(&self, match_id: &str) -> Option<String> {
        let (m, _) = self.hub.load_match(match_id).await.ok()?;
        if m.winner.is_some() {
            return None;
        }
        m.games
            .last()
            .filter(|g| g.result.is_none())
            .map(|g| g.id.clone())
    }

    /// Ends knockout match `match_id` in `account`'s name: the player let a first move wait
    /// too long, and the match is lost by forfeit (resigned for them).
    pub(super) async fn forfeit_match(
        &self,
        match_id: &str,
        account: &str,
    ) -> Result<(), TournamentError> {
        self.hub
            .resign_match(match_id, Credential::Account(account))
            .await?;
        Ok(())
    }

    /// The games of knockout match `id`, in order.
    pub(super) async fn match_games(&self, id: &str) -> Result<Vec<String>, TournamentError> {
        let (m, _) = self.hub.load_match(id).await?;
        Ok(m.games.into_iter().map(|g| g.id).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(n: u32) -> Player {
        Player {
            number: n,
            account: format!("a{n}"),
            name: format!("P{n}"),
            rating: 2000.0 - f64::from(n),
            withdrawn: false,
            gives_first: false,
        }
    }

    fn row(round: i64, board: i64, white: u32, black: Option<u32>, result: &str) -> PairingRow {
        PairingRow {
            round,
            board,
            white: format!("a{white}"),
            black: black.map(|b| format!("a{b}")),
            game_id: black.map(|_| format!("m{round}{board}")),
            result: Some(result.into()),
            berserk: None,
            turns: None,
        }
    }

    #[test]
    fn the_chooser_begins_unless_they_let_the_opponent_begin() {
        let mut players: Vec<Player> = (1..=4).map(player).collect();
        // Seed 4 lets the opponent begin; seed 3 keeps the default.
        players[3].gives_first = true;
        let lower_chooses = boards(&players, &[], 1, false);
        assert_eq!(
            lower_chooses,
            vec![
                (
                    1,
                    Board::Match {
                        first: 1,
                        second: 4
                    }
                ),
                (
                    2,
                    Board::Match {
                        first: 3,
                        second: 2
                    }
                ),
            ]
        );
        // The higher seeds choose: seed 4's wish is not asked.
        let higher_chooses = boards(&players, &[], 1, true);
        assert_eq!(
            higher_chooses,
            vec![
                (
                    1,
                    Board::Match {
                        first: 1,
                        second: 4
                    }
                ),
                (
                    2,
                    Board::Match {
                        first: 2,
                        second: 3
                    }
                ),
            ]
        );
    }

    #[test]
    fn six_players_give_the_top_seeds_the_byes_and_the_lower_seed_the_first_move() {
        let players: Vec<Player> = (1..=6).map(player).collect();
        assert_eq!(rounds(6), 3);
        assert_eq!(rounds(2), 1);
        assert_eq!(rounds(8), 3);
        assert_eq!(rounds(9), 4);
        let first = boards(&players, &[], 1, false);
        // Slots 1-8 hold seeds 1 8 4 5 2 7 3 6: seeds 1 and 2 sit out round 1.
        assert_eq!(
            first,
            vec![
                (1, Board::Walkover(1)),
                (
                    2,
                    Board::Match {
                        first: 5,
                        second: 4
                    }
                ),
                (3, Board::Walkover(2)),
                (
                    4,
                    Board::Match {
                        first: 6,
                        second: 3
                    }
                ),
            ]
        );
        let higher = boards(&players, &[], 1, true);
        assert_eq!(
            higher[1],
            (
                2,
                Board::Match {
                    first: 4,
                    second: 5
                }
            )
        );
        // Round 2: the winners by slot; 5 beat 4, 3 beat 6 (3 moved second: "0-1").
        let done = vec![
            row(1, 1, 1, None, result::BYE),
            row(1, 2, 5, Some(4), result::WHITE),
            row(1, 3, 2, None, result::BYE),
            row(1, 4, 6, Some(3), result::BLACK),
        ];
        let second = boards(&players, &done, 2, false);
        assert_eq!(
            second,
            vec![
                (
                    1,
                    Board::Match {
                        first: 5,
                        second: 1
                    }
                ),
                (
                    2,
                    Board::Match {
                        first: 3,
                        second: 2
                    }
                ),
            ]
        );
    }

    #[test]
    fn a_withdrawn_winner_gives_a_walkover_and_places_are_by_round() {
        let mut players: Vec<Player> = (1..=4).map(player).collect();
        let done = vec![
            row(1, 1, 4, Some(1), result::BLACK),
            row(1, 2, 3, Some(2), result::WHITE),
        ];
        players[2].withdrawn = true;
        assert_eq!(
            boards(&players, &done, 2, false),
            vec![(1, Board::Walkover(1))]
        );
    }

    #[test]
    fn places_are_by_the_round_a_player_went_out_in() {
        use crate::tournaments::model::{EntryRow, TournamentRow};
        let entry = |n: u32| EntryRow {
            account_id: format!("a{n}"),
            name: format!("P{n}"),
            rating: 2000.0 - f64::from(n),
            number: Some(i64::from(n)),
            withdrawn: false,
            joined_ms: 0,
            gives_first: false,
        };
        let rows = vec![
            row(1, 1, 4, Some(1), result::BLACK),
            row(1, 2, 3, Some(2), result::WHITE),
            row(2, 1, 3, Some(1), result::BLACK_FORFEIT_WIN),
        ];
        let mut stored = Stored {
            row: TournamentRow {
                id: "t".into(),
                name: "KO".into(),
                format: "knockout".into(),
                settings: String::new(),
                starts_ms: None,
                max_players: 4,
                organiser: "o".into(),
                organiser_name: "O".into(),
                status: status::FINISHED.into(),
                round: 2,
                created_ms: 0,
                updated_ms: 0,
            },
            entries: (1..=4).map(entry).collect(),
            pairings: rows,
            byes: Vec::new(),
        };
        let places: Vec<(Option<u32>, u32, u32)> = placings(&stored, 2)
            .iter()
            .map(|p| (p.rank, p.player.number, p.wins))
            .collect();
        assert_eq!(
            places,
            vec![
                (Some(1), 1, 2),
                (Some(2), 3, 1),
                (Some(3), 2, 0),
                (Some(3), 4, 0)
            ]
        );
        // While the final is played, its two players are still in.
        stored.row.status = status::RUNNING.into();
        stored.pairings[2].result = None;
        let places: Vec<(Option<u32>, u32)> = placings(&stored, 2)
            .iter()
            .map(|p| (p.rank, p.player.number))
            .collect();
        assert_eq!(
            places,
            vec![(None, 1), (None, 3), (Some(3), 2), (Some(3), 4)]
        );
    }
}
