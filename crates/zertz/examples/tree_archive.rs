//! How fast trees read and write real games: every record of a BoardSpace archive (folders,
//! `.sgf`, `.zip`) read by BoardSpace's reader, read as a tree, and the tree written as a
//! record and as SGF and read back from each; the time of each step, in records a second.
//!
//! ```sh
//! cargo run --release -p zertz --example tree_archive -- ../shared/boardspace
//! ```

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use zertz::boardspace::import;
use zertz::tree::GameTree;

fn records(path: &Path, out: &mut Vec<String>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            records(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "sgf") {
        if let Ok(bytes) = std::fs::read(path) {
            out.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    } else if path.extension().is_some_and(|e| e == "zip") {
        let Ok(file) = std::fs::File::open(path) else {
            return;
        };
        let Ok(mut archive) = zip::ZipArchive::new(file) else {
            return;
        };
        for i in 0..archive.len() {
            let Ok(mut entry) = archive.by_index(i) else {
                continue;
            };
            if !entry.name().ends_with(".sgf") {
                continue;
            }
            let mut bytes = Vec::new();
            if entry.read_to_end(&mut bytes).is_ok() {
                out.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/boardspace".into());
    let mut texts = Vec::new();
    records(Path::new(&dir), &mut texts);
    let texts: Vec<String> = texts.into_iter().filter(|t| import(t).is_ok()).collect();
    let n = texts.len();
    let time = |name: &str, f: &mut dyn FnMut()| -> Duration {
        let t = Instant::now();
        f();
        let d = t.elapsed();
        println!(
            "{name:<32} {:>8.3} s  {:>9.0} records/s",
            d.as_secs_f64(),
            n as f64 / d.as_secs_f64()
        );
        d
    };
    println!("{n} records that BoardSpace's reader replays");
    time("boardspace::import", &mut || {
        for t in &texts {
            std::hint::black_box(import(t).ok());
        }
    });
    let mut trees = Vec::with_capacity(n);
    time("GameTree::from_text (SGF)", &mut || {
        trees = texts
            .iter()
            .filter_map(|t| GameTree::from_text(t).ok())
            .collect();
    });
    let mut written = Vec::with_capacity(n);
    time("to_record_text", &mut || {
        written = trees.iter().map(|t| t.to_record_text()).collect();
    });
    time("GameTree::from_text (record)", &mut || {
        for t in &written {
            std::hint::black_box(GameTree::from_text(t).ok());
        }
    });
    let mut sgfs = Vec::with_capacity(n);
    time("to_sgf", &mut || {
        sgfs = trees.iter().filter_map(|t| t.to_sgf().ok()).collect();
    });
    time("GameTree::from_text (our SGF)", &mut || {
        for t in &sgfs {
            std::hint::black_box(GameTree::from_text(t).ok());
        }
    });
    let same = written
        .iter()
        .zip(&trees)
        .filter(|(w, t)| GameTree::from_text(w).ok().as_ref() == Some(*t))
        .count();
    println!(
        "{same} of {} trees read back equal from the record text",
        trees.len()
    );
    let longest = trees.iter().map(GameTree::depth).max().unwrap_or(0);
    println!("longest main line: {longest} steps");
}
