//! The check of a chapter's tree before a study keeps it: the text read as the tree JSON
//! ([`TreeJson`]), the study's bounds checked on what was read, the tree built with
//! [`TreeJson::to_tree`] (start position parsed, headers read, every move replayed by the rules
//! library), and written back with [`TreeJson::from_tree`], each move in official notation. What
//! is stored is exactly what was checked.
//!
//! A line of moves is a chain of nested nodes, two JSON levels per move. The tree JSON reader
//! reads without serde_json's depth limit once a flat scan has bounded the nesting; here the
//! bound is the study's longest line, tighter than the reader's own. The caller runs this on a
//! thread with a large stack (writing the tree back recurses along its lines).

use crate::study::trees::json::{self as tree_json, NodeJson, TreeJson};

/// The bounds a tree must keep.
#[derive(Clone, Copy, Debug)]
pub struct TreeLimits {
    /// Moves in the whole tree.
    pub moves: usize,
    /// Moves in one line (from the start to a leaf).
    pub line: usize,
    /// Characters of one comment.
    pub comment_chars: usize,
    /// Headers of the tree.
    pub headers: usize,
    /// Characters of a header's value.
    pub header_chars: usize,
}

/// Characters of a header's name.
const HEADER_NAME_CHARS: usize = 40;

/// A tree that passed: its JSON as stored, and how many moves it holds.
#[derive(Debug)]
pub struct Checked {
    /// The tree written back (moves in official notation).
    pub json: String,
    /// Its moves.
    pub moves: usize,
}

/// Reads, checks and rewrites a tree given as JSON text. The error is a sentence naming what
/// was wrong (the field, as the tree JSON reader names it: `children[0].children[1].move`).
pub fn check(text: &str, limits: &TreeLimits) -> Result<Checked, String> {
    // The root, its children array, then an object and an array per move: a line of n moves
    // is 2n + 2 deep (its last `children` included). This is where the line's bound is kept.
    if tree_json::nesting(text.as_bytes()) > 2 * limits.line + 2 {
        return Err(format!(
            "the tree is nested deeper than a line of {} moves, the longest a line may be",
            limits.line
        ));
    }
    let json: TreeJson =
        tree_json::parse_json(text.as_bytes()).map_err(|e| format!("the tree: {e}"))?;
    // The bounds first, so that no more than a chapter may hold is replayed.
    check_headers(&json, limits)?;
    check_comment(&json.comment, "comment", limits)?;
    let moves = check_nodes(&json.children, limits)?;
    let tree = json.to_tree().map_err(|e| e.to_string())?;
    let back = TreeJson::from_tree(&tree).map_err(|e| e.to_string())?;
    let json = serde_json::to_string(&back).map_err(|e| format!("the tree: {e}"))?;
    Ok(Checked { json, moves })
}

/// The study's bounds on headers; their names and values are read by the tree itself.
fn check_headers(json: &TreeJson, limits: &TreeLimits) -> Result<(), String> {
    let headers = &json.headers.0;
    if headers.len() > limits.headers {
        return Err(format!(
            "headers: the tree has {} headers; at most {} are kept",
            headers.len(),
            limits.headers
        ));
    }
    for (name, value) in headers {
        if name.chars().count() > HEADER_NAME_CHARS {
            return Err(format!(
                "headers.{name}: a header's name is at most {HEADER_NAME_CHARS} characters"
            ));
        }
        if value.chars().count() > limits.header_chars || value.chars().any(char::is_control) {
            return Err(format!(
                "headers.{name}: its value must be at most {} characters on one line",
                limits.header_chars
            ));
        }
    }
    Ok(())
}

fn check_comment(comment: &str, path: &str, limits: &TreeLimits) -> Result<(), String> {
    let chars = comment.chars().count();
    if chars > limits.comment_chars {
        return Err(format!(
            "{path}: the comment has {chars} characters; at most {} are kept",
            limits.comment_chars
        ));
    }
    Ok(())
}

