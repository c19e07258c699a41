//! Writing the record format: the headers, then the moves of a tree's main line numbered by
//! pairs of turns, each variation in `( … )` right after the step it replaces (as PGN does),
//! comments in `{ … }`, lines wrapped at about 80 columns.

use std::fmt::Write as _;

use crate::game::{Game, Turn};
use crate::position::Position;
use crate::rules::Repetition;
use crate::tree::{GameTree, NodeId, Step};

use super::{escape, is_derived, result_token, termination_text};

/// The header lines of a record of `game` with the extra `headers` (those the game derives are
/// written from it).
pub(crate) fn header_lines(headers: &[(String, String)], game: &Game) -> String {
    let mut out = String::new();
    write_header_lines(
        &mut out,
        headers.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        game,
    );
    out
}

/// Writes the header lines of [`header_lines`] to `out` (straight into the record's text: an
/// archive import writes tens of thousands of records).
pub(crate) fn write_header_lines<'a>(
    out: &mut String,
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
    game: &Game,
) {
    let start = game.start();
    let rules = game.rules();
    header(out, "Board", &start.layout().spec());
    header(out, "Rules", &start.rule_set().to_string());
    if rules.repetition != Repetition::ThreefoldDraw {
        header(out, "Repetition", rules.repetition.name());
    }
    if rules.bribes {
        header(out, "Bribes", "on");
    }
    if *start != Position::new(start.layout(), start.rule_set()) {
        header(out, "Start", &start.to_string());
    }
    for (k, v) in headers {
        if !is_derived(k) {
            header(out, k, v);
        }
    }
    header(out, "Result", result_token(game.outcome()));
    if let Some(outcome) = game.outcome() {
        header(out, "Termination", termination_text(outcome));
    }
}

/// One header line: `[Key "value"]` with `\` and `"` escaped.
fn header(out: &mut String, key: &str, value: &str) {
    out.push('[');
    out.push_str(key);
    out.push_str(" \"");
    if value.contains(['\\', '"']) {
        out.push_str(&escape(value));
    } else {
        out.push_str(value);
    }
    out.push_str("\"]\n");
}

/// The tokens of the moves, with `(` and `)` stuck to the tokens they enclose.
#[derive(Default)]
struct Tokens {
    list: Vec<String>,
    opened: usize,
}

impl Tokens {
    fn push(&mut self, token: String) {
        if self.opened == 0 {
            self.list.push(token);
            return;
        }
        let mut t = "(".repeat(self.opened);
        self.opened = 0;
        t.push_str(&token);
        self.list.push(t);
    }

    fn open(&mut self) {
        self.opened += 1;
    }

    fn close(&mut self) {
        if let Some(last) = self.list.last_mut() {
            last.push(')');
        }
    }
}

/// A comment as written: `{text}` with `}` and `\` escaped.
fn comment_token(text: &str) -> String {
    let mut s = String::from("{");
    for c in text.chars() {
        if c == '}' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('}');
    s
}

/// The moves section: the tree's root comment, its lines, `trailing` tokens and the result,
/// wrapped at about 80 columns, ending with a newline.
pub(crate) fn moves(tree: &GameTree, trailing: &[String], result: &str) -> String {
    let mut tokens = Tokens::default();
    let root = tree.root();
    if let Ok(c) = tree.comment(root)
        && !c.is_empty()
    {
        tokens.push(comment_token(c));
    }
    let writer = Writer { tree };
    writer.line(root, &mut tokens, true);
    for t in trailing {
        tokens.push(t.clone());
    }
    tokens.push(result.to_string());

    let mut out = String::new();
    let mut wrap = Wrap::onto(&mut out);
    for token in &tokens.list {
        wrap.push(token);
    }
    wrap.finish();
    out
}

/// [`write_plain_moves`] into a text of its own (tests compare it with [`moves`]).
#[cfg(test)]
pub(crate) fn plain_moves(game: &Game, result: &str) -> Option<String> {
    let mut out = String::new();
    write_plain_moves(&mut out, game, result).then_some(out)
}

/// Appends the moves section of a game without bribes to `out`, written straight from its
/// turns (what [`moves`] writes for the game's tree); false, and nothing written, for a game
/// with bribes.
pub(crate) fn write_plain_moves(out: &mut String, game: &Game, result: &str) -> bool {
    if !game.bribes().is_empty()
        || game.pending_bribe().is_some()
        || !game.turns().iter().all(|t| matches!(t, Turn::Move(_)))
    {
        return false;
    }
    let mut wrap = Wrap::onto(out);
    let positions = game.positions();
    let mut token = String::new();
    for (i, turn) in game.turns().iter().enumerate() {
        let Turn::Move(mv) = turn else {
            unreachable!("every turn checked above is a move")
        };
        if i % 2 == 0 {
            token.clear();
            let _ = write!(token, "{}.", i / 2 + 1);
            wrap.push(&token);
        }
        token.clear();
        crate::notation::official::write_played_move_text(
            &mut token,
            &positions[i],
            &positions[i + 1],
            mv,
        );
        wrap.push(&token);
    }
    wrap.push(result);
    wrap.finish();
    true
}

/// Tokens joined by spaces into lines of about 80 columns (a token longer than that has a line
/// of its own), appended to a text.
struct Wrap<'a> {
    out: &'a mut String,
    /// Where the line being filled starts in `out`.
    line_start: usize,
}

