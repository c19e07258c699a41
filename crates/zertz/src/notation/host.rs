//! Host notation (rules.md 7.1), the coordinates of the online host of seed `004`.
//!
//! The board is turned a quarter turn counter-clockwise, so columns become rows. Rows are
//! lettered `A`, `B`, … from the top (the last column of the board is row `A`); within a row the
//! rings still there are numbered 1, 2, … from the left (the top of the old column is
//! leftmost). Numbers shift as rings leave, so a host coordinate only means something in a given
//! position. On a full 37 board `A1` = g4, `A4` = g1 and `G4` = a1.
//!
//! Moves, as written here (the seed has no move syntax of its own):
//! - placement: colour, ring, removed ring: `W C3 A1`, or `W C3` when no ring is free;
//! - capture: the start and each landing joined by `x`: `C3xC5xE5`;
//! - a pass after an accepted bribe: `pass` (see [`crate::Game`]).
//!
//! On input, commas, spaces and `-` are accepted as separators as well.

use super::{Cursor, MoveParseError};
use crate::layout::{Coord, Layout, Place};
use crate::marbles::Colour;
use crate::moves::{Capture, Move};
use crate::position::Position;

/// The host coordinate of `place` in `position` (`None` if its ring is gone).
pub fn coord_text(position: &Position, place: Place) -> Option<String> {
    if !position.has_ring(place) {
        return None;
    }
    let layout = position.layout();
    let coord = layout.coord(place);
    let row_letter = (b'A' + (layout.columns() - 1 - coord.column as usize) as u8) as char;
    let number = 1 + layout
        .column(coord.column as usize)
        .filter(|p| position.has_ring(*p) && layout.coord(*p).row > coord.row)
        .count();
    Some(format!("{row_letter}{number}"))
}

/// The place named by a host coordinate such as `C3` in `position`.
pub fn parse_coord(position: &Position, text: &str) -> Result<Place, String> {
    let layout = position.layout();
    let mut chars = text.chars();
    let letter = chars.next().filter(|c| c.is_ascii_alphabetic());
    let number: Option<usize> = chars.as_str().parse().ok().filter(|n| *n >= 1);
    let (Some(letter), Some(number)) = (letter, number) else {
        return Err(format!(
            "`{text}` is not a host coordinate (a row letter and a number, such as C3)"
        ));
    };
    let row = (letter.to_ascii_uppercase() as u8 - b'A') as usize;
    if row >= layout.columns() {
        return Err(format!(
            "there is no row {} on this board",
            letter.to_ascii_uppercase()
        ));
    }
    let column = layout.columns() - 1 - row;
    // The rings of that column from the top down.
    let mut rings: Vec<Place> = layout
        .column(column)
        .filter(|p| position.has_ring(*p))
        .collect();
    rings.reverse();
    rings.get(number - 1).copied().ok_or_else(|| {
        format!(
            "row {} has {} ring{} now, so there is no {}",
            letter.to_ascii_uppercase(),
            rings.len(),
            if rings.len() == 1 { "" } else { "s" },
            text.to_ascii_uppercase()
        )
    })
}

/// The official coordinate that a host coordinate names in `position`.
pub fn to_official(position: &Position, host: &str) -> Result<Coord, String> {
    parse_coord(position, host).map(|p| position.layout().coord(p))
}

/// A move in host notation.
pub fn move_text(position: &Position, mv: &Move) -> String {
    let name = |p: Place| coord_text(position, p).unwrap_or_else(|| "?".into());
    match mv {
        Move::Place(p) => match p.remove {
            Some(r) => format!("{} {} {}", p.colour.letter(), name(p.at), name(r)),
            None => format!("{} {}", p.colour.letter(), name(p.at)),
        },
        Move::Capture(c) => {
            let layout: &Layout = position.layout();
            let mut s = name(c.from());
            for (_, to) in c.steps(layout).unwrap_or_default() {
                s.push('x');
                s.push_str(&name(to));
            }
            s
        }
    }
}

/// True when the text uses host coordinates (an upper-case letter right before a digit).
pub fn looks_like_host(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(2)
        .any(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_digit())
}

