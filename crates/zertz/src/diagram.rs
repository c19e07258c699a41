//! Text diagrams of a position, for the terminal.
//!
//! The board is drawn as it stands on the table (rules.md 2): vertical columns side by side,
//! `a` on the left, each ring at its height on the hexagonal grid, so neighbouring columns are
//! offset by half a ring. A place at grid cell `(x, y)` ([`Layout::cell`]) is drawn on text line
//! `max_y - y` (counted from the top of the board) and at character column `x * 4` (wider only
//! when long labels need it). Below the board come the supply, each player's captures with
//! their progress towards a winning set, whose turn it is and, once the game is over, how it
//! ended.
//!
//! ```text
//!   a   b   c   d   e   f   g
//!             7 o 7
//!         6 o       o 6
//!     5 o       o       o 5
//! 4 o       o       o       o 4
//!       o       o       o
//! 3 o       o       o       o 3
//!       o       o       o
//! 2 o       o       o       o 2
//!       o       o       o
//! 1 o       o       o       o 1
//!       o       o       o
//!           o       o
//!               o
//!   a   b   c   d   e   f   g
//!
//! 37 board, standard rules: 37 of 37 rings
//!
//!             W     G     B     each   to win
//! supply      6     8     10
//! player 1    0/4   0/5   0/6   0/3    4    <- to move
//! player 2    0/4   0/5   0/6   0/3    4
//! ```
//!
//! Rows are numbered from the bottom of each column, so a row is not a line of text: row 4
//! runs from `a4` down to `d4` and up again to `g4`. The numbers beside the board name the rows
//! of the places they touch. [`Labels::Every`] writes every ring's coordinate beside it instead,
//! and [`Labels::Host`] its host coordinate.
//!
//! Places show:
//! - `W`, `G`, `B`: a ring holding a white, grey or black marble;
//! - `o`: an empty ring; `(o)`: a free ring, one that could be removed now (with
//!   [`DiagramOptions::mark_free`]);
//! - `.`: a place whose ring is gone (its coordinate keeps its meaning).
//!
//! With [`DiagramOptions::ansi`] the same characters are coloured with ANSI escape codes
//! (marbles as white, grey and dark tiles, removed places as a faint `·`), so a diagram still
//! reads correctly where the colours are lost.
//!
//! Rendering does no I/O: it gives back a `String` for the caller to print.

pub mod svg;

use std::collections::{BTreeMap, BTreeSet};

use crate::layout::{Coord, Layout, Place};
use crate::marbles::{Colour, Marbles, Player};
use crate::notation::host;
use crate::position::Position;
use crate::rules::RuleSet;

/// Which coordinates a diagram shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Labels {
    /// Compact: column letters above and below the board, and row numbers along its left and
    /// right sides, beside the first and the last place of each row. A row is not a line of
    /// text: row `n` is the `n`th place from the bottom of every column, so on the 37 board
    /// row 4 runs from `a4` down to `d4` and up again to `g4`.
    #[default]
    Edges,
    /// Every ring labelled with its official coordinate (`d4`) to its right, and column letters
    /// above and below the board.
    Every,
    /// Every ring labelled with its host coordinate (rules.md 7.1, such as `C3`), and the host's
    /// row letters (`A` is the last column) above and below the board. Host numbers count the
    /// rings still there, so they change as rings leave.
    Host,
}

/// How to draw a diagram. The default is plain text with coordinates on the edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DiagramOptions {
    /// Colour the diagram with ANSI escape codes (for a terminal). Without colour the diagram
    /// is plain ASCII text.
    pub ansi: bool,
    /// Which coordinates to show.
    pub labels: Labels,
    /// Mark the free rings, the empty rings that could be removed after a placement, as `(o)`.
    pub mark_free: bool,
}

/// Characters between the anchors of neighbouring columns, at the least.
const MIN_SPACING: i32 = 4;

/// The whole diagram: the board, an empty line, then the status (see [`render_board`] and
/// [`render_status`]; the module documentation shows one). Every line ends with a newline.
///
/// ```
/// use zertz::Position;
/// use zertz::diagram::{DiagramOptions, Labels, render};
///
/// let options = DiagramOptions { labels: Labels::Every, ..DiagramOptions::default() };
/// let text = render(&Position::standard(), &options);
/// assert!(text.contains("o d4"));
/// assert!(text.contains("player 1    0/4   0/5   0/6   0/3    4    <- to move"));
/// ```
pub fn render(position: &Position, options: &DiagramOptions) -> String {
    let mut text = render_board(position, options);
    text.push('\n');
    text.push_str(&render_status(position, options));
    text
}

