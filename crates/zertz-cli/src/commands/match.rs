//! `zertz match`: plays two players against each other and reports the score, the Elo
//! difference with its error margin, and an SPRT verdict when bounds are given.
//!
//! Progress goes to standard error: a bar on a terminal, otherwise a plain line about every
//! tenth of the match, so that a run in the background or under CI still shows it is alive.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use zertz::record::Record;
use zertz::{Layout, Repetition, RuleSet, Rules};
use zertz_engine::arena::{Builtin, Contestant, MatchConfig, Sprt, run_match};
use zertz_engine::search::MAX_DEPTH;
use zertz_engine::{Kind, Limits, Player, SearchOptions, Think};

use crate::support::engine_log::EngineLog;
use crate::support::external::External;
use crate::support::match_report::{Side, labels, side_json, side_line};

/// Options of `zertz match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Player A: random, greedy, classic, engine, level1..level10, or `cmd:PROGRAM ARGS` for an
    /// external engine speaking the protocol of docs/protocol.md.
    #[arg(long)]
    a: String,
    /// Player B, as for `--a`.
    #[arg(long)]
    b: String,
    /// Number of openings; each is played twice with the players swapped.
    #[arg(long, default_value_t = 50)]
    openings: usize,
    /// Random plies played from the start to make each opening.
    #[arg(long, default_value_t = 2)]
    opening_plies: usize,
    /// Time per move, in milliseconds (of both players, unless `--movetime-a` or
    /// `--movetime-b` gives one its own).
    #[arg(long)]
    movetime: Option<u64>,
    /// Time per move of player A, in milliseconds (time odds); `--movetime` by default.
    #[arg(long)]
    movetime_a: Option<u64>,
    /// Time per move of player B, in milliseconds; `--movetime` by default.
    #[arg(long)]
    movetime_b: Option<u64>,
    /// A game clock for both players, in the protocol's words: `fischer REMAINING INCREMENT`,
    /// `periods PERIOD LEFT`, `reserve PER_MOVE RESERVE STEP` or `permove LIMIT` (ms). The
    /// runner keeps each side's clock (measured around each move, as the time per move),
    /// sends what is left with every move, and a player whose flag falls loses on time.
    #[arg(long)]
    clock: Option<String>,
    /// Positions searched per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move, in placement turns.
    #[arg(long)]
    depth: Option<u32>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the openings and the players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board.
    #[arg(long, default_value = "37")]
    board: String,
    /// Rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Forbid repetition (rules.md 7.2) instead of the threefold draw.
    #[arg(long)]
    no_repetition: bool,
    /// SPRT bounds `ELO0,ELO1` (stop when decided).
    #[arg(long)]
    sprt: Option<String>,
    /// SPRT type I and type II error.
    #[arg(long, default_value_t = 0.05)]
    sprt_error: f64,
    /// Hash table size of each engine, in MB (1 to 4096).
    #[arg(long, default_value_t = 32)]
    hash: usize,
    /// Search threads of each engine (engine levels and external engines; 1 to 64). More than
    /// one makes the games differ from run to run.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Search parameter or evaluation weight for player A, `NAME=VALUE` (repeatable):
    /// sacrifice_cost, capture_cost, extensions, answers, reductions, null_move, or a weight
    /// named as in the weights file (`single.black.1=600`), applied after `--a-weights`.
    #[arg(long = "a-set")]
    a_set: Vec<String>,
    /// Search parameter for player B, as for `--a-set`.
    #[arg(long = "b-set")]
    b_set: Vec<String>,
    /// Evaluation weights file for player A (engine levels), as written by `zertz tune`.
    #[arg(long)]
    a_weights: Option<PathBuf>,
    /// Evaluation weights file for player B.
    #[arg(long)]
    b_weights: Option<PathBuf>,
    /// Write every game as a record (the project's format) into this file. The standard error
    /// of an external engine goes beside it, into `FILE` with the extension `a-stderr.log` or
    /// `b-stderr.log` (without `--out`, into the system's temporary directory).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Builds a contestant for each game from its seed.
type ContestantFactory = Box<dyn Fn(u64) -> Result<Box<dyn Contestant>, String> + Sync>;

