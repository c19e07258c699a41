//! Move notation: the official GIPF notation and the host notation of rules.md 7.1.
//!
//! Both depend on the position (colours of jumped marbles, isolation captures, and for host
//! notation the numbering of the rings still there), so every function takes one.

pub mod host;
pub mod official;

use crate::moves::Move;
use crate::position::{IllegalMove, Position};

/// Why a move in notation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text does not have the shape of a move.
    #[error("`{text}`: {message} (at character {offset}, `{token}`)")]
    Syntax {
        /// The whole move as given.
        text: String,
        /// The offending token.
        token: String,
        /// Where it starts (1-based character offset in `text`).
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// Well formed but not legal here.
    #[error("`{text}` is not legal here: {reason}")]
    Illegal {
        /// The move as given.
        text: String,
        /// Why not.
        reason: IllegalMove,
    },
    /// Well formed and legal, but its written isolation or colours do not match the position.
    #[error("`{text}`: {message}")]
    Mismatch {
        /// The move as given.
        text: String,
        /// What differs.
        message: String,
    },
}

/// Parses a move in official notation or, failing that, in host notation. The move is checked
/// for legality.
pub fn parse_any(position: &Position, text: &str) -> Result<Move, MoveParseError> {
    match official::parse(position, text) {
        Ok(mv) => Ok(mv),
        Err(official_error) => {
            if host::looks_like_host(text) {
                host::parse(position, text)
            } else {
                Err(official_error)
            }
        }
    }
}

/// A small cursor over the characters of a move, with 1-based offsets for errors.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    chars: Vec<(usize, char)>,
    at: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text,
            chars: text.char_indices().collect(),
            at: 0,
        }
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|c| c.1)
    }

    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.at += 1;
        }
        c
    }

    pub(crate) fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    pub(crate) fn done(&self) -> bool {
        self.at >= self.chars.len()
    }

    /// 1-based character offset of the cursor.
    pub(crate) fn offset(&self) -> usize {
        self.at + 1
    }

    /// The rest of the current token (up to a space).
    pub(crate) fn rest_token(&self) -> String {
        self.chars[self.at.min(self.chars.len())..]
            .iter()
            .map(|c| c.1)
            .take_while(|c| !c.is_whitespace())
            .collect()
    }

    pub(crate) fn error(
        &self,
        offset: usize,
        token: String,
        message: impl Into<String>,
    ) -> MoveParseError {
        MoveParseError::Syntax {
            text: self.text.to_string(),
            token,
            offset,
            message: message.into(),
        }
    }

    /// Reads a coordinate: a letter then one or two digits. Returns the text and its offset.
    /// Whether a lower-case coordinate (a letter and a digit) starts at the cursor, spaces
    /// skipped.
    pub(crate) fn coordinate_follows(&self, from: usize) -> bool {
        let mut i = from;
        while self.chars.get(i).is_some_and(|c| c.1 == ' ') {
            i += 1;
        }
        self.chars.get(i).is_some_and(|c| c.1.is_ascii_lowercase())
            && self.chars.get(i + 1).is_some_and(|c| c.1.is_ascii_digit())
    }

    /// The colour letter at the cursor: `W`, `G` or `B`, or the same in lower case when a
    /// coordinate follows it, so that `wb2` reads as `Wb2` while `b2` stays a coordinate.
    pub(crate) fn peek_colour(&self) -> Option<crate::marbles::Colour> {
        let c = self.peek()?;
        let colour = crate::marbles::Colour::from_letter(c)?;
        (c.is_ascii_uppercase() || self.coordinate_follows(self.at + 1)).then_some(colour)
    }

    pub(crate) fn coordinate(&mut self, upper: bool) -> Option<(String, usize)> {
        let start = self.at;
        let letter = self.peek()?;
        let ok = if upper {
            letter.is_ascii_uppercase()
        } else {
            letter.is_ascii_lowercase()
        };
        if !ok {
            return None;
        }
        self.at += 1;
        let mut digits = 0;
        while digits < 2 && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
            digits += 1;
        }
        if digits == 0 {
            self.at = start;
            return None;
        }
        let s: String = self.chars[start..self.at].iter().map(|c| c.1).collect();
        Some((s, start + 1))
    }
}