/// The board alone: column headings above and below, the places in between, and the
/// coordinates chosen by [`DiagramOptions::labels`]. Every line ends with a newline.
///
/// ```
/// use zertz::{BoardKind, Layout, Position, RuleSet};
/// use zertz::diagram::{DiagramOptions, render_board};
///
/// let start = Position::new(Layout::official(BoardKind::Rings61), RuleSet::STANDARD);
/// let board = render_board(&start, &DiagramOptions::default());
/// assert_eq!(board.matches('o').count(), 61);
/// assert_eq!(board.lines().next().unwrap().trim(), "a   b   c   d   e   f   g   h   i");
/// ```
pub fn render_board(position: &Position, options: &DiagramOptions) -> String {
    let layout = position.layout();
    let geometry = Geometry::new(position, options);
    let mut canvas = Canvas::default();
    let free = if options.mark_free {
        position.free_rings()
    } else {
        0
    };

    for place in layout.places() {
        let (line, col) = geometry.at(layout.cell(place));
        // Whatever the place shows, it keeps the room for a tile or a mark, so the board
        // does not shift as the game goes on.
        canvas.reserve(line, col - geometry.margin, col + geometry.margin);
        if !position.has_ring(place) {
            let gone = if options.ansi { '·' } else { '.' };
            canvas.put(line, col, gone, Style::Gone);
        } else if let Some(colour) = position.colour_at(place) {
            let style = Style::Marble(colour);
            if options.ansi {
                canvas.put(line, col - 1, ' ', style);
                canvas.put(line, col + 1, ' ', style);
            }
            canvas.put(line, col, colour.letter(), style);
        } else if free & place.bit() != 0 {
            canvas.text(line, col - 1, "(o)", Style::Free);
        } else {
            canvas.put(line, col, 'o', Style::Ring);
        }
        if let Some(label) = geometry.label(position, place) {
            canvas.text(line, col + geometry.gap, &label, Style::Label);
        }
    }

    if options.labels == Labels::Edges {
        // Row numbers beside the leftmost and the rightmost place of each row. Written after
        // every place, and only where they touch nothing, so an odd custom board stays legible.
        let mut rows: BTreeMap<u8, (Place, Place)> = BTreeMap::new();
        for place in layout.places() {
            let row = layout.coord(place).row;
            let ends = rows.entry(row).or_insert((place, place));
            let x = |p: Place| layout.cell(p).0;
            if x(place) < x(ends.0) {
                ends.0 = place;
            }
            if x(place) > x(ends.1) {
                ends.1 = place;
            }
        }
        for (row, (left, right)) in rows {
            let number = row.to_string();
            let width = number.len() as i32;
            let (line, col) = geometry.at(layout.cell(left));
            canvas.text_if_clear(line, col - geometry.gap - width + 1, &number, Style::Label);
            let (line, col) = geometry.at(layout.cell(right));
            canvas.text_if_clear(line, col + geometry.gap, &number, Style::Label);
        }
    }

    // Column headings above and below the board.
    let bottom = (geometry.max_y - geometry.min_y) as i32 + 1;
    for x in 0..layout.columns() {
        if layout.column(x).next().is_none() {
            continue;
        }
        let heading = match options.labels {
            Labels::Host => host_row_letter(layout, x),
            Labels::Edges | Labels::Every => Coord::new(x as u8, 1).column_letter(),
        };
        let (_, col) = geometry.at((x as i16, geometry.max_y));
        canvas.put(-1, col, heading, Style::Heading);
        canvas.put(bottom, col, heading, Style::Heading);
    }

    canvas.render(options.ansi)
}

