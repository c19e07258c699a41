//! Ratings: Glicko-2 per pool (rule set and speed), the engine's published levels, profiles
//! and the leaderboard (docs/accounts.md).

pub mod engines;
pub mod glicko;
pub mod leaderboard;
pub mod pools;
pub mod postgres;
pub mod profile;
pub mod routes;
pub mod sqlite;
pub mod store;
