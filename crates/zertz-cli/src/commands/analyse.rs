//! `zertz analyse`: the evaluation, best line and top moves of a position, or a move-by-move
//! review of a whole game that marks the mistakes (the same review as the server's, from
//! `zertz_engine::review`: by default the same depth and engine, so the same verdicts).

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use zertz::notation::official;
use zertz::record::Record;
use zertz::{Game, Move, Position, Rules, boardspace};
use zertz_engine::analysis::analyse_position;
use zertz_engine::prove::Prover;
use zertz_engine::review::{self, review};
use zertz_engine::search::MAX_DEPTH;
use zertz_engine::verdicts::{self, Mark};
use zertz_engine::{Engine, Limits, Score, SearchOptions};

/// A score of `mv` in `position` in words: a forced win or loss is claimed ("wins in N") only
/// when the prover confirms it within the review's small budget; otherwise the search's word
/// is given as such ("search: win in N, unproven").
fn claimed(prover: &mut Prover, position: &Position, mv: Option<&Move>, score: Score) -> String {
    let proven = mv.is_some_and(|m| review::confirm(prover, position, m, score));
    verdicts::claim(score, proven)
}

/// Options of `zertz analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// A position string (quoted), or a file: a game record or a BoardSpace `.sgf`.
    what: String,
    /// Time per position, in milliseconds, for its search and the scoring of its top moves
    /// together: the search gets half (default 3000 for a position; a game is reviewed to a
    /// fixed depth unless a time, depth or node limit is given).
    #[arg(long)]
    time: Option<u64>,
    /// Depth per position, in placement turns.
    #[arg(long)]
    depth: Option<u32>,
    /// Positions searched per position, all its searches together.
    #[arg(long)]
    nodes: Option<u64>,
    /// How many top moves to list for a position.
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table, in MB (default 64 for a position, 32 for a game as the server's review).
    #[arg(long)]
    hash: Option<usize>,
    /// Search parameter or evaluation weight `NAME=VALUE` (repeatable), as for `zertz match --a-set`.
    #[arg(long = "set")]
    set: Vec<String>,
}

fn load(what: &str) -> anyhow::Result<(Game, bool)> {
    let path = Path::new(what);
    if !path.is_file() {
        let position: Position = what
            .parse()
            .with_context(|| format!("`{what}` is neither a file nor a position string"))?;
        return Ok((Game::from_position(position, Rules::default()), false));
    }
    let text = String::from_utf8_lossy(
        &std::fs::read(path).with_context(|| format!("cannot read {what}"))?,
    )
    .into_owned();
    let game = if what.to_ascii_lowercase().ends_with(".sgf") || text.trim_start().starts_with('(')
    {
        boardspace::import(&text)
            .with_context(|| format!("{what} cannot be replayed"))?
            .game
    } else {
        Record::parse(&text)
            .with_context(|| format!("{what} is not a readable game record"))?
            .game
    };
    Ok((game, true))
}

/// Runs `zertz analyse`.
pub fn run(args: AnalyseArgs) -> anyhow::Result<()> {
    if args.time == Some(0) || args.nodes == Some(0) {
        anyhow::bail!("--time and --nodes must be at least 1");
    }
    if args.depth.is_some_and(|d| !(1..=MAX_DEPTH).contains(&d)) {
        anyhow::bail!("--depth must be from 1 to {MAX_DEPTH}");
    }
    let hash = args.hash.unwrap_or(64);
    if !(1..=64).contains(&args.threads) || !(1..=4096).contains(&hash) {
        anyhow::bail!("--threads must be from 1 to 64 and --hash from 1 to 4096 (MB)");
    }
    let (game, whole) = load(&args.what)?;
    let mut options = SearchOptions {
        threads: args.threads,
        ..SearchOptions::default()
    };
    for setting in &args.set {
        let (name, value) = setting
            .split_once('=')
            .context("a search parameter is NAME=VALUE")?;
        if !options.set(name.trim(), value.trim()) {
            anyhow::bail!("unknown search parameter or weight, or bad value: `{setting}`");
        }
    }
    let unlimited = args.depth.is_none() && args.nodes.is_none() && args.time.is_none();
    let limits = if whole && unlimited {
        review::default_limits()
    } else {
        Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: if args.depth.is_none() && args.nodes.is_none() {
                Some(Duration::from_millis(args.time.unwrap_or(3000)))
            } else {
                args.time.map(Duration::from_millis)
            },
            ..Limits::default()
        }
    };
    let hash = if whole {
        args.hash.unwrap_or(review::REVIEW_HASH_MB)
    } else {
        hash
    };
    let engine = Engine::new(options, hash);
    if !whole {
        let position = game.position().clone();
        if let Some(outcome) = position.outcome() {
            println!("the game is over: {outcome}");
            return Ok(());
        }
        let a = analyse_position(&engine, &game, &limits, args.top, &mut |info| {
            println!(
                "depth {:>2}  score {:>10}  nodes {:>10}  {:>6} kn/s  {}",
                info.depth,
                info.score.to_string(),
                info.nodes,
                info.nps() / 1000,
                official::line_text(&position, &info.pv).join(" ")
            );
        });
        println!();
        let mut prover = Prover::new(review::REVIEW_PROOF_MB);
        println!(
            "{} to move; evaluation {} (depth {})",
            position.to_move(),
            claimed(
                &mut prover,
                &position,
                a.search.best.as_ref(),
                a.search.score
            ),
            a.search.depth
        );
        println!(
            "best line: {}",
            official::line_text(&position, &a.search.pv).join(" ")
        );
        println!("top moves:");
        for r in &a.top {
            println!(
                "  {:<24} {:>10}   {}",
                official::move_text(&position, &r.mv),
                claimed(&mut prover, &position, Some(&r.mv), r.score),
                official::line_text(&position, &r.pv).join(" ")
            );
        }
        return Ok(());
    }
    println!(
        "{:>4}  {:<8} {:<26} {:>10}   {:<26} {:>10}  mark",
        "turn", "player", "played", "score", "best", "score"
    );
    let never = std::sync::atomic::AtomicBool::new(false);
    let reviewed = review(&engine, &game, &limits, &never, &mut |r| {
        let position = &game.positions()[r.turn];
        let played = format!(
            "{}{}",
            official::move_text(position, &r.played),
            r.mark.symbol()
        );
        let best = if r.best == r.played {
            "=".to_string()
        } else {
            official::move_text(position, &r.best)
        };
        println!(
            "{:>4}  {:<8} {:<26} {:>10}   {:<26} {:>10}  {}",
            r.turn + 1,
            format!("P{}", r.player.number()),
            played,
            r.played_words(),
            best,
            r.best_words(),
            r.mark.name()
        );
    });
    let accuracy = review::accuracies(&reviewed);
    for player in zertz::Player::BOTH {
        let mine: Vec<_> = reviewed.iter().filter(|r| r.player == player).collect();
        let count = |m: Mark| mine.iter().filter(|r| r.mark == m).count();
        let accuracy = accuracy[player as usize].map_or("-".to_string(), |a| format!("{a:.0}"));
        println!(
            "{player}: {} moves, accuracy {accuracy}, {} inaccuracies (?!), {} mistakes (?), {} blunders (??)",
            mine.len(),
            count(Mark::Inaccuracy),
            count(Mark::Mistake),
            count(Mark::Blunder)
        );
    }
    if let Some(outcome) = game.outcome() {
        println!("result: {outcome}");
    }
    Ok(())
}
