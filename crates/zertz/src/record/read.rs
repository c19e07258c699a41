//! Reading the record format: headers, then the moves with their comments, bribe events and
//! variations, into a [`GameTree`] whose main line is the game.
//!
//! A `(` opens a variation unless the word `bribe` follows it (spaces allowed): `(bribe 1/0/0
//! rejected)` is a bribe event, as it always was. No move can start with `bribe` (a colour
//! letter is followed by a ring, such as `b2`), so the two never mix. A variation replaces the
//! step just before it: it starts from the position before that step.

use crate::game::{Game, GameError, Turn};
use crate::layout::Layout;
use crate::marbles::{Marbles, Player};
use crate::notation::official;
use crate::position::{DrawReason, Outcome, Position, WinReason};
use crate::rules::{Repetition, RuleSet, Rules};
use crate::tree::{self, GameTree, NodeId, Step};

use super::{RecordError, is_derived, result_token};

/// Variations nested deeper than this are refused (the reader and writers recurse on them).
pub const MAX_NESTING: usize = 100;

/// A record read: the tree, and the main line's game with its result settled.
pub(crate) struct Read {
    pub(crate) tree: GameTree,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) game: Game,
}

/// Reads a record with or without variations.
pub(crate) fn read(text: &str) -> Result<Read, RecordError> {
    Parser::new(text).record()
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A move, a move number, a result, `x`, …
    Word,
    /// `{…}`, with its text (escapes resolved) in `text`.
    Comment,
    /// `(bribe …)`, whole.
    Event,
    /// `(` opening a variation.
    Open,
    /// `)` closing it.
    Close,
}

#[derive(Clone, Debug)]
struct Token {
    line: usize,
    column: usize,
    kind: Kind,
    /// The text as written (for a comment, its content).
    text: String,
}

impl Token {
    /// How the token is named in errors.
    fn shown(&self) -> String {
        match self.kind {
            Kind::Comment => format!("{{{}}}", self.text),
            _ => self.text.clone(),
        }
    }
}

/// A reader over the text with line and column tracking.
struct Parser {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
    tokens: Vec<Token>,
    next: usize,
}

fn error(line: usize, column: usize, token: &str, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        column,
        token: token.to_string(),
        message: message.into(),
    }
}

