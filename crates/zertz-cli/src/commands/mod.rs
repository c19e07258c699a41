//! One module per subcommand of `zertz`: its arguments (`…Args`, read by clap) and its `run`.

pub mod admin;
pub mod analyse;
pub mod bench;
pub mod engine;
pub mod explorer;
pub mod loadtest;
pub mod r#match;
pub mod perft;
pub mod play;
pub mod prove;
pub mod puzzles;
pub mod replay;
pub mod serve;
pub mod show;
pub mod tournament;
pub mod tune;
