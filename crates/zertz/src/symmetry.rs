//! The canonical key of a position: one 128-bit hash shared by every position equal to it under
//! a symmetry of its layout, and the frame that brings a position to its canonical form.
//!
//! The key depends on the position only (rings, marbles, supply, captures, player to move, rule
//! set and layout), never on the moves that led there, so transpositions share a key too.
//!
//! **How.** For each symmetry `s` of the layout (12 on the hexagons of 37 and 61 rings, fewer on
//! the others, see [`Layout::symmetries`]) the position moved by `s` gets a Zobrist hash
//! `h_s`: one random 128-bit number per (place, feature), XORed over the rings and marbles at
//! their moved places, plus numbers for the counts, the player to move, the rule set and the
//! layout (which no symmetry changes). The key is the smallest `h_s`; the symmetry giving it
//! brings the position to its *canonical frame*. Two positions equal under a symmetry have the
//! same set of `h_s`, so the same key; two that are not would need a 128-bit collision.
//!
//! A position that is itself symmetric (the start, say) reaches its canonical frame by several
//! symmetries: moves that these symmetries make equal (the twelve images of `Wd4,a1` at the
//! start) are one move in the canonical frame, the smallest image ([`Frame::to_canonical`]).
//!
//! [`Tracker`] keeps the twelve hashes along a game, updating them from what each move changed
//! (a few places) instead of hashing every ring again: the explorer's import computes a key per
//! position of tens of thousands of games.

use crate::bits::Bits;
use crate::layout::{Direction, Layout, LayoutRef, MAX_HUGE_PLACES, Place, Symmetry};
use crate::marbles::Player;
use crate::moves::{Capture, Move};
use crate::position::Position;
use crate::rules::RuleSet;
use crate::zobrist;

/// The most symmetries a layout has (those of the regular hexagon).
pub const MAX_SYMMETRIES: usize = 12;

/// The canonical key of a position (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u128);

