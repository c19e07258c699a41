//! A tolerant reader of the SGF syntax BoardSpace writes: `(;KEY[value]KEY[value];KEY[value]…)`.
//!
//! [`parse_tree`] keeps the game tree: nodes (each `;` starts one) and variations, written as
//! standard SGF branches `(;…)(;…)` after the node they follow, the first branch being the main
//! line. [`parse`] gives the properties of the main line, in order: a BoardSpace record has no
//! variations, and a record with variations reads as its main line. Values may contain `\]`
//! and `\\` escapes and span lines.

/// One property, `KEY[value]`, with where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The property name, such as `P0` or `SU` (may contain `-` and digits: `P-1`).
    pub key: String,
    /// The value, with escapes resolved.
    pub value: String,
    /// The 1-based line number where the property starts.
    pub line: usize,
    /// The 1-based column (in characters) where the property starts.
    pub column: usize,
}

/// One node of an SGF game tree: its properties and the nodes that follow it (the first is
/// the main line, the others are variations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The properties of the node, in order.
    pub properties: Vec<Property>,
    /// Indexes (in [`Tree::nodes`]) of the nodes that follow, the main line first.
    pub children: Vec<usize>,
}

/// An SGF text as a tree of nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// Every node; the index is the node's id.
    pub nodes: Vec<Node>,
    /// The first node of each game of the text (a file may hold several; the first counts).
    pub roots: Vec<usize>,
}

impl Tree {
    /// The nodes of the main line: from the first root, each node's first child.
    pub fn main_line(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let mut at = self.roots.first().copied();
        while let Some(n) = at {
            line.push(n);
            at = self
                .nodes
                .get(n)
                .and_then(|node| node.children.first().copied());
        }
        line
    }

    /// The leaves under the first root, the main line's first, then in the order they are
    /// written.
    pub fn leaves(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack: Vec<usize> = self.roots.first().copied().into_iter().collect();
        while let Some(n) = stack.pop() {
            let children = self
                .nodes
                .get(n)
                .map(|x| x.children.as_slice())
                .unwrap_or(&[]);
            if children.is_empty() {
                out.push(n);
            }
            stack.extend(children.iter().rev());
        }
        out
    }

    /// The parent of each node (`None` for roots).
    pub fn parents(&self) -> Vec<Option<usize>> {
        let mut parents = vec![None; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            for &c in &node.children {
                if let Some(p) = parents.get_mut(c) {
                    *p = Some(i);
                }
            }
        }
        parents
    }

    /// The nodes from the root down to `leaf`.
    pub fn path_to(&self, leaf: usize, parents: &[Option<usize>]) -> Vec<usize> {
        let mut path = vec![leaf];
        let mut at = leaf;
        while let Some(Some(p)) = parents.get(at) {
            path.push(*p);
            at = *p;
        }
        path.reverse();
        path
    }

    /// Every line from the first root to a leaf, the main line first, then the variations in
    /// the order they are written.
    pub fn lines(&self) -> Vec<Vec<usize>> {
        let parents = self.parents();
        self.leaves()
            .into_iter()
            .map(|leaf| self.path_to(leaf, &parents))
            .collect()
    }
}

