//! A tolerant reader of the SGF syntax BoardSpace writes: `(;KEY[value]KEY[value];KEY[value]…)`.
//!
//! Only the flat main line matters for BoardSpace records, so variations are read as more nodes
//! of the same line. Values may contain `\]` and `\\` escapes and span lines.

/// One property, `KEY[value]`, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The property name, such as `P0` or `SU` (may contain `-` and digits: `P-1`).
    pub key: String,
    /// The value, with escapes resolved.
    pub value: String,
    /// The 1-based line number where the property starts.
    pub line: usize,
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

/// Reads the properties of an SGF text, in order, nodes flattened (a `;` starts a node; the
/// node boundaries do not matter to BoardSpace records).
pub fn parse(text: &str) -> Result<Vec<Property>, SgfError> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut column = 0;
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    let mut seen_open = false;
    let mut key = String::new();
    let mut key_line = 1;
    let err = |line, column, message: &str| SgfError {
        line,
        column,
        message: message.to_string(),
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
                        key_line,
                        column,
                        &format!("`{key}` is not followed by a value"),
                    ));
                }
            }
            '(' if key.is_empty() => {
                depth += 1;
                seen_open = true;
            }
            ')' if key.is_empty() => {
                if depth == 0 {
                    return Err(err(line, column, "`)` without a matching `(`"));
                }
                depth -= 1;
            }
            ';' if key.is_empty() => {
                if depth == 0 {
                    return Err(err(line, column, "`;` outside the game's parentheses"));
                }
            }
            '[' => {
                if key.is_empty() {
                    // SGF allows several values after one key (`AB[..][..]`): reuse the last.
                    match out.last() {
                        Some(Property { key: last, .. }) if depth > 0 => key = last.clone(),
                        _ => return Err(err(line, column, "a value `[` without a property name")),
                    }
                    key_line = line;
                }
                let start_line = line;
                let start_column = column;
                let mut value = String::new();
                let mut closed = false;
                while let Some(v) = chars.next() {
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
                out.push(Property {
                    key: std::mem::take(&mut key),
                    value,
                    line: key_line,
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
                if depth == 0 {
                    return Err(err(line, column, "text outside the game's parentheses"));
                }
                if key.is_empty() {
                    key_line = line;
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
            key_line,
            column,
            &format!("`{key}` is not followed by a value"),
        ));
    }
    if !seen_open {
        return Err(err(1, 1, "no game: the text has no `(`"));
    }
    if depth != 0 {
        return Err(err(line, column, "the game's parentheses are never closed"));
    }
    Ok(out)
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
