//! Boards: the places of a layout, their official coordinates, neighbours and symmetries.
//!
//! Rings sit on a hexagonal grid made of vertical columns. Column `x` (a = 0) starts at height
//! `first[x]`, and ring `row` of that column sits at height `y = 2 * (row - 1) + first[x]`. The six
//! neighbours of `(x, y)` are `(x, y ± 2)` and `(x ± 1, y ± 1)`. A set of places is a
//! [`PlaceSet`] with bit `i` for place index `i`: a `u64` on boards of up to 64 places (every
//! official board and most custom ones), a `u128` on boards of up to 128, a [`Huge`] (256 bits)
//! on larger ones ([`Layout::custom_wide`], [`Layout::width`]).
//!
//! The six official boards use the frames of rules.md section 2. Custom layouts use BoardSpace's
//! "Zertz+xx" frame, where column `a` starts half a step below column `b`, `c` like `a`, and so on
//! (`first = 1, 2, 1, 2, …`); their coordinates are read in that frame.
//!
//! A position holds its layout through a [`LayoutRef`]: an official layout is built once and
//! lives for the whole program (a plain `&'static` reference, copied for free), a custom one is
//! shared by an [`Arc`] and freed when the last position, game or handle that holds it goes.
//! While a custom layout is alive, asking for the same places again gives that same layout (a
//! registry of [`Weak`] references, pruned as layouts go).

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock, Weak};

use crate::bits::{Bits, Huge, Narrow, PlaceSet, Wide, bit};
pub use crate::layout_ref::LayoutRef;

/// The most places of a layout whose sets of places are `u64` ([`Layout::custom`],
/// [`Layout::from_spec`]).
pub const MAX_PLACES: usize = 64;

/// The most places of a layout whose sets of places are `u128` ([`Wide`]).
pub const MAX_WIDE_PLACES: usize = 128;

/// The most places of any layout ([`Layout::custom_wide`]): BoardSpace's "Zertz+xx" grid has
/// 17 columns of 12 rings, 204 places (its largest records hold 111). Sets of places of a
/// layout of more than [`MAX_WIDE_PLACES`] are [`Huge`]. (A place index is a `u8` whose
/// largest value marks "no place", so 255 would be the hard ceiling.)
pub const MAX_HUGE_PLACES: usize = 204;

/// The most columns a coordinate can name (`a` to `z`).
pub const MAX_COLUMNS: usize = 26;

/// The most rows in a column a coordinate can name.
pub const MAX_ROWS: usize = 99;

/// A direction on the grid, in clockwise order starting straight up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Up the column: `(x, y + 2)`.
    North = 0,
    /// `(x + 1, y + 1)`.
    NorthEast = 1,
    /// `(x + 1, y - 1)`.
    SouthEast = 2,
    /// Down the column: `(x, y - 2)`.
    South = 3,
    /// `(x - 1, y - 1)`.
    SouthWest = 4,
    /// `(x - 1, y + 1)`.
    NorthWest = 5,
}

impl Direction {
    /// All six, clockwise from north; consecutive entries (and the last with the first) are
    /// neighbouring directions.
    pub const ALL: [Direction; 6] = [
        Direction::North,
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    /// The step `(dx, dy)` of this direction.
    pub const fn delta(self) -> (i16, i16) {
        match self {
            Direction::North => (0, 2),
            Direction::NorthEast => (1, 1),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -2),
            Direction::SouthWest => (-1, -1),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction of index `i` in [`Direction::ALL`].
    pub const fn from_index(i: usize) -> Option<Direction> {
        if i < 6 { Some(Direction::ALL[i]) } else { None }
    }
}

/// A place of a layout, identified by its index (0 to 203) in that layout.
///
/// A place keeps its meaning when its ring goes: it is a position on the grid, not a ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place(pub(crate) u8);

impl Place {
    /// The place's index in its layout (also its bit in a set of places).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The place's bit in a `u64` set of places (boards of up to 64 places).
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The place's bit in a set of places of any width.
    #[inline]
    pub fn bit_in<S: PlaceSet>(self) -> S {
        S::bit(self.0)
    }
}

/// An official coordinate: column letter and row number, such as `d4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// Column index: `a` = 0.
    pub column: u8,
    /// Row number, from 1 at the bottom of the column.
    pub row: u8,
}

impl Coord {
    /// The coordinate of `column` (a = 0) and `row` (from 1).
    pub const fn new(column: u8, row: u8) -> Coord {
        Coord { column, row }
    }

    /// The column letter, lower case.
    pub fn column_letter(self) -> char {
        (b'a' + self.column) as char
    }

    /// Appends the coordinate (`d4`) to `out`: what `Display` writes, without the formatting
    /// machinery (a record's moves write hundreds of coordinates).
    pub fn push_to(self, out: &mut String) {
        out.push(self.column_letter());
        if self.row >= 100 {
            out.push(char::from(b'0' + self.row / 100));
        }
        if self.row >= 10 {
            out.push(char::from(b'0' + self.row / 10 % 10));
        }
        out.push(char::from(b'0' + self.row % 10));
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(4);
        self.push_to(&mut text);
        f.write_str(&text)
    }
}

/// Why text is not a coordinate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    /// The text does not have the shape letter + number.
    #[error("`{0}` is not a coordinate (expected a column letter and a row number, such as d4)")]
    Malformed(String),
    /// Well formed, but no place of this board has that coordinate.
    #[error("{coord} is not a place on the {board} board")]
    OffBoard {
        /// The coordinate as written.
        coord: String,
        /// The board's name.
        board: String,
    },
}

impl std::str::FromStr for Coord {
    type Err = CoordError;

    /// Parses `d4` (a lower-case column letter and a row number from 1). Upper-case letters are
    /// accepted too (BoardSpace writes them).
    fn from_str(text: &str) -> Result<Coord, CoordError> {
        let malformed = || CoordError::Malformed(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(malformed)?;
        if !letter.is_ascii_alphabetic() {
            return Err(malformed());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let row: u8 = digits.parse().map_err(|_| malformed())?;
        if row == 0 {
            return Err(malformed());
        }
        Ok(Coord::new((letter.to_ascii_lowercase() as u8) - b'a', row))
    }
}

/// Which board a layout is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// The standard 37-ring hexagon (4 per side).
    Rings37,
    /// 37 rings plus h1, h2, h3.
    Rings40,
    /// 40 rings plus a5, b6, c7.
    Rings43,
    /// 40 rings plus e7, f6, g5, h4.
    Rings44,
    /// The tournament board, BoardSpace's "Zertz+11".
    Rings48,
    /// The 5-per-side hexagon, BoardSpace's "Zertz+24".
    Rings61,
    /// Any other set of places (connected or not), in the "Zertz+xx" frame.
    Custom,
}

impl BoardKind {
    /// The six official boards.
    pub const OFFICIAL: [BoardKind; 6] = [
        BoardKind::Rings37,
        BoardKind::Rings40,
        BoardKind::Rings43,
        BoardKind::Rings44,
        BoardKind::Rings48,
        BoardKind::Rings61,
    ];

