//! The position string: one readable line with everything needed to continue a game.
//!
//! ```text
//! 37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1
//! ```
//!
//! Seven fields separated by spaces:
//!
//! 1. the board: `37`, `40`, `43`, `44`, `48`, `61`, or `custom`;
//! 2. the rule set: `standard`, `blitz`, or `custom:W/G/B:w/g/b/each` (start supply, then the
//!    single-colour thresholds and the each-colour threshold);
//! 3. the places, column by column from `a`, separated by `/`, each column bottom up: `.` an
//!    empty ring, `W` `G` `B` a ring with a marble, `-` a place whose ring is gone. On a custom
//!    board, `_` marks a spot of the custom frame that is not a place of the board, and the
//!    layout is every other spot;
//! 4. the supply, `white/grey/black`;
//! 5. player one's captures, `white/grey/black`;
//! 6. player two's captures;
//! 7. the player to move, `1` or `2`.

use std::fmt;
use std::str::FromStr;

use super::{Position, Setup};
use crate::layout::{Coord, Layout, LayoutRef, MAX_COLUMNS, MAX_ROWS};
use crate::marbles::{Colour, Marbles, Player};
use crate::rules::RuleSet;

/// Why a position string was refused: which field, where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("position string, field {field} (`{token}` at character {offset}): {message}")]
pub struct PositionParseError {
    /// The field's name: "board", "rules", "places", "supply", …
    pub field: &'static str,
    /// The offending token.
    pub token: String,
    /// Where the token starts (1-based character offset).
    pub offset: usize,
    /// What is wrong with it.
    pub message: String,
}

const FIELDS: [&str; 7] = [
    "board",
    "rules",
    "places",
    "supply",
    "player 1 captures",
    "player 2 captures",
    "to move",
];

impl<S: crate::layout::LayoutWidth> fmt::Display for Position<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let layout = &self.layout;
        write!(f, "{} {} ", layout.kind().name(), self.state.rule_set)?;
        // The highest row of each column, in one pass over the places; the places field is
        // built whole and written once (it goes out with every move a server announces).
        let mut top = [0u8; MAX_COLUMNS];
        for p in layout.places() {
            let c = layout.coord(p);
            let t = &mut top[c.column as usize];
            *t = (*t).max(c.row);
        }
        let mut places = String::with_capacity(layout.len() * 2 + layout.columns());
        for (x, &top) in top.iter().enumerate().take(layout.columns()) {
            if x > 0 {
                places.push('/');
            }
            for row in 1..=top {
                places.push(match layout.place(Coord::new(x as u8, row)) {
                    None => '_',
                    Some(p) if !self.has_ring(p) => '-',
                    Some(p) => self.colour_at(p).map(|c| c.letter()).unwrap_or('.'),
                });
            }
        }
        f.write_str(&places)?;
        write!(
            f,
            " {} {} {} {}",
            self.state.supply,
            self.state.captures[0],
            self.state.captures[1],
            self.state.to_move.number()
        )
    }
}

impl FromStr for Position {
    type Err = PositionParseError;

