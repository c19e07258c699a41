//! `zertz`: the command-line front end of the ZÈRTZ rules library.

mod perft_cmd;

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
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft(args) => perft_cmd::run(args),
    }
}
