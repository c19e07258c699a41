//! Helpers shared by the integration tests.

pub mod accounts;
pub mod matches;
pub mod play;
pub mod postgres;
pub mod puzzles;
pub mod server;
pub mod ws;