    /// The name used in position strings and on the command line: `37`, `48`, …, `custom`.
    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::Rings37 => "37",
            BoardKind::Rings40 => "40",
            BoardKind::Rings43 => "43",
            BoardKind::Rings44 => "44",
            BoardKind::Rings48 => "48",
            BoardKind::Rings61 => "61",
            BoardKind::Custom => "custom",
        }
    }
}

/// Why a list of places is not a layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// No places at all.
    #[error("a board needs at least one place")]
    Empty,
    /// More places than the constructor allows ([`MAX_PLACES`] or [`MAX_HUGE_PLACES`]).
    #[error("a board has at most {1} places; this one has {0}")]
    TooLarge(usize, usize),
    /// The same place twice.
    #[error("place {0} is listed twice")]
    Duplicate(Coord),
    /// A coordinate beyond `z99`.
    #[error("coordinate {0} is outside the grid (columns a-z, rows 1-99)")]
    OutOfGrid(String),
    /// A token of a layout description that is not a coordinate or range.
    #[error("`{token}` in the board description is not a coordinate or range such as d4 or a1-4")]
    BadToken {
        /// The offending token.
        token: String,
    },
    /// A custom layout this process does not know yet, asked for within
    /// [`with_new_layout_allowance`] once its allowance is spent.
    #[error(
        "a custom board new to this program is not admitted here (its allowance of new boards is spent)"
    )]
    NotAdmitted,
    /// An unknown board name.
    #[error(
        "unknown board `{0}` (expected 37, 40, 43, 44, 48, 61, or a list of places such as a1-4,b1-5)"
    )]
    UnknownBoard(String),
}

/// A permutation of a layout's places that maps the layout onto itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    map: Vec<u8>,
    name: &'static str,
}

impl Symmetry {
    /// The image of `place`.
    #[inline]
    pub fn apply(&self, place: Place) -> Place {
        Place(self.map[place.index()])
    }

    /// The image of a set of places.
    pub fn apply_set<S: PlaceSet>(&self, set: S) -> S {
        Bits(set).fold(S::EMPTY, |acc, i| acc | bit(self.map[i as usize]))
    }

    /// A short description: `identity`, `rotate 60`, …, `reflect`, `reflect + rotate 60`, ….
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// True for the identity.
    pub fn is_identity(&self) -> bool {
        self.map.iter().enumerate().all(|(i, &m)| i == m as usize)
    }
}

/// Jump targets of one place in one direction: the place jumped over and the landing place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Jump {
    pub over: u8,
    pub to: u8,
}

/// A board layout: its places with their coordinates, neighbours and symmetries.
///
/// Official boards come from [`Layout::official`] and live for the whole program
/// (`&'static Layout`); custom ones from [`Layout::custom`], which gives a [`LayoutRef`] that
/// shares the layout and gives back the same layout for the same places while it is alive.
pub struct Layout {
    id: u32,
    kind: BoardKind,
    /// Height of row 1 of each column.
    first: Vec<i16>,
    /// `(x, y)` of each place, in place-index order (column by column, bottom up).
    cells: Vec<(i16, i16)>,
    coords: Vec<Coord>,
    /// The place of each coordinate: `grid[column * grid_rows + row]`, [`NONE`] where the
    /// layout has none (a table rather than a map: coordinates are looked up for every move
    /// read).
    grid: Vec<u8>,
    /// Rows per column in `grid`: the highest row of the layout, plus one.
    grid_rows: usize,
    /// Neighbour of each place in each direction, `NONE` if that place is not on the layout.
    neighbours: Vec<[u8; 6]>,
    /// The sets below as `u64` (empty on a layout of more than 64 places).
    narrow: LayoutSets<Narrow>,
    /// The same sets as `u128` (empty on a layout of more than 128 places).
    wide: LayoutSets<Wide>,
    /// The same sets as [`Huge`], built the first time they are asked for: most layouts are
    /// never played in that width, and a server may hold thousands of layouts.
    huge: OnceLock<LayoutSets<Huge>>,
    jumps: Vec<[Option<Jump>; 6]>,
    symmetries: Vec<Symmetry>,
    /// True for a layout in an `Arc` (a custom one), false for one that lives for the whole
    /// program (an official one): what a [`LayoutRef`] looks at to count references. Set only
    /// by `LayoutRef::share`, as the layout goes into its `Arc`.
    pub(crate) in_arc: bool,
}

pub(crate) const NONE: u8 = u8::MAX;

/// The sets of places a layout precomputes, in one width ([`PlaceSet::sets`]).
#[derive(Clone, Debug, Default)]
pub struct LayoutSets<S> {
    all: S,
    neighbour: Vec<S>,
    /// For each place and direction `d`, the places in directions `d` and `d + 1`.
    pair: Vec<[S; 6]>,
}

impl<S: PlaceSet> LayoutSets<S> {
    fn build(neighbours: &[[u8; 6]]) -> LayoutSets<S> {
        let mask_of = |p: u8| if p == NONE { S::EMPTY } else { bit(p) };
        LayoutSets {
            all: S::first(neighbours.len()),
            neighbour: neighbours
                .iter()
                .map(|nb| nb.iter().fold(S::EMPTY, |acc, &p| acc | mask_of(p)))
                .collect(),
            pair: neighbours
                .iter()
                .map(|nb| std::array::from_fn(|d| mask_of(nb[d]) | mask_of(nb[(d + 1) % 6])))
                .collect(),
        }
    }
}

/// A width of sets of places a layout can be played in: its precomputed sets.
pub trait LayoutWidth: PlaceSet {
    /// The layout's sets in this width.
    fn sets(layout: &Layout) -> &LayoutSets<Self>;
}

impl LayoutWidth for Narrow {
    #[inline]
    fn sets(layout: &Layout) -> &LayoutSets<Narrow> {
        &layout.narrow
    }
}

impl LayoutWidth for Wide {
    #[inline]
    fn sets(layout: &Layout) -> &LayoutSets<Wide> {
        &layout.wide
    }
}

