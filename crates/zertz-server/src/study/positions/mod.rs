//! Positions on the analysis board, with no game behind them: a position string described for
//! the page (its legal moves, supply, captures, result), a move played from it, and a position
//! set up by hand checked against the rules.

pub mod routes;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use zertz::notation::{self, official};
use zertz::setup::hand_made;
use zertz::{Colour, Layout, Marbles, Player, Position, RuleSet, sentences};

/// What the page needs to know of a position.
#[derive(Debug, Serialize)]
pub struct Described {
    /// The position string.
    pub position: String,
    /// The board: `37`, `61`, … or `custom`.
    pub board: String,
    /// The rule set: `standard`, `blitz` or `custom:…`.
    pub rules: String,
    /// The player to move, 1 or 2.
    pub to_move: u8,
    /// True when the game is over.
    pub over: bool,
    /// The result in words when it is over.
    pub result: Option<String>,
    /// Every legal move in official notation.
    pub legal: Vec<String>,
    /// Marbles in the supply: white, grey, black.
    pub supply: [u8; 3],
    /// Each player's captures: white, grey, black.
    pub captures: [[u8; 3]; 2],
}

/// A move played on the analysis board.
#[derive(Debug, Serialize)]
pub struct Played {
    /// The position after it.
    pub position: String,
    /// The move in official notation.
    pub r#move: String,
    /// The move in host notation.
    pub host: String,
    /// The move in words.
    pub said: String,
}

/// A position set up by hand, as the page sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandSetup {
    /// The board: `37`, `40`, `43`, `44`, `48` or `61`.
    pub board: String,
    /// The rule set (default standard).
    #[serde(default)]
    pub rules: Option<String>,
    /// Rings taken off the board.
    #[serde(default)]
    pub removed: Vec<String>,
    /// Marbles on the board: place → `W`, `G` or `B`.
    #[serde(default)]
    pub marbles: BTreeMap<String, String>,
    /// Each player's captures: white, grey, black.
    #[serde(default)]
    pub captures: [[u8; 3]; 2],
    /// The player to move, 1 or 2.
    pub to_move: u8,
}

/// Reads a position string, the error naming the field and token at fault.
pub fn parse(text: &str) -> Result<Position, String> {
    text.trim()
        .parse::<Position>()
        .map_err(|e| format!("position: {e}"))
}

fn marbles(m: Marbles) -> [u8; 3] {
    Colour::ALL.map(|c| m.get(c))
}

/// Describes `position` for the page.
pub fn describe(position: &Position) -> Described {
    let text = position.to_string();
    let mut fields = text.split_whitespace();
    let board = fields.next().unwrap_or_default().to_string();
    let rules = fields.next().unwrap_or_default().to_string();
    let outcome = position.outcome();
    let legal = if outcome.is_some() {
        Vec::new()
    } else {
        position
            .legal_moves()
            .iter()
            .map(|m| official::move_text(position, m))
            .collect()
    };
    Described {
        board,
        rules,
        to_move: position.to_move().number(),
        over: outcome.is_some(),
        result: outcome.map(|o| o.to_string()),
        legal,
        supply: marbles(position.supply()),
        captures: Player::BOTH.map(|p| marbles(position.captures(p))),
        position: text,
    }
}

/// Plays `text` (official or host notation, read leniently) from `position`.
pub fn play(position: &Position, text: &str) -> Result<Played, String> {
    if let Some(outcome) = position.outcome() {
        return Err(format!("the game is over: {outcome}"));
    }
    let mv = notation::parse_any(position, text.trim()).map_err(|e| e.to_string())?;
    let after = position.play(&mv).map_err(|e| e.to_string())?;
    let who = format!("{}", position.to_move());
    Ok(Played {
        position: after.to_string(),
        r#move: official::move_text(position, &mv),
        host: notation::host::move_text(position, &mv),
        said: sentences::turn(position, &mv, &who),
    })
}

/// Builds the position a player set up by hand, or says which rule it breaks.
pub fn set_up(s: &HandSetup) -> Result<Position, String> {
    // Official boards only, looked up by name: a custom one is never built here.
    let layout = Layout::official_by_name(&s.board).ok_or_else(|| {
            format!(
                "board: `{}` is not one of 37, 40, 43, 44, 48 and 61 (a custom board is set up as a position string)",
                s.board
            )
        })?;
    let rules_name = s.rules.as_deref().unwrap_or("standard");
    let rule_set: RuleSet = rules_name.parse().map_err(|e| format!("rules: {e}"))?;
    let place = |name: &str, what: &str| {
        layout
            .parse_place(name.trim())
            .map_err(|e| format!("{what}: `{name}`: {e}"))
    };
    let mut rings = layout.all();
    for name in &s.removed {
        rings &= !place(name, "removed")?.bit();
    }
    let mut on_board = [0u64; 3];
    for (name, colour) in &s.marbles {
        let at = place(name, "marbles")?;
        let colour = match colour.trim() {
            c if c.len() == 1 => c
                .chars()
                .next()
                .and_then(|ch| Colour::from_letter(ch.to_ascii_uppercase())),
            _ => None,
        }
        .ok_or_else(|| format!("marbles: `{colour}` at {name} is not W, G or B"))?;
        on_board[colour.index()] |= at.bit();
    }
    let to_move = match s.to_move {
        1 => Player::One,
        2 => Player::Two,
        n => return Err(format!("to_move: {n} is not 1 or 2")),
    };
    let captures = s.captures.map(|[w, g, b]| Marbles::new(w, g, b));
    hand_made(layout, rule_set, rings, on_board, captures, to_move).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_described_with_its_moves() {
        let d = describe(&Position::standard());
        assert_eq!((d.board.as_str(), d.rules.as_str()), ("37", "standard"));
        assert_eq!(d.legal.len(), 1944);
        assert_eq!(d.supply, [6, 8, 10]);
        assert_eq!(d.to_move, 1);
        assert!(!d.over && d.result.is_none());
    }

    #[test]
    fn a_typed_move_is_played_and_said() {
        let p = play(&Position::standard(), "Wd4,a1").unwrap();
        assert_eq!(p.r#move, "Wd4,a1");
        assert!(p.said.contains("white marble on d4"), "{}", p.said);
        assert!(play(&Position::standard(), "Wd4,d4").is_err());
    }

    #[test]
    fn a_setup_names_what_is_wrong() {
        let s = |json: &str| set_up(&serde_json::from_str::<HandSetup>(json).unwrap());
        let p = s(r#"{"board": "37", "marbles": {"d4": "W"}, "captures": [[1,0,0],[0,0,0]], "to_move": 2}"#).unwrap();
        assert_eq!(p.supply(), Marbles::new(4, 8, 10));
        let e = s(r#"{"board": "37", "removed": ["d4"], "marbles": {"d4": "b"}, "to_move": 1}"#)
            .unwrap_err();
        assert_eq!(e, "a marble at d4 has no ring under it");
        let e = s(r#"{"board": "38", "to_move": 1}"#).unwrap_err();
        assert!(e.starts_with("board: `38`"), "{e}");
        let e = s(r#"{"board": "37", "marbles": {"z9": "W"}, "to_move": 1}"#).unwrap_err();
        assert!(e.starts_with("marbles: `z9`"), "{e}");
    }
}
