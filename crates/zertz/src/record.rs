//! The project's game record format: headers, then the moves in official notation.
//!
//! ```text
//! [Board "37"]
//! [Rules "standard"]
//! [Player1 "Ann"]
//! [Player2 "Ben"]
//! [Date "2026-11-21"]
//! [Result "1-0"]
//! [Termination "winning set"]
//!
//! 1. Wd4,a1 Gc3,g4 2. x d4Gb2 Bd5,a2 3. ... 1-0
//! ```
//!
//! - Headers are `[Name "value"]`, one per line, values with `\"` and `\\` escapes. Known
//!   headers: `Board` (default `37`; a board name or custom layout as [`Layout::from_spec`]
//!   reads), `Rules` (default `standard`), `Repetition` (`threefold` or `forbidden`), `Bribes`
//!   (`on`/`off`), `Start` (a position string, for handicaps and set-ups; overrides `Board` and
//!   `Rules`), `Result` (`1-0`, `0-1`, `1/2-1/2`, `*`) and `Termination` (why it ended). Any
//!   other header (players, date, event, time control…) is kept as it is.
//! - The moves: official notation (see [`crate::notation::official`]), with optional move
//!   numbers `1.`; a pass after an accepted bribe is `-`. Bribe proposals are written as events
//!   in parentheses before the turn: `(bribe 1/0/0 rejected)`, or `(bribe 1/0/0 accepted) -`.
//!   Comments are `{…}`. The result ends the moves.
//!
//! Reading replays every move; an illegal move is an error naming the move and its position in
//! the text.

use std::fmt;

use crate::game::{Game, GameError, Turn};
use crate::layout::Layout;
use crate::marbles::{Marbles, Player};
use crate::notation::official;
use crate::position::{DrawReason, Outcome, Position, WinReason};
use crate::rules::{Repetition, RuleSet, Rules};

/// A game with its headers.
#[derive(Clone, Debug)]
pub struct Record {
    /// Every header in order, the known ones included (as written or as derived from the game).
    pub headers: Vec<(String, String)>,
    /// The game, replayed.
    pub game: Game,
}

/// Why a record was refused: where, which token, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("record line {line}, column {column} (`{token}`): {message}")]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The offending token.
    pub token: String,
    /// What is wrong.
    pub message: String,
}

/// The result token of a finished (or unfinished) game: `1-0`, `0-1`, `1/2-1/2`, `*`.
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win {
            winner: Player::One,
            ..
        }) => "1-0",
        Some(Outcome::Win {
            winner: Player::Two,
            ..
        }) => "0-1",
        Some(Outcome::Draw(_)) => "1/2-1/2",
        None => "*",
    }
}

/// The words of the `Termination` header for an outcome.
pub fn termination_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::WinningSet => "winning set",
            WinReason::NoLegalMove => "no legal move",
            WinReason::Resignation => "resignation",
            WinReason::Time => "time",
            WinReason::Forfeit => "forfeit",
        },
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::Agreement) => "agreement",
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Record {
    /// A record of `game` with the given extra headers (players, date, …).
    pub fn new(game: Game, extra: &[(&str, &str)]) -> Record {
        let mut headers: Vec<(String, String)> = extra
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        headers.retain(|(k, _)| !is_derived(k));
        Record { headers, game }
    }

    /// The value of a header, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a header (replacing one of the same name).
    pub fn set_header(&mut self, name: &str, value: &str) {
        match self
            .headers
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value.to_string(),
            None => self.headers.push((name.to_string(), value.to_string())),
        }
    }

    /// Reads a record, replaying every move.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        Parser::new(text).record()
    }
}