impl LayoutWidth for Huge {
    #[inline]
    fn sets(layout: &Layout) -> &LayoutSets<Huge> {
        layout
            .huge
            .get_or_init(|| LayoutSets::build(&layout.neighbours))
    }
}

/// The narrowest set of places a layout fits: which of [`Narrow`], [`Wide`] and [`Huge`] its
/// positions and games use ([`Layout::width`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Width {
    /// At most 64 places: `u64`.
    Narrow,
    /// 65 to 128 places: `u128`.
    Wide,
    /// 129 to [`MAX_HUGE_PLACES`] places: [`Huge`].
    Huge,
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({})", self.spec())
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.id == other.id
    }
}

impl Eq for Layout {}

impl Drop for Layout {
    /// A custom layout takes its entry out of the registry as it goes. Only a dead entry: the
    /// same places may have been built again (a new layout) between the last handle of this one
    /// going and this lock being taken.
    fn drop(&mut self) {
        if self.kind != BoardKind::Custom {
            return;
        }
        let mut reg = lock_registry();
        if reg
            .custom
            .get(&self.coords)
            .is_some_and(|entry| entry.strong_count() == 0)
        {
            reg.custom.remove(&self.coords);
        }
    }
}

/// Column heights and first-row heights of the official boards.
fn official_columns(kind: BoardKind) -> Vec<(i16, u8)> {
    // (first, number of rows) per column.
    let std37 = [(3, 4), (2, 5), (1, 6), (0, 7), (1, 6), (2, 5), (3, 4)];
    let mut cols: Vec<(i16, u8)> = std37.to_vec();
    match kind {
        BoardKind::Rings37 => {}
        BoardKind::Rings40 => cols.push((4, 3)),
        BoardKind::Rings43 => {
            cols.push((4, 3));
            cols[0].1 = 5;
            cols[1].1 = 6;
            cols[2].1 = 7;
        }
        BoardKind::Rings44 => {
            cols.push((4, 4));
            cols[4].1 = 7;
            cols[5].1 = 6;
            cols[6].1 = 5;
        }
        BoardKind::Rings48 => {
            cols = vec![
                (3, 5),
                (2, 6),
                (1, 7),
                (0, 8),
                (1, 7),
                (2, 6),
                (3, 5),
                (4, 4),
            ]
        }
        BoardKind::Rings61 => {
            cols = vec![
                (4, 5),
                (3, 6),
                (2, 7),
                (1, 8),
                (0, 9),
                (1, 8),
                (2, 7),
                (3, 6),
                (4, 5),
            ]
        }
        BoardKind::Custom => unreachable!("custom layouts have no fixed columns"),
    }
    cols
}

/// Height of row 1 of column `x` in the custom ("Zertz+xx") frame.
fn custom_first(x: usize) -> i16 {
    1 + (x % 2) as i16
}

thread_local! {
    /// New custom layouts the running [`with_new_layout_allowance`] still admits, the number
    /// it registered and whether it refused one (`None` outside any: every one is admitted).
    static ALLOWANCE: Cell<Option<Allowance>> = const { Cell::new(None) };
}

#[derive(Clone, Copy, Debug)]
struct Allowance {
    left: usize,
    used: usize,
    refused: bool,
}

/// What [`with_new_layout_allowance`] let through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewLayouts {
    /// Custom layouts new to the program that were registered.
    pub registered: usize,
    /// True when a new one was refused ([`LayoutError::NotAdmitted`]).
    pub refused: bool,
}

/// Runs `f` (on this thread) admitting at most `allowance` custom layouts that the program does
/// not hold yet; another new one is refused with [`LayoutError::NotAdmitted`]. Layouts still
/// held (by any position, game or handle, on any thread) are always given. A server runs what
/// a client sends within an allowance it charges to that client, so that one client cannot
/// make it build layouts without end, and reads its own stored games outside any (they are
/// always readable).
pub fn with_new_layout_allowance<T>(allowance: usize, f: impl FnOnce() -> T) -> (T, NewLayouts) {
    let outer = ALLOWANCE.get();
    // Nested: the inner one admits no more than the outer one has left.
    let left = outer.map_or(allowance, |o| allowance.min(o.left));
    ALLOWANCE.set(Some(Allowance {
        left,
        used: 0,
        refused: false,
    }));
    // Restored even if `f` panics, so that a caught panic leaves no allowance behind.
    struct Restore(Option<Allowance>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let inner = ALLOWANCE.replace(self.0);
            if let (Some(outer), Some(inner)) = (self.0.as_mut(), inner) {
                // Nested: what the inner one registered counts in the outer one too.
                outer.used += inner.used;
                outer.left = outer.left.saturating_sub(inner.used);
                outer.refused |= inner.refused;
                ALLOWANCE.set(Some(*outer));
            }
        }
    }
    let restore = Restore(outer);
    let out = f();
    let mine = ALLOWANCE.get().expect("the allowance set above");
    drop(restore);
    (
        out,
        NewLayouts {
            registered: mine.used,
            refused: mine.refused,
        },
    )
}

/// Takes one new layout from the running allowance, if any: false when it is spent.
fn admit_new_layout() -> bool {
    match ALLOWANCE.get() {
        None => true,
        Some(mut a) => {
            let admitted = a.left > 0;
            if admitted {
                a.left -= 1;
                a.used += 1;
            } else {
                a.refused = true;
            }
            ALLOWANCE.set(Some(a));
            admitted
        }
    }
}

/// How many custom layouts are alive in this program: held by some position, game or handle.
/// (Private copies, [`LayoutRef::private_copy`], are not counted.)
pub fn custom_layouts_held() -> usize {
    registry()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .custom
        .values()
        .filter(|layout| layout.strong_count() > 0)
        .count()
}

/// The custom layouts alive, by their sorted places, so that the same places give the same
/// layout. Weak references: a layout is freed with its last handle, and its entry goes then too
/// (`Drop for Layout`).
struct Registry {
    next_id: u32,
    custom: HashMap<Vec<Coord>, Weak<Layout>>,
}

fn lock_registry() -> std::sync::MutexGuard<'static, Registry> {
    registry().lock().unwrap_or_else(|e| e.into_inner())
}

fn registry() -> &'static Mutex<Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Mutex::new(Registry {
            next_id: BoardKind::OFFICIAL.len() as u32,
            custom: HashMap::new(),
        })
    })
}

