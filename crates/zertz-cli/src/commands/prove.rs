//! `zertz prove`: does the player to move win by force within N turns? The prover of
//! `zertz_engine::prove` answers with a checked proof, "no win within N turns", or "unknown"
//! when its node budget runs out.
//!
//! Exit status: 0 a win proven, 3 no win within the turns (proven), 4 unknown within the node
//! budget, 1 a position refused (unreadable, or the game is over), 2 bad options.

use anyhow::anyhow;
use clap::Args;
use zertz::Position;
use zertz::notation::official;
use zertz_engine::prove::{Prover, Verdict};

/// Exit status of a proven win.
pub const EXIT_WIN: i32 = 0;
/// Exit status of a proven "no win within N turns".
pub const EXIT_NO_WIN: i32 = 3;
/// Exit status of an answer left unknown by the node budget.
pub const EXIT_UNKNOWN: i32 = 4;

/// Options of `zertz prove`.
#[derive(Args)]
pub struct ProveArgs {
    /// A position string (quoted), as `zertz show` and the records write it.
    position: String,
    /// The most turns of the player to move to look for a win in (their own turns, captures
    /// included; the opponent's turns are not counted).
    #[arg(long, default_value_t = 3)]
    turns: u32,
    /// The most positions expanded for the proof (and as many again for deciding every other
    /// first move).
    #[arg(long, default_value_t = 5_000_000)]
    nodes: u64,
    /// The prover's table, in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// The moves of `line` from `position` in official notation, numbered by the attacker's turn.
fn line_text(position: &Position, line: &[zertz::Move]) -> String {
    let attacker = position.to_move();
    let mut p = position.clone();
    let mut out = Vec::new();
    let mut turn = 0;
    for m in line {
        let text = official::move_text(&p, m);
        if p.to_move() == attacker {
            turn += 1;
            out.push(format!("{turn}. {text}"));
        } else {
            out.push(format!("({text})"));
        }
        if p.check(m).is_err() {
            break;
        }
        p.play_unchecked(m);
    }
    out.join(" ")
}

/// Runs `zertz prove`; gives the exit status.
pub fn run(args: ProveArgs) -> anyhow::Result<i32> {
    if !(1..=20).contains(&args.turns) {
        anyhow::bail!("--turns must be from 1 to 20");
    }
    if args.nodes == 0 {
        anyhow::bail!("--nodes must be at least 1");
    }
    if !(1..=4096).contains(&args.hash) {
        anyhow::bail!("--hash must be from 1 to 4096 (MB)");
    }
    let position: Position = args
        .position
        .parse()
        .map_err(|e| anyhow!("not a position: {e}"))?;
    let started = std::time::Instant::now();
    let mut prover = Prover::new(args.hash);
    let report = prover.prove(&position, args.turns, args.nodes)?;
    let seconds = started.elapsed().as_secs_f64();
    let player = position.to_move();
    let status = match &report.verdict {
        Verdict::Win {
            turns,
            moves,
            all_moves_checked,
            proof,
        } => {
            println!("{player} wins in {turns}");
            let texts: Vec<String> = moves
                .iter()
                .map(|m| official::move_text(&position, m))
                .collect();
            let which = if *all_moves_checked {
                format!(
                    "winning first moves (every legal move checked: {} of {} win)",
                    moves.len(),
                    position.legal_moves().len()
                )
            } else {
                "winning first moves found (the budget did not cover every move)".to_string()
            };
            println!("{which}: {}", texts.join(", "));
            println!("main line: {}", line_text(&position, &proof.main_line()));
            println!(
                "proof: {}, {}, replayed and checked with the rules",
                counted(proof.nodes.len() as u64, "position"),
                counted(proof.lines(), "line")
            );
            EXIT_WIN
        }
        Verdict::NoWin { within } => {
            let s = if *within == 1 { "" } else { "s" };
            println!("{player}: no win within {within} turn{s}");
            EXIT_NO_WIN
        }
        Verdict::Unknown { .. } => {
            println!("{player}: unknown within {} nodes", args.nodes);
            EXIT_UNKNOWN
        }
    };
    println!(
        "{} nodes in {seconds:.2} s ({:.0} nodes/s)",
        report.nodes,
        report.nodes as f64 / seconds.max(1e-9)
    );
    Ok(status)
}

/// `n` things in words: "1 line", "2 lines".
fn counted(n: u64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod counted_tests {
    #[test]
    fn one_thing_is_singular() {
        assert_eq!(super::counted(1, "line"), "1 line");
        assert_eq!(super::counted(2, "line"), "2 lines");
        assert_eq!(super::counted(0, "position"), "0 positions");
    }
}
