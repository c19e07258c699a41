//! Rule sets (supply and winning sets) and the house rules a game may switch on.

use std::fmt;

use crate::marbles::{Colour, Marbles};

/// The marbles a game starts with and the captures that win it.
///
/// A player wins on holding at least `single[c]` marbles of some colour `c`, or at least
/// `each` marbles of every colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// The supply at the start of the game.
    pub supply: Marbles,
    /// Captures of one colour that win: white, grey, black.
    pub single: Marbles,
    /// Captures of every colour that win together.
    pub each: u8,
}

/// Why a custom rule set was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// The text does not have the expected shape.
    #[error(
        "`{0}` is not a rule set (expected standard, blitz, or custom:W/G/B:w/g/b/each such as custom:6/8/10:4/5/6/3)"
    )]
    Malformed(String),
    /// A threshold of zero would be won before the first move.
    #[error("every winning threshold must be at least 1 (in `{0}`)")]
    ZeroThreshold(String),
}

impl RuleSet {
    /// The official game: supply 6/8/10; 4 white, 5 grey, 6 black or 3 of each win.
    pub const STANDARD: RuleSet = RuleSet {
        supply: Marbles::new(6, 8, 10),
        single: Marbles::new(4, 5, 6),
        each: 3,
    };

    /// The official Blitz variant: supply 5/7/9; 3 white, 4 grey, 5 black or 2 of each win.
    pub const BLITZ: RuleSet = RuleSet {
        supply: Marbles::new(5, 7, 9),
        single: Marbles::new(3, 4, 5),
        each: 2,
    };

    /// A custom rule set; every threshold must be at least 1.
    pub fn custom(supply: Marbles, single: Marbles, each: u8) -> Result<RuleSet, RuleSetError> {
        let rules = RuleSet {
            supply,
            single,
            each,
        };
        if each == 0 || single.0.contains(&0) {
            return Err(RuleSetError::ZeroThreshold(rules.to_string()));
        }
        Ok(rules)
    }

    /// True when `captures` is a winning set under these rules.
    #[inline]
    pub fn is_win(&self, captures: Marbles) -> bool {
        let c = captures.0;
        let s = self.single.0;
        c[0] >= s[0]
            || c[1] >= s[1]
            || c[2] >= s[2]
            || (c[0] >= self.each && c[1] >= self.each && c[2] >= self.each)
    }

    /// How many more marbles of `colour` would complete the single-colour set (0 if complete).
    pub fn missing_single(&self, captures: Marbles, colour: Colour) -> u8 {
        self.single.get(colour).saturating_sub(captures.get(colour))
    }

    /// The name used in records: `standard`, `blitz`, or `custom:W/G/B:w/g/b/each`.
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == RuleSet::STANDARD {
            f.write_str("standard")
        } else if *self == RuleSet::BLITZ {
            f.write_str("blitz")
        } else {
            write!(f, "custom:{}:{}/{}", self.supply, self.single, self.each)
        }
    }
}

impl std::str::FromStr for RuleSet {
    type Err = RuleSetError;

    /// Parses `standard`, `blitz` (any case) or `custom:6/8/10:4/5/6/3`.
    fn from_str(text: &str) -> Result<RuleSet, RuleSetError> {
        let malformed = || RuleSetError::Malformed(text.to_string());
        match text.to_ascii_lowercase().as_str() {
            "standard" | "std" => return Ok(RuleSet::STANDARD),
            "blitz" | "basic" => return Ok(RuleSet::BLITZ),
            _ => {}
        }
        let body = text.strip_prefix("custom:").ok_or_else(malformed)?;
        let (supply, wins) = body.split_once(':').ok_or_else(malformed)?;
        let supply = Marbles::parse_slashed(supply).map_err(|_| malformed())?;
        let (single, each) = wins.rsplit_once('/').ok_or_else(malformed)?;
        let single = Marbles::parse_slashed(single).map_err(|_| malformed())?;
        let each: u8 = each.parse().map_err(|_| malformed())?;
        RuleSet::custom(supply, single, each)
    }
}

/// What happens when a position comes back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// The official rule as settled in rules.md 5: a draw when the same position occurs for
    /// the third time.
    #[default]
    ThreefoldDraw,
    /// The house rule of rules.md 7.2: a move that recreates any earlier position is illegal,
    /// and a player left with no legal move loses.
    Forbidden,
}

impl Repetition {
    /// `threefold` or `forbidden`.
    pub fn name(self) -> &'static str {
        match self {
            Repetition::ThreefoldDraw => "threefold",
            Repetition::Forbidden => "forbidden",
        }
    }

    /// Parses [`Repetition::name`].
    pub fn from_name(text: &str) -> Option<Repetition> {
        match text.to_ascii_lowercase().as_str() {
            "threefold" | "draw" => Some(Repetition::ThreefoldDraw),
            "forbidden" | "none" | "no-repetition" => Some(Repetition::Forbidden),
            _ => None,
        }
    }
}

/// Everything a game's rules consist of beyond the board: the rule set and the house rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Supply and winning sets.
    pub set: RuleSet,
    /// Threefold draw or the no-repetition house rule.
    pub repetition: Repetition,
    /// Whether the bribe-to-pass house rule (rules.md 7.3) is on.
    pub bribes: bool,
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::STANDARD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_sets() {
        let s = RuleSet::STANDARD;
        assert!(s.is_win(Marbles::new(4, 0, 0)));
        assert!(s.is_win(Marbles::new(0, 5, 0)));
        assert!(s.is_win(Marbles::new(0, 0, 6)));
        assert!(s.is_win(Marbles::new(3, 3, 3)));
        assert!(!s.is_win(Marbles::new(3, 2, 5)));
        let b = RuleSet::BLITZ;
        assert!(b.is_win(Marbles::new(2, 2, 2)));
        assert!(b.is_win(Marbles::new(3, 0, 0)));
        assert!(!b.is_win(Marbles::new(2, 1, 4)));
    }

    #[test]
    fn names_round_trip() {
        for r in [
            RuleSet::STANDARD,
            RuleSet::BLITZ,
            RuleSet::custom(Marbles::new(7, 9, 11), Marbles::new(4, 5, 6), 3).unwrap(),
        ] {
            assert_eq!(r.to_string().parse::<RuleSet>(), Ok(r));
        }
        assert_eq!("custom:6/8/10:4/5/6/3".parse(), Ok(RuleSet::STANDARD));
        assert!(matches!(
            "custom:6/8/10:0/5/6/3".parse::<RuleSet>(),
            Err(RuleSetError::ZeroThreshold(_))
        ));
        assert!(matches!(
            "fast".parse::<RuleSet>(),
            Err(RuleSetError::Malformed(_))
        ));
        assert!(matches!(
            "custom:6/8:4/5/6/3".parse::<RuleSet>(),
            Err(RuleSetError::Malformed(_))
        ));
    }
}
