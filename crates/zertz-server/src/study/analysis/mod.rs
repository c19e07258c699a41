//! The engine on the analysis board: a session per WebSocket (`sessions`, `socket`) and the
//! engine's line on a finished game's position (`game`, `routes`).

pub mod finished;
pub mod game;
pub mod routes;
pub mod sessions;
pub mod socket;
