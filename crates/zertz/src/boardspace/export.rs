//! Writing a game as a BoardSpace SGF record.
//!
//! The 37, 48 and 61 boards are BoardSpace's `Zertz`, `Zertz+11` and `Zertz+24`. A game on the
//! 48 board that starts from another position (a handicap) is written as `Zertz+H` with the
//! set-up in edit mode. Other boards (of any size up to 204 places) are written as `Zertz+xx`:
//! one player designs the board with `R+` gestures in BoardSpace's custom frame and ends with
//! `Done`; the other then moves first, or swaps sides (`Swap`, `Done`, the pie rule) so that
//! the designer moves first ([`ExportInfo::designer`]).

use std::fmt::Write as _;

use super::sgf::escape;
use crate::bits::Bits;
use crate::game::{Game, Turn};
use crate::layout::{BoardKind, Layout, LayoutRef, LayoutWidth, Place};
use crate::marbles::{Colour, Player};
use crate::moves::Move;
use crate::position::{Outcome, Position};
use crate::rules::RuleSet;

/// What BoardSpace cannot express.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// BoardSpace plays only the standard supply and winning sets.
    #[error("BoardSpace plays only the standard rule set, not {0}")]
    RuleSet(String),
    /// A start position BoardSpace cannot set up on this board.
    #[error("BoardSpace can start a game on the {0} board only from the empty board")]
    StartPosition(String),
    /// BoardSpace's games always hold 6 white, 8 grey and 10 black marbles in all.
    #[error(
        "the start position holds {0} marbles in all (supply, board and captures); BoardSpace's games hold 6/8/10"
    )]
    MarbleTotals(String),
    /// The bribe-to-pass house rule has no BoardSpace gesture.
    #[error("BoardSpace has no pass: turn {0} is a bribe-to-pass")]
    Pass(usize),
    /// The bribe-to-pass house rule has no BoardSpace gesture: a bribe proposed and rejected.
    #[error("BoardSpace has no bribes: a bribe is proposed before turn {0}")]
    Bribe(usize),
    /// The board does not fit BoardSpace's custom frame (17 columns of 12 rows).
    #[error("the board does not fit BoardSpace's custom frame of 17 columns and 12 rows")]
    TooBig,
}

/// The header facts of an exported record.
#[derive(Clone, Debug, Default)]
pub struct ExportInfo {
    /// Names of player one and player two.
    pub players: [String; 2],
    /// The date, as free text (BoardSpace writes `Wed Oct 29 08:02:18 ADT 2025`).
    pub date: Option<String>,
    /// The game's name.
    pub name: Option<String>,
    /// On a board written as `Zertz+xx`, the player who designed it. Player one moves first,
    /// so when player one designed the board, player two swapped sides (`Swap`) after the
    /// design; when player two designed it (or `None`), player one chose to move first.
    pub designer: Option<Player>,
}

fn bs_coord(layout: &Layout, place: Place, shift: (i16, i16)) -> String {
    if shift == (0, 0) {
        let c = layout.coord(place);
        return format!("{} {}", c.column_letter().to_ascii_uppercase(), c.row);
    }
    let (x, y) = layout.cell(place);
    let (x, y) = (x + shift.0, y + shift.1);
    // BoardSpace's custom frame: column x starts at height 1 + x % 2.
    let row = (y - (1 + x % 2)) / 2 + 1;
    format!("{} {}", (b'A' + x as u8) as char, row)
}

