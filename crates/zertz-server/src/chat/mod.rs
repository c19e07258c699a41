//! The public game room: chat beside every game and match, moves typed in the room, questions
//! about coordinates, mutes and reports (docs/accounts.md, "The game room"); and the site's
//! public room (`public`), where everyone online talks.

pub mod postgres;
pub mod public;
pub mod routes;
pub mod rules;
pub mod service;
pub(crate) mod sql;
pub mod sqlite;
pub mod store;
pub mod typed;

pub use service::{Chat, ChatError, GameRoom, Speaker, game_room, match_room, tournament_room};
