//! What the tests of the ZÈRTZ server share: [`site::Site`], a client of its HTTP API with the
//! calls that set up games; [`ws`], WebSocket clients that check every event; browsers that
//! keep cookies ([`accounts`]); matches, play and puzzle sets; a fresh PostgreSQL database per
//! test ([`postgres`], and the `on_sqlite_and_postgres!` macro); and [`in_process::Server`], the
//! server run inside the test process. The tests that start `zertz serve` as a process add
//! their own server (crates/zertz-cli/tests/server/common).

#![warn(missing_docs)]

pub mod accounts;
pub mod in_process;
pub mod matches;
pub mod play;
pub mod postgres;
pub mod puzzles;
pub mod site;
pub mod tournaments;
pub mod ws;
