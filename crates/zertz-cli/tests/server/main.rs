//! The server's tests that need `zertz serve` as a process of its own, in one binary: what a
//! kill or a restart keeps (durability, and each feature's part of it), several nodes behind
//! HAProxy, connections and sockets exhausted, the log a real process writes, and the commands
//! run next to a server (`zertz explorer import`, `zertz admin`). The rest of the server's
//! behaviour runs in process: crates/zertz-server/tests/behaviour.

mod common;

mod accounts;
mod chat;
mod connections;
mod custom_boards;
mod design;
mod durability;
mod exhaustion;
mod explorer;
mod games;
mod nodes;
mod presence;
mod puzzles;
mod ratings;
mod reviews;
mod tournaments;
