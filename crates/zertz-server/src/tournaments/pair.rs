//! What the next round of an event is, and the standings, from what is stored: pure
//! functions over the rows, the pairing and the tie-breaks being `zertz_tournament`'s.

use std::collections::HashMap;

use zertz_tournament::dutch::{self, SwissInput, SwissPlayer};
use zertz_tournament::round_robin;
use zertz_tournament::tiebreak::{self, Results};
use zertz_tournament::trf::{self, Colour, PlayerLine, ResultCode, RoundEntry, Trf};

use crate::tournaments::model::{Format, PairingRow, Settings, Stored, result, status};

/// A player of a started event.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// The pairing number, from 1.
    pub number: u32,
    /// The account.
    pub account: String,
    /// The name shown.
    pub name: String,
    /// The rating at the start.
    pub rating: f64,
    /// Withdrawn once the event ran: kept in the standings, paired no more.
    pub withdrawn: bool,
    /// In a knockout, when it is this player's choice who begins a match, they let the
    /// opponent begin.
    pub gives_first: bool,
}

/// The players of a started event (every one numbered at the start, those who withdrew since
/// included: their results stand), by pairing number.
pub fn players(stored: &Stored) -> Vec<Player> {
    let mut out: Vec<Player> = stored
        .entries
        .iter()
        .filter_map(|e| {
            Some(Player {
                number: u32::try_from(e.number?).ok()?,
                account: e.account_id.clone(),
                name: e.name.clone(),
                rating: e.rating,
                withdrawn: e.withdrawn,
                gives_first: e.gives_first,
            })
        })
        .collect();
    out.sort_by_key(|p| p.number);
    out
}

/// How many rounds an event of `players` players has.
pub fn total_rounds(format: Format, settings: &Settings, players: u32) -> u32 {
    match format {
        Format::Swiss => settings.rounds.unwrap_or(1),
        Format::RoundRobin => {
            let cycle = round_robin::rounds(players, settings.double);
            settings.rounds.map_or(cycle, |r| r.min(cycle))
        }
        Format::Knockout => crate::tournaments::knockout::rounds(players),
        // Waves, as many as its time gives (`arena::wave`).
        Format::Arena => 0,
    }
}

/// A round to store: the games (first mover, second mover) in board order, and the player
/// with the bye (or the rest), by pairing numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// (white, black), white moving first.
    pub pairs: Vec<(u32, u32)>,
    /// The player not paired: a Swiss bye (a win's points) or a round robin's rest (none).
    pub bye: Option<u32>,
    /// The players who asked to sit the round out, with their bye's result
    /// ([`result::HALF_BYE`] or [`result::ZERO_BYE`]).
    pub asked: Vec<(u32, &'static str)>,
}

impl Round {
    /// The result a pair has before any game: a round robin's board with a withdrawn player
    /// is a forfeit of that player (both: a double forfeit); `None` for a game to play.
    pub fn forfeit(players: &[Player], (white, black): (u32, u32)) -> Option<&'static str> {
        let gone = |n: u32| players.iter().any(|p| p.number == n && p.withdrawn);
        match (gone(white), gone(black)) {
            (false, false) => None,
            (false, true) => Some(result::WHITE_FORFEIT_WIN),
            (true, false) => Some(result::BLACK_FORFEIT_WIN),
            (true, true) => Some(result::DOUBLE_FORFEIT),
        }
    }
}

