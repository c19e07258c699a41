//! The JSON form of a tree of variations (docs/study.md):
//!
//! ```json
//! {"start": "37 standard … 1", "headers": {"Player1": "Ann"}, "comment": "…",
//!  "children": [{"move": "Wd4,a1", "comment": "…", "children": […]}, …]}
//! ```
//!
//! The first child is the main line. Moves are official notation (read leniently, host notation
//! too); a bribe step is `bribe 1/0/0 accepted` or `bribe 1/0/0 rejected`. `headers` keeps its
//! order; `Repetition` and `Bribes` set the rules, `Result` and `Termination` the main line's
//! ending when the rules leave it open; `Board`, `Rules` and `Start` are ignored (the start
//! position says them).
//!
//! Each move is one level of nesting deeper than the one before, so a tree is read without
//! serde's recursion limit of 128 but only up to [`MAX_DEPTH`] moves deep, checked before
//! parsing.

use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zertz::tree::{GameTree, NodeId, Step};
use zertz::{Position, Repetition};

/// The deepest line (in moves) a tree may have in JSON.
pub const MAX_DEPTH: usize = 500;

/// Why JSON is not a tree, or a tree cannot be written as JSON.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeJsonError {
    /// Not JSON, or not of the tree's shape: serde's message, with the line and column.
    #[error("{0}")]
    Json(String),
    /// A field of the tree is wrong: its path (`children[0].children[1].move`) and why.
    #[error("{path}: {message}")]
    Field {
        /// Where in the tree, such as `children[0].move`.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Lines deeper than [`MAX_DEPTH`] moves.
    #[error("the tree has a line of {0} moves or more; at most {MAX_DEPTH} are taken as JSON")]
    TooDeep(usize),
}

/// Headers in the order they are written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Serialize for Headers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Headers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Headers, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = Headers;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of header names and string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Headers, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    out.push((k, v));
                }
                Ok(Headers(out))
            }
        }
        deserializer.deserialize_map(Ordered)
    }
}

/// A tree as JSON. Unknown fields are refused rather than dropped (a misspelt `comment` would
/// otherwise vanish).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeJson {
    /// The start position, as a position string.
    pub start: String,
    /// The headers.
    #[serde(default)]
    pub headers: Headers,
    /// The comment on the whole tree.
    #[serde(default)]
    pub comment: String,
    /// The first moves, the main line first.
    #[serde(default)]
    pub children: Vec<NodeJson>,
}

/// A node as JSON: its move, its comment, the moves after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeJson {
    /// The move (official notation) or bribe (`bribe 1/0/0 accepted`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The comment (empty for none).
    #[serde(default)]
    pub comment: String,
    /// The moves after it, the main line first.
    #[serde(default)]
    pub children: Vec<NodeJson>,
}

/// Parses JSON holding trees (a [`TreeJson`], or a body with one inside): refused if nested
/// deeper than a tree of [`MAX_DEPTH`] moves can be, read without serde's own depth limit
/// otherwise.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, TreeJsonError> {
    // Two levels per move (the node and its children array), and a few for the body around.
    let deepest = nesting(bytes);
    if deepest > 2 * MAX_DEPTH + 8 {
        return Err(TreeJsonError::TooDeep(deepest / 2));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de).map_err(|e| TreeJsonError::Json(e.to_string()))?;
    de.end().map_err(|e| TreeJsonError::Json(e.to_string()))?;
    Ok(value)
}

