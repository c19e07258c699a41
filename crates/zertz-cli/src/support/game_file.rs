//! A game read from a file, for the commands that open one (`zertz play --load`, `zertz show`):
//! a BoardSpace record (`.sgf`, or any text that starts like one) or the project's own record.

use std::path::Path;

use anyhow::Context;
use zertz::record::Record;
use zertz::{Game, boardspace};

/// A game read from a file, with what its file says of it.
pub struct GameFile {
    /// The game, replayed.
    pub game: Game,
    /// Its headers: the record's own, or for a BoardSpace record `Player1`, `Player2` (the
    /// first to move first), `Date` when known and `Event` (`BoardSpace` and its variant).
    pub headers: Vec<(String, String)>,
    /// Whether it came from BoardSpace.
    pub from_boardspace: bool,
    /// A BoardSpace record's result, as BoardSpace wrote it.
    pub result_text: Option<String>,
}

impl GameFile {
    /// The value of header `name`, if the file gave it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the game at `path`; the error names the file and what it is not.
pub fn read(path: &Path) -> anyhow::Result<GameFile> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let is_sgf = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with('(');
    if is_sgf {
        let r = boardspace::import(&text)
            .with_context(|| format!("{} is not a replayable BoardSpace record", path.display()))?;
        let mut headers = vec![
            ("Player1".to_string(), r.players[r.first].clone()),
            ("Player2".to_string(), r.players[1 - r.first].clone()),
        ];
        if let Some(date) = &r.date {
            headers.push(("Date".to_string(), date.clone()));
        }
        headers.push(("Event".to_string(), format!("BoardSpace {}", r.variant)));
        Ok(GameFile {
            game: r.game,
            headers,
            from_boardspace: true,
            result_text: r.result_text,
        })
    } else {
        let record = Record::parse(&text)
            .with_context(|| format!("{} is not a readable game record", path.display()))?;
        Ok(GameFile {
            game: record.game,
            headers: record.headers,
            from_boardspace: false,
            result_text: None,
        })
    }
}