/// The status under the board: the board and rule set with the rings left, the supply, each
/// player's captures against the winning sets of the rule set (one colour alone, or `each` of
/// every colour) with how many more marbles would win at the least, whose turn it is, and the
/// outcome once the game is over. Every line ends with a newline.
///
/// ```text
/// 48 board, standard rules: 36 of 48 rings
///
///             W     G     B     each   to win
/// supply      2     5     5
/// player 1    0/4   0/5   1/6   0/3    4   <- to move
/// player 2    2/4   1/5   0/6   0/3    2
/// ```
///
/// Player two holds 2 of the 4 white marbles that win, 1 of 5 grey, none of 6 black, and
/// none of 3 of each colour; 2 more white would win.
pub fn render_status(position: &Position, options: &DiagramOptions) -> String {
    let layout = position.layout();
    let rules = position.rule_set();
    let ansi = options.ansi;
    let mut out = String::new();

    // The board and the rule set.
    out += &format!(
        "{} board, {} rules: {} of {} rings",
        layout.kind().name(),
        rules,
        position.rings().count_ones(),
        layout.len()
    );
    if options.mark_free {
        out += &format!(", {} free", position.free_rings().count_ones());
    }
    let groups = groups(position);
    if groups > 1 {
        out += &format!(", split into {groups} groups");
    }
    out += "\n\n";

    // The table: the supply, then each player's captures against the winning sets.
    // Each cell is its text and whether it is a complete winning set.
    let outcome = position.outcome();
    let supply = position.supply();
    let mut rows: Vec<(String, Vec<(String, bool)>)> = vec![(
        "supply".to_string(),
        Colour::ALL
            .iter()
            .map(|&c| (supply.get(c).to_string(), false))
            .collect(),
    )];
    for player in Player::BOTH {
        let held = position.captures(player);
        let mut cells: Vec<(String, bool)> = Colour::ALL
            .iter()
            .map(|&c| {
                let (n, of) = (held.get(c), rules.single.get(c));
                (format!("{n}/{of}"), n >= of)
            })
            .collect();
        let least = Colour::ALL.iter().map(|&c| held.get(c)).min().unwrap_or(0);
        cells.push((
            format!("{}/{}", least.min(rules.each), rules.each),
            least >= rules.each,
        ));
        cells.push((to_win(rules, held).to_string(), false));
        rows.push((player.to_string(), cells));
    }
    let headings = ["W", "G", "B", "each", "to win"];
    let widths: Vec<usize> = (0..headings.len())
        .map(|k| {
            rows.iter()
                .filter_map(|(_, cells)| cells.get(k))
                .map(|(text, _)| text.len())
                .chain([headings[k].len(), 3])
                .max()
                .unwrap_or(0)
                + 3
        })
        .collect();
    let first = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0) + 4;

    let mut line = " ".repeat(first);
    for (k, heading) in headings.iter().enumerate() {
        match Colour::ALL.get(k) {
            Some(&colour) if ansi => {
                line += &paint(&format!(" {heading} "), Style::Marble(colour));
                line += &" ".repeat(widths[k] - 3);
            }
            _ => line += &pad(heading, widths[k]),
        }
    }
    out += line.trim_end();
    out += "\n";

    for (i, (name, cells)) in rows.iter().enumerate() {
        let mut line = pad(name, first);
        for (k, width) in widths.iter().enumerate() {
            let (text, complete) = cells.get(k).cloned().unwrap_or_default();
            let padded = pad(&text, *width);
            if ansi && complete {
                // Pad first, so the escape codes do not upset the columns.
                line += &paint(&text, Style::Won);
                line += &padded[text.len()..];
            } else {
                line += &padded;
            }
        }
        let player = i.checked_sub(1).and_then(Player::from_index);
        let note = match (player, outcome) {
            (Some(p), None) if p == position.to_move() => Some(("to move", Style::Heading)),
            (Some(p), Some(o)) if o.winner() == Some(p) => Some(("winner", Style::Won)),
            _ => None,
        };
        let mut line = line.trim_end().to_string();
        if let Some((note, style)) = note {
            let before_last: usize = widths[..widths.len() - 1].iter().sum();
            let last = rows
                .iter()
                .filter_map(|(_, c)| c.last())
                .map(|c| c.0.len())
                .max();
            line = pad(&line, first + before_last + last.unwrap_or(0) + 3);
            if ansi {
                line += &paint(&format!("◀ {note}"), style);
            } else {
                line += &format!("<- {note}");
            }
        }
        out += &line;
        out += "\n";
    }

    if supply.is_empty() && outcome.is_none() {
        out += "\nThe supply is empty: each player places from their own captures.\n";
    }
    if let Some(outcome) = outcome {
        let text = format!("Game over: {outcome}.");
        out += "\n";
        out += &if ansi {
            paint(&text, Style::Heading)
        } else {
            text
        };
        out += "\n";
    }
    out
}

/// The fewest further captures that would complete a winning set, ignoring whether those
/// marbles are still to be had.
fn to_win(rules: RuleSet, held: Marbles) -> u32 {
    let single = Colour::ALL
        .iter()
        .map(|&c| rules.missing_single(held, c) as u32)
        .min()
        .unwrap_or(0);
    let each: u32 = Colour::ALL
        .iter()
        .map(|&c| rules.each.saturating_sub(held.get(c)) as u32)
        .sum();
    single.min(each)
}

/// The number of groups the rings form.
fn groups(position: &Position) -> usize {
    let layout = position.layout();
    let rings = position.rings();
    let mut rest = rings;
    let mut groups = 0;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        rest &= !layout.flood(seed, rings);
        groups += 1;
    }
    groups
}

/// The host's row letter for column `x` (rules.md 7.1: the last column is row `A`).
fn host_row_letter(layout: &Layout, x: usize) -> char {
    (b'A' + (layout.columns() - 1 - x) as u8) as char
}

/// `text` padded with spaces to `width` characters.
fn pad(text: &str, width: usize) -> String {
    let mut s = text.to_string();
    let w = display_width(text);
    if w < width {
        s.push_str(&" ".repeat(width - w));
    }
    s
}

/// The characters of `text` that show, leaving out ANSI escape sequences.
fn display_width(text: &str) -> usize {
    let mut width = 0;
    let mut escape = false;
    for ch in text.chars() {
        if escape {
            escape = !ch.is_ascii_alphabetic();
        } else if ch == '\x1b' {
            escape = true;
        } else {
            width += 1;
        }
    }
    width
}

/// `text` in `style`, then back to the terminal's default.
fn paint(text: &str, style: Style) -> String {
    format!("{}{text}{RESET}", style.sgr())
}

/// Where things go on the board.
struct Geometry {
    min_x: i16,
    min_y: i16,
    max_y: i16,
    /// Characters between neighbouring columns.
    spacing: i32,
    /// Characters from a place to its label.
    gap: i32,
    /// Characters a place may take on either side (a marble tile or a free-ring mark).
    margin: i32,
    labels: Labels,
}