/// Why text is not SGF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SGF syntax, line {line}, column {column}: {message}")]
pub struct SgfError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads the properties of the main line of an SGF text, in order, nodes flattened (the node
/// boundaries do not matter to BoardSpace records).
pub fn parse(text: &str) -> Result<Vec<Property>, SgfError> {
    let mut tree = parse_tree(text)?;
    let mut out = Vec::new();
    for n in tree.main_line() {
        out.append(&mut tree.nodes[n].properties);
    }
    Ok(out)
}

/// Reads an SGF text as a tree of nodes and variations.
pub fn parse_tree(text: &str) -> Result<Tree, SgfError> {
    let mut tree = Tree::default();
    // A node per `;` (or fewer): room for them all at once, so that the list is never copied.
    tree.nodes
        .reserve(text.bytes().filter(|&b| b == b';').count().min(1 << 16));
    let mut line = 1;
    let mut column = 0;
    let mut chars = text.chars();
    // The node each open `(` follows (None at the top), and the node properties go to now.
    let mut stack: Vec<Option<usize>> = Vec::new();
    let mut current: Option<usize> = None;
    // True right after `(`: the next node starts a branch of the node before the `(`.
    let mut fresh = false;
    let mut seen_open = false;
    let mut key = String::new();
    let mut key_at = (1, 1);
    // Where the last property of the current node is (its key is the one `[..][..]` repeats).
    let mut last_key: Option<(usize, usize)> = None;
    // (At the end of a line the column counter is 0: the error is at the line's first column.)
    let err = |line, column: usize, message: &str| SgfError {
        line,
        column: column.max(1),
        message: message.to_string(),
    };
    // A new node after `parent` (a root when there is none).
    let new_node = |tree: &mut Tree, parent: Option<usize>| {
        let id = tree.nodes.len();
        tree.nodes.push(Node::default());
        match parent {
            Some(p) => tree.nodes[p].children.push(id),
            None => tree.roots.push(id),
        }
        id
    };
    while let Some(c) = chars.next() {
        column += 1;
        match c {
            '\n' => {
                line += 1;
                column = 0;
                if !key.is_empty() {
                    // Keys never span lines; a stray word is an error.
                    return Err(err(
                        key_at.0,
                        key_at.1,
                        &format!("`{key}` is not followed by a value"),
                    ));
                }
            }
            '(' if key.is_empty() => {
                stack.push(current);
                fresh = true;
                seen_open = true;
            }
            ')' if key.is_empty() => {
                let Some(before) = stack.pop() else {
                    return Err(err(line, column, "`)` without a matching `(`"));
                };
                current = before;
                fresh = false;
            }
            ';' if key.is_empty() => {
                if stack.is_empty() {
                    return Err(err(line, column, "`;` outside the game's parentheses"));
                }
                let parent = if fresh {
                    stack.last().copied().flatten()
                } else {
                    current
                };
                current = Some(new_node(&mut tree, parent));
                fresh = false;
                last_key = None;
            }
            '[' => {
                if key.is_empty() {
                    // SGF allows several values after one key (`AB[..][..]`): reuse the last.
                    match last_key {
                        Some((n, i)) if !stack.is_empty() => {
                            key.push_str(&tree.nodes[n].properties[i].key)
                        }
                        _ => return Err(err(line, column, "a value `[` without a property name")),
                    }
                    key_at = (line, column);
                }
                let start_line = line;
                let start_column = column;
                let mut value = String::new();
                let mut closed = false;
                loop {
                    // The run up to the next `]`, `\` or line end is copied whole: values are
                    // most of a record's text.
                    let rest = chars.as_str();
                    // Found by bytes (all three are ASCII, so `rest` splits there).
                    let run = rest
                        .bytes()
                        .position(|b| matches!(b, b']' | b'\\' | b'\n'))
                        .unwrap_or(rest.len());
                    if run > 0 {
                        let copied = &rest[..run];
                        if value.is_empty() {
                            // Most values are one run: allocated once, to size.
                            value = copied.to_string();
                        } else {
                            value.push_str(copied);
                        }
                        column += if copied.is_ascii() {
                            run
                        } else {
                            copied.chars().count()
                        };
                        chars = rest[run..].chars();
                    }
                    let Some(v) = chars.next() else { break };
                    column += 1;
                    match v {
                        '\\' => {
                            if let Some(escaped) = chars.next() {
                                column += 1;
                                if escaped == '\n' {
                                    line += 1;
                                    column = 0;
                                } else {
                                    value.push(escaped);
                                }
                            }
                        }
                        ']' => {
                            closed = true;
                            break;
                        }
                        '\n' => {
                            line += 1;
                            column = 0;
                            value.push('\n');
                        }
                        other => value.push(other),
                    }
                }
                if !closed {
                    return Err(err(
                        start_line,
                        start_column,
                        "a value `[` is never closed by `]`",
                    ));
                }
                // Properties written before any `;` (tolerated) start a node of their own.
                let node = match current {
                    Some(n) if !fresh => n,
                    _ => {
                        let parent = if fresh {
                            stack.last().copied().flatten()
                        } else {
                            current
                        };
                        fresh = false;
                        let n = new_node(&mut tree, parent);
                        current = Some(n);
                        n
                    }
                };
                last_key = Some((node, tree.nodes[node].properties.len()));
                tree.nodes[node].properties.push(Property {
                    key: std::mem::take(&mut key),
                    value,
                    line: key_at.0,
                    column: key_at.1,
                });
            }
            c if c.is_whitespace() => {
                if !key.is_empty() {
                    return Err(err(
                        line,
                        column,
                        &format!("`{key}` is not followed by a value"),
                    ));
                }
            }
            c if c.is_ascii_alphanumeric() || c == '-' => {
                if stack.is_empty() {
                    return Err(err(line, column, "text outside the game's parentheses"));
                }
                if key.is_empty() {
                    key_at = (line, column);
                }
                if key.len() >= 16 {
                    return Err(err(line, column, "property name too long"));
                }
                key.push(c);
            }
            other => {
                return Err(err(
                    line,
                    column,
                    &format!("unexpected character `{other}`"),
                ));
            }
        }
    }
    if !key.is_empty() {
        return Err(err(
            key_at.0,
            key_at.1,
            &format!("`{key}` is not followed by a value"),
        ));
    }
    if !seen_open {
        return Err(err(1, 1, "no game: the text has no `(`"));
    }
    if !stack.is_empty() {
        return Err(err(line, column, "the game's parentheses are never closed"));
    }
    Ok(tree)
}

/// Writes a value with `]` and `\` escaped.
pub fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_boardspace_shape() {
        let text =
            " (;\nGM[22]VV[2]\nSU[Zertz]\nP0[id \"a\\]b\"]\n; P0[1 RtoB 2 2 C 3]TM[14005]\n;\n)\n ";
        let props = parse(text).unwrap();
        let keys: Vec<&str> = props.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["GM", "VV", "SU", "P0", "P0", "TM"]);
        assert_eq!(props[3].value, "id \"a]b\"");
        assert_eq!(props[4].line, 5);
    }

    #[test]
    fn variations_are_branches_and_the_main_line_comes_first() {
        let tree = parse_tree("(;A[1];B[2](;C[3];D[4])(;E[5]))\n(;F[6])").unwrap();
        let keys = |n: usize| tree.nodes[n].properties[0].key.clone();
        let line = |l: &[usize]| l.iter().map(|&n| keys(n)).collect::<Vec<_>>().join("");
        assert_eq!(line(&tree.main_line()), "ABCD");
        let lines: Vec<String> = tree.lines().iter().map(|l| line(l)).collect();
        assert_eq!(lines, ["ABCD", "ABE"]);
        assert_eq!(tree.roots.len(), 2);
        let flat: Vec<String> = parse("(;A[1];B[2](;C[3];D[4])(;E[5]))")
            .unwrap()
            .into_iter()
            .map(|p| p.key)
            .collect();
        assert_eq!(flat, ["A", "B", "C", "D"]);
        let p = &tree.nodes[tree.main_line()[2]].properties[0];
        assert_eq!((p.line, p.column), (1, 14));
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("(;GM[22").unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
        assert!(parse("GM[1]").is_err());
        assert!(parse("(;GM[1]").is_err());
        assert!(parse("(;GM[1]))").is_err());
        assert!(parse("(;G M[1])").is_err());
        assert!(parse("(;GM[1]{)").is_err());
        assert!(parse("").is_err());
        assert!(parse("(;[1])").is_err());
    }
}