impl Layout {
    /// One of the official boards. Panics if given [`BoardKind::Custom`], which has no fixed shape
    /// (use [`Layout::custom`]).
    pub fn official(kind: BoardKind) -> &'static Layout {
        static OFFICIAL: OnceLock<Vec<&'static Layout>> = OnceLock::new();
        let all = OFFICIAL.get_or_init(|| {
            BoardKind::OFFICIAL
                .iter()
                .enumerate()
                .map(|(id, &kind)| {
                    let columns = official_columns(kind);
                    let first: Vec<i16> = columns.iter().map(|c| c.0).collect();
                    let mut coords = Vec::new();
                    for (x, &(_, rows)) in columns.iter().enumerate() {
                        for row in 1..=rows {
                            coords.push(Coord::new(x as u8, row));
                        }
                    }
                    let layout = Layout::build(id as u32, kind, first, coords);
                    &*Box::leak(Box::new(layout))
                })
                .collect()
        });
        let i = BoardKind::OFFICIAL
            .iter()
            .position(|k| *k == kind)
            .expect("Layout::official takes an official board kind");
        all[i]
    }

    /// The standard 37-ring board.
    pub fn standard() -> &'static Layout {
        Layout::official(BoardKind::Rings37)
    }

    /// A custom layout: any set of at most [`MAX_PLACES`] places, given by their coordinates in
    /// the custom ("Zertz+xx") frame. The places need not be connected: BoardSpace lets a board
    /// be built in pieces, and the isolation rule covers it (a piece is taken once every ring of
    /// it holds a marble). The same set of places gives the same layout as long as some handle
    /// holds it; the layout is freed with its last handle.
    pub fn custom(places: &[Coord]) -> Result<LayoutRef, LayoutError> {
        Layout::custom_up_to(places, MAX_PLACES)
    }

    /// A custom layout of up to [`MAX_HUGE_PLACES`] places, such as BoardSpace's large
    /// "Zertz+xx" boards (up to its whole grid of 17 columns of 12). One of more than
    /// [`MAX_PLACES`] places is played with `u128` sets of places ([`Wide`]), one of more than
    /// [`MAX_WIDE_PLACES`] with [`Huge`] ones ([`Layout::width`]); one of at most
    /// [`MAX_PLACES`] is the same layout [`Layout::custom`] gives.
    pub fn custom_wide(places: &[Coord]) -> Result<LayoutRef, LayoutError> {
        Layout::custom_up_to(places, MAX_HUGE_PLACES)
    }

    fn custom_up_to(places: &[Coord], max: usize) -> Result<LayoutRef, LayoutError> {
        if places.is_empty() {
            return Err(LayoutError::Empty);
        }
        if places.len() > max {
            return Err(LayoutError::TooLarge(places.len(), max));
        }
        let mut sorted = places.to_vec();
        sorted.sort();
        for w in sorted.windows(2) {
            if w[0] == w[1] {
                return Err(LayoutError::Duplicate(w[0]));
            }
        }
        for c in &sorted {
            if c.column as usize >= MAX_COLUMNS || c.row == 0 || c.row as usize > MAX_ROWS {
                return Err(LayoutError::OutOfGrid(c.to_string()));
            }
        }
        // Held while the layout is built, so that two threads asking for the same new places
        // build it once. Nothing here drops a layout, whose `Drop` takes this lock too.
        let mut reg = lock_registry();
        if let Some(layout) = reg.custom.get(&sorted).and_then(Weak::upgrade) {
            return Ok(LayoutRef::from_arc(layout));
        }
        if !admit_new_layout() {
            return Err(LayoutError::NotAdmitted);
        }
        let columns = sorted
            .iter()
            .map(|c| c.column as usize + 1)
            .max()
            .unwrap_or(0);
        let first: Vec<i16> = (0..columns).map(custom_first).collect();
        let layout = Layout::build(reg.next_id, BoardKind::Custom, first, sorted.clone());
        // Ids are never reused: a layout built again after being freed is a new one.
        reg.next_id = reg
            .next_id
            .checked_add(1)
            .expect("fewer than 2^32 layouts built");
        let layout = LayoutRef::share(layout);
        let weak = layout.downgrade().expect("a custom layout is in an Arc");
        // Replaces a dead entry of the same places, if its layout has not yet taken it out.
        reg.custom.insert(sorted, weak);
        Ok(layout)
    }

    /// A copy of this layout in memory of its own, with the same id ([`LayoutRef::private_copy`]).
    pub(crate) fn copy(&self) -> Layout {
        Layout {
            id: self.id,
            kind: self.kind,
            first: self.first.clone(),
            cells: self.cells.clone(),
            coords: self.coords.clone(),
            grid: self.grid.clone(),
            grid_rows: self.grid_rows,
            neighbours: self.neighbours.clone(),
            narrow: self.narrow.clone(),
            wide: self.wide.clone(),
            huge: self.huge.clone(),
            jumps: self.jumps.clone(),
            symmetries: self.symmetries.clone(),
            in_arc: false,
        }
    }

    /// Parses a board name (`37`, `40`, `43`, `44`, `48`, `61`, or BoardSpace's `Zertz`,
    /// `Zertz+11`, `Zertz+24`) or a custom layout written as comma-separated coordinates and
    /// column ranges such as `a1-4,b1-5,c2`.
    pub fn from_spec(spec: &str) -> Result<LayoutRef, LayoutError> {
        if let Some(layout) = Layout::official_by_name(spec) {
            return Ok(layout.into());
        }
        let trimmed = spec.trim();
        let body = trimmed.strip_prefix("custom:").unwrap_or(trimmed);
        if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(LayoutError::UnknownBoard(spec.to_string()));
        }
        let mut coords = Vec::new();
        for token in body.split(',') {
            let token = token.trim();
            let bad = || LayoutError::BadToken {
                token: token.to_string(),
            };
            if let Some((start, end)) = token.split_once('-') {
                let start: Coord = start.parse().map_err(|_| bad())?;
                let end: u8 = end.parse().map_err(|_| bad())?;
                if end < start.row {
                    return Err(bad());
                }
                for row in start.row..=end {
                    coords.push(Coord::new(start.column, row));
                }
            } else {
                coords.push(token.parse().map_err(|_| bad())?);
            }
        }
        Layout::custom(&coords)
    }

    /// The official board named `name` (`37`, …, `61`, or BoardSpace's `Zertz`, `Zertz+11`,
    /// `Zertz+24`), if it names one. Never builds a custom layout.
    pub fn official_by_name(name: &str) -> Option<&'static Layout> {
        let kind = match name.trim().to_ascii_lowercase().as_str() {
            "37" | "zertz" | "standard" => BoardKind::Rings37,
            "40" => BoardKind::Rings40,
            "43" => BoardKind::Rings43,
            "44" => BoardKind::Rings44,
            "48" | "zertz+11" | "tournament" => BoardKind::Rings48,
            "61" | "zertz+24" => BoardKind::Rings61,
            _ => return None,
        };
        Some(Layout::official(kind))
    }

    /// The description [`Layout::from_spec`] reads back: the board's name, or the custom layout's
    /// places as column ranges (`a1-4,b1-5`).
    pub fn spec(&self) -> String {
        if self.kind != BoardKind::Custom {
            return self.kind.name().to_string();
        }
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < self.coords.len() {
            let start = self.coords[i];
            let mut end = start;
            while i + 1 < self.coords.len()
                && self.coords[i + 1].column == start.column
                && self.coords[i + 1].row == end.row + 1
            {
                i += 1;
                end = self.coords[i];
            }
            if end == start {
                parts.push(start.to_string());
            } else {
                parts.push(format!("{start}-{}", end.row));
            }
            i += 1;
        }
        parts.join(",")
    }

    fn build(id: u32, kind: BoardKind, first: Vec<i16>, coords: Vec<Coord>) -> Layout {
        let cells: Vec<(i16, i16)> = coords
            .iter()
            .map(|c| {
                let x = c.column as i16;
                (x, 2 * (c.row as i16 - 1) + first[c.column as usize])
            })
            .collect();
        let grid_rows = coords.iter().map(|c| c.row as usize + 1).max().unwrap_or(1);
        let grid_columns = coords
            .iter()
            .map(|c| c.column as usize + 1)
            .max()
            .unwrap_or(0);
        let mut grid = vec![NONE; grid_columns * grid_rows];
        for (i, c) in coords.iter().enumerate() {
            grid[c.column as usize * grid_rows + c.row as usize] = i as u8;
        }
        let by_cell: HashMap<(i16, i16), u8> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, i as u8))
            .collect();
        let at = |x: i16, y: i16| by_cell.get(&(x, y)).copied().unwrap_or(NONE);
        let n = cells.len();
        let mut neighbours = vec![[NONE; 6]; n];
        let mut jumps = vec![[None; 6]; n];
        for (i, &(x, y)) in cells.iter().enumerate() {
            for d in Direction::ALL {
                let (dx, dy) = d.delta();
                let over = at(x + dx, y + dy);
                neighbours[i][d as usize] = over;
                let to = at(x + 2 * dx, y + 2 * dy);
                if over != NONE && to != NONE {
                    jumps[i][d as usize] = Some(Jump { over, to });
                }
            }
        }
        let narrow = if n <= MAX_PLACES {
            LayoutSets::build(&neighbours)
        } else {
            LayoutSets::default()
        };
        let wide = if n <= MAX_WIDE_PLACES {
            LayoutSets::build(&neighbours)
        } else {
            LayoutSets::default()
        };
        let mut layout = Layout {
            id,
            kind,
            first,
            cells,
            coords,
            grid,
            grid_rows,
            neighbours,
            narrow,
            wide,
            huge: OnceLock::new(),
            jumps,
            symmetries: Vec::new(),
            in_arc: false,
        };
        layout.symmetries = layout.find_symmetries();
        layout
    }

    /// Axial coordinates `(q, r)` of every place: a rotation of the hex grid is linear in them.
    fn axial(&self) -> Vec<(i32, i32)> {
        let parity = self
            .cells
            .first()
            .map(|&(x, y)| (x + y).rem_euclid(2) as i32)
            .unwrap_or(0);
        self.cells
            .iter()
            .map(|&(x, y)| {
                let (x, y) = (x as i32, y as i32);
                (x, (y - x - parity) / 2)
            })
            .collect()
    }

    /// Every rotation and reflection of the grid that maps this layout's places onto themselves
    /// (after a translation). Computed from the places, never assumed.
    fn find_symmetries(&self) -> Vec<Symmetry> {
        const NAMES: [&str; 12] = [
            "identity",
            "rotate 60",
            "rotate 120",
            "rotate 180",
            "rotate 240",
            "rotate 300",
            "reflect",
            "reflect + rotate 60",
            "reflect + rotate 120",
            "reflect + rotate 180",
            "reflect + rotate 240",
            "reflect + rotate 300",
        ];
        let axial = self.axial();
        let index: HashMap<(i32, i32), u8> = axial
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u8))
            .collect();
        let min_of = |pts: &[(i32, i32)]| pts.iter().copied().min().unwrap_or((0, 0));
        let origin = min_of(&axial);
        let mut found = Vec::new();
        for (k, name) in NAMES.iter().enumerate() {
            let image: Vec<(i32, i32)> = axial
                .iter()
                .map(|&(q, r)| {
                    // Cube coordinates (q, r, s) with q + r + s = 0.
                    let (mut q, mut r, mut s) = (q, r, -q - r);
                    if k >= 6 {
                        std::mem::swap(&mut r, &mut s);
                    }
                    for _ in 0..(k % 6) {
                        (q, r, s) = (-r, -s, -q);
                    }
                    let _ = s;
                    (q, r)
                })
                .collect();
            let shift = min_of(&image);
            let map: Option<Vec<u8>> = image
                .iter()
                .map(|&(q, r)| {
                    index
                        .get(&(q - shift.0 + origin.0, r - shift.1 + origin.1))
                        .copied()
                })
                .collect();
            if let Some(map) = map {
                found.push(Symmetry { map, name });
            }
        }
        found
    }

    /// Which board this is.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// A number that identifies the layout within this program.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The number of places.
    #[inline]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Never true: a layout has at least one place.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The set of all places, as a `u64` (empty on a layout of more than 64 places: see
    /// [`Layout::all_in`]).
    #[inline]
    pub fn all(&self) -> u64 {
        self.narrow.all
    }

    /// The set of all places, in any width that holds them.
    #[inline]
    pub fn all_in<S: LayoutWidth>(&self) -> S {
        S::sets(self).all
    }

    /// True when this layout's sets of places fit a `u64` (at most 64 places).
    #[inline]
    pub fn is_narrow(&self) -> bool {
        self.len() <= MAX_PLACES
    }

    /// The narrowest set of places this layout fits.
    pub fn width(&self) -> Width {
        match self.len() {
            n if n <= MAX_PLACES => Width::Narrow,
            n if n <= MAX_WIDE_PLACES => Width::Wide,
            _ => Width::Huge,
        }
    }

    /// Every place, in index order.
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        (0..self.cells.len() as u8).map(Place)
    }

    /// The place of index `i`, if the layout has one.
    pub fn place_at_index(&self, i: usize) -> Option<Place> {
        (i < self.cells.len()).then_some(Place(i as u8))
    }

    /// The number of columns, `a` onwards (some may be empty on a custom layout).
    pub fn columns(&self) -> usize {
        self.first.len()
    }

    /// The places of column `x`, bottom up.
    pub fn column(&self, x: usize) -> impl Iterator<Item = Place> + '_ {
        self.places()
            .filter(move |p| self.coords[p.index()].column as usize == x)
    }

    /// The official coordinate of a place.
    #[inline]
    pub fn coord(&self, place: Place) -> Coord {
        self.coords[place.index()]
    }

    /// The place with coordinate `coord`, if the layout has it.
    pub fn place(&self, coord: Coord) -> Option<Place> {
        if coord.row as usize >= self.grid_rows {
            return None;
        }
        match self
            .grid
            .get(coord.column as usize * self.grid_rows + coord.row as usize)
        {
            Some(&i) if i != NONE => Some(Place(i)),
            _ => None,
        }
    }

    /// Parses a coordinate such as `d4` and finds its place on this layout.
    pub fn parse_place(&self, text: &str) -> Result<Place, CoordError> {
        let coord: Coord = text.parse()?;
        self.place(coord).ok_or_else(|| CoordError::OffBoard {
            coord: text.to_string(),
            board: self.spec(),
        })
    }

    /// The grid position `(x, y)` of a place (`y` grows upwards, two units per ring).
    pub fn cell(&self, place: Place) -> (i16, i16) {
        self.cells[place.index()]
    }

    /// The neighbour of `place` in direction `d`, if that place is on the layout.
    #[inline]
    pub fn neighbour(&self, place: Place, d: Direction) -> Option<Place> {
        let n = self.neighbours[place.index()][d as usize];
        (n != NONE).then_some(Place(n))
    }

    /// The set of places next to `place`, as a `u64` (see [`Layout::neighbour_mask_in`] on a
    /// layout of more than 64 places).
    #[inline]
    pub fn neighbour_mask(&self, place: Place) -> u64 {
        self.narrow.neighbour[place.index()]
    }

    /// The set of places next to `place`, in any width that holds the layout.
    #[inline]
    pub fn neighbour_mask_in<S: LayoutWidth>(&self, place: Place) -> S {
        S::sets(self).neighbour[place.index()]
    }

    #[inline]
    pub(crate) fn neighbour_raw(&self, i: u8, d: usize) -> u8 {
        self.neighbours[i as usize][d]
    }

    #[inline]
    pub(crate) fn jumps(&self, i: u8) -> &[Option<Jump>; 6] {
        &self.jumps[i as usize]
    }

    /// The symmetries of this layout, identity first.
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// All places reachable from `seed` through neighbours, staying within `within`.
    pub fn flood<S: LayoutWidth>(&self, seed: S, within: S) -> S {
        let sets = S::sets(self);
        let mut reached = seed & within;
        let mut frontier = reached;
        while frontier.any() {
            let i = frontier.lowest() as usize;
            frontier = frontier.without_lowest();
            let new = sets.neighbour[i] & within & !reached;
            reached |= new;
            frontier |= new;
        }
        reached
    }

    /// True when `place`, with its ring among `rings`, could slide out: two neighbouring
    /// directions in a row hold no ring.
    #[inline]
    pub fn is_edge<S: LayoutWidth>(&self, place: Place, rings: S) -> bool {
        S::sets(self).pair[place.index()]
            .iter()
            .any(|&pair| (pair & rings).none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn official_sizes() {
        let sizes = [37, 40, 43, 44, 48, 61];
        for (kind, size) in BoardKind::OFFICIAL.iter().zip(sizes) {
            assert_eq!(Layout::official(*kind).len(), size, "{kind:?}");
        }
    }

    #[test]
    fn shared_frame_keeps_a1() {
        let a1 = Coord::new(0, 1);
        let cell = Layout::standard().cell(Layout::standard().place(a1).unwrap());
        for kind in [
            BoardKind::Rings40,
            BoardKind::Rings43,
            BoardKind::Rings44,
            BoardKind::Rings48,
        ] {
            let l = Layout::official(kind);
            assert_eq!(l.cell(l.place(a1).unwrap()), cell);
        }
    }

    fn side_lengths(layout: &Layout) -> usize {
        // Rings with fewer than 6 neighbours form the perimeter.
        layout
            .places()
            .filter(|p| layout.neighbour_mask(*p).count_ones() < 6)
            .count()
    }

    #[test]
    fn perimeters() {
        // A hexagon of side n has 6(n-1) rings on its perimeter.
        assert_eq!(side_lengths(Layout::standard()), 18);
        assert_eq!(side_lengths(Layout::official(BoardKind::Rings61)), 24);
        // 4-5-4-5-4-5: 27 - 6 corners counted twice = 21.
        assert_eq!(side_lengths(Layout::official(BoardKind::Rings48)), 21);
    }

    #[test]
    fn symmetry_counts() {
        let count = |k| Layout::official(k).symmetries().len();
        assert_eq!(count(BoardKind::Rings37), 12);
        assert_eq!(count(BoardKind::Rings61), 12);
        // Sides 4-5-4-5-4-5: three rotations and three reflections.
        assert_eq!(count(BoardKind::Rings48), 6);
        // Sides 3-5-4-4-4-5 and 3-5-4-5-3-6: a single mirror each.
        assert_eq!(count(BoardKind::Rings40), 2);
        assert_eq!(count(BoardKind::Rings43), 2);
        // Sides 4-4-5-4-4-5: a half turn and two mirrors.
        assert_eq!(count(BoardKind::Rings44), 4);
        assert!(Layout::standard().symmetries()[0].is_identity());
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        for kind in BoardKind::OFFICIAL {
            let l = Layout::official(kind);
            for s in l.symmetries() {
                for p in l.places() {
                    let image = s.apply_set(l.neighbour_mask(p));
                    assert_eq!(image, l.neighbour_mask(s.apply(p)), "{kind:?} {}", s.name());
                }
            }
        }
    }

    #[test]
    fn custom_layouts() {
        let tri = Layout::from_spec("a1,b1,a2").unwrap();
        assert_eq!(tri.len(), 3);
        assert_eq!(tri.kind(), BoardKind::Custom);
        // The same places give the same layout, whatever their order.
        let again = Layout::from_spec("b1,a2,a1").unwrap();
        assert_eq!(tri.id(), again.id());
        assert_eq!(tri.spec(), "a1-2,b1");
        // BoardSpace lets a board be built in pieces; so does this project.
        let apart = Layout::from_spec("a1,c1").unwrap();
        assert_eq!(apart.flood(1u64, apart.all()), 1);
        assert!(matches!(
            Layout::from_spec("a1,a1"),
            Err(LayoutError::Duplicate(_))
        ));
        let big: Vec<String> = (0..9)
            .flat_map(|x| (1..=8).map(move |r| format!("{}{r}", (b'a' + x) as char)))
            .collect();
        assert!(matches!(
            Layout::from_spec(&big.join(",")),
            Err(LayoutError::TooLarge(72, 64))
        ));
        let coords: Vec<Coord> = big.iter().map(|c| c.parse().unwrap()).collect();
        let wide = Layout::custom_wide(&coords).unwrap();
        assert_eq!(wide.len(), 72);
        assert!(!wide.is_narrow());
        assert_eq!(wide.all_in::<Wide>(), (1u128 << 72) - 1);
        assert_eq!(wide.width(), Width::Wide);
        // BoardSpace's whole grid, 17 columns of 12: 204 places, in 256-bit sets.
        let mut more: Vec<Coord> = (0..17u8)
            .flat_map(|x| (1..=12).map(move |r| Coord::new(x, r)))
            .collect();
        let grid = Layout::custom_wide(&more).unwrap();
        assert_eq!((grid.len(), grid.width()), (204, Width::Huge));
        let all: Huge = grid.all_in();
        assert_eq!((all.count(), all.lowest()), (204, 0));
        assert_eq!(Bits(all).last(), Some(203));
        // Its sets are built on demand, from the same neighbours.
        for p in grid.places() {
            let n: Huge = grid.neighbour_mask_in(p);
            let expected = Direction::ALL
                .iter()
                .filter_map(|&d| grid.neighbour(p, d))
                .fold(Huge::EMPTY, |acc, q| acc | q.bit_in());
            assert_eq!(n, expected);
        }
        assert_eq!(grid.all_in::<Wide>(), 0, "no u128 sets past 128 places");
        assert_eq!(
            Layout::custom_wide(&more[..128]).unwrap().width(),
            Width::Wide
        );
        assert_eq!(
            Layout::custom_wide(&more[..129]).unwrap().width(),
            Width::Huge
        );
        more.push(Coord::new(17, 1));
        let e = Layout::custom_wide(&more).unwrap_err();
        assert_eq!(e, LayoutError::TooLarge(205, 204));
        assert_eq!(
            e.to_string(),
            "a board has at most 204 places; this one has 205"
        );
        assert!(matches!(
            Layout::from_spec("zz"),
            Err(LayoutError::BadToken { .. })
        ));
        assert!(matches!(
            Layout::from_spec("99"),
            Err(LayoutError::UnknownBoard(_))
        ));
    }

    #[test]
    fn new_layouts_within_an_allowance() {
        // Shapes no other test uses (the registry is shared by the tests of this process).
        // Held (as a game holds its board) while the next allowances run.
        let (held, used) = with_new_layout_allowance(1, || Layout::from_spec("p1,q1,p2"));
        let held = held.unwrap();
        assert_eq!(
            used,
            NewLayouts {
                registered: 1,
                refused: false
            }
        );
        // Spent: another new shape is refused, a held one (and an official one) is given.
        let (second, used) = with_new_layout_allowance(0, || {
            (
                Layout::from_spec("p1,q1,p3").map(|l| l.id()),
                Layout::from_spec("q1,p2,p1").map(|l| l.id()),
                Layout::from_spec("61").is_ok(),
            )
        });
        assert_eq!(second.0, Err(LayoutError::NotAdmitted));
        assert_eq!(second.1, Ok(held.id()));
        assert!(second.2);
        assert_eq!(
            used,
            NewLayouts {
                registered: 0,
                refused: true
            }
        );
        // Nested: the inner one's layouts count in the outer one; outside, all are admitted.
        let ((), outer) = with_new_layout_allowance(2, || {
            let (_, inner) = with_new_layout_allowance(5, || Layout::from_spec("p1,q1,p4"));
            assert_eq!(inner.registered, 1);
            assert!(Layout::from_spec("p1,q1,p5").is_ok());
            assert_eq!(
                Layout::from_spec("p1,q1,p6").err(),
                Some(LayoutError::NotAdmitted)
            );
        });
        assert_eq!(
            outer,
            NewLayouts {
                registered: 2,
                refused: true
            }
        );
        assert!(Layout::from_spec("p1,q1,p6").is_ok());
        assert!(Layout::official_by_name("p1,q1").is_none());
        // Once no handle holds it, a board is new again: it spends an allowance.
        drop(held);
        let (again, used) = with_new_layout_allowance(0, || Layout::from_spec("p1,q1,p2"));
        assert_eq!(again.err(), Some(LayoutError::NotAdmitted));
        assert!(used.refused);
    }

    /// The registry's entry of these places (`a1,b2`), if it has one, and whether its layout
    /// is alive.
    fn entry(places: &str) -> Option<bool> {
        let mut coords: Vec<Coord> = places.split(',').map(|c| c.parse().unwrap()).collect();
        coords.sort();
        let reg = lock_registry();
        reg.custom.get(&coords).map(|w| w.strong_count() > 0)
    }

    #[test]
    fn a_custom_layout_is_freed_with_its_last_handle() {
        // Shapes no other test uses (the registry is shared by the tests of this process).
        let layout = Layout::from_spec("r1-3,s1-2").unwrap();
        let weak = layout.downgrade().expect("a custom layout");
        let start = crate::Position::new(&layout, crate::RuleSet::STANDARD);
        let copy = start.clone();
        let mut game = crate::Game::from_position(start, crate::Rules::default());
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
        drop(layout);
        // The positions (and the game's) still hold it.
        assert!(weak.upgrade().is_some());
        drop(copy);
        assert!(weak.upgrade().is_some());
        assert_eq!(game.position().layout().spec(), "r1-3,s1-2");
        drop(game);
        assert!(weak.upgrade().is_none(), "freed with the last position");
        // Its entry went with it: asking again builds a new layout.
        assert_eq!(entry("r1,r2,r3,s1,s2"), None);
        let again = Layout::from_spec("r1-3,s1-2").unwrap();
        assert!(weak.upgrade().is_none());
        assert!(!Weak::ptr_eq(&weak, &again.downgrade().unwrap()));
        // Official layouts are never freed, nor counted.
        assert!(LayoutRef::from(Layout::standard()).downgrade().is_none());
        assert!(Layout::from_spec("37").unwrap().as_static().is_some());
        assert!(again.as_static().is_none());
    }

    #[test]
    fn the_same_places_give_the_same_layout_while_it_is_alive() {
        let first = Layout::from_spec("r5,s5,r6").unwrap();
        let second = Layout::from_spec("r6,r5,s5").unwrap();
        let id = first.id();
        assert_eq!(second.id(), id);
        assert!(Weak::ptr_eq(
            &first.downgrade().unwrap(),
            &second.downgrade().unwrap()
        ));
        assert_eq!(entry("r5,r6,s5"), Some(true));
        drop(first);
        assert_eq!(Layout::from_spec("s5,r5,r6").unwrap().id(), id);
        drop(second);
        // Gone: the same places make a new layout, with a new id.
        let third = Layout::from_spec("r5-6,s5").unwrap();
        assert_ne!(third.id(), id);
        assert_eq!(third.spec(), "r5-6,s5");
    }

    #[test]
    fn a_private_copy_is_equal_but_held_apart() {
        let layout = Layout::from_spec("r9,s9,t9").unwrap();
        let copy = layout.private_copy();
        assert_eq!(copy, layout);
        assert_eq!(copy.spec(), layout.spec());
        assert_eq!(copy.symmetries(), layout.symmetries());
        let (original, private) = (layout.downgrade().unwrap(), copy.downgrade().unwrap());
        assert!(!Weak::ptr_eq(&original, &private));
        // The copy going leaves the original and its entry.
        drop(copy);
        assert_eq!(entry("r9,s9,t9"), Some(true));
        // The original going frees it even while a copy lives; the copy stays whole.
        let copy = layout.private_copy();
        drop(layout);
        assert!(original.upgrade().is_none());
        assert_eq!(copy.len(), 3);
        let position = crate::Position::new(&copy, crate::RuleSet::STANDARD);
        assert_eq!(
            position.legal_moves().len(),
            crate::Position::new(
                Layout::from_spec("r9,s9,t9").unwrap(),
                crate::RuleSet::STANDARD
            )
            .legal_moves()
            .len()
        );
        // `clone_from` takes the source's layout when it is another one, and keeps its own
        // handle when it is the same.
        let mut buffer = crate::Position::standard();
        buffer.clone_from(&position);
        assert_eq!(buffer, position);
        assert!(Weak::ptr_eq(
            &buffer.layout().downgrade().unwrap(),
            &copy.downgrade().unwrap()
        ));
        buffer.clone_from(&crate::Position::standard());
        assert_eq!(buffer, crate::Position::standard());
        // Official layouts are not copied.
        let official = LayoutRef::from(Layout::standard());
        assert!(official.private_copy().as_static().is_some());
    }

    #[test]
    fn layouts_built_and_dropped_on_many_threads_stay_deduplicated() {
        // The last handle going on one thread while another asks for the same places: the
        // entry of a layout built again must not be taken out by the old one's drop.
        let held = Layout::from_spec("u1-2,v1").unwrap();
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..500 {
                        assert_eq!(Layout::from_spec("v1,u2,u1").unwrap().id(), held.id());
                        let brief = Layout::from_spec("u5-6,v5").unwrap();
                        let again = Layout::from_spec("u5-6,v5").unwrap();
                        assert_eq!(brief.id(), again.id());
                    }
                });
            }
        });
        assert_eq!(entry("u1,u2,v1"), Some(true));
        let weak = Layout::from_spec("u5-6,v5").unwrap().downgrade().unwrap();
        assert!(weak.upgrade().is_none());
        assert_eq!(entry("u5,u6,v5"), None, "no dead entry left");
    }

    #[test]
    fn a_handle_is_one_pointer_and_counts_exactly() {
        // One pointer, as the `&'static Layout` it replaced: a position is copied per move.
        assert_eq!(
            std::mem::size_of::<LayoutRef>(),
            std::mem::size_of::<usize>()
        );
        assert_eq!(
            std::mem::size_of::<Option<LayoutRef>>(),
            std::mem::size_of::<usize>()
        );
        let layout = Layout::from_spec("w1-3,x1").unwrap();
        let weak = layout.downgrade().unwrap();
        assert_eq!(weak.strong_count(), 1);
        let clones: Vec<LayoutRef> = (0..10).map(|_| layout.clone()).collect();
        assert_eq!(weak.strong_count(), 11);
        // Clones sent to other threads count and give back their counts there.
        std::thread::scope(|scope| {
            for handle in clones {
                scope.spawn(move || {
                    let more = handle.clone();
                    assert_eq!(more.spec(), "w1-3,x1");
                });
            }
        });
        assert_eq!(weak.strong_count(), 1);
        // `clone_from` between two layouts moves one count from the one to the other.
        let other = Layout::from_spec("w5,x5").unwrap();
        let mut buffer = other.clone();
        let other_weak = other.downgrade().unwrap();
        assert_eq!(other_weak.strong_count(), 2);
        buffer.clone_from(&layout);
        assert_eq!((weak.strong_count(), other_weak.strong_count()), (2, 1));
        buffer.clone_from(&layout);
        assert_eq!(weak.strong_count(), 2, "the same layout: no count taken");
        buffer.clone_from(&LayoutRef::from(Layout::standard()));
        assert_eq!(weak.strong_count(), 1);
        assert!(buffer.as_static().is_some());
        // A custom layout reached by a `&'static` reference (a handle leaked on purpose) gives
        // a handle of its own, equal to it, and takes no count of the leaked one.
        let leaked: &'static LayoutRef = Box::leak(Box::new(Layout::from_spec("w7,x7").unwrap()));
        let leaked_weak = leaked.downgrade().unwrap();
        let from_static = LayoutRef::from(&**leaked);
        assert_eq!(from_static, *leaked);
        assert_eq!(leaked_weak.strong_count(), 1);
        assert!(!Weak::ptr_eq(
            &leaked_weak,
            &from_static.downgrade().unwrap()
        ));
        drop(layout);
        assert!(weak.upgrade().is_none(), "freed with its last handle");
    }

    #[test]
    fn coordinates() {
        let l = Layout::standard();
        assert_eq!(
            l.parse_place("d7").map(|p| l.coord(p).to_string()),
            Ok("d7".into())
        );
        assert!(matches!(
            l.parse_place("a5"),
            Err(CoordError::OffBoard { .. })
        ));
        assert!(matches!(l.parse_place("5a"), Err(CoordError::Malformed(_))));
        assert!(matches!(l.parse_place("a0"), Err(CoordError::Malformed(_))));
        assert!(matches!(l.parse_place(""), Err(CoordError::Malformed(_))));
    }
}