/// Counts the moves of the tree (without recursion) and checks their number and comments;
/// returns the number.
fn check_nodes(children: &[NodeJson], limits: &TreeLimits) -> Result<usize, String> {
    let mut moves = 0;
    let mut stack: Vec<(&NodeJson, String)> = children
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n, format!("children[{i}]")))
        .collect();
    while let Some((node, path)) = stack.pop() {
        moves += 1;
        if moves > limits.moves {
            return Err(format!(
                "the tree has more than {} moves, the most a chapter may have",
                limits.moves
            ));
        }
        check_comment(
            &node.comment,
            &format!("{path}.comment (on {})", node.mv.trim()),
            limits,
        )?;
        for (i, child) in node.children.iter().enumerate().rev() {
            stack.push((child, format!("{path}.children[{i}]")));
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::Position;
    use zertz::notation::official;

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
    fn the_rules_of_the_headers_are_the_replays() {
        // Both players hold a white marble: a bribe may be offered, if the rule is on.
        let start = "37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1";
        let bribe = |headers: &str| {
            format!(
                r#"{{"start": "{start}", "headers": {headers}, "children": [
                    {{"move": "bribe 1/0/0 accepted", "children": [{{"move": "gd4 a1"}}]}}]}}"#
            )
        };
        let checked = check(&bribe(r#"{"Bribes": "on"}"#), &LIMITS).expect("bribes are on");
        assert_eq!(checked.moves, 2);
        let back: serde_json::Value = serde_json::from_str(&checked.json).unwrap();
        assert_eq!(back["headers"]["Bribes"], "on");
        assert_eq!(back["children"][0]["move"], "bribe 1/0/0 accepted");
        assert_eq!(back["children"][0]["children"][0]["move"], "Gd4,a1");
        let e = check(&bribe("{}"), &LIMITS).unwrap_err();
        assert!(
            e.starts_with("children[0].move: `bribe 1/0/0 accepted`"),
            "{e}"
        );
    }

    #[test]
    fn an_illegal_move_is_named_with_its_field() {
        let text = tree(r#"[{"move": "Wd4,a1", "children": [{"move": "Gd4,a2"}]}]"#);
        let e = check(&text, &LIMITS).unwrap_err();
        assert!(
            e.starts_with("children[0].children[0].move: `Gd4,a2` cannot be played here"),
            "{e}"
        );
    }

    #[test]
    fn malformed_trees_say_what_is_wrong() {
        let e = check(r#"{"children": []}"#, &LIMITS).unwrap_err();
        assert!(e.contains("missing field `start`"), "{e}");
        let e = check(r#"{"start": "37 nonsense"}"#, &LIMITS).unwrap_err();
        assert!(e.starts_with("start: position string"), "{e}");
        let e = check(&tree(r#"[{"mvoe": "Wd4,a1"}]"#), &LIMITS).unwrap_err();
        assert!(e.contains("unknown field `mvoe`"), "{e}");
        let e = check(&tree(r#"[{"move": "Qd4"}]"#), &LIMITS).unwrap_err();
        assert!(e.starts_with("children[0].move: `Qd4`"), "{e}");
        // A pass is the answer to a bribe, which is a step of its own.
        let e = check(&tree(r#"[{"move": "-"}]"#), &LIMITS).unwrap_err();
        assert!(e.starts_with("children[0].move: `-`"), "{e}");
        let e = check(
            &tree(r#"[{"move": "Wd4,a1"}, {"move": "wd4 a1"}]"#),
            &LIMITS,
        )
        .unwrap_err();
        assert!(
            e.starts_with("children[1].move: Wd4,a1 is there twice"),
            "{e}"
        );
        let e = check(&format!("{} x", tree("[]")), &LIMITS).unwrap_err();
        assert!(e.contains("trailing characters"), "{e}");
    }

    #[test]
    fn limits_are_kept() {
        // A line one move too long (the standard game has far more than 11 plies of legal
        // placements with a ring removed each time).
        let start: Position = Position::standard();
        let mut p = start.clone();
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
        assert!(e.starts_with("children[0].comment (on Wd4,a1)"), "{e}");
        assert!(e.contains("26 characters; at most 20"), "{e}");

        // Every first move of the start position: more than 50.
        let firsts: Vec<String> = start
            .legal_moves()
            .iter()
            .take(60)
            .map(|m| format!(r#"{{"move": "{}"}}"#, official::move_text(&start, m)))
            .collect();
        let e = check(&tree(&format!("[{}]", firsts.join(","))), &LIMITS).unwrap_err();
        assert!(e.contains("more than 50 moves"), "{e}");

        let with_headers = |headers: &str| {
            format!(r#"{{"start": "{start}", "headers": {headers}, "children": []}}"#)
        };
        let e = check(&with_headers(r#"{"Bad Name": "x"}"#), &LIMITS).unwrap_err();
        assert!(
            e.starts_with("headers: header Bad Name: a header name is"),
            "{e}"
        );
        let e = check(
            &with_headers(r#"{"a": "", "b": "", "c": "", "d": "", "e": ""}"#),
            &LIMITS,
        )
        .unwrap_err();
        assert!(e.contains("5 headers; at most 4"), "{e}");
        let long = "n".repeat(HEADER_NAME_CHARS + 1);
        let e = check(&with_headers(&format!(r#"{{"{long}": "x"}}"#)), &LIMITS).unwrap_err();
        assert!(e.contains("at most 40 characters"), "{e}");
        let e = check(&with_headers(r#"{"Event": "a\tb"}"#), &LIMITS).unwrap_err();
        assert!(e.starts_with("headers.Event: its value"), "{e}");
    }

    #[test]
    fn a_very_deep_text_is_refused_before_it_is_read() {
        let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let e = check(&text, &LIMITS).unwrap_err();
        assert!(e.contains("nested deeper"), "{e}");
    }
}
