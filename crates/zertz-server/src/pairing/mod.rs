//! Quick pairing: ask for a game of a pool and be paired with the waiting player nearest in
//! rating (docs/accounts.md, "Quick pairing").

pub mod postgres;
pub mod queue;
pub mod routes;
pub mod service;
mod shared;

pub use service::{JoinError, Paired, Pairing, QueueKey, Ticket};
#[cfg(test)]
mod shared_tests;
