//! The per-side part of `zertz match`'s summary: each player's label (the name it announced),
//! its limits, the time its moves took (mean and longest), the positions it searched when it
//! reported them, and where its standard error was kept.

use std::path::PathBuf;

use zertz_engine::Think;
use zertz_engine::arena::{MatchGame, MoveStats};

use crate::support::engine_log::EngineLog;
use crate::support::external::limit_words;

/// One side of a finished match, for the summary.
pub struct Side {
    /// `A` or `B`.
    pub letter: &'static str,
    /// The name it is known by.
    pub label: String,
    /// The player as given on the command line.
    pub spec: String,
    /// Its limits per move, in the protocol's words.
    pub limits: String,
    /// Its moves over the whole match.
    pub stats: MoveStats,
    /// Its standard-error log (external engines).
    pub log: Option<PathBuf>,
}

impl Side {
    /// Side A (`is_a`) or B of `games`.
    pub fn new(
        letter: &'static str,
        label: &str,
        spec: &str,
        think: &Think,
        games: &[MatchGame],
        is_a: bool,
        log: Option<&EngineLog>,
    ) -> Side {
        let mut stats = MoveStats::default();
        for g in games {
            stats.merge(if is_a { &g.a_moves } else { &g.b_moves });
        }
        Side {
            letter,
            label: label.to_string(),
            spec: spec.to_string(),
            limits: limit_words(&think.limits),
            stats,
            log: log.map(|l| l.path().to_path_buf()),
        }
    }
}

/// The labels of A and B: the names their contestants gave in the first game (an external
/// engine's `id`, else its command), marked `(A)` and `(B)` when they are the same.
pub fn labels(games: &[MatchGame], a: &str, b: &str) -> (String, String) {
    let (la, lb) = games
        .first()
        .map(|g| (g.a_name.clone(), g.b_name.clone()))
        .unwrap_or_else(|| (a.to_string(), b.to_string()));
    if la == lb {
        (format!("{la} (A)"), format!("{lb} (B)"))
    } else {
        (la, lb)
    }
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The summary's line of one side:
/// `  A zertz-engine 0.1.0: 61 moves (limits: time 20), time per move mean 21.4 ms, max 32.0 ms, nodes per move 1502`.
pub fn side_line(side: &Side) -> String {
    let s = &side.stats;
    let limits = if side.limits.is_empty() {
        "the player's own".to_string()
    } else {
        side.limits.clone()
    };
    let nodes = match s.mean_nodes() {
        Some(n) => format!("nodes per move {n}"),
        None => "nodes not reported".to_string(),
    };
    let mut line = format!(
        "  {} {}: {} moves (limits: {limits}), time per move mean {:.1} ms, max {:.1} ms, {nodes}",
        side.letter,
        side.label,
        s.moves,
        ms(s.mean()),
        ms(s.longest),
    );
    if side.label != side.spec {
        line.push_str(&format!("\n    player: {}", side.spec));
    }
    if let Some(path) = &side.log {
        line.push_str(&format!("\n    standard error: {}", path.display()));
    }
    line
}

/// One side in the JSON summary.
pub fn side_json(side: &Side) -> serde_json::Value {
    let s = &side.stats;
    serde_json::json!({
        "moves": s.moves,
        "limits": side.limits,
        "mean_ms": ms(s.mean()),
        "max_ms": ms(s.longest),
        "nodes_per_move": s.mean_nodes(),
        "stderr_log": side.log.as_ref().map(|p| p.display().to_string()),
    })
}