/// The translation that puts `layout` into BoardSpace's custom frame: none for a custom layout
/// that fits the grid, else to the bottom left.
fn custom_frame_shift(layout: &Layout) -> Result<(i16, i16), ExportError> {
    // A custom layout is already in the frame: its places keep their coordinates when they fit
    // the grid, so that a board designed on the grid reads back with the same moves.
    let in_grid = |c: crate::Coord| c.column < 17 && (1..=12).contains(&c.row);
    if layout.kind() == BoardKind::Custom && layout.places().all(|p| in_grid(layout.coord(p))) {
        return Ok((0, 0));
    }
    let cells: Vec<(i16, i16)> = layout.places().map(|p| layout.cell(p)).collect();
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let dx = -min_x;
    // Lowest dy that keeps every place at or above its column's first row, with the parity
    // of the frame (x + y odd).
    let mut dy = cells
        .iter()
        .map(|&(x, y)| (1 + (x + dx) % 2) - y)
        .max()
        .unwrap_or(0);
    if let Some(&(x, y)) = cells.first()
        && (x + dx + y + dy).rem_euclid(2) == 0
    {
        dy += 1;
    }
    let fits = cells.iter().all(|&(x, y)| {
        let (x, y) = (x + dx, y + dy);
        let row = (y - (1 + x % 2)) / 2 + 1;
        x < 17 && (1..=12).contains(&row)
    });
    if fits {
        Ok((dx, dy))
    } else {
        Err(ExportError::TooBig)
    }
}

/// Writes `game` as a BoardSpace record.
pub fn export<S: LayoutWidth>(game: &Game<S>, info: &ExportInfo) -> Result<String, ExportError> {
    let mut writer = Writer::begin(game.start(), game.outcome(), info, "")?;
    for (i, (turn, position)) in game.turns().iter().zip(game.positions()).enumerate() {
        writer.turn(i, position, turn)?;
    }
    Ok(writer.finish())
}

/// A BoardSpace record being written: the header and set-up first, then turns one by one, and
/// the branches of variations (used by [`crate::tree`]).
pub(crate) struct Writer {
    layout: LayoutRef,
    shift: (i16, i16),
    out: String,
    /// The number of the next gesture.
    n: usize,
    /// Branches opened and not yet started by a gesture.
    open: usize,
}

impl Writer {
    /// The header (with the result `outcome` and the root comment, if any) and the set-up of
    /// `start`, up to and including `Start`.
    pub(crate) fn begin<S: LayoutWidth>(
        start: &Position<S>,
        outcome: Option<Outcome>,
        info: &ExportInfo,
        comment: &str,
    ) -> Result<Writer, ExportError> {
        let layout = start.layout().clone();
        if start.rule_set() != RuleSet::STANDARD {
            return Err(ExportError::RuleSet(start.rule_set().to_string()));
        }
        let fresh = Position::<S>::new_in(&layout, RuleSet::STANDARD).is_ok_and(|p| p == *start);
        let mut totals = [0u32; 3];
        for c in Colour::ALL {
            totals[c.index()] = start.supply().get(c) as u32
                + start.marbles(c).count()
                + start.captures(Player::One).get(c) as u32
                + start.captures(Player::Two).get(c) as u32;
        }
        if totals != [6, 8, 10] {
            return Err(ExportError::MarbleTotals(format!(
                "{}/{}/{}",
                totals[0], totals[1], totals[2]
            )));
        }
        let (variant, shift) = match layout.kind() {
            BoardKind::Rings37 if fresh => ("Zertz", (0, 0)),
            BoardKind::Rings48 if fresh => ("Zertz+11", (0, 0)),
            BoardKind::Rings61 if fresh => ("Zertz+24", (0, 0)),
            BoardKind::Rings48 => ("Zertz+H", (0, 0)),
            _ if fresh => ("Zertz+xx", custom_frame_shift(&layout)?),
            _ => return Err(ExportError::StartPosition(layout.spec())),
        };
        let mut w = Writer {
            layout: layout.clone(),
            shift,
            out: String::from("(;\nGM[22]VV[2]\n"),
            n: 0,
            open: 0,
        };
        let out = &mut w.out;
        let _ = writeln!(out, "SU[{variant}]");
        if let Some(date) = &info.date {
            let _ = writeln!(out, "DT[{}]", escape(date));
        }
        if let Some(name) = &info.name {
            let _ = writeln!(out, "GN[{}]", escape(name));
        }
        match outcome {
            Some(Outcome::Win { winner, .. }) => {
                let _ = writeln!(
                    out,
                    "RE[Game won by {}]",
                    escape(&info.players[winner.index()])
                );
            }
            Some(Outcome::Draw(_)) => out.push_str("RE[The game is a draw]\n"),
            None => {}
        }
        for (i, name) in info.players.iter().enumerate() {
            let _ = writeln!(out, "P{i}[id \"{}\"]", escape(name));
        }
        if !comment.is_empty() {
            let _ = writeln!(out, "C[{}]", escape(comment));
        }
        if variant == "Zertz+H" {
            // Set the start up in edit mode: handicap captures, missing rings, marbles on the
            // board.
            w.gesture(Player::One, "Edit".into());
            for player in Player::BOTH {
                for colour in Colour::ALL {
                    for _ in 0..start.captures(player).get(colour) {
                        w.gesture(
                            player,
                            format!("RtoR 2 {} {}", colour.index(), player.index()),
                        );
                    }
                }
            }
            for place in Bits(layout.all_in::<S>() & !start.rings()) {
                let at = w.coord(Place(place));
                w.gesture(Player::One, format!("R- {at}"));
            }
            for colour in Colour::ALL {
                for place in Bits(start.marbles(colour)) {
                    let at = w.coord(Place(place));
                    w.gesture(Player::One, format!("RtoB 2 {} {at}", colour.index()));
                }
            }
        }
        let first = start.to_move();
        if variant == "Zertz+xx" {
            // BoardSpace's designer starts; the other player moves first or swaps sides.
            let designer = info.designer.unwrap_or(first.other());
            w.gesture(designer, format!("Start P{}", designer.index()));
            for place in layout.places() {
                let at = w.coord(place);
                w.gesture(designer, format!("R+ {at}"));
            }
            w.gesture(designer, "Done".into());
            if designer == first {
                w.gesture(first.other(), "Swap".into());
                w.gesture(first.other(), "Done".into());
            }
        } else {
            w.gesture(first, format!("Start P{}", first.index()));
        }
        Ok(w)
    }