fn token_error(t: &Token, message: impl Into<String>) -> RecordError {
    error(t.line, t.column, &t.shown(), message)
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            chars: text.chars().collect(),
            at: 0,
            line: 1,
            column: 1,
            tokens: Vec::new(),
            next: 0,
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
            return Err(error(
                line,
                column,
                "[",
                "a header needs a name: [Name \"value\"]",
            ));
        }
        while self.peek() == Some(' ') || self.peek() == Some('\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(error(
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
                    return Err(error(
                        line,
                        column,
                        &name,
                        "the header value is never closed by a quote",
                    ));
                }
                Some('\\') => match self.bump() {
                    Some(c) if c == '"' || c == '\\' => value.push(c),
                    _ => {
                        return Err(error(
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
            return Err(error(
                line,
                column,
                &name,
                "expected `]` after the header value",
            ));
        }
        Ok((name, value))
    }

    /// True when the word `bribe` follows the `(` at the cursor: a bribe event.
    fn bribe_follows(&self) -> bool {
        let mut i = self.at + 1;
        while self.chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        let word: String = self.chars.iter().skip(i).take(5).collect();
        word.eq_ignore_ascii_case("bribe")
            && self
                .chars
                .get(i + 5)
                .is_none_or(|c| c.is_whitespace() || *c == ')')
    }

    /// Reads the next token, or `None` at the end.
    fn token(&mut self) -> Result<Option<Token>, RecordError> {
        self.skip_space();
        let (line, column) = (self.line, self.column);
        let Some(first) = self.peek() else {
            return Ok(None);
        };
        let make = |kind, text| Token {
            line,
            column,
            kind,
            text,
        };
        match first {
            '{' => {
                self.bump();
                let mut text = String::new();
                loop {
                    match self.bump() {
                        None => {
                            let shown: String = format!("{{{text}").chars().take(40).collect();
                            return Err(error(line, column, &shown, "`{` is never closed by `}`"));
                        }
                        // `\}` and `\\` escape; another backslash is kept as it is.
                        Some('\\') if matches!(self.peek(), Some('}' | '\\')) => {
                            text.extend(self.bump());
                        }
                        Some('}') => break,
                        Some(c) => text.push(c),
                    }
                }
                Ok(Some(make(Kind::Comment, text)))
            }
            '(' if self.bribe_follows() => {
                let mut text = String::new();
                loop {
                    match self.bump() {
                        None => {
                            return Err(error(line, column, &text, "`(` is never closed by `)`"));
                        }
                        Some(')') => {
                            text.push(')');
                            break;
                        }
                        Some(c) => text.push(c),
                    }
                }
                Ok(Some(make(Kind::Event, text)))
            }
            '(' => {
                self.bump();
                Ok(Some(make(Kind::Open, "(".into())))
            }
            ')' => {
                self.bump();
                Ok(Some(make(Kind::Close, ")".into())))
            }
            _ => {
                let mut text = String::new();
                while let Some(c) = self.peek() {
                    if c.is_whitespace() || matches!(c, '{' | '(' | ')') {
                        break;
                    }
                    text.push(c);
                    self.bump();
                }
                Ok(Some(make(Kind::Word, text)))
            }
        }
    }

    fn record(&mut self) -> Result<Read, RecordError> {
        let mut headers: Vec<(String, String)> = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some('[') {
                break;
            }
            let (line, column) = (self.line, self.column);
            let (name, value) = self.header()?;
            if headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(&name)) {
                return Err(error(line, column, &name, "this header appears twice"));
            }
            headers.push((name, value));
        }
        let (start, rules) =
            start_and_rules(&headers).map_err(|(name, message)| error(1, 1, name, message))?;
        while let Some(t) = self.token()? {
            self.tokens.push(t);
        }
        let mut tree = GameTree::new(start.clone(), rules);
        let mut result: Option<Token> = None;
        let first = Game::from_position(start, rules);
        let game = self.line(&mut tree, NodeId::ROOT, first, None, &mut result, 0)?;
        let get = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let stated = result
            .as_ref()
            .map(|r| r.text.clone())
            .or_else(|| get("Result"))
            .unwrap_or_else(|| "*".into());
        let termination = get("Termination");
        let (line, column) = result
            .as_ref()
            .map(|r| (r.line, r.column))
            .unwrap_or((1, 1));
        let mut game = game;
        let declared = settle(&game, &stated, termination.as_deref())
            .map_err(|(token, message)| error(line, column, &token, message))?;
        if let Some(outcome) = declared {
            game.end(outcome)
                .map_err(|e| error(line, column, &stated, e.to_string()))?;
        }
        let headers: Vec<(String, String)> = headers
            .into_iter()
            .filter(|(k, _)| !is_derived(k))
            .collect();
        tree.set_headers_unchecked(headers.clone());
        // Only endings outside the rules are declared, and `settle` gives no other.
        let _ = tree.set_ending(declared);
        Ok(Read {
            tree,
            headers,
            game,
        })
    }

    /// Reads a line of play from node `base` up to the `)` that closes it (`open` is its `(`)
    /// or to the end of the text for the main line. Returns the game at the line's last step.
    /// `game` is the game at `base`.
    fn line(
        &mut self,
        tree: &mut GameTree,
        base: NodeId,
        mut game: Game,
        open: Option<&Token>,
        result: &mut Option<Token>,
        depth: usize,
    ) -> Result<Game, RecordError> {
        let main = open.is_none();
        // The game where the variations of the last step start, replayed once for all of
        // them (`M (A) (B) (C)` replays the line to M once).
        let mut variation_start: Option<(NodeId, Game)> = None;
        let mut cur = base;
        // The node before the last step of this line: where a variation of it starts.
        let mut before_last: Option<NodeId> = None;
        // Comments before the first step of a variation go to that step.
        let mut early_comments: Vec<String> = Vec::new();
        loop {
            let Some(token) = self.tokens.get(self.next).cloned() else {
                if let Some(open) = open {
                    return Err(token_error(open, "`(` is never closed by `)`"));
                }
                return Ok(game);
            };
            self.next += 1;
            if let Some(r) = result {
                let _ = r;
                return Err(token_error(&token, "nothing may follow the result"));
            }
            match token.kind {
                Kind::Close => {
                    let Some(open) = open else {
                        return Err(token_error(&token, "`)` without a matching `(`"));
                    };
                    if cur == base {
                        return Err(token_error(
                            open,
                            "an empty variation: a variation holds at least one move",
                        ));
                    }
                    return Ok(game);
                }
                Kind::Open => {
                    let Some(from) = before_last else {
                        return Err(token_error(
                            &token,
                            "a variation `( … )` must follow the move it replaces",
                        ));
                    };
                    if depth + 1 > MAX_NESTING {
                        return Err(token_error(
                            &token,
                            format!("variations are nested more than {MAX_NESTING} deep"),
                        ));
                    }
                    let start = match variation_start.take() {
                        Some((id, game)) if id == from => game,
                        _ => tree
                            .game_at(from)
                            .map_err(|e| token_error(&token, e.to_string()))?,
                    };
                    variation_start = Some((from, start.clone()));
                    self.line(tree, from, start, Some(&token), result, depth + 1)?;
                }
                Kind::Comment => {
                    if cur == base && !main {
                        early_comments.push(token.text);
                    } else {
                        tree.append_comment(cur, &token.text);
                    }
                }
                Kind::Event => {
                    let body = token
                        .text
                        .strip_prefix('(')
                        .and_then(|t| t.strip_suffix(')'))
                        .unwrap_or(&token.text);
                    let step = bribe_event(&mut game, body, &token)?;
                    before_last = Some(cur);
                    cur = tree.push(cur, step, game.position().clone());
                }
                Kind::Word => {
                    let text = token.text.as_str();
                    if is_move_number(text) {
                        continue;
                    }
                    if matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*") {
                        if !main {
                            return Err(token_error(
                                &token,
                                "a result ends the main line, not a variation",
                            ));
                        }
                        *result = Some(token);
                        continue;
                    }
                    if text == "-" {
                        check_pass(&game, &token)?;
                        continue;
                    }
                    let move_text = self.move_text(&token)?;
                    let position = game.position().clone();
                    let mv = official::parse(&position, &move_text)
                        .map_err(|e| error(token.line, token.column, &move_text, e.to_string()))?;
                    game.play(&mv)
                        .map_err(|e| error(token.line, token.column, &move_text, e.to_string()))?;
                    before_last = Some(cur);
                    cur = tree.push(cur, Step::Move(mv), game.position().clone());
                }
            }
            if cur != base && !early_comments.is_empty() {
                for c in early_comments.drain(..) {
                    tree.append_comment(cur, &c);
                }
            }
        }
    }

    /// The whole text of the move starting at `token`: a capture written `x d1Gd3` takes the
    /// next word, a placement followed by `x Wa1Wa2` takes its isolation suffix.
    fn move_text(&mut self, token: &Token) -> Result<String, RecordError> {
        let word = |p: &Parser, k: usize| {
            p.tokens
                .get(k)
                .filter(|t| t.kind == Kind::Word)
                .map(|t| t.text.clone())
                .unwrap_or_default()
        };
        let text = token.text.clone();
        if text == "x" || text == "X" {
            let path = word(self, self.next);
            if path.is_empty() {
                return Err(token_error(
                    token,
                    "a capture `x` must be followed by its path, such as x d1Gd3",
                ));
            }
            self.next += 1;
            return Ok(format!("x {path}"));
        }
        let after = word(self, self.next);
        if !text.starts_with(['x', 'X', '-'])
            && (after == "x" || after == "X")
            && word(self, self.next + 1).starts_with(['W', 'G', 'B'])
        {
            let suffix = word(self, self.next + 1);
            self.next += 2;
            return Ok(format!("{text} x {suffix}"));
        }
        if text.ends_with(" x") {
            return Err(token_error(
                token,
                "an isolation suffix `x` must list the marbles taken, such as x Wa1",
            ));
        }
        Ok(text)
    }
}

