//! Marble colours, players, and counts of marbles by colour.

use std::fmt;

/// The colour of a marble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// White (the rarest: 6 in the standard supply).
    White = 0,
    /// Grey (8 in the standard supply).
    Grey = 1,
    /// Black (10 in the standard supply).
    Black = 2,
}

impl Colour {
    /// All colours, in the order white, grey, black (also the index order).
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Grey, Colour::Black];

    /// The colour's index: 0 white, 1 grey, 2 black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour of index `i` (0 white, 1 grey, 2 black).
    pub const fn from_index(i: usize) -> Option<Colour> {
        match i {
            0 => Some(Colour::White),
            1 => Some(Colour::Grey),
            2 => Some(Colour::Black),
            _ => None,
        }
    }

    /// The letter of official notation: `W`, `G` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Grey => 'G',
            Colour::Black => 'B',
        }
    }

    /// The colour of an official notation letter (upper or lower case).
    pub const fn from_letter(c: char) -> Option<Colour> {
        match c {
            'W' | 'w' => Some(Colour::White),
            'G' | 'g' => Some(Colour::Grey),
            'B' | 'b' => Some(Colour::Black),
            _ => None,
        }
    }

    /// The English name: "white", "grey", "black".
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Grey => "grey",
            Colour::Black => "black",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the two players. Player one moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who moves first.
    One = 0,
    /// The player who moves second.
    Two = 1,
}

impl Player {
    /// Both players, first mover first.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];

    /// 0 for player one, 1 for player two.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// The player of index 0 or 1.
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::One),
            1 => Some(Player::Two),
            _ => None,
        }
    }

    /// The player's number as shown to people: 1 or 2.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// A number of marbles of each colour: a supply, a player's captures, a bribe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marbles(pub [u8; 3]);

impl Marbles {
    /// No marbles.
    pub const NONE: Marbles = Marbles([0; 3]);

    /// `white`, `grey` and `black` marbles.
    pub const fn new(white: u8, grey: u8, black: u8) -> Marbles {
        Marbles([white, grey, black])
    }

    /// How many marbles of `colour`.
    #[inline]
    pub const fn get(self, colour: Colour) -> u8 {
        self.0[colour as usize]
    }

    /// Sets the count of `colour`.
    #[inline]
    pub fn set(&mut self, colour: Colour, n: u8) {
        self.0[colour as usize] = n;
    }

    /// Total number of marbles.
    pub const fn total(self) -> u32 {
        self.0[0] as u32 + self.0[1] as u32 + self.0[2] as u32
    }

    /// True when there are no marbles at all.
    pub const fn is_empty(self) -> bool {
        self.0[0] == 0 && self.0[1] == 0 && self.0[2] == 0
    }

    /// True when every colour count is at most the one in `other`.
    pub fn fits_in(self, other: Marbles) -> bool {
        (0..3).all(|i| self.0[i] <= other.0[i])
    }

    /// The colours with at least one marble.
    pub fn colours(self) -> impl Iterator<Item = Colour> {
        Colour::ALL.into_iter().filter(move |c| self.get(*c) > 0)
    }

    /// Adds `other`, or `None` if a count would pass 255.
    pub fn checked_add(self, other: Marbles) -> Option<Marbles> {
        let mut out = self;
        for i in 0..3 {
            out.0[i] = self.0[i].checked_add(other.0[i])?;
        }
        Some(out)
    }

    /// Subtracts `other`, or `None` if a count would go below zero.
    pub fn checked_sub(self, other: Marbles) -> Option<Marbles> {
        let mut out = self;
        for i in 0..3 {
            out.0[i] = self.0[i].checked_sub(other.0[i])?;
        }
        Some(out)
    }

    /// Parses `W/G/B` counts such as `6/8/10`.
    pub fn parse_slashed(text: &str) -> Result<Marbles, String> {
        let parts: Vec<&str> = text.split('/').collect();
        if parts.len() != 3 {
            return Err(format!(
                "expected three counts white/grey/black such as 6/8/10, found `{text}`"
            ));
        }
        let mut out = Marbles::NONE;
        for (i, part) in parts.iter().enumerate() {
            out.0[i] = part.parse::<u8>().map_err(|_| {
                format!(
                    "`{part}` is not a marble count (0 to 255) for {}",
                    Colour::ALL[i].name()
                )
            })?;
        }
        Ok(out)
    }
}

impl fmt::Display for Marbles {
    /// Written `white/grey/black`, e.g. `6/8/10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.0[0], self.0[1], self.0[2])
    }
}
