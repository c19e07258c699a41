//! What the tests of `zertz serve` as a process use: the process (`server`), and what every
//! test of the server shares (crates/zertz-testkit).

pub mod server;

#[allow(unused_imports)]
pub use zertz_testkit::{accounts, matches, play, postgres, puzzles, ws};