impl Geometry {
    fn new(position: &Position, options: &DiagramOptions) -> Geometry {
        let layout = position.layout();
        let cells = || layout.places().map(|p| layout.cell(p));
        let min_x = cells().map(|c| c.0).min().unwrap_or(0);
        let min_y = cells().map(|c| c.1).min().unwrap_or(0);
        let max_y = cells().map(|c| c.1).max().unwrap_or(0);
        // A marble tile or a free-ring mark takes one character on either side of the place.
        let decorated = options.ansi || options.mark_free;
        let margin = decorated as i32;
        let gap = 2 + margin;
        // Places of the same line are two columns apart: a place, its label, one blank, and
        // the next place's left mark must fit in between. The longest label the board can
        // ever need, so the spacing stays the same all game long.
        let longest = match options.labels {
            Labels::Edges => 0,
            Labels::Every => layout
                .places()
                .map(|p| layout.coord(p).to_string().len() as i32)
                .max()
                .unwrap_or(0),
            Labels::Host => {
                let tallest = (0..layout.columns())
                    .map(|x| layout.column(x).count())
                    .max()
                    .unwrap_or(0);
                1 + tallest.to_string().len() as i32
            }
        };
        Geometry {
            min_x,
            min_y,
            max_y,
            spacing: MIN_SPACING.max((gap + longest + 1 + margin + 1) / 2),
            gap,
            margin,
            labels: options.labels,
        }
    }

    /// Line and character column of grid cell `(x, y)`.
    fn at(&self, (x, y): (i16, i16)) -> (i32, i32) {
        (
            (self.max_y - y) as i32,
            (x - self.min_x) as i32 * self.spacing,
        )
    }

    /// The label written beside `place`, if the options want one there.
    fn label(&self, position: &Position, place: Place) -> Option<String> {
        match self.labels {
            Labels::Edges => None,
            Labels::Every => position
                .has_ring(place)
                .then(|| position.layout().coord(place).to_string()),
            Labels::Host => host::coord_text(position, place),
        }
    }
}

const RESET: &str = "\x1b[0m";

/// How a character is coloured with [`DiagramOptions::ansi`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Heading,
    Label,
    Ring,
    Free,
    Gone,
    Won,
    Marble(Colour),
}

impl Style {
    /// The escape sequence that starts the style (256-colour palette).
    fn sgr(self) -> &'static str {
        match self {
            Style::Plain => "",
            Style::Heading => "\x1b[1m",
            Style::Label => "\x1b[38;5;244m",
            Style::Ring => "\x1b[38;5;137m",
            Style::Free => "\x1b[1;38;5;71m",
            Style::Gone => "\x1b[38;5;240m",
            Style::Won => "\x1b[1;38;5;71m",
            Style::Marble(Colour::White) => "\x1b[1;38;5;16;48;5;254m",
            Style::Marble(Colour::Grey) => "\x1b[1;38;5;16;48;5;246m",
            Style::Marble(Colour::Black) => "\x1b[1;38;5;255;48;5;236m",
        }
    }
}

/// Characters at (line, column), both possibly negative, rendered to text at the end.
#[derive(Default)]
struct Canvas {
    cells: BTreeMap<(i32, i32), (char, Style)>,
    /// Blank spots that belong to something all the same: nothing else may go there, and the
    /// diagram's left edge takes them into account.
    reserved: BTreeSet<(i32, i32)>,
}

impl Canvas {
    fn put(&mut self, line: i32, col: i32, ch: char, style: Style) {
        self.cells.insert((line, col), (ch, style));
    }

    fn reserve(&mut self, line: i32, from: i32, to: i32) {
        self.reserved.extend((from..=to).map(|col| (line, col)));
    }

    fn text(&mut self, line: i32, col: i32, text: &str, style: Style) {
        for (i, ch) in text.chars().enumerate() {
            self.put(line, col + i as i32, ch, style);
        }
    }

    /// Writes `text` only if it and a blank on either side land on nothing already drawn.
    fn text_if_clear(&mut self, line: i32, col: i32, text: &str, style: Style) {
        let width = text.chars().count() as i32;
        let taken =
            |c: i32| self.cells.contains_key(&(line, c)) || self.reserved.contains(&(line, c));
        if !(col - 1..col + width + 1).any(taken) {
            self.text(line, col, text, style);
        }
    }

