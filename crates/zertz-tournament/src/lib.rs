//! Tournaments for ZÈRTZ events, as pure functions over plain data: the FIDE tournament
//! report format ([`trf`]), the FIDE Dutch Swiss system ([`dutch`]), round robin by Berger
//! tables ([`round_robin`]), single-elimination brackets ([`knockout`]), arena pairing and
//! scoring ([`arena`]) and tie-breaks ([`tiebreak`]).
//!
//! "White" everywhere is the player who moves first.
#![deny(missing_docs)]

pub mod dutch;
pub mod matching;
pub mod simulate;
pub mod trf;
