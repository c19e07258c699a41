//! What the room reads in a line, as the online host of seed 004 did: a move typed by the
//! player to move (official or host notation), and questions about coordinates (`where is E5?`
//! in host notation, `what is d4?` in official notation), answered with the ring's other name
//! and what is on it.

use zertz::notation::{MoveParseError, host, official};
use zertz::{Move, Position};

/// What a line reads as, in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// Exactly one legal move (in official notation).
    Move(Move, String),
    /// It looks like a move but is not one here: why.
    Wrong(String),
    /// Not a move at all: plain chat.
    Chat,
}

/// Reads `text` as a move in `position`. A line that reads as a legal move in both notations
/// but two different moves is ambiguous (and refused); a line that has the shape of a move but
/// is illegal says why; anything else is chat.
pub fn read_move(position: &Position, text: &str) -> Typed {
    let text = text.trim();
    if text.is_empty() || text.len() > 60 {
        return Typed::Chat;
    }
    let by_official = official::parse(position, text);
    let by_host = host::looks_like_host(text).then(|| host::parse(position, text));
    let not_syntax = |e: &MoveParseError| !matches!(e, MoveParseError::Syntax { .. });
    match (by_official, by_host) {
        (Ok(a), Some(Ok(b))) if a != b => Typed::Wrong(format!(
            "`{text}` is ambiguous: {} in official notation, {} in host notation",
            official::move_text(position, &a),
            official::move_text(position, &b)
        )),
        (Ok(mv), _) | (_, Some(Ok(mv))) => Typed::Move(mv, official::move_text(position, &mv)),
        (Err(e), host) => {
            // The most telling reason: an error past the syntax (illegal, mismatched), from
            // either reading; a syntax error only when the line has the shape of a move.
            let host_error = host.and_then(Result::err);
            match (not_syntax(&e), host_error) {
                (true, _) => Typed::Wrong(e.to_string()),
                (false, Some(h)) if not_syntax(&h) => Typed::Wrong(h.to_string()),
                _ if shaped_like_a_move(text) => Typed::Wrong(e.to_string()),
                _ => Typed::Chat,
            }
        }
    }
}

/// Whether a line has the shape of a move, legal or not: a colour letter and a coordinate
/// (`Wz9,a1`, `b d4`), a capture (`x d1 ...`), or host coordinates joined by `x` (`C3xC5`).
fn shaped_like_a_move(text: &str) -> bool {
    let plain: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let coordinate_at = |i: usize| {
        plain.get(i).is_some_and(char::is_ascii_alphabetic)
            && plain.get(i + 1).is_some_and(char::is_ascii_digit)
    };
    let letters_and_digits = plain
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ',' | '-'));
    match plain.first() {
        Some('W' | 'G' | 'B' | 'w' | 'g' | 'b') => coordinate_at(1) && letters_and_digits,
        Some('x' | 'X') => coordinate_at(1) && letters_and_digits,
        Some(c) if c.is_ascii_uppercase() => {
            coordinate_at(0)
                && letters_and_digits
                && plain
                    .windows(2)
                    .any(|w| w[0] == 'x' && w[1].is_ascii_uppercase())
        }
        _ => false,
    }
}

/// The room's answer to a question about a coordinate (`where is E5?`, `what is d4?`), or
/// `None` when the line is not one.
pub fn answer_coordinate(position: &Position, text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .trim()
        .trim_end_matches('?')
        .split_whitespace()
        .collect();
    let coord = match words.as_slice() {
        [w, "is", c] if w.eq_ignore_ascii_case("where") || w.eq_ignore_ascii_case("what") => *c,
        [w, c] if w.eq_ignore_ascii_case("where's") || w.eq_ignore_ascii_case("what's") => *c,
        _ => return None,
    };
    let mut chars = coord.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_alphabetic() || !chars.as_str().chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if chars.as_str().is_empty() {
        return None;
    }
    let layout = position.layout();
    let contents = |place| match position.colour_at(place) {
        Some(colour) => format!("a {} marble", colour.name()),
        None => "an empty ring".to_string(),
    };
    Some(if letter.is_ascii_uppercase() {
        // Host notation: rows from the top, rings numbered among those still there.
        match host::parse_coord(position, coord) {
            Ok(place) => format!(
                "{coord} (host notation) is {} in official notation: {}",
                layout.coord(place),
                contents(place)
            ),
            Err(e) => format!("{coord}: {e}"),
        }
    } else {
        match layout.parse_place(coord) {
            Ok(place) => match host::coord_text(position, place) {
                Some(h) => format!("{coord} is {h} in host notation: {}", contents(place)),
                None => format!("{coord}: that ring has been removed"),
            },
            Err(_) => format!("{coord}: there is no such ring on this board"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::notation;

    fn text_of(position: &Position, mv: &Move) -> String {
        official::move_text(position, mv)
    }

    #[test]
    fn a_legal_move_is_read_in_either_notation() {
        let start = Position::standard();
        match read_move(&start, "Wd4,a1") {
            Typed::Move(mv, text) => assert_eq!(
                (text_of(&start, &mv), text.as_str()),
                ("Wd4,a1".into(), "Wd4,a1")
            ),
            other => panic!("{other:?}"),
        }
        // Host notation: A1 = g4, G4 = a1 on the full board.
        match read_move(&start, "W C3 A1") {
            Typed::Move(_, text) => {
                assert!(text.starts_with('W') && text.ends_with(",g4"), "{text}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn illegal_moves_are_answered_and_chat_is_chat() {
        let start = Position::standard();
        // A ring that does not exist, and a placement that does not name a free ring.
        for wrong in ["Wz9,a1", "Wd4,d4"] {
            assert!(
                matches!(read_move(&start, wrong), Typed::Wrong(_)),
                "{wrong}: {:?}",
                read_move(&start, wrong)
            );
        }
        assert!(matches!(read_move(&start, "b z4"), Typed::Wrong(_)));
        for chat in [
            "hello",
            "good luck!",
            "I think d4 is strong",
            "gg",
            "What a game",
            "A1",
            "Bye!",
            "well played",
            "Wow",
            "B2B",
        ] {
            assert_eq!(read_move(&start, chat), Typed::Chat, "{chat}");
        }
    }

    #[test]
    fn coordinates_are_answered_with_their_other_name() {
        let start = Position::standard();
        let a = answer_coordinate(&start, "where is A1?").unwrap();
        assert_eq!(
            a,
            "A1 (host notation) is g4 in official notation: an empty ring"
        );
        let a = answer_coordinate(&start, "what is a1?").unwrap();
        assert_eq!(a, "a1 is G4 in host notation: an empty ring");
        let after = start
            .play(&notation::parse_any(&start, "Bd4,a1").unwrap())
            .unwrap();
        assert_eq!(
            answer_coordinate(&after, "What is d4").unwrap(),
            "d4 is D4 in host notation: a black marble"
        );
        assert_eq!(
            answer_coordinate(&after, "what is a1?").unwrap(),
            "a1: that ring has been removed"
        );
        assert!(
            answer_coordinate(&after, "where is Z1?")
                .unwrap()
                .contains("no row Z")
        );
        assert!(
            answer_coordinate(&after, "what is q9?")
                .unwrap()
                .contains("no such ring")
        );
        assert_eq!(answer_coordinate(&after, "what is love?"), None);
        assert_eq!(answer_coordinate(&after, "where is everyone"), None);
    }
}