/// Headers written from the game itself rather than kept as given.
fn is_derived(name: &str) -> bool {
    [
        "Board",
        "Rules",
        "Repetition",
        "Bribes",
        "Start",
        "Result",
        "Termination",
    ]
    .iter()
    .any(|d| d.eq_ignore_ascii_case(name))
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = &self.game;
        let start = game.start();
        let rules = game.rules();
        let mut head: Vec<(String, String)> = Vec::new();
        head.push(("Board".into(), start.layout().spec()));
        head.push(("Rules".into(), start.rule_set().to_string()));
        if rules.repetition != Repetition::ThreefoldDraw {
            head.push(("Repetition".into(), rules.repetition.name().into()));
        }
        if rules.bribes {
            head.push(("Bribes".into(), "on".into()));
        }
        if *start != Position::new(start.layout(), start.rule_set()) {
            head.push(("Start".into(), start.to_string()));
        }
        for (k, v) in &self.headers {
            if !is_derived(k) {
                head.push((k.clone(), v.clone()));
            }
        }
        head.push(("Result".into(), result_token(game.outcome()).into()));
        if let Some(outcome) = game.outcome() {
            head.push(("Termination".into(), termination_text(outcome).into()));
        }
        for (k, v) in head {
            writeln!(f, "[{k} \"{}\"]", escape(&v))?;
        }
        f.write_str("\n")?;

        // Moves, numbered by pairs of turns, wrapped at about 80 columns.
        let mut line = String::new();
        let mut out = String::new();
        let push = |token: &str, out: &mut String, line: &mut String| {
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                out.push_str(line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        };
        let first_player = start.to_move();
        let mut bribes = game.bribes().iter().peekable();
        for (i, (turn, position)) in game.turns().iter().zip(game.positions()).enumerate() {
            if position.to_move() == first_player || i == 0 {
                let number = i / 2 + 1;
                let token = if position.to_move() == first_player {
                    format!("{number}.")
                } else {
                    format!("{number}...")
                };
                push(&token, &mut out, &mut line);
            }
            while let Some(b) = bribes.next_if(|b| b.at_turn == i) {
                let answer = match b.accepted {
                    Some(true) => "accepted",
                    Some(false) => "rejected",
                    None => "pending",
                };
                push(
                    &format!("(bribe {} {answer})", b.bribe),
                    &mut out,
                    &mut line,
                );
            }
            let text = official::turn_text(position, turn);
            push(&text, &mut out, &mut line);
        }
        for b in bribes {
            let answer = match b.accepted {
                Some(true) => "accepted",
                Some(false) => "rejected",
                None => "pending",
            };
            push(
                &format!("(bribe {} {answer})", b.bribe),
                &mut out,
                &mut line,
            );
        }
        push(result_token(game.outcome()), &mut out, &mut line);
        out.push_str(&line);
        writeln!(f, "{out}")
    }
}

