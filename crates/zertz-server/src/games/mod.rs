//! Games and matches: the live games in memory (`hub`), each game's rules and clocks (`room`,
//! `clock`), matches, records, presence and what clients are sent.

pub mod broadcast;
pub mod changes;
pub mod clock;
pub mod compact;
pub mod design;
pub mod ending;
pub mod engine_seat;
pub mod evict;
pub mod export;
pub mod hub;
pub mod invitation;
pub mod legal;
pub mod match_state;
pub mod matches;
pub mod model;
pub mod move_list;
pub mod presence;
pub mod quota;
pub mod records;
pub mod room;
pub mod view;
pub mod watchers;