    fn from_str(text: &str) -> Result<Position, PositionParseError> {
        // Tokens with their 1-based character offsets.
        let mut tokens: Vec<(usize, &str)> = Vec::new();
        let mut start = None;
        for (i, (byte, ch)) in text.char_indices().enumerate() {
            if ch.is_whitespace() {
                if let Some((s_char, s_byte)) = start.take() {
                    tokens.push((s_char, &text[s_byte..byte]));
                }
            } else if start.is_none() {
                start = Some((i + 1, byte));
            }
        }
        if let Some((s_char, s_byte)) = start {
            tokens.push((s_char, &text[s_byte..]));
        }
        let end = text.chars().count() + 1;
        let err = |field: usize, message: String| {
            let (offset, token) = tokens
                .get(field)
                .map(|&(o, t)| (o, t.to_string()))
                .unwrap_or((end, String::new()));
            PositionParseError {
                field: FIELDS.get(field).copied().unwrap_or("extra"),
                token,
                offset,
                message,
            }
        };
        if tokens.len() < FIELDS.len() {
            return Err(err(
                tokens.len(),
                format!(
                    "expected 7 fields (board, rules, places, supply, captures of each player, \
                     player to move), found {}",
                    tokens.len()
                ),
            ));
        }
        if tokens.len() > FIELDS.len() {
            return Err(err(7, "unexpected text after the player to move".into()));
        }
        let field = |i: usize| tokens[i].1;

        let board = field(0);
        let official = match board {
            "custom" => None,
            // By name only: a custom layout written here is never built.
            name => match Layout::official_by_name(name) {
                Some(l) => Some(l),
                None => {
                    return Err(err(0, "expected 37, 40, 43, 44, 48, 61 or custom".into()));
                }
            },
        };
        let rule_set: RuleSet = field(1).parse().map_err(|e| err(1, format!("{e}")))?;

        // Places: one string per column.
        let columns: Vec<&str> = field(2).split('/').collect();
        if columns.len() > MAX_COLUMNS {
            return Err(err(2, format!("at most {MAX_COLUMNS} columns")));
        }
        let mut cells: Vec<(Coord, char)> = Vec::new();
        for (x, column) in columns.iter().enumerate() {
            if column.chars().count() > MAX_ROWS {
                return Err(err(
                    2,
                    format!("column {} is longer than {MAX_ROWS}", x + 1),
                ));
            }
            for (r, ch) in column.chars().enumerate() {
                if !matches!(ch, '.' | '-' | '_' | 'W' | 'G' | 'B') {
                    return Err(err(
                        2,
                        format!(
                            "`{ch}` in column {} is not one of . - _ W G B",
                            (b'a' + x as u8) as char
                        ),
                    ));
                }
                cells.push((Coord::new(x as u8, r as u8 + 1), ch));
            }
        }
        // The other fields are read before a custom board is built: a string refused for its
        // text never spends an allowance of new layouts on a board it does not use.
        let counts = |i: usize| -> Result<Marbles, PositionParseError> {
            Marbles::parse_slashed(field(i)).map_err(|m| err(i, m))
        };
        let supply = counts(3)?;
        let captures = [counts(4)?, counts(5)?];
        let to_move = match field(6) {
            "1" => Player::One,
            "2" => Player::Two,
            _ => return Err(err(6, "expected 1 or 2".into())),
        };
        let layout = match official {
            Some(layout) => {
                let expected: Vec<usize> = (0..layout.columns())
                    .map(|x| layout.column(x).count())
                    .collect();
                let found: Vec<usize> = columns.iter().map(|c| c.chars().count()).collect();
                if expected != found || cells.iter().any(|c| c.1 == '_') {
                    let shape: Vec<String> = expected.iter().map(|n| n.to_string()).collect();
                    return Err(err(
                        2,
                        format!(
                            "the {} board has columns of {} places",
                            layout.spec(),
                            shape.join(", ")
                        ),
                    ));
                }
                LayoutRef::from(layout)
            }
            None => {
                let coords: Vec<Coord> = cells.iter().filter(|c| c.1 != '_').map(|c| c.0).collect();
                Layout::custom(&coords).map_err(|e| err(2, e.to_string()))?
            }
        };
        let mut setup = Setup::start(&layout, rule_set);
        setup.rings = 0;
        for (coord, ch) in &cells {
            let Some(place) = layout.place(*coord) else {
                continue;
            };
            match ch {
                '-' => continue,
                '.' => {}
                letter => {
                    let colour = Colour::from_letter(*letter).unwrap_or(Colour::White);
                    setup.marbles[colour.index()] |= place.bit();
                }
            }
            setup.rings |= place.bit();
        }
        setup.supply = supply;
        setup.captures = captures;
        setup.to_move = to_move;
        Position::from_setup(setup).map_err(|e| err(2, e.to_string()))
    }
}