/// A pass `-` must follow an accepted bribe, which already played it.
fn check_pass(game: &Game, token: &Token) -> Result<(), RecordError> {
    match game.turns().last() {
        Some(Turn::Pass { .. })
            if game.bribes().last().is_some_and(|b| {
                b.accepted == Some(true) && b.at_turn + 1 == game.turns().len()
            }) =>
        {
            Ok(())
        }
        _ => Err(token_error(
            token,
            "a pass `-` must follow an accepted bribe",
        )),
    }
}

/// Plays a bribe event `bribe W/G/B accepted|rejected` and gives its step.
fn bribe_event(game: &mut Game, body: &str, token: &Token) -> Result<Step, RecordError> {
    let words: Vec<&str> = body.split_whitespace().collect();
    let (["bribe", amount, answer] | ["Bribe", amount, answer]) = words.as_slice() else {
        return Err(token_error(
            token,
            "an event in parentheses is (bribe W/G/B accepted) or (bribe W/G/B rejected)",
        ));
    };
    let bribe = Marbles::parse_slashed(amount).map_err(|m| token_error(token, m))?;
    let accepted = match *answer {
        "accepted" => true,
        "rejected" => false,
        _ => return Err(token_error(token, "a bribe is accepted or rejected")),
    };
    let step = Step::Bribe { bribe, accepted };
    tree::apply(game, &step).map_err(|e: GameError| token_error(token, e.to_string()))?;
    Ok(step)
}

