//! `zertz`: the command-line front end of the ZÈRTZ rules library.

mod admin_cmd;
mod analyse_cmd;
mod bench_cmd;
mod engine_cmd;
mod engine_log;
mod engine_positions;
mod explorer_cmd;
mod external;
mod game_file;
mod loadtest_cmd;
mod match_cmd;
mod match_report;
mod perft_cmd;
mod play;
mod prove_cmd;
mod puzzles_cmd;
mod puzzles_db;
mod replay;
mod serve_cmd;
mod show;
mod tournament_cmd;
mod tune_cmd;
mod zip_entry;

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
    Perft(Box<perft_cmd::PerftArgs>),
    /// Speak the engine protocol (docs/protocol.md) on standard input and output.
    Engine(engine_cmd::EngineArgs),
    /// Analyse a position (evaluation, best line, top moves) or review a whole game.
    #[command(alias = "analyze")]
    Analyse(Box<analyse_cmd::AnalyseArgs>),
    /// Prove a forced win: does the player to move win within N turns, and with which moves?
    Prove(Box<prove_cmd::ProveArgs>),
    /// Puzzles from real games: `zertz puzzles generate --from PATH... --out FILE`.
    Puzzles(Box<puzzles_cmd::PuzzlesArgs>),
    /// Run the game server: online games, clocks, matches, engine opponents (HTTP + WebSocket).
    Serve(Box<serve_cmd::ServeArgs>),
    /// Load a server with many concurrent games of simulated players (a benchmark).
    Loadtest(Box<loadtest_cmd::LoadtestArgs>),
    /// Measure search speed: nodes per second and time to depth on fixed positions.
    Bench(Box<bench_cmd::BenchArgs>),
    /// Tune the engine's evaluation weights by self-play (SPSA).
    Tune(Box<tune_cmd::TuneArgs>),
    /// Play two players against each other (built-in or external) and report the score.
    Match(Box<match_cmd::MatchArgs>),
    /// Play a game in the terminal: against the engine, or two people at one keyboard.
    Play(Box<play::PlayArgs>),
    /// Replay BoardSpace records (.sgf files, directories, .zip archives) under the rules.
    Replay(Box<replay::ReplayArgs>),
    /// Draw a position, or a game record (BoardSpace .sgf or the project's format) at any turn.
    Show(Box<show::ShowArgs>),
    /// The opening explorer: import BoardSpace archives into the server's database.
    Explorer(explorer_cmd::ExplorerArgs),
    /// The operator's tools: the chat lines players reported.
    Admin(admin_cmd::AdminArgs),
    /// Tournaments: pair the next round of a TRF file, simulate a Swiss tournament.
    Tournament(tournament_cmd::TournamentArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Perft(args) => perft_cmd::run(*args).map(|()| 0)?,
        Command::Engine(args) => engine_cmd::run(args).map(|()| 0)?,
        Command::Match(args) => match_cmd::run(*args).map(|()| 0)?,
        Command::Tune(args) => tune_cmd::run(*args).map(|()| 0)?,
        Command::Serve(args) => serve_cmd::run(*args).map(|()| 0)?,
        Command::Loadtest(args) => loadtest_cmd::run(*args).map(|()| 0)?,
        Command::Bench(args) => bench_cmd::run(*args).map(|()| 0)?,
        Command::Analyse(args) => analyse_cmd::run(*args).map(|()| 0)?,
        Command::Play(args) => play::run(*args).map(|()| 0)?,
        Command::Replay(args) => replay::run(*args)?,
        Command::Prove(args) => prove_cmd::run(*args)?,
        Command::Puzzles(args) => puzzles_cmd::run(*args).map(|()| 0)?,
        Command::Show(args) => show::run(*args).map(|()| 0)?,
        Command::Admin(args) => admin_cmd::run(args).map(|()| 0)?,
        Command::Explorer(args) => explorer_cmd::run(args).map(|()| 0)?,
        Command::Tournament(args) => tournament_cmd::run(args).map(|()| 0)?,
    };
    std::process::exit(status);
}