/// Round `round` of the event, or why there is none (the event is then over). `asked`: the
/// players who asked to sit this round out (a Swiss only), with their bye's result.
pub fn next_round(
    format: Format,
    settings: &Settings,
    players: &[Player],
    pairings: &[PairingRow],
    round: u32,
    asked: &[(u32, &'static str)],
) -> Result<Round, String> {
    let n = players.len() as u32;
    let active = players.iter().filter(|p| !p.withdrawn).count();
    if active < 2 {
        return Err(format!("{active} player left: nobody to pair"));
    }
    match format {
        Format::Swiss => {
            let entries = entries(players, pairings, round.saturating_sub(1));
            let input = SwissInput {
                players: players
                    .iter()
                    .map(|p| SwissPlayer {
                        id: p.number,
                        entries: entries[&p.number].clone(),
                        // A withdrawn player, or one who asked for a bye, is not paired
                        // (C.04.1: absent from the round).
                        absent: p.withdrawn || asked.iter().any(|(n, _)| *n == p.number),
                    })
                    .collect(),
                round,
                total_rounds: total_rounds(format, settings, n),
                // The first player moves first in round 1 (the rules draw it by lot; a fixed
                // colour makes an event's pairings reproducible from its entries alone).
                initial_colour: Colour::White,
            };
            let p = dutch::pair(&input).map_err(|e| e.to_string())?;
            Ok(Round {
                pairs: p.pairs,
                bye: p.bye,
                asked: asked
                    .iter()
                    .filter(|(n, _)| players.iter().any(|p| p.number == *n && !p.withdrawn))
                    .copied()
                    .collect(),
            })
        }
        Format::Knockout => Err("a knockout is paired by its bracket (knockout::boards)".into()),
        Format::Arena => Err("an arena is paired in waves of free players (arena::wave)".into()),
        Format::RoundRobin => {
            let p = round_robin::round(n, round, settings.double).map_err(|e| e.to_string())?;
            Ok(Round {
                pairs: p.pairs,
                bye: p.bye,
                asked: Vec::new(),
            })
        }
    }
}

/// What a pairing's result gives each side as TRF results: (white's, black's).
pub fn codes(result: &str) -> Option<(ResultCode, ResultCode)> {
    use ResultCode::*;
    Some(match result {
        result::WHITE => (Win, Loss),
        result::BLACK => (Loss, Win),
        result::DRAW => (Draw, Draw),
        result::WHITE_FORFEIT_WIN => (ForfeitWin, ForfeitLoss),
        result::BLACK_FORFEIT_WIN => (ForfeitLoss, ForfeitWin),
        result::DOUBLE_FORFEIT => (ForfeitLoss, ForfeitLoss),
        _ => return None,
    })
}

/// Each player's entries (by pairing number) in rounds 1 to `rounds`, as the pairing and the
/// tie-breaks read them: a game not finished counts as not paired.
fn entries(
    players: &[Player],
    pairings: &[PairingRow],
    rounds: u32,
) -> HashMap<u32, Vec<Option<RoundEntry>>> {
    let number: HashMap<&str, u32> = players
        .iter()
        .map(|p| (p.account.as_str(), p.number))
        .collect();
    let mut out: HashMap<u32, Vec<Option<RoundEntry>>> = players
        .iter()
        .map(|p| (p.number, vec![None; rounds as usize]))
        .collect();
    for p in pairings {
        let Some(r) = usize::try_from(p.round - 1)
            .ok()
            .filter(|&r| r < rounds as usize)
        else {
            continue;
        };
        let Some(&white) = number.get(p.white.as_str()) else {
            continue;
        };
        let Some(result) = p.result.as_deref() else {
            continue;
        };
        match &p.black {
            None => {
                let code = match result {
                    result::BYE => ResultCode::PairingBye,
                    result::HALF_BYE => ResultCode::HalfBye,
                    result::ZERO_BYE => ResultCode::ZeroBye,
                    _ => continue,
                };
                if let Some(e) = out.get_mut(&white) {
                    e[r] = Some(RoundEntry {
                        opponent: None,
                        colour: None,
                        result: code,
                    });
                }
            }
            Some(black) => {
                let (Some(&black), Some((w, b))) = (number.get(black.as_str()), codes(result))
                else {
                    continue;
                };
                for (me, them, colour, code) in [
                    (white, black, Colour::White, w),
                    (black, white, Colour::Black, b),
                ] {
                    if let Some(e) = out.get_mut(&me) {
                        e[r] = Some(RoundEntry {
                            opponent: Some(them),
                            colour: Some(colour),
                            result: code,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The rounds whose every result is in: all the rounds paired once the event is over, else
/// those before the current round, and the current round too when its games are all over.
pub fn rounds_done(stored: &Stored) -> u32 {
    let paired = u32::try_from(stored.row.round).unwrap_or(0);
    if stored.row.status == status::FINISHED || round_complete(stored, paired) {
        paired
    } else {
        paired.saturating_sub(1)
    }
}

/// Whether every board of round `round` has its result (a round not paired is not).
pub fn round_complete(stored: &Stored, round: u32) -> bool {
    let mut boards = stored
        .pairings
        .iter()
        .filter(|p| p.round == i64::from(round))
        .peekable();
    boards.peek().is_some() && boards.all(|p| p.result.is_some())
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The rank, from 1.
    pub rank: u32,
    /// The player.
    pub player: Player,
    /// The tie-breaks, in half-points (Sonneborn-Berger in quarter-points).
    pub standing: tiebreak::Standing,
}

/// The standings after the rounds done, best first, with the tie-breaks that rank them.
pub fn standings(stored: &Stored) -> (u32, Vec<Line>) {
    let players = players(stored);
    let done = rounds_done(stored);
    let entries = entries(&players, &stored.pairings, done);
    let results: Vec<Results> = players
        .iter()
        .map(|p| Results {
            id: p.number,
            rounds: entries[&p.number].clone(),
        })
        .collect();
    let by_number: HashMap<u32, &Player> = players.iter().map(|p| (p.number, p)).collect();
    let lines = tiebreak::standings(&results, done as usize)
        .into_iter()
        .enumerate()
        .filter_map(|(i, standing)| {
            Some(Line {
                rank: i as u32 + 1,
                player: (*by_number.get(&standing.id)?).clone(),
                standing,
            })
        })
        .collect();
    (done, lines)
}

/// The event as a TRF file (FIDE's tournament report format): its name, dates, players and
/// format, then a line per player (pairing number, name, rating at the start, points, rank,
/// and each round: opponent, `w` for the first move or `b`, result; a bye `0000 - U`, a
/// withdrawn player's absence `0000 - Z`, a round robin's rest left blank), over the rounds whose results are all in, as the standings. `start_ms` and `end_ms` give the dates (`042`, `052`).
pub fn trf(
    stored: &Stored,
    format: Format,
    settings: &Settings,
    start_ms: i64,
    end_ms: Option<i64>,
) -> Trf {
    let players = players(stored);
    // The rounds whose every result is in, as the standings count them.
    let (done, lines) = standings(stored);
    let rounds = entries(&players, &stored.pairings, done);
    let place: HashMap<u32, (u32, u32)> = lines
        .iter()
        .map(|l| (l.player.number, (l.rank, l.standing.points)))
        .collect();
    let date = |ms: i64| crate::util::iso_time(ms)[..10].replace('-', "/");
    let mut out = vec![
        trf::Line::Other(format!("012 {}", stored.row.name)),
        trf::Line::Other(format!("042 {}", date(start_ms))),
    ];
    if let Some(end) = end_ms {
        out.push(trf::Line::Other(format!("052 {}", date(end))));
    }
    out.push(trf::Line::Other(format!("062 {}", players.len())));
    out.push(trf::Line::Other(format!(
        "092 {}",
        match format {
            Format::Swiss => "Individual: Swiss-System (FIDE Dutch)",
            Format::RoundRobin if settings.double => "Individual: double round robin",
            Format::RoundRobin => "Individual: round robin",
            Format::Knockout => "Individual: knockout",
            Format::Arena => "Individual: arena",
        }
    )));
    out.push(trf::Line::Other(format!(
        "122 {}",
        settings.clock.describe()
    )));
    out.push(trf::Line::Rounds(total_rounds(
        format,
        settings,
        players.len() as u32,
    )));
    if format == Format::Swiss {
        out.push(trf::Line::InitialColour(Colour::White));
    }
    for p in &players {
        let (rank, half_points) = place.get(&p.number).copied().unwrap_or((0, 0));
        let mut rounds = rounds[&p.number].clone();
        if p.withdrawn {
            // The rounds a withdrawn player was not paired in: absent, as a pairing program
            // reads it (a zero-point bye, `0000 - Z`).
            for r in rounds.iter_mut().filter(|r| r.is_none()) {
                *r = Some(RoundEntry {
                    opponent: None,
                    colour: None,
                    result: ResultCode::ZeroBye,
                });
            }
        }
        out.push(trf::Line::Player(PlayerLine {
            start_rank: p.number,
            sex: String::new(),
            title: String::new(),
            name: p.name.clone(),
            rating: p.rating.round().max(0.0) as u32,
            federation: String::new(),
            fide_id: String::new(),
            birth_date: String::new(),
            points_tenths: Some(half_points * 5),
            rank: (rank > 0).then_some(rank),
            rounds,
        }));
    }
    Trf { lines: out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::ClockSpec;
    use crate::tournaments::model::{EntryRow, TournamentRow};

    fn settings(rounds: Option<u32>) -> Settings {
        Settings {
            board: "37".into(),
            rules: "standard".into(),
            clock: ClockSpec::SuddenDeath { total_ms: 60_000 },
            rated: false,
            rounds,
            double: false,
            first_move_s: 60,
            first_mover: None,
            third_place: false,
            minutes: None,
            berserk: false,
            min_rating: None,
            max_rating: None,
            min_account_days: None,
        }
    }

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

    fn board(round: i64, board: i64, w: u32, b: Option<u32>, result: &str) -> PairingRow {
        PairingRow {
            round,
            board,
            white: format!("a{w}"),
            black: b.map(|b| format!("a{b}")),
            game_id: b.map(|b| format!("g{round}{w}{b}")),
            result: Some(result.into()),
            berserk: None,
            turns: None,
        }
    }

    #[test]
    fn a_round_robin_of_four_follows_the_berger_table() {
        let ps: Vec<Player> = (1..=4).map(player).collect();
        let s = settings(None);
        assert_eq!(total_rounds(Format::RoundRobin, &s, 4), 3);
        let r1 = next_round(Format::RoundRobin, &s, &ps, &[], 1, &[]).unwrap();
        assert_eq!(r1.pairs, [(1, 4), (2, 3)]);
        let r2 = next_round(Format::RoundRobin, &s, &ps, &[], 2, &[]).unwrap();
        assert_eq!(r2.pairs, [(4, 3), (1, 2)]);
        let r3 = next_round(Format::RoundRobin, &s, &ps, &[], 3, &[]).unwrap();
        assert_eq!(r3.pairs, [(2, 4), (3, 1)]);
        assert!(next_round(Format::RoundRobin, &s, &ps, &[], 4, &[]).is_err());
        assert_eq!(
            total_rounds(Format::RoundRobin, &settings(Some(9)), 4),
            3,
            "fewer players than planned: the cycle is the most"
        );
    }

    #[test]
    fn one_player_is_never_paired() {
        let s = settings(Some(3));
        assert!(next_round(Format::Swiss, &s, &[player(1)], &[], 1, &[]).is_err());
    }

    #[test]
    fn a_swiss_gives_the_odd_player_the_bye_and_standings_count_it() {
        let ps: Vec<Player> = (1..=3).map(player).collect();
        let s = settings(Some(2));
        let r1 = next_round(Format::Swiss, &s, &ps, &[], 1, &[]).unwrap();
        assert_eq!((r1.pairs.clone(), r1.bye), (vec![(1, 2)], Some(3)));
        let pairings = vec![
            board(1, 1, 1, Some(2), result::BLACK),
            board(1, 2, 3, None, result::BYE),
        ];
        let r2 = next_round(Format::Swiss, &s, &ps, &pairings, 2, &[]).unwrap();
        assert_ne!(r2.bye, Some(3), "no second bye");
        let stored = Stored {
            byes: Vec::new(),
            row: TournamentRow {
                id: "t".into(),
                name: "T".into(),
                format: "swiss".into(),
                settings: String::new(),
                starts_ms: None,
                max_players: 8,
                organiser: "a1".into(),
                organiser_name: "P1".into(),
                status: status::RUNNING.into(),
                round: 1,
                created_ms: 0,
                updated_ms: 0,
            },
            entries: ps
                .iter()
                .map(|p| EntryRow {
                    account_id: p.account.clone(),
                    name: p.name.clone(),
                    rating: p.rating,
                    number: Some(i64::from(p.number)),
                    withdrawn: false,
                    joined_ms: 0,
                    gives_first: false,
                })
                .collect(),
            pairings,
        };
        let (done, lines) = standings(&stored);
        assert_eq!(done, 1);
        let order: Vec<(u32, u32)> = lines
            .iter()
            .map(|l| (l.player.number, l.standing.points))
            .collect();
        // 2 and 3 both have a point; 2's win over the board (Buchholz of 1's 0) against
        // 3's bye (a dummy with 3's own score): 3 is ahead on Buchholz.
        assert_eq!(order[2], (1, 0));
        assert_eq!(lines.len(), 3);
    }
}
