//! The engine's levels on the rating scale: fixed, published ratings measured from their
//! matches against each other (docs/strength.md, "The levels": levels 2 to 4 at commit 07c0107,
//! 5 to 10 again on 30 November 2026 at d98858a, after the way a node limit ends a search
//! changed), anchored with level 1 at 800. Games against the engine are unrated; the numbers
//! are shown beside its name so that a player can compare.

/// The Elo gain of each level over the one below (levels 2 to 10), as measured.
const STEPS: [i32; 9] = [145, 225, 67, 306, 319, 275, 160, 241, 182];

/// Level 1's rating: the anchor of the scale, chosen, not measured.
pub const LEVEL_1: i32 = 800;

/// The published rating of engine level `level` (1 to 10).
pub fn rating(level: u8) -> Option<i32> {
    let steps = usize::from(level).checked_sub(1)?;
    if steps > STEPS.len() {
        return None;
    }
    Some(LEVEL_1 + STEPS[..steps].iter().sum::<i32>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_is_above_the_one_below() {
        assert_eq!(rating(1), Some(800));
        assert_eq!(rating(2), Some(945));
        assert_eq!(rating(10), Some(2720));
        assert_eq!(rating(0), None);
        assert_eq!(rating(11), None);
        for level in 2..=10 {
            assert!(rating(level) > rating(level - 1));
        }
    }
}