    fn render(&self, ansi: bool) -> String {
        let mut out = String::new();
        let (Some(first), Some(last)) = (self.cells.keys().next(), self.cells.keys().last()) else {
            return out;
        };
        let left = self
            .cells
            .keys()
            .chain(&self.reserved)
            .map(|k| k.1)
            .min()
            .unwrap_or(0);
        for line in first.0..=last.0 {
            let mut text = String::new();
            let mut col = left;
            let mut current = Style::Plain;
            for (&(_, c), &(ch, style)) in self.cells.range((line, i32::MIN)..=(line, i32::MAX)) {
                if col < c {
                    if ansi && current != Style::Plain {
                        text.push_str(RESET);
                        current = Style::Plain;
                    }
                    text.push_str(&" ".repeat((c - col) as usize));
                }
                if ansi && style != current {
                    if current != Style::Plain {
                        text.push_str(RESET);
                    }
                    text.push_str(style.sgr());
                    current = style;
                }
                text.push(ch);
                col = c + 1;
            }
            if ansi && current != Style::Plain {
                text.push_str(RESET);
            }
            out.push_str(text.trim_end_matches(' '));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::BoardKind;
    use crate::position::Setup;

    fn plain() -> DiagramOptions {
        DiagramOptions::default()
    }

    fn with(labels: Labels, ansi: bool, mark_free: bool) -> DiagramOptions {
        DiagramOptions {
            ansi,
            labels,
            mark_free,
        }
    }

    /// A 48-ring game after 16 moves: marbles of every colour, removed rings, captures.
    fn midgame48() -> Position {
        "48 standard BW---/...B--/-.W..-./.....G../..B..../...B../-.G../---- 2/5/5 0/0/1 2/1/0 1"
            .parse()
            .unwrap()
    }

    /// The 37 board cut in two by taking column d away, with marbles on both sides.
    fn split37() -> Position {
        let layout = Layout::standard();
        let mut setup = Setup::start(layout, RuleSet::STANDARD);
        for place in layout.column(3) {
            setup.rings &= !place.bit();
        }
        let at = |c: &str| layout.parse_place(c).unwrap().bit();
        setup.marbles = [at("a1"), at("g4"), at("e2") | at("b5")];
        setup.supply = Marbles::new(5, 7, 8);
        setup.captures = [Marbles::new(0, 0, 0), Marbles::new(0, 0, 0)];
        setup.to_move = Player::Two;
        Position::from_setup(setup).unwrap()
    }

    fn strip_ansi(text: &str) -> String {
        let mut out = String::new();
        let mut escape = false;
        for ch in text.chars() {
            if escape {
                escape = !ch.is_ascii_alphabetic();
            } else if ch == '\x1b' {
                escape = true;
            } else {
                out.push(ch);
            }
        }
        out
    }

    fn grid(text: &str) -> Vec<Vec<char>> {
        text.lines().map(|l| l.chars().collect()).collect()
    }

    fn char_at(grid: &[Vec<char>], line: usize, col: usize) -> char {
        grid.get(line)
            .and_then(|l| l.get(col))
            .copied()
            .unwrap_or(' ')
    }

    /// Where each place should be drawn, worked out from the cell coordinates alone: the line
    /// is one (the heading) plus the distance from the top of the board, the column is that of
    /// the place's column letter in the heading line.
    fn expected_spots(board: &str, layout: &Layout) -> Vec<(Place, usize, usize)> {
        let lines = grid(board);
        let heading_cols: Vec<usize> = lines[0]
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, _)| i)
            .collect();
        let columns: Vec<usize> = (0..layout.columns())
            .filter(|&x| layout.column(x).next().is_some())
            .collect();
        assert_eq!(heading_cols.len(), columns.len(), "one heading per column");
        let max_y = layout.places().map(|p| layout.cell(p).1).max().unwrap();
        layout
            .places()
            .map(|p| {
                let (x, y) = layout.cell(p);
                let k = columns.iter().position(|&c| c == x as usize).unwrap();
                (p, 1 + (max_y - y) as usize, heading_cols[k])
            })
            .collect()
    }

    /// What a place should show in plain text.
    fn symbol(position: &Position, place: Place) -> char {
        if !position.has_ring(place) {
            '.'
        } else {
            position.colour_at(place).map(|c| c.letter()).unwrap_or('o')
        }
    }

    fn assert_places_drawn(position: &Position, options: &DiagramOptions) {
        let board = strip_ansi(&render_board(position, options));
        let lines = grid(&board);
        for (place, line, col) in expected_spots(&board, position.layout()) {
            let mut want = symbol(position, place);
            if options.ansi && want == '.' {
                want = '·';
            }
            assert_eq!(
                char_at(&lines, line, col),
                want,
                "{} at line {line}, column {col} with {options:?}\n{board}",
                position.layout().coord(place)
            );
        }
    }