/// Parses a move in host notation and checks that it is legal in `position`.
pub fn parse(position: &Position, text: &str) -> Result<Move, MoveParseError> {
    let mv = parse_unchecked(position, text)?;
    position
        .check(&mv)
        .map_err(|reason| MoveParseError::Illegal {
            text: text.to_string(),
            reason,
        })?;
    Ok(mv)
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == '-' || c == 'x'
}

/// Parses the shape of a host-notation move (coordinates must name rings) without checking
/// legality.
pub fn parse_unchecked(position: &Position, text: &str) -> Result<Move, MoveParseError> {
    let layout = position.layout();
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    let start = cur.offset();
    let first = cur
        .peek()
        .ok_or_else(|| cur.error(start, String::new(), "empty move"))?;
    // A colour letter not followed by a digit starts a placement; otherwise it is a capture.
    let mut probe = Cursor::new(text);
    probe.skip_spaces();
    probe.bump();
    let colour = Colour::from_letter(first).filter(|_| {
        first.is_ascii_uppercase() && !probe.peek().is_some_and(|c| c.is_ascii_digit())
    });
    let mut coords = Vec::new();
    if colour.is_some() {
        cur.bump();
    }
    loop {
        while cur.peek().is_some_and(is_separator) {
            cur.bump();
        }
        if cur.done() {
            break;
        }
        let here = cur.offset();
        let (coord, offset) = cur.coordinate(true).ok_or_else(|| {
            cur.error(
                here,
                cur.rest_token(),
                "expected a host coordinate such as C3",
            )
        })?;
        let place =
            parse_coord(position, &coord).map_err(|m| cur.error(offset, coord.clone(), m))?;
        coords.push(place);
    }
    match colour {
        Some(colour) => match coords.as_slice() {
            [at] => Ok(Move::place(colour, *at, None)),
            [at, remove] => Ok(Move::place(colour, *at, Some(*remove))),
            _ => Err(cur.error(
                start,
                text.trim().to_string(),
                "a placement is a colour, a ring and the ring removed, such as W C3 A1",
            )),
        },
        None => {
            let [from, landings @ ..] = coords.as_slice() else {
                return Err(cur.error(start, text.to_string(), "expected a move"));
            };
            if landings.is_empty() {
                return Err(cur.error(
                    start,
                    text.trim().to_string(),
                    "a capture is the start and each landing ring, such as C3xC5; a placement starts with W, G or B",
                ));
            }
            Capture::from_landings(layout, *from, landings)
                .map(Move::Capture)
                .ok_or_else(|| {
                    cur.error(
                        start,
                        text.trim().to_string(),
                        "each landing must be two rings away in a straight line",
                    )
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_examples() {
        let p = Position::standard();
        let l = p.layout();
        let official = |h: &str| to_official(&p, h).unwrap().to_string();
        assert_eq!(official("A1"), "g4");
        assert_eq!(official("A4"), "g1");
        assert_eq!(official("G4"), "a1");
        assert_eq!(official("D1"), "d7");
        assert_eq!(coord_text(&p, l.parse_place("a1").unwrap()).unwrap(), "G4");
        assert!(parse_coord(&p, "H1").is_err());
        assert!(parse_coord(&p, "A5").is_err());
    }

    #[test]
    fn numbers_shift_as_rings_leave() {
        let p = Position::standard();
        // Remove g4 (top of the last column): A1 becomes g3.
        let mv = parse(&p, "W D4 A1").unwrap();
        assert_eq!(crate::notation::official::move_text(&p, &mv), "Wd4,g4");
        let next = p.play(&mv).unwrap();
        assert_eq!(to_official(&next, "A1").unwrap().to_string(), "g3");
        assert!(parse_coord(&next, "A4").is_err());
    }

    #[test]
    fn round_trip() {
        let p = Position::standard();
        for mv in p.legal_moves().iter().step_by(41) {
            let text = move_text(&p, mv);
            assert_eq!(parse(&p, &text).as_ref(), Ok(mv), "{text}");
        }
    }
}
