//! The server's behaviour through its HTTP and WebSocket API, in one binary: each module a
//! feature, its tests against servers run inside this process (`zertz_testkit::in_process`),
//! on SQLite and, when `ZERTZ_TEST_POSTGRES` names a PostgreSQL server, on PostgreSQL too. What
//! needs a process of its own (a kill, several nodes, the exhaustion of sockets, the log of a
//! real `zertz serve`) is in crates/zertz-cli/tests/server.

mod accounts;
mod analysis;
mod arena;
mod attacks;
mod chat;
mod clocks;
mod design;
mod games;
mod headers;
mod knockout;
mod lessons;
mod limits;
mod matches;
mod pairing;
mod positions;
mod presence;
mod puzzles;
mod ratings;
mod records;
mod refusals;
mod reviews;
mod studies;
mod tournaments;
mod trees;
mod web;