/// The deepest nesting of `{` and `[` outside strings.
pub(crate) fn nesting(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

impl TreeJson {
    /// The JSON form of `tree`; refused for lines deeper than [`MAX_DEPTH`].
    pub fn from_tree(tree: &GameTree) -> Result<TreeJson, TreeJsonError> {
        let depth = tree.depth();
        if depth > MAX_DEPTH {
            return Err(TreeJsonError::TooDeep(depth));
        }
        let mut headers = tree.headers().to_vec();
        let rules = tree.rules();
        if rules.repetition != Repetition::ThreefoldDraw {
            headers.push(("Repetition".into(), rules.repetition.name().into()));
        }
        if rules.bribes {
            headers.push(("Bribes".into(), "on".into()));
        }
        if let Some(ending) = tree.ending() {
            headers.push((
                "Result".into(),
                zertz::record::result_token(Some(ending)).into(),
            ));
            headers.push((
                "Termination".into(),
                zertz::record::termination_text(ending).into(),
            ));
        }
        Ok(TreeJson {
            start: tree.start().to_string(),
            headers: Headers(headers),
            comment: tree.comment(tree.root()).unwrap_or("").to_string(),
            children: children_json(tree, tree.root()),
        })
    }

    /// The tree this JSON describes, every move checked (and written once among the moves after
    /// a position). Errors name the field.
    pub fn to_tree(&self) -> Result<GameTree, TreeJsonError> {
        let field = |path: &str, message: String| TreeJsonError::Field {
            path: path.to_string(),
            message,
        };
        let start: Position = self
            .start
            .trim()
            .parse()
            .map_err(|e: zertz::position::PositionParseError| field("start", e.to_string()))?;
        let mut tree = GameTree::with_headers(start, &self.headers.0)
            .map_err(|e| field("headers", e.to_string()))?;
        tree.set_comment(tree.root(), &self.comment)
            .map_err(|e| field("comment", e.to_string()))?;
        // Depth first without recursion: (node, parent in the tree, its path in the JSON).
        let mut stack: Vec<(&NodeJson, NodeId, String)> = self
            .children
            .iter()
            .enumerate()
            .rev()
            .map(|(i, n)| (n, tree.root(), format!("children[{i}]")))
            .collect();
        // Nodes are numbered as they are added: one not newer than the last added was already
        // there, a move written twice after the same position.
        let mut newest = tree.root();
        while let Some((node, parent, path)) = stack.pop() {
            let id = tree
                .add_text(parent, &node.mv)
                .map_err(|e| field(&format!("{path}.move"), e.to_string()))?;
            if id <= newest {
                let text = match (tree.node(id).and_then(|n| n.step()), tree.position(parent)) {
                    (Some(step), Ok(before)) => step.text(before),
                    _ => node.mv.trim().to_string(),
                };
                return Err(field(
                    &format!("{path}.move"),
                    format!(
                        "{text} is there twice; a move appears once among the moves that \
                         follow a position"
                    ),
                ));
            }
            newest = id;
            tree.set_comment(id, &node.comment)
                .map_err(|e| field(&format!("{path}.comment"), e.to_string()))?;
            for (i, child) in node.children.iter().enumerate().rev() {
                stack.push((child, id, format!("{path}.children[{i}]")));
            }
        }
        let header = |name: &str| {
            self.headers
                .0
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        // As in a record: without a result, the main line's end is left to the rules.
        if let Some(result) = header("Result") {
            tree.set_result(result, header("Termination"))
                .map_err(|e| field("headers.Result", e.to_string()))?;
        }
        Ok(tree)
    }
}

/// The JSON of the children of `id` (recursion bounded by the tree's depth, checked first).
fn children_json(tree: &GameTree, id: NodeId) -> Vec<NodeJson> {
    let Some(node) = tree.node(id) else {
        return Vec::new();
    };
    let before = node.position().clone();
    node.children()
        .iter()
        .filter_map(|&c| {
            let child = tree.node(c)?;
            let step: Step = child.step()?;
            Some(NodeJson {
                mv: step.text(&before),
                comment: child.comment().to_string(),
                children: children_json(tree, c),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_goes_through_json_unchanged() {
        let text = "[Player1 \"Ann\"]\n[Event \"club\"]\n[Repetition \"forbidden\"]\n\
                    [Result \"0-1\"]\n[Termination \"time\"]\n\n\
                    {start} 1. Wd4,a1 {main} (1. Gd4,a1 Bc3,g4) 1... Gb2,g4 0-1";
        let tree = GameTree::from_text(text).unwrap();
        let json = TreeJson::from_tree(&tree).unwrap();
        assert_eq!(json.children.len(), 2);
        assert_eq!(json.children[0].mv, "Wd4,a1");
        assert_eq!(json.children[0].comment, "main");
        assert_eq!(json.children[1].children[0].mv, "Bc3,g4");
        let keys: Vec<&str> = json.headers.0.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["Player1", "Event", "Repetition", "Result", "Termination"]
        );
        let written = serde_json::to_string(&json).unwrap();
        let back: TreeJson = parse_json(written.as_bytes()).unwrap();
        assert_eq!(back, json);
        assert_eq!(back.to_tree().unwrap(), tree);
    }

    #[test]
    fn nesting_counts_brackets_outside_strings() {
        assert_eq!(nesting(b"1"), 0);
        assert_eq!(nesting(br#"{"a": [1, {"b": []}]}"#), 4);
        assert_eq!(nesting(br#"{"a": "[[[{{\"]]"}"#), 1);
        assert_eq!(nesting(br#"[["\\"], []]"#), 2);
    }

    #[test]
    fn errors_name_the_field() {
        let json = r#"{"start": "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
            "children": [{"move": "Wd4,a1", "children": [{"move": "Qd4"}]}]}"#;
        let t: TreeJson = parse_json(json.as_bytes()).unwrap();
        let e = t.to_tree().unwrap_err().to_string();
        assert!(e.starts_with("children[0].children[0].move: `Qd4`"), "{e}");
        let e = parse_json::<TreeJson>(br#"{"start": 3}"#).unwrap_err();
        assert!(e.to_string().contains("line 1 column"), "{e}");
        let e =
            parse_json::<TreeJson>(br#"{"start": "x", "children": [{"move": "a", "coment": ""}]}"#)
                .unwrap_err();
        assert!(e.to_string().contains("unknown field `coment`"), "{e}");
        let twice = r#"{"start": "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
            "children": [{"move": "Wd4,a1"}, {"move": "Gd4,a1"}, {"move": "wd4 a1"}]}"#;
        let t: TreeJson = parse_json(twice.as_bytes()).unwrap();
        let e = t.to_tree().unwrap_err().to_string();
        assert!(
            e.starts_with("children[2].move: Wd4,a1 is there twice"),
            "{e}"
        );
        let deep = "[".repeat(2 * MAX_DEPTH + 9);
        assert!(matches!(
            parse_json::<TreeJson>(deep.as_bytes()),
            Err(TreeJsonError::TooDeep(_))
        ));
    }
}
