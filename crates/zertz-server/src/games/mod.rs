//! Games and matches: the live games in memory (`hub`), each game's rules and clocks (`room`,
//! `clock`), matches, records, presence and what clients are sent.

pub mod acting;
pub mod clock;
pub mod commit;
pub mod design;
pub mod ended;
pub mod ending;
pub mod engine_ratings;
pub mod engine_seat;
pub mod evict;
pub mod export;
pub mod hub;
pub mod invitation;
pub mod leases;
#[cfg(test)]
mod leases_tests;
pub mod load;
pub mod matches;
pub mod model;
pub mod new_boards;
pub mod new_game;
mod owned;
pub mod pools;
pub mod presence;
pub mod quota;
#[cfg(test)]
pub(crate) mod race_tests;
pub mod records;
pub mod room;
pub mod routes;
pub mod seats;
pub mod watchers;
pub mod wire;