    #[test]
    fn diagram_start_37_shows_every_ring_and_the_column_letters() {
        let board = render_board(&Position::standard(), &plain());
        assert_eq!(board.matches('o').count(), 37, "{board}");
        let lines: Vec<&str> = board.lines().collect();
        // 13 lines of places between two heading lines.
        assert_eq!(lines.len(), 15);
        for heading in [lines[0], lines[14]] {
            let letters: String = heading.split_whitespace().collect();
            assert_eq!(letters, "abcdefg");
        }
        // The seven columns are evenly spaced.
        let cols: Vec<usize> = lines[0]
            .match_indices(char::is_alphabetic)
            .map(|m| m.0)
            .collect();
        assert!(cols.windows(2).all(|w| w[1] - w[0] == 4), "{cols:?}");
        // Plain text: ASCII, no escape codes, no trailing blanks.
        let text = render(&Position::standard(), &plain());
        assert!(text.is_ascii());
        assert!(text.lines().all(|l| l == l.trim_end()));
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn diagram_every_official_board_draws_each_place_at_its_cell() {
        for kind in BoardKind::OFFICIAL {
            let layout = Layout::official(kind);
            let start = Position::new(layout, RuleSet::STANDARD);
            let board = render_board(&start, &plain());
            assert_eq!(
                board.matches('o').count(),
                layout.len(),
                "{kind:?}\n{board}"
            );
            let heights: Vec<i16> = layout.places().map(|p| layout.cell(p).1).collect();
            let rows = heights.iter().max().unwrap() - heights.iter().min().unwrap() + 1;
            assert_eq!(board.lines().count(), rows as usize + 2, "{kind:?}");
            for labels in [Labels::Edges, Labels::Every, Labels::Host] {
                for (ansi, mark_free) in [(false, false), (true, true)] {
                    assert_places_drawn(&start, &with(labels, ansi, mark_free));
                }
            }
        }
    }

    #[test]
    fn diagram_marbles_appear_at_their_places() {
        let position = midgame48();
        for labels in [Labels::Edges, Labels::Every, Labels::Host] {
            for ansi in [false, true] {
                for mark_free in [false, true] {
                    assert_places_drawn(&position, &with(labels, ansi, mark_free));
                }
            }
        }
        // Counted the other way round: as many letters as marbles, and nothing else lettered.
        let board = render_board(&position, &plain());
        let body: String = board.lines().skip(1).collect::<Vec<_>>().join("\n");
        for colour in Colour::ALL {
            let want = position.marbles(colour).count_ones() as usize;
            assert_eq!(body.matches(colour.letter()).count(), want, "{board}");
        }
    }

    #[test]
    fn diagram_removed_rings_are_not_shown_as_rings() {
        let position = midgame48();
        let layout = position.layout();
        let board = render_board(&position, &plain());
        let empty = position.empty().count_ones() as usize;
        let gone = layout.len() - position.rings().count_ones() as usize;
        assert!(gone > 0);
        assert_eq!(board.matches('o').count(), empty, "{board}");
        assert_eq!(board.matches('.').count(), gone, "{board}");
        let lines = grid(&board);
        for (place, line, col) in expected_spots(&board, layout) {
            if !position.has_ring(place) {
                assert_eq!(char_at(&lines, line, col), '.');
            }
        }
        // No label for a place whose ring is gone: h1-h4 are all gone here.
        let every = render_board(&position, &with(Labels::Every, false, false));
        assert!(!every.contains("h1") && !every.contains("h4"), "{every}");
        assert!(every.contains("g3"), "{every}");
    }

    #[test]
    fn diagram_split_board_and_free_rings() {
        let position = split37();
        assert!(position.is_split());
        let options = with(Labels::Edges, false, true);
        let text = render(&position, &options);
        assert!(text.contains("split into 2 groups"), "{text}");
        let free = position.free_rings().count_ones() as usize;
        assert!(free > 0);
        assert_eq!(text.matches("(o)").count(), free, "{text}");
        assert!(
            text.contains(&format!("30 of 37 rings, {free} free")),
            "{text}"
        );
        // Column d is all dots.
        let board = render_board(&position, &options);
        let lines = grid(&board);
        for (place, line, col) in expected_spots(&board, position.layout()) {
            if position.layout().coord(place).column == 3 {
                assert_eq!(char_at(&lines, line, col), '.');
            }
        }
        assert_places_drawn(&position, &options);
        assert!(text.contains("player 2") && text.contains("<- to move"));
    }

    #[test]
    fn diagram_status_shows_supply_captures_and_turn() {
        let text = render_status(&midgame48(), &plain());
        let rows: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert!(
            rows.contains(&vec!["W", "G", "B", "each", "to", "win"]),
            "{text}"
        );
        assert!(rows.contains(&vec!["supply", "2", "5", "5"]), "{text}");
        assert!(
            rows.contains(&vec![
                "player", "1", "0/4", "0/5", "1/6", "0/3", "4", "<-", "to", "move"
            ]),
            "{text}"
        );
        // Player two holds 2 white and 1 grey: 2 more white would win.
        assert!(
            rows.contains(&vec!["player", "2", "2/4", "1/5", "0/6", "0/3", "2"]),
            "{text}"
        );
        assert!(text.starts_with("48 board, standard rules: 36 of 48 rings\n"));
        assert!(!text.contains("Game over"));

        // Blitz thresholds and the "each" progress.
        let mut setup = Setup::start(Layout::standard(), RuleSet::BLITZ);
        setup.supply = Marbles::new(3, 5, 7);
        setup.captures = [Marbles::new(1, 1, 1), Marbles::new(1, 1, 0)];
        let position = Position::from_setup(setup).unwrap();
        let text = render_status(&position, &plain());
        assert!(text.contains("blitz rules"), "{text}");
        let rows: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert!(rows.contains(&vec!["supply", "3", "5", "7"]), "{text}");
        assert!(
            rows.contains(&vec![
                "player", "1", "1/3", "1/4", "1/5", "1/2", "2", "<-", "to", "move"
            ]),
            "{text}"
        );
        assert!(
            rows.contains(&vec!["player", "2", "1/3", "1/4", "0/5", "0/2", "2"]),
            "{text}"
        );
    }

    #[test]
    fn diagram_game_over_and_empty_supply() {
        let mut setup = Setup::start(Layout::standard(), RuleSet::STANDARD);
        setup.supply = Marbles::new(0, 0, 0);
        setup.captures = [Marbles::new(4, 0, 2), Marbles::new(2, 3, 4)];
        setup.to_move = Player::Two;
        let position = Position::from_setup(setup).unwrap();
        assert!(position.is_over());
        let text = render(&position, &plain());
        assert!(
            text.contains("Game over: player 1 wins with a winning set of captures."),
            "{text}"
        );
        assert!(text.contains("4/4"), "{text}");
        assert!(text.contains("<- winner"), "{text}");
        assert!(!text.contains("to move"), "{text}");
        let ansi = render(&position, &with(Labels::Edges, true, false));
        assert!(strip_ansi(&ansi).contains("◀ winner"), "{ansi}");

        // Supply empty, game on: the players place from their captures.
        let mut setup = Setup::start(Layout::standard(), RuleSet::STANDARD);
        setup.supply = Marbles::new(0, 0, 0);
        setup.captures = [Marbles::new(2, 4, 5), Marbles::new(3, 1, 5)];
        let position = Position::from_setup(setup).unwrap();
        let text = render_status(&position, &plain());
        assert!(text.contains("supply is empty"), "{text}");
        assert!(text.contains("<- to move"), "{text}");
    }

    #[test]
    fn diagram_every_labels_name_each_ring() {
        let position = midgame48();
        let layout = position.layout();
        for (ansi, gap) in [(false, 2), (true, 3)] {
            let options = with(Labels::Every, ansi, false);
            let board = strip_ansi(&render_board(&position, &options));
            let lines = grid(&board);
            for (place, line, col) in expected_spots(&board, layout) {
                if !position.has_ring(place) {
                    continue;
                }
                let label: String = lines[line][col + gap..].iter().take(2).collect();
                assert_eq!(label, layout.coord(place).to_string(), "{board}");
            }
        }
    }

    #[test]
    fn diagram_host_labels() {
        // Full 37 board: A1 = g4, A4 = g1, G4 = a1 (rules.md 7.1).
        let start = Position::standard();
        let board = render_board(&start, &with(Labels::Host, false, false));
        let letters: String = board.lines().next().unwrap().split_whitespace().collect();
        assert_eq!(letters, "GFEDCBA");
        let lines = grid(&board);
        let spots = expected_spots(&board, start.layout());
        let spot = |c: &str| {
            let place = start.layout().parse_place(c).unwrap();
            let &(_, line, col) = spots.iter().find(|s| s.0 == place).unwrap();
            lines[line][col + 2..col + 4].iter().collect::<String>()
        };
        assert_eq!(spot("g4"), "A1");
        assert_eq!(spot("g1"), "A4");
        assert_eq!(spot("a1"), "G4");
        assert_eq!(spot("d4"), "D4");
        // No official coordinates and no row numbers on the sides.
        assert!(!board.contains("d4") && !board.contains("a1"));

        // Host numbers follow the rings still there; every ring carries its own.
        let position = midgame48();
        let board = render_board(&position, &with(Labels::Host, true, true));
        let plain_board = strip_ansi(&board);
        for place in position.layout().places() {
            if let Some(label) = host::coord_text(&position, place) {
                assert!(plain_board.contains(&label), "{label}\n{plain_board}");
            }
        }
        assert_places_drawn(&position, &with(Labels::Host, true, true));
    }

    #[test]
    fn diagram_edge_row_numbers() {
        let board = render_board(&Position::standard(), &plain());
        let lines: Vec<&str> = board.lines().collect();
        // a4 is the top of column a: its line reads "4 o ... o 4" (g4 on the right).
        assert_eq!(lines[4], "4 o       o       o       o 4");
        // d7 is the top of the board: row 7 on both sides of it.
        assert_eq!(lines[1].trim(), "7 o 7");
        assert_eq!(lines[13].trim(), "o");
        // On the 48 board the right side shows h's rows and the upper right edge.
        let board = render_board(
            &Position::new(Layout::official(BoardKind::Rings48), RuleSet::STANDARD),
            &plain(),
        );
        for row in 1..=8 {
            let n = row.to_string();
            let count = board
                .lines()
                .flat_map(|l| l.split_whitespace())
                .filter(|t| *t == n)
                .count();
            assert_eq!(count, 2, "row {row}\n{board}");
        }
    }

    #[test]
    fn diagram_ansi_is_the_plain_text_coloured() {
        for position in [Position::standard(), midgame48(), split37()] {
            for labels in [Labels::Edges, Labels::Every, Labels::Host] {
                let plain_text = render_board(&position, &with(labels, false, true));
                let ansi = render_board(&position, &with(labels, true, true));
                assert!(ansi.contains('\x1b'));
                // Every colour is switched off again before the end of the line.
                for line in ansi.lines() {
                    if line.contains('\x1b') {
                        assert!(line.ends_with(RESET), "{line:?}");
                    }
                }
                let stripped: Vec<String> = strip_ansi(&ansi)
                    .replace('·', ".")
                    .lines()
                    .map(|l| l.trim_end().to_string())
                    .collect();
                let plain_lines: Vec<&str> = plain_text.lines().collect();
                assert_eq!(stripped, plain_lines);
            }
        }
        // The status table keeps its columns with colour on.
        let status = render_status(&midgame48(), &with(Labels::Edges, true, false));
        let plain_status = render_status(&midgame48(), &plain());
        assert_eq!(
            strip_ansi(&status).replace("◀", "<-"),
            plain_status
                .replace("W  ", " W ")
                .replace("G  ", " G ")
                .replace("B  ", " B ")
        );
    }

    #[test]
    fn diagram_frame_stays_put_as_the_game_goes_on() {
        // Same headings, in the same columns, at the start and in the middle of a game, so a
        // diagram printed after each move does not jump about.
        let start = Position::new(Layout::official(BoardKind::Rings48), RuleSet::STANDARD);
        for labels in [Labels::Edges, Labels::Every, Labels::Host] {
            for ansi in [false, true] {
                for mark_free in [false, true] {
                    let options = with(labels, ansi, mark_free);
                    let first = strip_ansi(&render_board(&start, &options));
                    let later = strip_ansi(&render_board(&midgame48(), &options));
                    assert_eq!(first.lines().next(), later.lines().next(), "{options:?}");
                    assert_eq!(first.lines().count(), later.lines().count());
                }
            }
        }
    }

    #[test]
    fn diagram_custom_layouts() {
        let layout = Layout::from_spec("a1-3,b1-4,c1-3").unwrap();
        let start = Position::new(layout, RuleSet::STANDARD);
        let text = render(&start, &plain());
        let board = render_board(&start, &plain());
        assert_eq!(board.matches('o').count(), 10, "{board}");
        assert_eq!(board.lines().next().unwrap().trim(), "a   b   c");
        assert!(text.contains("custom board, standard rules: 10 of 10 rings"));
        for labels in [Labels::Edges, Labels::Every, Labels::Host] {
            assert_places_drawn(&start, &with(labels, false, false));
        }

        // A board that does not start at column a, with a gap between its columns' heights.
        let layout = Layout::from_spec("c2-5,d1-6,e2-5,f1-3,g1-3,h1-2").unwrap();
        let mut position = Position::new(layout, RuleSet::STANDARD);
        let mut moves = 0;
        while moves < 6 {
            let legal = position.legal_moves();
            let mv = legal[moves * 7 % legal.len()];
            position = position.play(&mv).unwrap();
            moves += 1;
        }
        let board = render_board(&position, &plain());
        assert_eq!(
            board.lines().next().unwrap().trim(),
            "c   d   e   f   g   h"
        );
        // Empty columns a and b take no room.
        assert!(board.lines().any(|l| !l.starts_with(' ')), "{board}");
        for labels in [Labels::Edges, Labels::Every, Labels::Host] {
            for (ansi, mark_free) in [(false, false), (true, true)] {
                assert_places_drawn(&position, &with(labels, ansi, mark_free));
            }
        }
        // Two-digit rows widen the columns so labels never touch.
        let layout = Layout::from_spec("a1-12,b1-12").unwrap();
        let start = Position::new(layout, RuleSet::STANDARD);
        let board = render_board(&start, &with(Labels::Every, true, true));
        assert!(strip_ansi(&board).contains("a12"), "{board}");
        assert_places_drawn(&start, &with(Labels::Every, true, true));
        assert_places_drawn(&start, &plain());
    }

    #[test]
    fn diagram_random_games_stay_well_formed() {
        // Late-game positions of every official board: each place where it belongs, a letter
        // per marble, and one status table.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for kind in BoardKind::OFFICIAL {
            let mut position = Position::new(Layout::official(kind), RuleSet::STANDARD);
            for turn in 0..60 {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                position = position
                    .play(&moves[(seed >> 33) as usize % moves.len()])
                    .unwrap();
                if turn % 10 == 9 || position.is_over() {
                    for labels in [Labels::Edges, Labels::Every, Labels::Host] {
                        assert_places_drawn(&position, &with(labels, false, true));
                        assert_places_drawn(&position, &with(labels, true, false));
                    }
                    let text = render(&position, &plain());
                    let empty = position.supply().is_empty() && !position.is_over();
                    assert_eq!(text.matches("supply").count(), 1 + empty as usize);
                    assert_eq!(text.contains("Game over"), position.is_over(), "{text}");
                }
            }
        }
    }
}
