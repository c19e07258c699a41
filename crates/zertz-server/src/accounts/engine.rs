//! The engine's levels as accounts, so that an organiser can enter them in an event as players
//! (issue 38: "engine levels may be entered by the organiser as players"): an event's entries,
//! pairings and standings name accounts, and the database holds them to it. One row per level,
//! made the first time it is entered: id `engine7`, name `Engine level 7` (names that begin with
//! "engine" are kept from sign-ups, and account ids made at sign-up begin with `a`). Its password
//! hash is no hash at all, so nobody logs in to it; it is never "seen", so no list of players
//! shows it.

/// The account id of engine level `level`.
pub fn id(level: u8) -> String {
    format!("engine{level}")
}

/// The name of engine level `level`, as a game names its seat.
pub fn name(level: u8) -> String {
    format!("Engine level {level}")
}

/// The level of the engine account `account_id`, if it is one.
pub fn level_of(account_id: &str) -> Option<u8> {
    let level: u8 = account_id.strip_prefix("engine")?.parse().ok()?;
    ((1..=10).contains(&level) && id(level) == account_id).then_some(level)
}

/// The password hash of an engine account: not a PHC string, so that no password matches it.
pub const NO_PASSWORD: &str = "!";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_is_read_back_from_its_id_only() {
        for level in 1..=10 {
            assert_eq!(level_of(&id(level)), Some(level));
        }
        for other in [
            "engine0", "engine11", "engine07", "engine", "a1b2c3", "engine7x",
        ] {
            assert_eq!(level_of(other), None, "{other}");
        }
        assert!(!crate::accounts::password::verify_now("", NO_PASSWORD));
        assert!(!crate::accounts::password::verify_now("!", NO_PASSWORD));
    }
}
