//! `zertz`: the command-line front end of the ZÈRTZ rules library.

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
    Perft(perft_cmd::PerftArgs),
    /// Replay BoardSpace records (.sgf files, directories, .zip archives) under the rules.
    Replay(replay::ReplayArgs),
    /// Draw a position, or a game record (BoardSpace .sgf or the project's format) at any turn.
    Show(show::ShowArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Perft(args) => perft_cmd::run(args).map(|()| 0)?,
        Command::Replay(args) => replay::run(args)?,
        Command::Show(args) => show::run(args).map(|()| 0)?,
    };
    std::process::exit(status);
}
