//! Games as the explorer takes them: a BoardSpace record (from an archive) or a game of this
//! server that has just ended, each with a stable id so that adding it twice counts it once.

use zertz::boardspace::{Ending, Imported, RecordedResult, import};
use zertz::record::{Record, result_token};
use zertz::{Game, Player};

use crate::explorer::import::GameEntry;
use crate::explorer::key::steps;
use crate::explorer::store::ExplorerGame;

/// The id of a BoardSpace record: `bs-` and a 64-bit FNV-1a hash of its text, so that the
/// same record found twice (in two archives, or imported again) is one game.
pub fn boardspace_id(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.trim().bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("bs-{h:016x}")
}

/// The id of a game of this server.
pub fn server_id(game: &str) -> String {
    format!("server-{game}")
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// `YYYY-MM-DD` of a BoardSpace `DT` (`Tue Mar 28 15:13:38 EST 2006`, or already
/// `2006-03-28`), else of the date in the file name (`…-2006-03-28-2013.sgf`).
pub fn boardspace_date(dt: Option<&str>, name: &str) -> Option<String> {
    if let Some(dt) = dt {
        let words: Vec<&str> = dt.split_whitespace().collect();
        let month = words.iter().find_map(|w| {
            let w = w.to_ascii_lowercase();
            MONTHS.iter().position(|m| w.starts_with(m))
        });
        let year = words
            .iter()
            .rev()
            .find(|w| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()));
        let day = words
            .iter()
            .find(|w| (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit()));
        if let (Some(m), Some(y), Some(d)) = (month, year, day) {
            let d: u32 = d.parse().unwrap_or(0);
            if (1..=31).contains(&d) {
                return Some(format!("{y}-{:02}-{d:02}", m + 1));
            }
        }
        if let Some(date) = iso_date_in(dt) {
            return Some(date);
        }
    }
    iso_date_in(name)
}

/// The first `YYYY-MM-DD` in `text`.
fn iso_date_in(text: &str) -> Option<String> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let s = &b[i..i + 10];
        let digits = |r: std::ops::Range<usize>| s[r].iter().all(u8::is_ascii_digit);
        (digits(0..4) && s[4] == b'-' && digits(5..7) && s[7] == b'-' && digits(8..10))
            .then(|| String::from_utf8_lossy(s).into_owned())
    })
}

/// The game with its ending as the record tells it (a resignation or a win on time that the
/// rules alone do not see), and the result from player one's side. The record's game is moved
/// out, not copied (a game holds every position it went through).
fn finished(r: &mut Imported) -> (Game, &'static str) {
    let recorded = match r.result {
        RecordedResult::Winner(bs) => match r.player_of(bs) {
            Player::One => "1-0",
            Player::Two => "0-1",
        },
        RecordedResult::Draw => "1/2-1/2",
        _ => "*",
    };
    let ending = r.ending;
    let loser = match ending {
        Ending::Resigned(bs) => Some(r.player_of(bs)),
        Ending::WinOnTime(bs) => Some(r.player_of(bs).other()),
        _ => None,
    };
    let mut game = std::mem::replace(&mut r.game, Game::standard());
    let _ = match (ending, loser) {
        (Ending::Resigned(_), Some(p)) => game.resign(p),
        (Ending::WinOnTime(_), Some(p)) => game.lose_on_time(p),
        _ => Ok(()),
    };
    let token = match game.outcome() {
        Some(o) => result_token(Some(o)),
        None => recorded,
    };
    (game, token)
}

/// A BoardSpace record read and replayed for the explorer; `name` is its file name. The error
/// says why the record cannot be replayed.
pub fn from_boardspace(text: &str, name: &str) -> Result<GameEntry, String> {
    let mut r = import(text).map_err(|e| e.to_string())?;
    let (game, result) = finished(&mut r);
    let mut players = std::mem::take(&mut r.players);
    if r.first == 1 {
        players.swap(0, 1);
    }
    let date = boardspace_date(r.date.as_deref(), name);
    let steps = steps(&game);
    let plies = game.turns().len() as i64;
    let mut headers = vec![
        ("Player1", players[0].as_str()),
        ("Player2", players[1].as_str()),
        ("Site", "boardspace.net"),
        ("Source", name),
    ];
    if let Some(d) = &date {
        headers.push(("Date", d.as_str()));
    }
    let record = Record::new(game, &headers).text();
    Ok(GameEntry {
        steps,
        game: ExplorerGame {
            id: boardspace_id(text),
            source: "boardspace".into(),
            name: name.to_string(),
            players,
            ratings: [None, None],
            date,
            result: result.to_string(),
            record,
            plies,
        },
    })
}

/// A finished game of this server: its id, players (seat 1 moves first), their ratings where
/// known, the day it ended (`YYYY-MM-DD`) and the game.
pub fn from_server(
    id: &str,
    players: [String; 2],
    ratings: [Option<f64>; 2],
    date: String,
    game: &Game,
) -> GameEntry {
    let result = result_token(game.outcome());
    let record = Record::new(
        game.clone(),
        &[
            ("Player1", players[0].as_str()),
            ("Player2", players[1].as_str()),
            ("Date", date.as_str()),
            ("Site", "this server"),
            ("Game", id),
        ],
    )
    .to_string();
    GameEntry {
        steps: steps(game),
        game: ExplorerGame {
            id: server_id(id),
            source: "server".into(),
            name: id.to_string(),
            players,
            ratings,
            date: Some(date),
            result: result.to_string(),
            record,
            plies: game.turns().len() as i64,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_boardspace_records() {
        assert_eq!(
            boardspace_date(Some("Tue Mar 28 15:13:38 EST 2006"), "x.sgf").as_deref(),
            Some("2006-03-28")
        );
        assert_eq!(
            boardspace_date(None, "U!Z-a-b-2006-03-29-0005.sgf").as_deref(),
            Some("2006-03-29")
        );
        assert_eq!(
            boardspace_date(Some("2019-07-01"), "x.sgf").as_deref(),
            Some("2019-07-01")
        );
        assert_eq!(boardspace_date(Some("garbage"), "x.sgf"), None);
    }
}