impl<'a> Wrap<'a> {
    fn onto(out: &'a mut String) -> Wrap<'a> {
        let line_start = out.len();
        Wrap { out, line_start }
    }

    fn push(&mut self, token: &str) {
        let line = self.out.len() - self.line_start;
        if line > 0 && line + 1 + token.len() > 80 {
            self.out.push('\n');
            self.line_start = self.out.len();
        } else if line > 0 {
            self.out.push(' ');
        }
        self.out.push_str(token);
    }

    fn finish(self) {
        self.out.push('\n');
    }
}

struct Writer<'a> {
    tree: &'a GameTree,
}

impl Writer<'_> {
    /// Writes the main continuation after `parent`, each step followed by its alternatives.
    fn line(&self, parent: NodeId, tokens: &mut Tokens, need_number: bool) {
        let mut at = parent;
        let mut need = need_number;
        while let Some(&main) = self.children(at).first() {
            self.step(main, tokens, &mut need);
            for &alt in &self.children(at)[1..] {
                tokens.open();
                let mut need_alt = true;
                self.step(alt, tokens, &mut need_alt);
                self.line(alt, tokens, need_alt);
                tokens.close();
                need = true;
            }
            at = main;
        }
    }

    fn children(&self, id: NodeId) -> &[NodeId] {
        self.tree.children(id).unwrap_or(&[])
    }

    /// Writes one step: its move number when one is due, the step, its comment.
    fn step(&self, id: NodeId, tokens: &mut Tokens, need: &mut bool) {
        let Some(node) = self.tree.node(id) else {
            return;
        };
        let Some(step) = node.step() else {
            return;
        };
        let parent = node.parent().unwrap_or(NodeId::ROOT);
        let Ok(before) = self.tree.position(parent) else {
            return;
        };
        let parent_step = self.tree.node(parent).and_then(|n| n.step());
        // Rejected bribes are events before the turn they precede: the number goes before the
        // first of them, and only if a turn follows (trailing events have none).
        let opens = parent_step.is_none_or(|s| s.is_turn());
        if (opens || *need) && self.turn_follows(id) {
            let first = self.tree.start().to_move();
            let mover = before.to_move();
            if *need || mover == first {
                let number = self.turns_before(id) / 2 + 1;
                tokens.push(if mover == first {
                    format!("{number}.")
                } else {
                    format!("{number}...")
                });
            }
        }
        *need = false;
        match step {
            Step::Move(mv) => tokens.push(crate::notation::official::move_text(before, &mv)),
            Step::Bribe { bribe, accepted } => {
                tokens.push(Step::event(bribe, accepted));
                if accepted {
                    tokens.push("-".into());
                }
            }
        }
        if !node.comment().is_empty() {
            tokens.push(comment_token(node.comment()));
            *need = true;
        }
    }

    /// True when a turn (not only rejected bribes) follows from `id` on, along first children.
    fn turn_follows(&self, id: NodeId) -> bool {
        let mut at = Some(id);
        while let Some(n) = at.and_then(|n| self.tree.node(n)) {
            match n.step() {
                Some(s) if s.is_turn() => return true,
                _ => at = n.children().first().copied(),
            }
        }
        false
    }

    /// The number of turns played before the step of `id`.
    fn turns_before(&self, id: NodeId) -> usize {
        let mut count = 0;
        let mut at = self.tree.node(id).and_then(|n| n.parent());
        while let Some(n) = at.and_then(|n| self.tree.node(n)) {
            if n.step().is_some_and(|s| s.is_turn()) {
                count += 1;
            }
            at = n.parent();
        }
        count
    }
}