fn factory(
    spec: &str,
    weights: Option<&PathBuf>,
    settings: &[String],
    hash: usize,
    threads: usize,
    log: Option<Arc<EngineLog>>,
) -> anyhow::Result<ContestantFactory> {
    if let Some(command) = spec.strip_prefix("cmd:") {
        let command = command.trim().to_string();
        if command.is_empty() {
            bail!("`{spec}`: an external engine is `cmd:PROGRAM ARGS`");
        }
        return Ok(Box::new(move |_seed| {
            External::start(&command, hash, threads, log.as_ref())
                .map(|e| Box::new(e) as Box<dyn Contestant>)
        }));
    }
    let kind: Kind = spec.parse().map_err(|e: String| anyhow::anyhow!(e))?;
    let mut options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    if let Some(path) = weights {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        options.weights = zertz_engine::Weights::parse(&text)?;
    }
    for setting in settings {
        let (name, value) = setting
            .split_once('=')
            .context("a search parameter is NAME=VALUE")?;
        if !options.set(name.trim(), value.trim()) {
            bail!("unknown search parameter or weight, or bad value: `{setting}`");
        }
    }
    Ok(Box::new(move |seed| {
        Ok(Box::new(Builtin {
            player: Player::new(kind, seed, options.clone(), hash),
        }) as Box<dyn Contestant>)
    }))
}

