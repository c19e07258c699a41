//! A tree from text and back: the project's record format with variations, BoardSpace's SGF
//! with variations, or a position string; errors name the line, the column and the token.

use std::fmt;

use super::GameTree;
use crate::position::Position;
use crate::record::{self, RecordError};
use crate::rules::Rules;

/// The kinds of text a tree is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextFormat {
    /// The project's record format (docs/formats.md), with or without variations.
    Record,
    /// BoardSpace's SGF, with or without variations.
    Sgf,
    /// A position string: a tree of the position alone.
    Position,
}

impl TextFormat {
    /// How errors name the format.
    pub fn name(self) -> &'static str {
        match self {
            TextFormat::Record => "record",
            TextFormat::Sgf => "SGF",
            TextFormat::Position => "position string",
        }
    }

    /// The format a text is in: SGF if it starts with `(` (but not with a record's
    /// `(bribe …)` event), a position string if it is one line that starts with a board
    /// (`37`, `48`, `custom`, …), a record otherwise.
    pub fn of(text: &str) -> TextFormat {
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix('(') {
            let word: String = rest.trim_start().chars().take(5).collect();
            if !word.eq_ignore_ascii_case("bribe") {
                return TextFormat::Sgf;
            }
        }
        let first = t.split_whitespace().next().unwrap_or("");
        let boards = ["37", "40", "43", "44", "48", "61", "custom"];
        if text.trim().lines().count() == 1 && boards.contains(&first) {
            return TextFormat::Position;
        }
        TextFormat::Record
    }
}

impl fmt::Display for TextFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text is not a tree: the format it was read as, where, which token, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{format} line {line}, column {column} (`{token}`): {message}")]
pub struct TextError {
    /// The format the text was read as.
    pub format: TextFormat,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The offending token.
    pub token: String,
    /// What is wrong.
    pub message: String,
}

impl From<RecordError> for TextError {
    fn from(e: RecordError) -> TextError {
        TextError {
            format: TextFormat::Record,
            line: e.line,
            column: e.column,
            token: e.token,
            message: e.message,
        }
    }
}

/// The word of `text` at a line and column (up to a space, at most 30 characters), to name
/// the token of an error that only says where.
pub(crate) fn excerpt(text: &str, line: usize, column: usize) -> String {
    text.lines()
        .nth(line.saturating_sub(1))
        .map(|l| {
            l.chars()
                .skip(column.saturating_sub(1))
                .take_while(|c| !c.is_whitespace())
                .take(30)
                .collect()
        })
        .unwrap_or_default()
}

impl GameTree {
    /// Reads a tree from a record (with or without variations), a BoardSpace SGF (with or
    /// without variations) or a position string, as [`TextFormat::of`] tells them apart.
    pub fn from_text(text: &str) -> Result<GameTree, TextError> {
        match TextFormat::of(text) {
            TextFormat::Sgf => GameTree::from_sgf(text),
            TextFormat::Position => GameTree::from_position_text(text),
            TextFormat::Record => GameTree::from_record_text(text),
        }
    }

    /// Reads a record with variations, `( … )` after the step they replace, and comments.
    pub fn from_record_text(text: &str) -> Result<GameTree, TextError> {
        Ok(record::read(text)?.tree)
    }

    /// A tree of one position (a position string), under the default rules.
    pub fn from_position_text(text: &str) -> Result<GameTree, TextError> {
        let lead = &text[..text.len() - text.trim_start().len()];
        let line = 1 + lead.matches('\n').count();
        let before = lead.rsplit('\n').next().unwrap_or("").chars().count();
        let position: Position =
            text.trim()
                .parse()
                .map_err(|e: crate::position::PositionParseError| TextError {
                    format: TextFormat::Position,
                    line,
                    column: before + e.offset,
                    token: e.token.clone(),
                    message: format!("field {}: {}", e.field, e.message),
                })?;
        Ok(GameTree::new(position, Rules::default()))
    }

    /// The tree in the record format: the main line's headers and moves, each variation in
    /// `( … )` after the step it replaces, comments in `{ … }`. A tree without variations or
    /// comments writes exactly the record of its main line.
    pub fn to_record_text(&self) -> String {
        let game = self.main_game();
        let mut out = record::header_lines(self.headers(), &game);
        out.push('\n');
        out.push_str(&record::moves(
            self,
            &[],
            record::result_token(game.outcome()),
        ));
        out
    }
}
