//! `zertz tournament`: pair the next round of a TRF file, or simulate a whole Swiss
//! tournament, so that the pairings can be checked by other programs.

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use zertz_tournament::{dutch, simulate, trf::Trf};

/// Arguments of `zertz tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    command: TournamentCommand,
}

/// The pairing system.
#[derive(Clone, Copy, ValueEnum)]
enum System {
    /// The FIDE Dutch system (C.04.3, as applied from 1 July 2025).
    Dutch,
}

#[derive(Subcommand)]
enum TournamentCommand {
    /// Print the next round's pairing of a TRF file (TRF-2026 or TRF(x), with XXR and XXC):
    /// the number of pairs, then `FIRST SECOND` per pair (the first moves first) and `N 0`
    /// for the pairing-allocated bye.
    Pair {
        /// The pairing system.
        #[arg(long, value_enum, default_value = "dutch")]
        system: System,
        /// The tournament file.
        file: PathBuf,
    },
    /// Print a whole tournament as TRF, paired round by round with random results (draws,
    /// forfeits, requested byes, withdrawals).
    Simulate {
        /// The pairing system.
        #[arg(long, value_enum, default_value = "dutch")]
        system: System,
        /// The number of players.
        #[arg(long)]
        players: u32,
        /// The number of rounds.
        #[arg(long)]
        rounds: u32,
        /// The random seed: the same seed gives the same tournament.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Runs `zertz tournament`.
pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    match args.command {
        TournamentCommand::Pair { system, file } => {
            let System::Dutch = system;
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let trf = Trf::parse(&text).with_context(|| format!("{}", file.display()))?;
            let input = dutch::SwissInput::from_trf(&trf)?;
            let pairing = dutch::pair(&input)?;
            print!("{}", pairing.to_text());
        }
        TournamentCommand::Simulate {
            system,
            players,
            rounds,
            seed,
        } => {
            let System::Dutch = system;
            if players < 2 {
                bail!("a tournament needs at least 2 players");
            }
            if rounds == 0 {
                bail!("a tournament needs at least 1 round");
            }
            let trf = simulate::simulate(players, rounds, seed)?;
            print!("{}", trf.write("\n"));
        }
    }
    Ok(())
}
