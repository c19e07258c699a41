//! The check of a chapter's tree before a study keeps it: the tree JSON of docs/study.md
//! (`{"start", "headers", "comment", "children": [node…]}`, node = `{"move", "comment",
//! "children"}`) read into a small typed tree, its start position parsed and every move
//! replayed with the rules library, and the tree written back with each move in official
//! notation. What is stored is exactly what was checked.
//!
//! A line of moves is a chain of nested nodes, two JSON levels per move, deeper than
//! serde_json's default limit of 128 levels after some 60 moves. So the depth is measured
//! first with a flat scan (bounded by the longest line allowed), and only then is the text
//! read without serde_json's limit; the caller runs this on a thread with a large stack.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use zertz::Position;
use zertz::notation::{official, parse_any};

/// The bounds a tree must keep.
#[derive(Clone, Copy, Debug)]
pub struct TreeLimits {
    /// Moves in the whole tree.
    pub moves: usize,
    /// Moves in one line (from the start to a leaf).
    pub line: usize,
    /// Characters of one comment.
    pub comment_chars: usize,
    /// Headers, and characters of a header's value.
    pub headers: usize,
    /// Characters of a header's value.
    pub header_chars: usize,
}

/// A chapter's tree.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tree {
    /// The position string the tree starts from.
    pub start: String,
    /// Record headers (`Player1`, `Date`, …).
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// The comment on the start position.
    #[serde(default)]
    pub comment: String,
    /// The moves from the start; the first is the main line.
    #[serde(default)]
    pub children: Vec<Node>,
}

/// A move of the tree and what follows it.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    /// The move (official notation, read leniently; written back in official notation).
    #[serde(rename = "move")]
    pub mv: String,
    /// The comment on the position after the move.
    #[serde(default)]
    pub comment: String,
    /// The moves that answer it; the first is the main line.
    #[serde(default)]
    pub children: Vec<Node>,
}

/// A tree that passed: its JSON as stored, and how many moves it holds.
#[derive(Debug)]
pub struct Checked {
    /// The tree written back (moves in official notation).
    pub json: String,
    /// Its moves.
    pub moves: usize,
}

/// The deepest nesting of arrays and objects in `text`, read flat (strings skipped), so that
/// any depth is measured without recursion (the tree JSON reader's own scan).
pub fn json_depth(text: &str) -> usize {
    super::tree_json::nesting(text.as_bytes())
}

/// Reads, checks and rewrites a tree given as JSON text. The error is a sentence naming what
/// was wrong (the field, or the move and the line that leads to it).
pub fn check(text: &str, limits: &TreeLimits) -> Result<Checked, String> {
    // The root, its children array, then an object and an array per move: a line of n moves
    // is 2n + 2 deep (its last `children` included).
    let deepest = 2 * limits.line + 2;
    if json_depth(text) > deepest {
        return Err(format!(
            "the tree is nested deeper than a line of {} moves, the longest a line may be",
            limits.line
        ));
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    reader.disable_recursion_limit();
    let mut tree = Tree::deserialize(&mut reader).map_err(|e| format!("the tree: {e}"))?;
    reader.end().map_err(|e| format!("the tree: {e}"))?;
    let start: Position = tree
        .start
        .parse()
        .map_err(|e| format!("the start position: {e}"))?;
    check_headers(&tree.headers, limits)?;
    check_comment(&tree.comment, "the comment on the start position", limits)?;
    let mut walk = Walk {
        limits,
        moves: 0,
        line: Vec::new(),
    };
    walk.children(&start, &mut tree.children)?;
    let json = serde_json::to_string(&tree).map_err(|e| format!("the tree: {e}"))?;
    Ok(Checked {
        json,
        moves: walk.moves,
    })
}

fn check_headers(headers: &BTreeMap<String, String>, limits: &TreeLimits) -> Result<(), String> {
    if headers.len() > limits.headers {
        return Err(format!(
            "the tree has {} headers; at most {} are kept",
            headers.len(),
            limits.headers
        ));
    }
    for (name, value) in headers {
        let well_formed = (1..=40).contains(&name.len())
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !well_formed {
            return Err(format!(
                "header `{name}`: a header's name is 1 to 40 letters, digits or `_`"
            ));
        }
        if value.chars().count() > limits.header_chars || value.chars().any(char::is_control) {
            return Err(format!(
                "header {name}: its value must be at most {} characters on one line",
                limits.header_chars
            ));
        }
    }
    Ok(())
}

fn check_comment(comment: &str, whose: &str, limits: &TreeLimits) -> Result<(), String> {
    let chars = comment.chars().count();
    if chars > limits.comment_chars {
        return Err(format!(
            "{whose} has {chars} characters; at most {} are kept",
            limits.comment_chars
        ));
    }
    Ok(())
}

/// The replay of a tree: the moves counted so far and the line being walked.
struct Walk<'a> {
    limits: &'a TreeLimits,
    moves: usize,
    /// The moves from the start to the node being checked, in official notation.
    line: Vec<String>,
}

