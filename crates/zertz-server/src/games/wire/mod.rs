//! What a game's clients receive: the full state (`view`), the changes after it (`changes`,
//! serialised once for every connection by `broadcast`), the legal moves (`legal`, and the
//! compact form clients expand, `compact`) and the move list (`move_list`).

pub mod broadcast;
pub mod changes;
pub mod compact;
pub mod legal;
pub mod move_list;
pub mod view;
