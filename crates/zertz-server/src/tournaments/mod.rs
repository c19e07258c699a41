//! Tournaments run by the server (issue 38; docs/tournaments.md, "Running an event on the
//! server"): an account creates an event, players join while it registers, and the server
//! pairs each round as soon as the previous one's games are all finished, plays them as
//! ordinary games between the two accounts, records their results from the finished-game
//! announcement and keeps the standings with their tie-breaks. The pairing and the tie-breaks
//! are the pure crate `zertz_tournament`'s.
//!
//! Formats run now: Swiss (FIDE Dutch), round robin (Berger tables) and the host's
//! death-match knockout (`knockout`: a bracket of best-of-3 matches, a pairing's row holding
//! a match where the others hold a game, its result heard from the match's end) and the
//! arena (`arena`: waves of free players for a fixed time, streaks and berserk).
//!
//! Everything is in the database: a server that restarts reloads the running events and
//! catches up the games that finished while it was down; a round is stored once, in one
//! transaction guarded by the key (event, round), so two nodes (or a retry) never pair it
//! twice. The storage is written once for both databases (`sql.rs`): nothing of it differs
//! between SQLite and PostgreSQL.

pub mod arena;
pub mod knockout;
pub mod model;
pub mod new_event;
pub mod pair;
pub mod routes;
pub mod service;
pub(crate) mod sql;
pub mod store;

pub use service::{TournamentError, Tournaments};