    fn coord(&self, p: Place) -> String {
        bs_coord(&self.layout, p, self.shift)
    }

    fn gesture(&mut self, player: Player, text: String) {
        for _ in 0..self.open {
            self.out.push('(');
        }
        self.open = 0;
        let _ = writeln!(self.out, "; P{}[{} {text}]", player.index(), self.n);
        self.n += 1;
    }

    /// Writes turn `index` (from 0), played in `position`.
    pub(crate) fn turn<S: LayoutWidth>(
        &mut self,
        index: usize,
        position: &Position<S>,
        turn: &Turn,
    ) -> Result<(), ExportError> {
        let me = position.to_move();
        match turn {
            Turn::Pass { .. } => return Err(ExportError::Pass(index + 1)),
            Turn::Move(Move::Place(p)) => {
                let rack = if position.supply().is_empty() {
                    me.index()
                } else {
                    2
                };
                let at = self.coord(p.at);
                self.gesture(me, format!("RtoB {rack} {} {at}", p.colour.index()));
                if let Some(r) = p.remove {
                    let at = self.coord(r);
                    self.gesture(me, format!("R- {at}"));
                }
            }
            Turn::Move(Move::Capture(c)) => {
                let mut at = c.from();
                for (_, to) in c.steps(&self.layout).unwrap_or_default() {
                    let (a, b) = (self.coord(at), self.coord(to));
                    self.gesture(me, format!("BtoB {a} {b}"));
                    at = to;
                }
            }
        }
        self.gesture(me, "Done".into());
        Ok(())
    }

    /// A comment `C[…]` on the last node written.
    pub(crate) fn comment(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if self.out.ends_with('\n') {
            self.out.pop();
        }
        let _ = writeln!(self.out, "C[{}]", escape(text));
    }

    /// The number of the next gesture (a branch restarts from the number where it starts).
    pub(crate) fn gesture_number(&self) -> usize {
        self.n
    }

    /// Opens a branch `(` starting at gesture number `n`: its first gesture follows.
    pub(crate) fn open_branch(&mut self, n: usize) {
        self.open += 1;
        self.n = n;
    }

    /// Closes the branch opened last.
    pub(crate) fn close_branch(&mut self) {
        if self.out.ends_with('\n') {
            self.out.pop();
        }
        self.out.push_str(")\n");
    }

    /// The record, closed.
    pub(crate) fn finish(mut self) -> String {
        self.out.push_str(")\n");
        self.out
    }
}
