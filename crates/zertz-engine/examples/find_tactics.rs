//! Finds forced wins in real games, for the tactics suite (`tests/data/tactics.txt`).
//!
//! ```sh
//! cargo run --release -p zertz-engine --example find_tactics -- ../shared/boardspace/loose 200
//! ```
//!
//! For each BoardSpace record (files or folders given; zip archives are not read here) that ends
//! with a win by a winning set, it looks at the positions 3, 5, 7 and 9 plies before the end with
//! the eventual winner to move, searches each with a fixed budget of 1.5 million positions, and prints those where a forced
//! win is proven, as suite lines: `POSITION ; win N ; source, turn, line`. The second argument
//! caps the number of lines. Deterministic: one thread, fixed depth.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use zertz::notation::official;
use zertz::{Outcome, WinReason, boardspace};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

fn files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "sgf") {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = args.first() else {
        eprintln!("usage: find_tactics PATH [MAX]");
        std::process::exit(2);
    };
    let max: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let mut paths = Vec::new();
    files(Path::new(root), &mut paths);
    let engine = Engine::new(SearchOptions::default(), 64);
    let mut found = 0;
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(r) = boardspace::import(&String::from_utf8_lossy(&bytes)) else {
            continue;
        };
        let Some(Outcome::Win {
            winner,
            reason: WinReason::WinningSet,
        }) = r.game.outcome()
        else {
            continue;
        };
        let positions = r.game.positions();
        let end = positions.len() - 1;
        for back in [3usize, 5, 7, 9] {
            if back > end {
                break;
            }
            let index = end - back;
            let position = positions[index];
            if position.to_move() != winner || position.has_capture() {
                continue;
            }
            let game = zertz::Game::from_position(position, r.game.rules());
            engine.clear();
            let stop = AtomicBool::new(false);
            let result = engine.search(&game, &Limits::nodes(1_500_000), &stop, &mut |_| {});
            if let Score::Win(n) = result.score {
                let mut p = position;
                let line: Vec<String> = result
                    .pv
                    .iter()
                    .map(|m| {
                        let t = official::move_text(&p, m);
                        p.play_unchecked(m);
                        t
                    })
                    .collect();
                let name = path
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default();
                println!(
                    "{position} ; win {n} ; {name} turn {} ; {}",
                    index + 1,
                    line.join(" ")
                );
                found += 1;
                if found >= max {
                    return;
                }
            }
        }
    }
}
