//! Tournaments for ZÈRTZ events, as pure functions over plain data: the FIDE tournament
//! report format ([`trf`]), the FIDE Dutch Swiss system ([`dutch`]), round robin by Berger
//! tables ([`round_robin`]), single-elimination brackets ([`knockout`]), arena pairing and
//! scoring ([`arena`]) and tie-breaks ([`tiebreak`]).
//!
//! "White" everywhere is the player who moves first.
#![deny(missing_docs)]

pub mod arena;
pub mod dutch;
pub mod knockout;
pub mod matching;
pub mod round_robin;
pub mod simulate;
pub mod tiebreak;
pub mod trf;
