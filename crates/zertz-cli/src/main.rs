//! `zertz`: the command-line front end of the ZÈRTZ rules library.

mod external;
mod match_cmd;
mod perft_cmd;
mod replay;
mod show;

use clap::{Parser, Subcommand};

/// ZÈRTZ: rules, records and tools.
#[derive(Parser)]
#[command(name = "zertz", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (perft) from the start or a given position.
    Perft(Box<perft_cmd::PerftArgs>),
    /// Play two players against each other (built-in or external) and report the score.
    Match(Box<match_cmd::MatchArgs>),
    /// Replay BoardSpace records (.sgf files, directories, .zip archives) under the rules.
    Replay(Box<replay::ReplayArgs>),
    /// Draw a position, or a game record (BoardSpace .sgf or the project's format) at any turn.
    Show(Box<show::ShowArgs>),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Perft(args) => perft_cmd::run(*args).map(|()| 0)?,
        Command::Match(args) => match_cmd::run(*args).map(|()| 0)?,
        Command::Replay(args) => replay::run(*args)?,
        Command::Show(args) => show::run(*args).map(|()| 0)?,
    };
    std::process::exit(status);
}
