//! Ratings: Glicko-2 per pool (rule set and speed), who a finished game rates and by how much
//! (`policy`), profiles and the leaderboard (docs/accounts.md). The pools themselves and the
//! engine levels' published ratings are the games' (`games::pools`, `games::engine_ratings`).

pub mod glicko;
pub mod leaderboard;
pub mod policy;
pub mod profile;
pub mod routes;
pub(crate) mod sql;
pub mod store;
