//! What several subcommands share: the engine's log and test positions, external engines
//! over the protocol, game files, match reports, the puzzles' database and zip archives.

pub mod engine_log;
pub mod engine_positions;
pub mod external;
pub mod game_file;
pub mod match_report;
pub mod puzzles_db;
pub mod zip_entry;