impl Key {
    /// The key's first 64 bits as a signed integer, for databases whose integers are 64-bit
    /// signed. Two classes of positions share it with probability about 2⁻⁶⁴ per pair: among a
    /// few million positions, about one chance in a million of any shared value.
    pub fn as_i64(self) -> i64 {
        (self.0 >> 64) as u64 as i64
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// The high halves of the keys: the low halves are the rules library's 64-bit Zobrist keys.
static RING_HI: [u64; MAX_HUGE_PLACES] = zobrist::per_place(
    zobrist::table::<64>(11),
    zobrist::table::<64>(14),
    zobrist::table::<{ zobrist::HUGE_ONLY }>(16),
);
static MARBLE_HI: [[u64; MAX_HUGE_PLACES]; 3] = zobrist::marble_keys(
    zobrist::table::<192>(12),
    zobrist::table::<192>(15),
    zobrist::table::<{ 3 * zobrist::HUGE_ONLY }>(17),
);
static COUNT_HI: [u64; 9 * 256] = zobrist::table::<{ 9 * 256 }>(13);
const SIDE_HI: u128 = (zobrist::splitmix(0x5EED_0F51_DE00) as u128) << 64;

#[inline]
fn ring_key(i: usize) -> u128 {
    zobrist::RING[i] as u128 | (RING_HI[i] as u128) << 64
}

#[inline]
fn marble_key(colour: usize, i: usize) -> u128 {
    zobrist::MARBLE[colour][i] as u128 | (MARBLE_HI[colour][i] as u128) << 64
}

#[inline]
fn count_key(slot: usize, n: u8) -> u128 {
    zobrist::count(slot, n) as u128 | (COUNT_HI[slot * 256 + n as usize] as u128) << 64
}

/// A 128-bit FNV-1a hash of text (the layout's description and the rule set's name): these
/// are the same in every run, unlike a layout's id.
fn text_hash(text: &str) -> u128 {
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013B;
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for b in text.bytes() {
        h ^= b as u128;
        h = h.wrapping_mul(PRIME);
    }
    h
}

/// What no symmetry changes: layout, rule set, supply, captures, player to move.
fn invariant_hash(p: &Position, salt: u128) -> u128 {
    let mut h = salt;
    for c in 0..3 {
        h ^= count_key(c, p.supply().0[c]);
        h ^= count_key(3 + c, p.captures(Player::One).0[c]);
        h ^= count_key(6 + c, p.captures(Player::Two).0[c]);
    }
    if p.to_move() == Player::Two {
        h ^= zobrist::SIDE as u128 | SIDE_HI;
    }
    h
}

fn salt_of(layout: &Layout, rule_set: RuleSet) -> u128 {
    text_hash(&format!("{}|{}", layout.spec(), rule_set_text(rule_set)))
}

/// The rule set written out in full (a custom rule set's name already is; written out for
/// every one so that the key never depends on how a name is spelled).
fn rule_set_text(r: RuleSet) -> String {
    format!("{}:{}:{}", r.supply, r.single, r.each)
}

/// The image of a move under a symmetry of `layout` (the move of the position moved by it).
pub fn map_move(layout: &Layout, sym: &Symmetry, m: &Move) -> Move {
    match m {
        Move::Place(p) => Move::place(p.colour, sym.apply(p.at), p.remove.map(|r| sym.apply(r))),
        Move::Capture(c) => {
            // A capture is stored as directions, which a symmetry turns; its landing places
            // carry over as places.
            let landings: Vec<Place> = c
                .steps(layout)
                .unwrap_or_default()
                .iter()
                .map(|&(_, to)| sym.apply(to))
                .collect();
            Capture::from_landings(layout, sym.apply(c.from()), &landings)
                .map(Move::Capture)
                .unwrap_or(*m)
        }
    }
}

/// The index in `layout.symmetries()` of the inverse of symmetry `index` (the group is
/// closed, so it is there).
pub fn inverse(layout: &Layout, index: usize) -> usize {
    let syms = layout.symmetries();
    let s = &syms[index];
    syms.iter()
        .position(|t| layout.places().all(|p| t.apply(s.apply(p)) == p))
        .unwrap_or(0)
}

/// The per-symmetry hashes of a position, kept up to date along a game.
#[derive(Clone, Debug)]
pub struct Tracker {
    layout: LayoutRef,
    salt: u128,
    /// Hash of the rings and marbles moved by each symmetry.
    board: [u128; MAX_SYMMETRIES],
    rings: u64,
    marbles: [u64; 3],
}

impl Tracker {
    /// The hashes of `p`, computed from scratch.
    pub fn new(p: &Position) -> Tracker {
        let layout = p.layout().clone();
        let mut t = Tracker {
            salt: salt_of(&layout, p.rule_set()),
            layout,
            board: [0; MAX_SYMMETRIES],
            rings: 0,
            marbles: [0; 3],
        };
        let marbles = t.current(p);
        t.toggle(p.rings(), marbles);
        t.rings = p.rings();
        t.marbles = marbles;
        t
    }

    fn current(&self, p: &Position) -> [u64; 3] {
        crate::Colour::ALL.map(|c| p.marbles(c))
    }

    /// XORs the given rings and marbles into every symmetry's hash.
    fn toggle(&mut self, rings: u64, marbles: [u64; 3]) {
        for (k, sym) in self.layout.symmetries().iter().enumerate() {
            let mut h = 0;
            for i in Bits(rings) {
                h ^= ring_key(sym.apply(Place(i)).index());
            }
            for (c, &set) in marbles.iter().enumerate() {
                for i in Bits(set) {
                    h ^= marble_key(c, sym.apply(Place(i)).index());
                }
            }
            self.board[k] ^= h;
        }
    }

    /// Moves the hashes on to `p` (a position on the same layout and rule set, usually the
    /// next one of the game): only the places that changed are hashed.
    pub fn advance(&mut self, p: &Position) {
        debug_assert!(*p.layout() == self.layout);
        let marbles = self.current(p);
        let diff = [0, 1, 2].map(|c| marbles[c] ^ self.marbles[c]);
        self.toggle(p.rings() ^ self.rings, diff);
        self.rings = p.rings();
        self.marbles = marbles;
    }

    /// The canonical frame of `p`, the position the hashes were last moved to.
    pub fn frame(&self, p: &Position) -> Frame {
        let inv = invariant_hash(p, self.salt);
        let n = self.layout.symmetries().len();
        let mut best = u128::MAX;
        let mut equivalent: u16 = 0;
        for k in 0..n {
            let h = self.board[k] ^ inv;
            if h < best {
                best = h;
                equivalent = 1 << k;
            } else if h == best {
                equivalent |= 1 << k;
            }
        }
        Frame {
            key: Key(best),
            layout: self.layout.clone(),
            symmetry: equivalent.trailing_zeros() as usize,
            equivalent,
        }
    }
}

/// Where a position stands relative to its canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    key: Key,
    layout: LayoutRef,
    /// The symmetry (index in the layout's list) that brings the position to its canonical
    /// form, the first of `equivalent`.
    symmetry: usize,
    /// Every symmetry that does (more than one for a symmetric position), as bits.
    equivalent: u16,
}

impl Frame {
    /// The canonical frame of `p`.
    pub fn of(p: &Position) -> Frame {
        Tracker::new(p).frame(p)
    }

    /// The canonical key.
    pub fn key(&self) -> Key {
        self.key
    }

    /// The index in the layout's symmetries of the one that brings the position to its
    /// canonical form.
    pub fn symmetry_index(&self) -> usize {
        self.symmetry
    }

    /// The symmetry that brings the position to its canonical form.
    pub fn symmetry(&self) -> &Symmetry {
        &self.layout.symmetries()[self.symmetry]
    }

    /// How many symmetries bring the position to its canonical form (the size of its
    /// stabiliser: 1 for most positions, 12 for the start of the standard board).
    pub fn equivalent_count(&self) -> usize {
        self.equivalent.count_ones() as usize
    }

    /// The position in its canonical frame.
    pub fn canonical(&self, p: &Position) -> Position {
        p.transformed(self.symmetry())
    }