impl Walk<'_> {
    /// Where the next move is: its number in the line and the moves before it (the last few).
    fn place(&self) -> String {
        const SHOWN: usize = 6;
        let n = self.line.len() + 1;
        if self.line.is_empty() {
            return format!("move {n} (from the start)");
        }
        let skip = self.line.len().saturating_sub(SHOWN);
        let dots = if skip > 0 { "… " } else { "" };
        format!("move {n} (after {dots}{})", self.line[skip..].join(" "))
    }

    /// Checks and rewrites the moves that follow `position`, and everything after them.
    fn children(&mut self, position: &Position, children: &mut [Node]) -> Result<(), String> {
        if !children.is_empty() && self.line.len() >= self.limits.line {
            return Err(format!(
                "{}: a line may have at most {} moves",
                self.place(),
                self.limits.line
            ));
        }
        let mut seen: Vec<String> = Vec::with_capacity(children.len());
        for node in children.iter_mut() {
            self.moves += 1;
            if self.moves > self.limits.moves {
                return Err(format!(
                    "the tree has more than {} moves, the most a chapter may have",
                    self.limits.moves
                ));
            }
            if node.mv.trim() == "-" {
                return Err(format!(
                    "{}: a pass bought with a bribe cannot be kept in a study (the tree has no \
                     place for the bribe)",
                    self.place()
                ));
            }
            let mv = parse_any(position, &node.mv).map_err(|e| format!("{}: {e}", self.place()))?;
            let text = official::move_text(position, &mv);
            if seen.contains(&text) {
                return Err(format!(
                    "{}: {text} is there twice; a move appears once among the moves that \
                     follow a position",
                    self.place()
                ));
            }
            check_comment(
                &node.comment,
                &format!("the comment on {text} ({})", self.place()),
                self.limits,
            )?;
            let next = position
                .play(&mv)
                .map_err(|e| format!("{}: `{text}` is not legal here: {e}", self.place()))?;
            node.mv = text.clone();
            seen.push(text.clone());
            self.line.push(text);
            self.children(&next, &mut node.children)?;
            self.line.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: TreeLimits = TreeLimits {
        moves: 50,
        line: 10,
        comment_chars: 20,
        headers: 4,
        header_chars: 30,
    };

    fn start() -> String {
        Position::standard().to_string()
    }

    fn tree(children: &str) -> String {
        format!(r#"{{"start": "{}", "children": {children}}}"#, start())
    }

    #[test]
    fn depth_counts_nesting_and_skips_strings() {
        assert_eq!(json_depth("1"), 0);
        assert_eq!(json_depth(r#"{"a": [1, {"b": []}]}"#), 4);
        assert_eq!(json_depth(r#"{"a": "[[[{{\"]]"}"#), 1);
        assert_eq!(json_depth(r#"[["\\"], []]"#), 2);
    }

    #[test]
    fn moves_are_replayed_and_written_in_official_notation() {
        let text = tree(
            r#"[{"move": "wd4 a1", "comment": "the usual",
                 "children": [{"move": "G c3 g4"}]},
                {"move": "Bd4,a1"}]"#,
        );
        let checked = check(&text, &LIMITS).expect("a legal tree");
        assert_eq!(checked.moves, 3);
        let back: serde_json::Value = serde_json::from_str(&checked.json).unwrap();
        assert_eq!(back["children"][0]["move"], "Wd4,a1");
        assert_eq!(back["children"][0]["comment"], "the usual");
        assert_eq!(back["children"][0]["children"][0]["move"], "Gc3,g4");
        assert_eq!(back["children"][1]["move"], "Bd4,a1");
        assert_eq!(back["start"], start());
        // Written back, it reads the same again.
        let again = check(&checked.json, &LIMITS).unwrap();
        assert_eq!(again.json, checked.json);
    }

    #[test]
    fn an_illegal_move_is_named_with_its_line() {
        let text = tree(r#"[{"move": "Wd4,a1", "children": [{"move": "Gd4,a2"}]}]"#);
        let e = check(&text, &LIMITS).unwrap_err();
        assert!(e.starts_with("move 2 (after Wd4,a1): "), "{e}");
        assert!(e.contains("Gd4,a2"), "{e}");
    }

    #[test]
    fn malformed_trees_say_what_is_wrong() {
        let e = check(r#"{"children": []}"#, &LIMITS).unwrap_err();
        assert!(e.contains("missing field `start`"), "{e}");
        let e = check(r#"{"start": "37 nonsense"}"#, &LIMITS).unwrap_err();
        assert!(e.starts_with("the start position: position string"), "{e}");
        let e = check(&tree(r#"[{"mvoe": "Wd4,a1"}]"#), &LIMITS).unwrap_err();
        assert!(e.contains("unknown field `mvoe`"), "{e}");
        let e = check(&tree(r#"[{"move": "Qd4"}]"#), &LIMITS).unwrap_err();
        assert!(e.starts_with("move 1 (from the start): `Qd4`"), "{e}");
        let e = check(&tree(r#"[{"move": "-"}]"#), &LIMITS).unwrap_err();
        assert!(e.contains("bribe"), "{e}");
        let e = check(
            &tree(r#"[{"move": "Wd4,a1"}, {"move": "wd4 a1"}]"#),
            &LIMITS,
        )
        .unwrap_err();
        assert!(e.contains("Wd4,a1 is there twice"), "{e}");
        let e = check(&format!("{} x", tree("[]")), &LIMITS).unwrap_err();
        assert!(e.contains("trailing characters"), "{e}");
    }

    #[test]
    fn limits_are_kept() {
        // A line one move too long (the standard game has far more than 11 plies of legal
        // placements with a ring removed each time).
        let start: Position = Position::standard();
        let mut p = start;
        let mut moves = Vec::new();
        for _ in 0..=LIMITS.line {
            let mv = p.legal_moves()[0];
            moves.push(official::move_text(&p, &mv));
            p = p.play(&mv).unwrap();
        }
        let nest = |moves: &[String]| {
            let mut json = "[]".to_string();
            for m in moves.iter().rev() {
                json = format!(r#"[{{"move": "{m}", "children": {json}}}]"#);
            }
            tree(&json)
        };
        assert!(check(&nest(&moves[..LIMITS.line]), &LIMITS).is_ok());
        let e = check(&nest(&moves), &LIMITS).unwrap_err();
        assert!(e.contains("a line of 10 moves, the longest"), "{e}");

        let e = check(
            &tree(r#"[{"move": "Wd4,a1", "comment": "abcdefghijklmnopqrstuvwxyz"}]"#),
            &LIMITS,
        )
        .unwrap_err();
        assert!(e.contains("the comment on Wd4,a1"), "{e}");
        assert!(e.contains("26 characters; at most 20"), "{e}");

        // Every first move of the start position, each answered by every reply: more than 50.
        let firsts: Vec<String> = start
            .legal_moves()
            .iter()
            .take(60)
            .map(|m| format!(r#"{{"move": "{}"}}"#, official::move_text(&start, m)))
            .collect();
        let e = check(&tree(&format!("[{}]", firsts.join(","))), &LIMITS).unwrap_err();
        assert!(e.contains("more than 50 moves"), "{e}");

        let e = check(
            &format!(
                r#"{{"start": "{}", "headers": {{"Bad Name": "x"}}}}"#,
                start
            ),
            &LIMITS,
        )
        .unwrap_err();
        assert!(e.contains("header `Bad Name`"), "{e}");
    }

    #[test]
    fn a_very_deep_text_is_refused_before_it_is_read() {
        let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let e = check(&text, &LIMITS).unwrap_err();
        assert!(e.contains("nested deeper"), "{e}");
    }
}