/// Runs `zertz match`.
pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let layout = Layout::from_spec(&args.board).context("bad --board")?;
    let set: RuleSet = args.rules.parse().context("bad --rules")?;
    let rules = Rules {
        set,
        repetition: if args.no_repetition {
            Repetition::Forbidden
        } else {
            Repetition::ThreefoldDraw
        },
        bribes: false,
    };
    let sprt = match &args.sprt {
        None => None,
        Some(text) => {
            let (e0, e1) = text
                .split_once(',')
                .context("--sprt is ELO0,ELO1, such as 0,10")?;
            Some(Sprt {
                elo0: e0.trim().parse().context("--sprt ELO0")?,
                elo1: e1.trim().parse().context("--sprt ELO1")?,
                alpha: args.sprt_error,
                beta: args.sprt_error,
            })
        }
    };
    if args.openings == 0 {
        bail!("--openings must be at least 1");
    }
    if let Some(t) = &sprt
        && t.elo0 >= t.elo1
    {
        bail!(
            "--sprt {}: ELO0 must be below ELO1",
            args.sprt.as_deref().unwrap_or("")
        );
    }
    if !(args.sprt_error > 0.0 && args.sprt_error < 0.5) {
        bail!("--sprt-error must be above 0 and below 0.5");
    }
    for (name, value) in [
        ("--movetime", args.movetime),
        ("--movetime-a", args.movetime_a),
        ("--movetime-b", args.movetime_b),
        ("--nodes", args.nodes),
    ] {
        if value == Some(0) {
            bail!("{name} must be at least 1");
        }
    }
    if let Some(d) = args.depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        bail!("--depth must be from 1 to {MAX_DEPTH}");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if !(1..=4096).contains(&args.hash) {
        bail!("--hash must be from 1 to 4096 (MB)");
    }
    if !(1..=64).contains(&args.threads) {
        bail!("--threads must be from 1 to 64");
    }
    let clock = match &args.clock {
        Some(text) => Some(
            zertz_engine::protocol::parse_clock(text)
                .map_err(|e| anyhow::anyhow!("--clock: {e}"))?,
        ),
        None => None,
    };
    // Time odds: each side's own time per move, else the shared one.
    let think = |movetime: Option<u64>| Think {
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: movetime.or(args.movetime).map(Duration::from_millis),
            clock,
            ..Limits::default()
        },
    };
    let config = MatchConfig {
        layout,
        rules,
        openings: args.openings,
        opening_plies: args.opening_plies,
        think: think(args.movetime_a),
        think_b: Some(think(args.movetime_b)),
        concurrency: args.concurrency,
        seed: args.seed,
        max_turns: 400,
        sprt,
    };
    let log_a = stderr_log(&args.a, args.out.as_deref(), "a")?;
    let log_b = stderr_log(&args.b, args.out.as_deref(), "b")?;
    let a = factory(
        &args.a,
        args.a_weights.as_ref(),
        &args.a_set,
        args.hash,
        args.threads,
        log_a.clone(),
    )
    .context("--a")?;
    let b = factory(
        &args.b,
        args.b_weights.as_ref(),
        &args.b_set,
        args.hash,
        args.threads,
        log_b.clone(),
    )
    .context("--b")?;
    let total = args.openings * 2;
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {elapsed_precise}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let started = Instant::now();
    // Without a terminal, a line about every tenth of the match.
    let every = total.div_ceil(10).max(1);
    let progress = |_g: &zertz_engine::arena::MatchGame, t: &zertz_engine::arena::Tally| {
        let tally = format!(
            "+{} ={} -{}  {:.1}%",
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        );
        if terminal {
            bar.set_message(tally);
            bar.inc(1);
        } else if t.games().is_multiple_of(every) || t.games() == total {
            eprintln!(
                "{}/{total} games  {tally}  {:.0} s",
                t.games(),
                started.elapsed().as_secs_f64()
            );
        }
    };
    let (games, tally) = run_match(&config, a.as_ref(), b.as_ref(), &progress).map_err(|e| {
        let logs: Vec<String> = [&log_a, &log_b]
            .into_iter()
            .flatten()
            .map(|l| l.path().display().to_string())
            .collect();
        if logs.is_empty() {
            anyhow::anyhow!(e)
        } else {
            anyhow::anyhow!("{e} (the engines' standard error: {})", logs.join(", "))
        }
    })?;
    bar.finish_and_clear();
    let (label_a, label_b) = labels(&games, &args.a, &args.b);
    let sides = [
        Side::new(
            "A",
            &label_a,
            &args.a,
            &config.think,
            &games,
            true,
            log_a.as_deref(),
        ),
        Side::new(
            "B",
            &label_b,
            &args.b,
            config.think_b.as_ref().unwrap_or(&config.think),
            &games,
            false,
            log_b.as_deref(),
        ),
    ];

    if let Some(path) = &args.out {
        let mut file = std::fs::File::create(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        for (i, g) in games.iter().enumerate() {
            let (p1, p2) = if g.a_side == zertz::Player::One {
                (&label_a, &label_b)
            } else {
                (&label_b, &label_a)
            };
            let record = Record::new(
                g.game.clone(),
                &[
                    ("Event", &format!("zertz match, opening {}", g.opening + 1)),
                    ("Round", &(i + 1).to_string()),
                    ("Player1", p1),
                    ("Player2", p2),
                    ("Ending", &g.ending),
                ],
            );
            writeln!(file, "{record}")?;
        }
    }
    let (elo, elo_low, elo_high) = tally.elo();
    let finite = |x: f64| {
        if x.is_finite() {
            serde_json::json!(x)
        } else {
            serde_json::json!(if x > 0.0 { "+inf" } else { "-inf" })
        }
    };
    let turns: f64 = games
        .iter()
        .map(|g| g.game.turns().len() as f64)
        .sum::<f64>()
        / games.len().max(1) as f64;
    let sprt_line = config.sprt.map(|t| {
        let (llr, verdict) = tally.sprt(&t);
        let bounds = (
            (t.beta / (1.0 - t.alpha)).ln(),
            ((1.0 - t.beta) / t.alpha).ln(),
        );
        let verdict = match verdict {
            Some(true) => "H1 accepted",
            Some(false) => "H0 accepted",
            None => "undecided",
        };
        (llr, bounds, verdict)
    });
    if args.json {
        let mut v = serde_json::json!({
            "a": label_a, "b": label_b, "a_player": args.a, "b_player": args.b,
            "a_moves": side_json(&sides[0]), "b_moves": side_json(&sides[1]),
            "games": tally.games(), "wins": tally.wins, "draws": tally.draws,
            "losses": tally.losses, "score": tally.score(), "elo": finite(elo), "elo_low": finite(elo_low), "elo_high": finite(elo_high),
            "average_turns": turns, "seconds": started.elapsed().as_secs_f64(),
        });
        if let Some((llr, bounds, verdict)) = sprt_line {
            v["sprt"] = serde_json::json!({"llr": llr, "lower": bounds.0, "upper": bounds.1, "verdict": verdict});
        }
        println!("{v}");
    } else {
        println!(
            "{} vs {}: {} games in {:.0} s",
            label_a,
            label_b,
            tally.games(),
            started.elapsed().as_secs_f64()
        );
        println!(
            "  wins {}  draws {}  losses {}  score {:.1}%",
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score()
        );
        println!("  Elo difference {}", tally.elo_text());
        println!("  average game length {turns:.1} turns");
        if let Some((llr, bounds, verdict)) = sprt_line {
            println!(
                "  SPRT: LLR {llr:.2} (bounds {:.2}, {:.2}): {verdict}",
                bounds.0, bounds.1
            );
        }
        for side in &sides {
            println!("{}", side_line(side));
        }
    }
    Ok(())
}

/// The standard-error log of player `side` (`a` or `b`) when it is an external engine: beside
/// `--out`, else in the temporary directory.
fn stderr_log(
    spec: &str,
    out: Option<&Path>,
    side: &str,
) -> anyhow::Result<Option<Arc<EngineLog>>> {
    if !spec.starts_with("cmd:") {
        return Ok(None);
    }
    let extension = format!("{side}-stderr.log");
    let path = match out {
        Some(out) => out.with_extension(extension),
        None => {
            std::env::temp_dir().join(format!("zertz-match-{}.{extension}", std::process::id()))
        }
    };
    EngineLog::create(&path)
        .map(Some)
        .map_err(|e| anyhow::anyhow!(e))
}
