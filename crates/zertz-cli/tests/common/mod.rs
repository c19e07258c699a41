//! Helpers shared by the integration tests.

pub mod postgres;
pub mod server;
