//! `zertz`: the command-line front end of the ZÈRTZ rules library.

mod commands;
mod support;

use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: under `zertz loadtest --games 5000` the server
/// used about 8% less CPU and its latency tail shrank; `zertz bench` ran about 5% faster
/// (docs/server.md, docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    Perft(Box<commands::perft::PerftArgs>),
    /// Speak the engine protocol (docs/protocol.md) on standard input and output.
    Engine(commands::engine::EngineArgs),
    /// Analyse a position (evaluation, best line, top moves) or review a whole game.
    #[command(alias = "analyze")]
    Analyse(Box<commands::analyse::AnalyseArgs>),
    /// Prove a forced win: does the player to move win within N turns, and with which moves?
    Prove(Box<commands::prove::ProveArgs>),
    /// Puzzles from real games: `zertz puzzles generate --from PATH... --out FILE`.
    Puzzles(Box<commands::puzzles::PuzzlesArgs>),
    /// Run the game server: online games, clocks, matches, engine opponents (HTTP + WebSocket).
    Serve(Box<commands::serve::ServeArgs>),
    /// Load a server with many concurrent games of simulated players (a benchmark).
    Loadtest(Box<commands::loadtest::LoadtestArgs>),
    /// Measure search speed: nodes per second and time to depth on fixed positions.
    Bench(Box<commands::bench::BenchArgs>),
    /// Tune the engine's evaluation weights by self-play (SPSA).
    Tune(Box<commands::tune::TuneArgs>),
    /// Play two players against each other (built-in or external) and report the score.
    Match(Box<commands::r#match::MatchArgs>),
    /// Play a game in the terminal: against the engine, or two people at one keyboard.
    Play(Box<commands::play::PlayArgs>),
    /// Replay BoardSpace records (.sgf files, directories, .zip archives) under the rules.
    Replay(Box<commands::replay::ReplayArgs>),
    /// Draw a position, or a game record (BoardSpace .sgf or the project's format) at any turn.
    Show(Box<commands::show::ShowArgs>),
    /// The opening explorer: import BoardSpace archives into the server's database.
    Explorer(commands::explorer::ExplorerArgs),
    /// The operator's tools: the chat lines players reported.
    Admin(commands::admin::AdminArgs),
    /// Tournaments: pair the next round of a TRF file, simulate a Swiss tournament.
    Tournament(commands::tournament::TournamentArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Perft(args) => commands::perft::run(*args).map(|()| 0)?,
        Command::Engine(args) => commands::engine::run(args).map(|()| 0)?,
        Command::Match(args) => commands::r#match::run(*args).map(|()| 0)?,
        Command::Tune(args) => commands::tune::run(*args).map(|()| 0)?,
        Command::Serve(args) => commands::serve::run(*args).map(|()| 0)?,
        Command::Loadtest(args) => commands::loadtest::run(*args).map(|()| 0)?,
        Command::Bench(args) => commands::bench::run(*args).map(|()| 0)?,
        Command::Analyse(args) => commands::analyse::run(*args).map(|()| 0)?,
        Command::Play(args) => commands::play::run(*args).map(|()| 0)?,
        Command::Replay(args) => commands::replay::run(*args)?,
        Command::Prove(args) => commands::prove::run(*args)?,
        Command::Puzzles(args) => commands::puzzles::run(*args).map(|()| 0)?,
        Command::Show(args) => commands::show::run(*args).map(|()| 0)?,
        Command::Admin(args) => commands::admin::run(args).map(|()| 0)?,
        Command::Explorer(args) => commands::explorer::run(args).map(|()| 0)?,
        Command::Tournament(args) => commands::tournament::run(args).map(|()| 0)?,
    };
    std::process::exit(status);
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The README's list of commands (its "What `zertz` does today") names every command the
    /// program has, so a new command cannot be left out of it (`prove` and `puzzles` were).
    #[test]
    fn the_readme_lists_every_command() {
        let readme = include_str!("../../../README.md");
        let listed = readme
            .split("## What `zertz` does today")
            .nth(1)
            .expect("the README has its list of commands");
        let missing: Vec<String> = super::Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .filter(|name| !listed.contains(&format!("zertz {name} ")))
            .collect();
        assert!(missing.is_empty(), "not in the README's list: {missing:?}");
    }
}