    /// A move of the position as a move of its canonical form: of the images of `m` under the
    /// symmetries that bring the position there, the smallest (so equivalent moves of a
    /// symmetric position are one move).
    pub fn to_canonical(&self, m: &Move) -> Move {
        let syms = self.layout.symmetries();
        Bits(self.equivalent as u64)
            .map(|k| map_move(&self.layout, &syms[k as usize], m))
            .min()
            .unwrap_or(*m)
    }

    /// A move of the canonical form as a move of the position (one of the equivalent moves
    /// when the position is symmetric).
    pub fn from_canonical(&self, m: &Move) -> Move {
        let back = inverse(&self.layout, self.symmetry);
        map_move(&self.layout, &self.layout.symmetries()[back], m)
    }
}

/// A short text for a move that needs no position to read back (only its layout): `w12.30`
/// (a white marble on place 12, ring 30 removed), `g7` (no ring removed), `x14.0153` (a
/// capture from place 14 with jumps in directions 0, 1, 5, 3). Places are indices in the
/// layout. The explorer stores moves of canonical positions this way.
pub fn move_code(m: &Move) -> String {
    match m {
        Move::Place(p) => {
            let colour = p.colour.letter().to_ascii_lowercase();
            match p.remove {
                Some(r) => format!("{colour}{}.{}", p.at.index(), r.index()),
                None => format!("{colour}{}", p.at.index()),
            }
        }
        Move::Capture(c) => {
            let dirs: String = c.directions().map(|d| char::from(b'0' + d as u8)).collect();
            format!("x{}.{dirs}", c.from().index())
        }
    }
}

/// Reads back a [`move_code`] on `layout`; `None` if it is not one (or names a place the
/// layout does not have).
pub fn parse_move_code(layout: &Layout, code: &str) -> Option<Move> {
    let place = |t: &str| -> Option<Place> {
        let i: usize = t.parse().ok()?;
        layout.place_at_index(i)
    };
    let mut chars = code.chars();
    let head = chars.next()?;
    let rest = chars.as_str();
    if head == 'x' {
        let (from, dirs) = rest.split_once('.')?;
        let mut chain = Capture::start(place(from)?);
        for ch in dirs.chars() {
            let d = Direction::from_index(ch.to_digit(10)? as usize)?;
            if !chain.push(d) {
                return None;
            }
        }
        chain.steps(layout)?;
        return Some(Move::Capture(chain));
    }
    let colour = crate::Colour::from_letter(head)?;
    match rest.split_once('.') {
        Some((at, remove)) => Some(Move::place(colour, place(at)?, Some(place(remove)?))),
        None => Some(Move::place(colour, place(rest)?, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::BoardKind;
    use crate::notation::official;

    #[test]
    fn groups_have_the_sizes_of_their_shapes() {
        let sizes: Vec<(&str, usize)> = BoardKind::OFFICIAL
            .iter()
            .map(|&k| (k.name(), Layout::official(k).symmetries().len()))
            .collect();
        // The hexagons have the dihedral group of order 12; 40 and 43 keep one mirror; 44
        // (a rotation by 180 and two mirrors) has 4; 48 (a triangle-like shape: rotations by
        // 120 and three mirrors) has 6. Computed by the layout from its places.
        assert_eq!(
            sizes,
            vec![
                ("37", 12),
                ("40", 2),
                ("43", 2),
                ("44", 4),
                ("48", 6),
                ("61", 12)
            ]
        );
        // Each is a symmetry of the board: neighbours stay neighbours, and all are distinct.
        for &k in &BoardKind::OFFICIAL {
            let l = Layout::official(k);
            for s in l.symmetries() {
                for a in l.places() {
                    for b in l.places() {
                        let near = l.neighbour_mask(a) & b.bit() != 0;
                        let near_after = l.neighbour_mask(s.apply(a)) & s.apply(b).bit() != 0;
                        assert_eq!(near, near_after, "{} {}", k.name(), s.name());
                    }
                }
            }
            for (i, s) in l.symmetries().iter().enumerate() {
                for t in &l.symmetries()[..i] {
                    assert!(l.places().any(|p| s.apply(p) != t.apply(p)));
                }
            }
        }
    }

    #[test]
    fn the_start_is_symmetric_and_its_twelve_first_moves_are_one() {
        let p = Position::standard();
        let f = Frame::of(&p);
        assert_eq!(f.equivalent_count(), 12);
        let m = official::parse(&p, "Wd4,a1").unwrap();
        let canon = f.to_canonical(&m);
        for sym in p.layout().symmetries() {
            let image = map_move(p.layout(), sym, &m);
            assert_eq!(f.to_canonical(&image), canon, "{}", sym.name());
        }
    }

    #[test]
    fn move_codes_read_back() {
        let p = Position::standard();
        for m in p.legal_moves().iter() {
            let code = move_code(m);
            assert_eq!(parse_move_code(p.layout(), &code), Some(*m), "{code}");
        }
        assert_eq!(parse_move_code(p.layout(), "w99.1"), None);
        assert_eq!(parse_move_code(p.layout(), "q1"), None);
        assert_eq!(parse_move_code(p.layout(), "x3.9"), None);
    }
}
