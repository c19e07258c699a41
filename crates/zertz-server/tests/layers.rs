//! The server's floor plan, enforced: every `crate::<folder>` reference in
//! `crates/zertz-server/src` must be an edge the table in docs/server.md ("Which folder may use
//! which") allows, and that table must go one way (no two folders that may use each other, no
//! circle). A planted forbidden reference shows the check can fail.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A top-level module of the server: a folder (`games/`) or a file (`config.rs`).
type Module = String;

/// The references found, by (from, to): the files that make each.
type Edges = BTreeMap<(Module, Module), BTreeSet<String>>;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as (path relative to `src/`, text).
fn sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((rel, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The module a source file belongs to (`games/wire/view.rs` → `games`); `None` for the
/// crate's root, which declares every module.
fn module_of(rel: &str) -> Option<Module> {
    if rel == "lib.rs" {
        return None;
    }
    let first = rel.split('/').next().unwrap();
    Some(first.trim_end_matches(".rs").to_string())
}

/// The top-level modules of the source tree.
fn modules(files: &[(String, String)]) -> BTreeSet<Module> {
    files.iter().filter_map(|(rel, _)| module_of(rel)).collect()
}

/// The first path segments named after `crate::` in `text`: `crate::games::hub::Hub` gives
/// `games`; `crate::{games::hub::Hub, util::{a, b}}` gives `games` and `util`.
fn crate_references(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("crate::") {
        let start = from + at;
        from = start + "crate::".len();
        // `$crate::` and `my_crate::` are not this crate's paths.
        if start > 0
            && (bytes[start - 1].is_ascii_alphanumeric() || b"_$".contains(&bytes[start - 1]))
        {
            continue;
        }
        let rest = &text[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // A use group: the identifier opening each item at depth one.
            let mut depth = 1;
            let mut item_start = true;
            let mut ident = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        item_start = true;
                        continue;
                    }
                    _ => {}
                }
                if depth == 1 && item_start {
                    if c.is_alphanumeric() || c == '_' {
                        ident.push(c);
                    } else if !ident.is_empty() || !c.is_whitespace() {
                        item_start = false;
                        if !ident.is_empty() {
                            found.push(std::mem::take(&mut ident));
                        }
                    }
                }
            }
            if !ident.is_empty() {
                found.push(ident);
            }
        } else {
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !ident.is_empty() {
                found.push(ident);
            }
        }
    }
    found
}

/// The references between modules that `files` make.
fn edges(files: &[(String, String)]) -> Edges {
    let known = modules(files);
    let mut edges = Edges::new();
    for (rel, text) in files {
        let Some(from) = module_of(rel) else { continue };
        for to in crate_references(text) {
            if to != from && known.contains(&to) {
                edges
                    .entry((from.clone(), to))
                    .or_default()
                    .insert(rel.clone());
            }
        }
    }
    edges
}

