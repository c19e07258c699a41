//! HTTP plumbing every route shares: the error type, limits on bodies, rates and connections,
//! the headers every answer carries, WebSocket pings, and the static pages. Each feature's
//! routes live in its own folder; `app::router` puts them together.

pub mod body;
pub mod client;
pub mod connections;
pub mod error;
pub mod headers;
pub mod heartbeat;
pub mod limit;
pub mod pages;
pub mod socket;