/// A reader over the text with line and column tracking.
struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            chars: text.chars().collect(),
            at: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn error(
        &self,
        line: usize,
        column: usize,
        token: &str,
        message: impl Into<String>,
    ) -> RecordError {
        let _ = self.text;
        RecordError {
            line,
            column,
            token: token.to_string(),
            message: message.into(),
        }
    }

    fn header(&mut self) -> Result<(String, String), RecordError> {
        let (line, column) = (self.line, self.column);
        self.bump(); // '['
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(self.error(line, column, "[", "a header needs a name: [Name \"value\"]"));
        }
        while self.peek() == Some(' ') || self.peek() == Some('\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(self.error(
                line,
                column,
                &name,
                "expected a quoted value after the header name",
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return Err(self.error(
                        line,
                        column,
                        &name,
                        "the header value is never closed by a quote",
                    ));
                }
                Some('\\') => match self.bump() {
                    Some(c) if c == '"' || c == '\\' => value.push(c),
                    _ => {
                        return Err(self.error(
                            line,
                            column,
                            &name,
                            "only \\\" and \\\\ are escapes in header values",
                        ));
                    }
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek() == Some(' ') || self.peek() == Some('\t') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(self.error(line, column, &name, "expected `]` after the header value"));
        }
        Ok((name, value))
    }

    /// The next whitespace-separated token with its position, or `None` at the end. Comments
    /// and events are returned whole (up to their closing bracket).
    fn token(&mut self) -> Result<Option<(usize, usize, String)>, RecordError> {
        self.skip_space();
        let (line, column) = (self.line, self.column);
        let Some(first) = self.peek() else {
            return Ok(None);
        };
        let close = match first {
            '{' => Some('}'),
            '(' => Some(')'),
            _ => None,
        };
        let mut token = String::new();
        if let Some(close) = close {
            self.bump();
            token.push(first);
            loop {
                match self.bump() {
                    None => {
                        return Err(self.error(
                            line,
                            column,
                            &token,
                            format!("`{first}` is never closed by `{close}`"),
                        ));
                    }
                    Some(c) if c == close => {
                        token.push(c);
                        break;
                    }
                    Some(c) => token.push(c),
                }
            }
        } else {
            while let Some(c) = self.peek() {
                if c.is_whitespace() || c == '{' || c == '(' {
                    break;
                }
                token.push(c);
                self.bump();
            }
        }
        Ok(Some((line, column, token)))
    }

    fn record(&mut self) -> Result<Record, RecordError> {
        let mut headers: Vec<(String, String)> = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some('[') {
                break;
            }
            let (line, column) = (self.line, self.column);
            let (name, value) = self.header()?;
            if headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(&name)) {
                return Err(self.error(line, column, &name, "this header appears twice"));
            }
            headers.push((name, value));
        }
        let get = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let header_error = |name: &str, message: String| RecordError {
            line: 1,
            column: 1,
            token: name.to_string(),
            message,
        };
        let mut rules = Rules::default();
        if let Some(r) = get("Repetition") {
            rules.repetition = Repetition::from_name(&r).ok_or_else(|| {
                header_error("Repetition", format!("`{r}` is not threefold or forbidden"))
            })?;
        }
        if let Some(b) = get("Bribes") {
            rules.bribes = match b.to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" => true,
                "off" | "no" | "false" => false,
                _ => return Err(header_error("Bribes", format!("`{b}` is not on or off"))),
            };
        }
        let start = match get("Start") {
            Some(s) => s
                .parse::<Position>()
                .map_err(|e| header_error("Start", e.to_string()))?,
            None => {
                let layout = Layout::from_spec(&get("Board").unwrap_or_else(|| "37".into()))
                    .map_err(|e| header_error("Board", e.to_string()))?;
                let set: RuleSet = get("Rules")
                    .unwrap_or_else(|| "standard".into())
                    .parse()
                    .map_err(|e| header_error("Rules", format!("{e}")))?;
                Position::new(layout, set)
            }
        };
        let mut game = Game::from_position(start, rules);
        let mut tokens = Vec::new();
        while let Some(t) = self.token()? {
            tokens.push(t);
        }
        let mut result: Option<(usize, usize, String)> = None;
        let mut i = 0;
        while i < tokens.len() {
            let (line, column, token) = tokens[i].clone();
            i += 1;
            if result.is_some() {
                return Err(self.error(line, column, &token, "nothing may follow the result"));
            }
            if token.starts_with('{') || is_move_number(&token) {
                continue;
            }
            if let Some(body) = token.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
                self.bribe_event(&mut game, body, line, column, &token)?;
                continue;
            }
            if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                result = Some((line, column, token));
                continue;
            }
            let next = |k: usize| tokens.get(k).map(|t| t.2.as_str()).unwrap_or("");
            let text = if token == "x" || token == "X" {
                // A capture written `x d1Gd3`: the path is the next token.
                if next(i).is_empty() {
                    return Err(self.error(
                        line,
                        column,
                        &token,
                        "a capture `x` must be followed by its path, such as x d1Gd3",
                    ));
                }
                i += 1;
                format!("x {}", next(i - 1))
            } else if !token.starts_with(['x', 'X', '-'])
                && (next(i) == "x" || next(i) == "X")
                && next(i + 1).starts_with(['W', 'G', 'B'])
            {
                // A placement with its isolation suffix `x Wa1Wa2`.
                i += 2;
                format!("{token} x {}", next(i - 1))
            } else {
                token
            };
            self.play(&mut game, (line, column, text))?;
        }
        let stated = result
            .as_ref()
            .map(|r| r.2.clone())
            .or_else(|| get("Result"))
            .unwrap_or_else(|| "*".into());
        let termination = get("Termination");
        let mut record = Record {
            headers: headers
                .into_iter()
                .filter(|(k, _)| !is_derived(k))
                .collect(),
            game,
        };
        self.settle_result(&mut record, &stated, termination, result.as_ref())?;
        Ok(record)
    }

    fn play(
        &self,
        game: &mut Game,
        (line, column, text): (usize, usize, String),
    ) -> Result<(), RecordError> {
        if text == "-" {
            // A pass must follow an accepted bribe, which already played it.
            return match game.turns().last() {
                Some(Turn::Pass { .. })
                    if game.bribes().last().is_some_and(|b| {
                        b.accepted == Some(true) && b.at_turn + 1 == game.turns().len()
                    }) =>
                {
                    Ok(())
                }
                _ => Err(self.error(
                    line,
                    column,
                    &text,
                    "a pass `-` must follow an accepted bribe",
                )),
            };
        }
        if text.ends_with(" x") {
            return Err(self.error(
                line,
                column,
                &text,
                "an isolation suffix `x` must list the marbles taken, such as x Wa1",
            ));
        }
        let position = *game.position();
        let mv = official::parse(&position, &text)
            .map_err(|e| self.error(line, column, &text, e.to_string()))?;
        game.play(&mv)
            .map_err(|e| self.error(line, column, &text, e.to_string()))
    }

    fn bribe_event(
        &self,
        game: &mut Game,
        body: &str,
        line: usize,
        column: usize,
        token: &str,
    ) -> Result<(), RecordError> {
        let words: Vec<&str> = body.split_whitespace().collect();
        let (["bribe", amount, answer] | ["Bribe", amount, answer]) = words.as_slice() else {
            return Err(self.error(
                line,
                column,
                token,
                "an event in parentheses is (bribe W/G/B accepted) or (bribe W/G/B rejected)",
            ));
        };
        let bribe =
            Marbles::parse_slashed(amount).map_err(|m| self.error(line, column, token, m))?;
        let accept = match *answer {
            "accepted" => true,
            "rejected" => false,
            _ => return Err(self.error(line, column, token, "a bribe is accepted or rejected")),
        };
        let to_error = |e: GameError| self.error(line, column, token, e.to_string());
        game.propose_bribe(bribe).map_err(to_error)?;
        game.answer_bribe(accept).map_err(to_error)
    }

    /// Checks the stated result against the replay and records results decided outside the
    /// rules (resignation, time, agreement).
    fn settle_result(
        &self,
        record: &mut Record,
        stated: &str,
        termination: Option<String>,
        at: Option<&(usize, usize, String)>,
    ) -> Result<(), RecordError> {
        let (line, column) = at.map(|r| (r.0, r.1)).unwrap_or((1, 1));
        let game = &mut record.game;
        let replayed = result_token(game.outcome());
        if game.outcome().is_some() {
            if stated != replayed {
                return Err(self.error(
                    line,
                    column,
                    stated,
                    format!("the moves end the game as {replayed}, not {stated}"),
                ));
            }
            return Ok(());
        }
        let termination = termination.unwrap_or_default().to_ascii_lowercase();
        let outcome = match stated {
            "*" => return Ok(()),
            "1/2-1/2" => Outcome::Draw(DrawReason::Agreement),
            "1-0" | "0-1" => {
                let winner = if stated == "1-0" {
                    Player::One
                } else {
                    Player::Two
                };
                let reason = match termination.as_str() {
                    "time" => WinReason::Time,
                    "forfeit" => WinReason::Forfeit,
                    "" | "resignation" => WinReason::Resignation,
                    other => {
                        return Err(self.error(line, column, stated, format!("the game is not over after the moves, so `{other}` cannot have ended it")));
                    }
                };
                Outcome::Win { winner, reason }
            }
            other => {
                return Err(self.error(line, column, other, "a result is 1-0, 0-1, 1/2-1/2 or *"));
            }
        };
        game.end(outcome)
            .map_err(|e| self.error(line, column, stated, e.to_string()))
    }
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    fn play_some(game: &mut Game, n: usize) {
        for i in 0..n {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv: Move = moves[(i * 7919) % moves.len()];
            game.play(&mv).unwrap();
        }
    }

    #[test]
    fn round_trip() {
        let mut game = Game::standard();
        play_some(&mut game, 40);
        let record = Record::new(
            game,
            &[
                ("Player1", "Ann \"A\""),
                ("Player2", "Ben"),
                ("Date", "2026-11-21"),
            ],
        );
        let text = record.to_string();
        let back = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.positions(), record.game.positions());
        assert_eq!(back.header("Player1"), Some("Ann \"A\""));
        assert_eq!(back.to_string(), text);
    }

    #[test]
    fn resignation_and_bribes() {
        let rules = Rules {
            bribes: true,
            ..Rules::default()
        };
        let mut game = Game::new(Layout::standard(), rules);
        play_some(&mut game, 6);
        game.resign(Player::Two).unwrap();
        let text = Record::new(game, &[]).to_string();
        assert!(
            text.contains("[Result \"1-0\"]") && text.contains("[Termination \"resignation\"]"),
            "{text}"
        );
        let back = Record::parse(&text).unwrap();
        assert_eq!(
            back.game.outcome().map(|o| o.winner()),
            Some(Some(Player::One))
        );
    }

    #[test]
    fn bribe_events_round_trip() {
        // Both players hold one white: a bribe of one white is possible for either.
        let start: Position =
            "37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1"
                .parse()
                .unwrap();
        let rules = Rules {
            bribes: true,
            ..Rules::default()
        };
        let mut game = Game::from_position(start, rules);
        game.propose_bribe(Marbles::new(1, 0, 0)).unwrap();
        game.answer_bribe(false).unwrap();
        play_some(&mut game, 1);
        game.propose_bribe(Marbles::new(1, 0, 0)).unwrap();
        game.answer_bribe(true).unwrap();
        play_some(&mut game, 1);
        let text = Record::new(game.clone(), &[]).to_string();
        assert!(
            text.contains("(bribe 1/0/0 rejected) W")
                || text.contains("(bribe 1/0/0 rejected) G")
                || text.contains("(bribe 1/0/0 rejected) B"),
            "{text}"
        );
        assert!(text.contains("(bribe 1/0/0 accepted) -"), "{text}");
        let back = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.positions(), game.positions());
        assert_eq!(back.game.bribes(), game.bribes());
        // Player two proposed the accepted bribe: player one now holds both whites.
        assert_eq!(
            back.game.position().captures(Player::One),
            Marbles::new(2, 0, 0)
        );
        assert_eq!(
            back.game.position().captures(Player::Two),
            Marbles::new(0, 0, 0)
        );
    }

    #[test]
    fn errors_say_where() {
        let e = Record::parse("[Board \"37\"]\n\n1. Wd4,a1 Qd5,a2").unwrap_err();
        assert_eq!((e.line, e.column, e.token.as_str()), (3, 11, "Qd5,a2"));
        let e = Record::parse("[Board \"99\"]\n1. Wd4,a1").unwrap_err();
        assert_eq!(e.token, "Board");
        let e = Record::parse("1. Wd4,a1 Wd4,a2").unwrap_err();
        assert!(e.message.contains("already holds a marble"), "{e}");
        let e = Record::parse("1. Wd4,a1 1-0 Wc3").unwrap_err();
        assert!(e.message.contains("nothing may follow"), "{e}");
        assert!(Record::parse("[Board \"37\"").is_err());
        assert!(Record::parse("{ never closed").is_err());
        assert!(Record::parse("1. - ").is_err());
    }
}
