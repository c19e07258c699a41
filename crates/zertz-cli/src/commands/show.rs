//! `zertz show`: draws a position, or a game record at any move, in the terminal.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use zertz::diagram::{DiagramOptions, Labels, render};
use zertz::notation::official;
use zertz::{Game, Position, Turn};

/// How to label the board.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LabelArg {
    /// Column letters and row numbers along the edges.
    Edges,
    /// Every ring with its official coordinate.
    Every,
    /// Every ring with its host coordinate (rules.md 7.1).
    Host,
}

/// When to colour the output.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ColourArg {
    /// When writing to a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Options of `zertz show`.
#[derive(Args)]
pub struct ShowArgs {
    /// A position string (quoted), or a file: a BoardSpace `.sgf` record or a game record.
    what: String,
    /// For a record: show the position after this many turns (default: the last).
    #[arg(long)]
    turn: Option<usize>,
    /// For a record: draw the board after every turn.
    #[arg(long)]
    all: bool,
    /// Board labels.
    #[arg(long, value_enum, default_value_t = LabelArg::Edges)]
    labels: LabelArg,
    /// Mark the free rings.
    #[arg(long)]
    free: bool,
    /// Colour.
    #[arg(long, value_enum, default_value_t = ColourArg::Auto)]
    colour: ColourArg,
}

/// A game read from a file, with a title.
fn load_game(path: &Path) -> anyhow::Result<(String, Game)> {
    let file = crate::support::game_file::read(path)?;
    let name = |h: &str| file.header(h).unwrap_or("?").to_string();
    let title = if file.from_boardspace {
        format!(
            "{} (player 1) vs {} (player 2), {}{}",
            name("Player1"),
            name("Player2"),
            name("Event"),
            file.result_text
                .as_ref()
                .map(|t| format!(": {t}"))
                .unwrap_or_default()
        )
    } else {
        format!("{} vs {}", name("Player1"), name("Player2"))
    };
    Ok((title, file.game))
}

fn turn_text(game: &Game, i: usize) -> String {
    match game.turns()[i] {
        Turn::Move(mv) => official::move_text(&game.positions()[i], &mv),
        Turn::Pass { bribe } => format!("- (bribe {bribe})"),
    }
}

/// Runs `zertz show`.
pub fn run(args: ShowArgs) -> anyhow::Result<()> {
    let ansi = match args.colour {
        ColourArg::Always => true,
        ColourArg::Never => false,
        ColourArg::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let options = DiagramOptions {
        ansi,
        labels: match args.labels {
            LabelArg::Edges => Labels::Edges,
            LabelArg::Every => Labels::Every,
            LabelArg::Host => Labels::Host,
        },
        mark_free: args.free,
    };
    let path = Path::new(&args.what);
    if !path.is_file() {
        let position: Position = args
            .what
            .parse()
            .with_context(|| format!("`{}` is neither a file nor a position string", args.what))?;
        print!("{}", render(&position, &options));
        println!("\n{position}");
        return Ok(());
    }
    let (title, game) = load_game(path)?;
    println!("{title}");
    let turns = game.turns().len();
    if let Some(t) = args.turn
        && t > turns
    {
        bail!("the record has {turns} turns; --turn {t} is past its end");
    }
    let shown: Vec<usize> = if args.all {
        (0..=turns).collect()
    } else {
        vec![args.turn.unwrap_or(turns)]
    };
    if !args.all {
        let mut line = String::new();
        for i in 0..shown[0] {
            if i % 2 == 0 {
                line.push_str(&format!("{}. ", i / 2 + 1));
            }
            line.push_str(&turn_text(&game, i));
            line.push(' ');
        }
        if !line.is_empty() {
            println!("{}", line.trim_end());
        }
    }
    for &t in &shown {
        println!();
        if t > 0 {
            println!("after turn {t}: {}", turn_text(&game, t - 1));
        } else {
            println!("start");
        }
        let position = &game.positions()[t];
        print!("{}", render(position, &options));
        println!("\n{position}");
    }
    if shown.last() == Some(&turns)
        && let Some(outcome) = game.outcome()
    {
        println!("result: {outcome}");
    }
    Ok(())
}