/// The allowed edges: the fenced block after the heading "Which folder may use which" in
/// docs/server.md, one line per module, `from -> to to to` (`from ->` when it uses nothing).
fn allowed_table() -> BTreeMap<Module, BTreeSet<Module>> {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/server.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    let section = text
        .split("### Which folder may use which")
        .nth(1)
        .expect("docs/server.md has a section \"Which folder may use which\"");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section holds the table in a ```text block");
    let mut table = BTreeMap::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (from, to) = line
            .split_once("->")
            .unwrap_or_else(|| panic!("a line of the table without `->`: {line}"));
        let to: BTreeSet<Module> = to.split_whitespace().map(str::to_string).collect();
        let previous = table.insert(from.trim().to_string(), to);
        assert!(previous.is_none(), "{} is in the table twice", from.trim());
    }
    table
}

/// The references `edges` makes that `table` does not allow, one line each.
fn forbidden(edges: &Edges, table: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    edges
        .iter()
        .filter(|((from, to), _)| !table.get(from).is_some_and(|allowed| allowed.contains(to)))
        .map(|((from, to), files)| {
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            format!("{from} -> {to} (in {})", files.join(", "))
        })
        .collect()
}

/// A circle in `table`, if there is one (as the modules along it).
fn circle(table: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn visit(
        at: &Module,
        table: &BTreeMap<Module, BTreeSet<Module>>,
        path: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
    ) -> Option<Vec<Module>> {
        if let Some(i) = path.iter().position(|m| m == at) {
            let mut around = path[i..].to_vec();
            around.push(at.clone());
            return Some(around);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.clone());
        for next in table.get(at).into_iter().flatten() {
            if let Some(c) = visit(next, table, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.clone());
        None
    }
    let mut done = BTreeSet::new();
    table
        .keys()
        .find_map(|m| visit(m, table, &mut Vec::new(), &mut done))
}

fn server_sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    sources(&src_dir(), &src_dir(), &mut files);
    files.sort();
    files
}

#[test]
fn every_reference_between_folders_is_an_allowed_edge() {
    let files = server_sources();
    let table = allowed_table();
    let bad = forbidden(&edges(&files), &table);
    assert!(
        bad.is_empty(),
        "references the table in docs/server.md (\"Which folder may use which\") does not \
         allow:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_table_names_every_module_and_goes_one_way() {
    let files = server_sources();
    let table = allowed_table();
    let known = modules(&files);
    let listed: BTreeSet<Module> = table.keys().cloned().collect();
    assert_eq!(listed, known, "the table's rows are the server's modules");
    for (from, to) in &table {
        for m in to {
            assert!(known.contains(m), "{from} -> {m}: there is no module {m}");
        }
    }
    assert_eq!(circle(&table), None, "the table must have no circle");
    // lib.rs's map names every module too.
    let lib = &files.iter().find(|(rel, _)| rel == "lib.rs").unwrap().1;
    let map: String = lib
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    for m in &known {
        assert!(
            map.contains(&format!("`{m}`")),
            "lib.rs's map does not name `{m}`"
        );
    }
}

#[test]
fn every_edge_of_the_table_is_used() {
    // An allowed edge nobody uses is a hole left open: the table says what is, not what might be.
    let table = allowed_table();
    let used: BTreeSet<(Module, Module)> = edges(&server_sources()).into_keys().collect();
    let unused: Vec<String> = table
        .iter()
        .flat_map(|(from, to)| to.iter().map(move |t| (from.clone(), t.clone())))
        .filter(|e| !used.contains(e))
        .map(|(from, to)| format!("{from} -> {to}"))
        .collect();
    assert!(
        unused.is_empty(),
        "allowed but unused: {}",
        unused.join(", ")
    );
}

#[test]
fn a_planted_forbidden_reference_is_caught() {
    let mut files = server_sources();
    let table = allowed_table();
    assert!(forbidden(&edges(&files), &table).is_empty());
    // The hub reaching up into a feature, as it once called the explorer.
    files.push((
        "games/planted.rs".into(),
        "use crate::{util::now_ms, explorer::{Explorer, cache}};\n".into(),
    ));
    assert_eq!(
        forbidden(&edges(&files), &table),
        vec!["games -> explorer (in games/planted.rs)".to_string()]
    );
    // And a circle planted in the table itself.
    let mut circled = table.clone();
    circled.get_mut("store").unwrap().insert("app".into());
    assert!(circle(&circled).is_some());
}

#[test]
fn references_are_read_from_paths_and_use_groups() {
    assert_eq!(crate_references("use crate::games::hub::Hub;"), ["games"]);
    assert_eq!(
        crate_references("use crate::{games::{hub::Hub, room}, util};"),
        ["games", "util"]
    );
    assert_eq!(
        crate_references("let x = crate::store::open(); $crate::no; my_crate::no"),
        ["store"]
    );
}

/// A version as numbers, a missing patch read as 0 (`1.88` → [1, 88, 0]).
fn version(text: &str) -> Vec<u64> {
    let mut numbers: Vec<u64> = text.split('.').map(|n| n.parse().unwrap()).collect();
    numbers.resize(3, 0);
    numbers
}

#[test]
fn the_stated_minimum_rust_is_the_real_one() {
    // The workspace's `rust-version` is no lower than any dependency's (their own minimum,
    // from `cargo metadata`), nor than what the sources use: let chains need 1.88. Newer
    // library functions are refused by clippy's `incompatible_msrv`, which reads the same value.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = version(env!("CARGO_PKG_RUST_VERSION"));
    assert!(ours >= version("1.88"), "let chains need Rust 1.88");
    let mut needs: Vec<String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| Some((p["name"].as_str()?, p["rust_version"].as_str()?)))
        .filter(|(_, v)| version(v) > ours)
        .map(|(name, v)| format!("{name} needs {v}"))
        .collect();
    needs.sort();
    assert!(
        needs.is_empty(),
        "rust-version is {}, but: {}",
        env!("CARGO_PKG_RUST_VERSION"),
        needs.join(", ")
    );
}