/// The start position and rules that the headers say: `Start`, or `Board` and `Rules`, then
/// `Repetition` and `Bribes`. The error names the header.
pub(crate) fn start_and_rules(
    headers: &[(String, String)],
) -> Result<(Position, Rules), (&'static str, String)> {
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let mut rules = Rules::default();
    if let Some(r) = get("Repetition") {
        rules.repetition = Repetition::from_name(&r)
            .ok_or_else(|| ("Repetition", format!("`{r}` is not threefold or forbidden")))?;
    }
    if let Some(b) = get("Bribes") {
        rules.bribes = match b.to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" => true,
            "off" | "no" | "false" => false,
            _ => return Err(("Bribes", format!("`{b}` is not on or off"))),
        };
    }
    let start = match get("Start") {
        Some(s) => s
            .parse::<Position>()
            .map_err(|e| ("Start", e.to_string()))?,
        None => {
            let layout = Layout::from_spec(&get("Board").unwrap_or_else(|| "37".into()))
                .map_err(|e| ("Board", e.to_string()))?;
            let set: RuleSet = get("Rules")
                .unwrap_or_else(|| "standard".into())
                .parse()
                .map_err(|e| ("Rules", format!("{e}")))?;
            Position::new(layout, set)
        }
    };
    Ok((start, rules))
}

/// Checks a stated result against the game the moves make, and gives the ending it declares
/// when the rules leave the game open (resignation, time, forfeit, agreement). The error gives
/// the offending token and why.
pub(crate) fn settle(
    game: &Game,
    stated: &str,
    termination: Option<&str>,
) -> Result<Option<Outcome>, (String, String)> {
    let replayed = result_token(game.outcome());
    if game.outcome().is_some() {
        if stated != replayed {
            return Err((
                stated.to_string(),
                format!("the moves end the game as {replayed}, not {stated}"),
            ));
        }
        return Ok(None);
    }
    let termination = termination.unwrap_or_default().to_ascii_lowercase();
    let outcome = match stated {
        "*" => return Ok(None),
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
                    return Err((
                        stated.to_string(),
                        format!(
                            "the game is not over after the moves, so `{other}` cannot have ended it"
                        ),
                    ));
                }
            };
            Outcome::Win { winner, reason }
        }
        other => {
            return Err((
                other.to_string(),
                "a result is 1-0, 0-1, 1/2-1/2 or *".into(),
            ));
        }
    };
    Ok(Some(outcome))
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
