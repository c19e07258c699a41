//! Reading BoardSpace records (rules.md section 9) and replaying them under this project's rules.
//!
//! A record is a list of gestures (`RtoB`, `R-`, `BtoB`, `Done`, …) by player `P0` or `P1`. The
//! reader gathers the gestures of each turn, turns them into one move, checks the move with the
//! rules library and plays it. It survives every quirk listed in rules.md: removal written
//! before placement, records without move numbers or `Done` (a change of player ends the turn),
//! null gestures (skipped), undo gestures inside a turn (honoured), handicap set-up in edit mode,
//! custom boards built with `R+` (of any size up to 204 places, connected or not) and the
//! `Swap` that may follow them, lower-case verbs, and moves after the game is already won
//! (ignored and counted). Anything else is rejected with the line and a named reason.
//!
//! [`import`] gives games with `u64` sets of places and refuses a board of more than 64 places
//! ([`RejectKind::WideBoard`]); [`import_wide`] reads boards of up to 128 places into `u128`
//! sets, [`import_huge`] any board into [`Huge`] ones, and [`import_any`] picks the narrowest
//! reader the board allows.

use std::fmt;

use super::sgf;
use crate::bits::{Huge, Narrow, Wide};
use crate::game::Game;
use crate::layout::{BoardKind, Coord, Layout, LayoutRef, LayoutWidth, Place};
use crate::marbles::{Colour, Marbles, Player};
use crate::moves::{Capture, Move};
use crate::position::{Outcome, Position, Setup};
use crate::rules::{RuleSet, Rules};

/// The kinds of reasons a record is rejected, for counting them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RejectKind {
    /// An empty file.
    EmptyFile,
    /// Not SGF at all.
    Syntax,
    /// Not a ZÈRTZ record, or a variant this reader does not know.
    UnknownVariant,
    /// A gesture this reader does not understand, or with bad arguments.
    BadGesture,
    /// A coordinate that is not on the board.
    BadCoordinate,
    /// A turn that does not make one move (two placements, a removal alone, a broken chain…).
    MalformedTurn,
    /// An undo gesture that does not undo anything in the current turn.
    UnmatchedUndo,
    /// Editing of the board or of the racks during play.
    EditDuringPlay,
    /// A move by the player who is not to move.
    OutOfTurn,
    /// A move the rules of this project call illegal.
    IllegalMove,
    /// The custom board built with `R+` is not a valid layout.
    BadLayout,
    /// The board has more places than the reader's sets hold: [`import`] refuses one of more
    /// than 64, [`import_wide`] one of more than 128; [`import_huge`] reads every board.
    WideBoard,
}

impl RejectKind {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            RejectKind::EmptyFile => "empty file",
            RejectKind::Syntax => "SGF syntax error",
            RejectKind::UnknownVariant => "unknown game or variant",
            RejectKind::BadGesture => "unknown or malformed gesture",
            RejectKind::BadCoordinate => "coordinate off the board",
            RejectKind::MalformedTurn => "turn is not one move",
            RejectKind::UnmatchedUndo => "undo gesture that undoes nothing",
            RejectKind::EditDuringPlay => "board or rack edited during play",
            RejectKind::OutOfTurn => "move out of turn",
            RejectKind::IllegalMove => "illegal move",
            RejectKind::BadLayout => "invalid custom board",
            RejectKind::WideBoard => "board larger than the reader's sets of places",
        }
    }

    /// True for the kinds that come from BoardSpace's undo and edit tools rather than from play:
    /// the "documented artefacts" of rules.md section 9.
    pub fn is_artefact(self) -> bool {
        matches!(self, RejectKind::UnmatchedUndo | RejectKind::EditDuringPlay)
    }
}

impl fmt::Display for RejectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a record could not be replayed: the kind, the SGF line, and the details.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}: {detail}")]
pub struct ImportError {
    /// What kind of problem.
    pub kind: RejectKind,
    /// The 1-based SGF line of the offending gesture.
    pub line: usize,
    /// The details, naming the gesture or move.
    pub detail: String,
    /// True when the record also contains undo or edit gestures before this point (so an illegal
    /// move here is likely an artefact of them).
    pub after_undo_or_edit: bool,
}

/// The result a record states (its `RE` property).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedResult {
    /// No `RE` property.
    None,
    /// The named player (BoardSpace index 0 or 1) won.
    Winner(usize),
    /// A draw.
    Draw,
    /// An `RE` text that names neither player (or both).
    Unreadable(String),
}

/// How the gestures of a record end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended the game (a winning set, no legal move, or repetition).
    Rules(Outcome),
    /// A player (BoardSpace index) resigned.
    Resigned(usize),
    /// A player (BoardSpace index) claimed a win on time.
    WinOnTime(usize),
    /// The record stops with the game still going.
    Unfinished,
}

/// A BoardSpace record, replayed. `S` is the type of the game's sets of places (`u64` unless
/// read by [`import_wide`] or [`import_huge`]).
#[derive(Clone, Debug)]
pub struct Imported<S: LayoutWidth = Narrow> {
    /// The `SU` property: `Zertz`, `Zertz+11`, `Zertz+24`, `Zertz+xx`, `Zertz+H`.
    pub variant: String,
    /// Player ids of `P0` and `P1`.
    pub players: [String; 2],
    /// BoardSpace index (0 or 1) of the player who moved first.
    pub first: usize,
    /// True when, on a "Zertz+xx" board, the player who did not design the board swapped sides
    /// (`Swap`, the pie rule): the designer then moved first.
    pub swapped: bool,
    /// The `RE` text.
    pub result_text: Option<String>,
    /// What the `RE` text says, matched against the player ids.
    pub result: RecordedResult,
    /// The `DT` property.
    pub date: Option<String>,
    /// The `GN` property.
    pub name: Option<String>,
    /// The game: its start position (handicaps and custom boards included) and every move.
    pub game: Game<S>,
    /// The SGF line where each turn of `game` starts.
    pub lines: Vec<usize>,
    /// How the record ends.
    pub ending: Ending,
    /// Gestures found after the game had already ended by the rules (ignored).
    pub gestures_after_end: usize,
    /// Null gestures skipped (`BtoB E 5 E 5`, `RtoR 2 2 2`, empty turns).
    pub null_gestures: usize,
    /// Undo gestures honoured inside a turn (`BtoR`, `R+`, backward jumps, `Reset`).
    pub undo_gestures: usize,
}

impl<S: LayoutWidth> Imported<S> {
    /// The game's player (one = first mover) for a BoardSpace index.
    pub fn player_of(&self, bs: usize) -> Player {
        if bs == self.first {
            Player::One
        } else {
            Player::Two
        }
    }

    /// The BoardSpace index of a game player.
    pub fn bs_index(&self, player: Player) -> usize {
        match player {
            Player::One => self.first,
            Player::Two => 1 - self.first,
        }
    }

    /// The winner by the rules, as a BoardSpace index, if the replay ended in a win.
    pub fn rules_winner(&self) -> Option<usize> {
        match self.ending {
            Ending::Rules(outcome) => outcome.winner().map(|p| self.bs_index(p)),
            _ => None,
        }
    }
}

/// One gesture: who, what, where in the file.
#[derive(Clone, Debug)]
struct Gesture<'a> {
    /// BoardSpace player index, or `None` for `P-1` lines.
    player: Option<usize>,
    /// The verb in lower case.
    verb: Verb,
    /// The words after the verb, borrowed from the property (a record has thousands of
    /// gestures: nothing allocated for them).
    args: Args<'a>,
    line: usize,
    /// Index of its property in the properties read.
    index: usize,
    text: &'a str,
}

/// A gesture's verb, as the known verb it names whatever its case (a record has thousands of
/// gestures: nothing is allocated for them), or the empty verb, which matches none.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Verb(&'static str);

impl Verb {
    /// The longest verb the reader acts on.
    const LONGEST: usize = 9;

    fn new(word: &str) -> Verb {
        let mut lower = [0u8; Verb::LONGEST];
        let Some(lower) = lower.get_mut(..word.len()) else {
            return Verb("");
        };
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        // Every verb the reader acts on.
        Verb(match &*lower {
            b"btob" => "btob",
            b"btor" => "btor",
            b"done" => "done",
            b"edit" => "edit",
            b"r+" => "r+",
            b"r-" => "r-",
            b"reset" => "reset",
            b"resign" => "resign",
            b"rtob" => "rtob",
            b"rtor" => "rtor",
            b"start" => "start",
            b"swap" => "swap",
            b"winontime" => "winontime",
            _ => "",
        })
    }

    fn as_str(&self) -> &'static str {
        self.0
    }
}

impl PartialEq<&str> for Verb {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// The words after a gesture's verb, held inline: known gestures have at most 4; words after
/// the first [`Args::MAX`] are never read.
#[derive(Clone, Copy, Debug)]
struct Args<'a> {
    words: [&'a str; Args::MAX],
    len: usize,
}

impl<'a> Args<'a> {
    const MAX: usize = 6;

    fn of(words: impl Iterator<Item = &'a str>) -> Args<'a> {
        let mut args = Args {
            words: [""; Args::MAX],
            len: 0,
        };
        for word in words.take(Args::MAX) {
            args.words[args.len] = word;
            args.len += 1;
        }
        args
    }

    fn get(&self, i: usize) -> Option<&&'a str> {
        self.words[..self.len].get(i)
    }

    fn first(&self) -> Option<&&'a str> {
        self.get(0)
    }
}

/// The gestures of the turn being assembled.
#[derive(Default)]
struct Pending {
    player: Option<usize>,
    line: usize,
    /// Index of the property of the turn's first gesture.
    index: usize,
    placement: Option<(usize, Colour, Place)>,
    removal: Option<Place>,
    jumps: Vec<(Place, Place)>,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.placement.is_none() && self.removal.is_none() && self.jumps.is_empty()
    }
}

fn reject(kind: RejectKind, line: usize, detail: impl Into<String>) -> ImportError {
    ImportError {
        kind,
        line,
        detail: detail.into(),
        after_undo_or_edit: false,
    }
}

/// The winner an `RE` text names, matched against the two player ids.
pub fn read_result(text: &str, players: &[String; 2]) -> RecordedResult {
    // The id must appear as a whole word (the texts are localised: "Game won by X",
    // "X hat gewonnen", "Partie gagnée par X", "Игру выиграл(а) X.", "X获胜"). Only ASCII
    // letters and digits extend a name: "guest1488" does not name "guest".
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric());
    let mentions = |id: &str| -> Option<usize> {
        if id.is_empty() {
            return None;
        }
        text.match_indices(id)
            .any(|(i, _)| {
                boundary(text[..i].chars().next_back())
                    && boundary(text[i + id.len()..].chars().next())
            })
            .then_some(id.len())
    };
    match (mentions(&players[0]), mentions(&players[1])) {
        (Some(_), None) => return RecordedResult::Winner(0),
        (None, Some(_)) => return RecordedResult::Winner(1),
        // Both named: only meaningful if one id is longer and contains the other.
        (Some(a), Some(b)) if a != b => return RecordedResult::Winner(if a > b { 0 } else { 1 }),
        (Some(_), Some(_)) => return RecordedResult::Unreadable(text.to_string()),
        (None, None) => {}
    }
    // A guest's id is "guest", but results name the guest's session ("guest1488") and in the
    // viewer's language ("Gast1477", "гость1471", "invitado1494", "invité1485").
    const GUEST: [&str; 5] = ["guest", "gast", "гость", "invitado", "invité"];
    let lower = text.to_lowercase();
    let is_guest = |id: &String| id.eq_ignore_ascii_case("guest");
    if GUEST.iter().any(|g| lower.contains(g)) && is_guest(&players[0]) != is_guest(&players[1]) {
        return RecordedResult::Winner(if is_guest(&players[0]) { 0 } else { 1 });
    }
    if lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "draw")
    {
        return RecordedResult::Draw;
    }
    RecordedResult::Unreadable(text.to_string())
}

fn parse_gesture(prop: &sgf::Property, index: usize) -> Option<Gesture<'_>> {
    let player = match prop.key.as_str() {
        "P0" => Some(0),
        "P1" => Some(1),
        "P-1" => None,
        _ => return None,
    };
    let mut words = prop.value.split_whitespace().peekable();
    if words
        .peek()
        .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
    {
        words.next();
    }
    let verb = words.next()?;
    // The most common lines carry no move: skipped before anything is allocated.
    if ["id", "time", "ranking"]
        .iter()
        .any(|skip| verb.eq_ignore_ascii_case(skip))
    {
        return None;
    }
    Some(Gesture {
        player,
        verb: Verb::new(verb),
        args: Args::of(words),
        line: prop.line,
        index,
        text: prop.value.trim(),
    })
}

/// The variant's board and whether it starts with an edit phase or an empty custom board.
fn variant_layout(variant: &str) -> Option<(Option<&'static Layout>, bool)> {
    match variant.to_ascii_lowercase().as_str() {
        "zertz" => Some((Some(Layout::official(BoardKind::Rings37)), false)),
        "zertz+11" => Some((Some(Layout::official(BoardKind::Rings48)), false)),
        "zertz+24" => Some((Some(Layout::official(BoardKind::Rings61)), false)),
        "zertz+h" => Some((Some(Layout::official(BoardKind::Rings48)), false)),
        "zertz+xx" => Some((None, true)),
        _ => None,
    }
}

struct Reader<S: LayoutWidth> {
    rules: Rules,
    /// Board before play: a fixed official layout, or the places added so far on a custom one.
    layout: Option<LayoutRef>,
    custom_places: Vec<Coord>,
    /// Set-up before the first move (handicaps, edits), in BoardSpace terms.
    setup_rings_removed: Vec<Place>,
    setup_marbles: Vec<(Colour, Place)>,
    setup_captures: [Marbles; 2],
    setup_supply: Marbles,
    first: Option<usize>,
    editing: bool,
    game: Option<Game<S>>,
    lines: Vec<usize>,
    /// About how many turns the record holds (room is made for them at the start).
    expected_turns: usize,
    /// Index of the property of each turn's first gesture.
    starts: Vec<usize>,
    pending: Pending,
    ending: Ending,
    gestures_after_end: usize,
    null_gestures: usize,
    undo_gestures: usize,
    undo_or_edit_seen: bool,
    start_overridden: bool,
    /// BoardSpace index of the player who built the custom board with `R+`.
    designer: Option<usize>,
    /// Who swapped sides after the design, if someone did (a second `Swap` takes it back).
    swapped_by: Option<usize>,
}

impl<S: LayoutWidth> Reader<S> {
    fn coord(&self, g: &Gesture, at: usize) -> Result<Coord, ImportError> {
        let bad = || {
            reject(
                RejectKind::BadGesture,
                g.line,
                format!("`{}`: expected a column letter and a row number", g.text),
            )
        };
        let col = g.args.get(at).ok_or_else(bad)?;
        let row = g.args.get(at + 1).ok_or_else(bad)?;
        let col = col
            .chars()
            .next()
            .filter(|c| c.is_ascii_alphabetic() && col.len() == 1)
            .ok_or_else(bad)?;
        let row: u8 = row
            .parse()
            .ok()
            .filter(|r| (1..=99).contains(r))
            .ok_or_else(bad)?;
        Ok(Coord::new(col.to_ascii_lowercase() as u8 - b'a', row))
    }

    fn place(&self, g: &Gesture, at: usize) -> Result<Place, ImportError> {
        let coord = self.coord(g, at)?;
        let layout = self
            .game
            .as_ref()
            .map(|game| game.position().layout())
            .or(self.layout.as_ref())
            .ok_or_else(|| {
                reject(
                    RejectKind::BadGesture,
                    g.line,
                    "a move before the board exists",
                )
            })?;
        layout.place(coord).ok_or_else(|| {
            reject(
                RejectKind::BadCoordinate,
                g.line,
                format!(
                    "`{}`: {coord} is not on the {} board",
                    g.text,
                    layout.spec()
                ),
            )
        })
    }

    fn number(&self, g: &Gesture, at: usize, max: usize) -> Result<usize, ImportError> {
        g.args
            .get(at)
            .and_then(|a| a.parse::<usize>().ok())
            .filter(|n| *n <= max)
            .ok_or_else(|| {
                reject(
                    RejectKind::BadGesture,
                    g.line,
                    format!(
                        "`{}`: argument {} should be a number from 0 to {max}",
                        g.text,
                        at + 1
                    ),
                )
            })
    }

    fn colour(&self, g: &Gesture, at: usize) -> Result<Colour, ImportError> {
        let n = self.number(g, at, 2)?;
        Ok(Colour::from_index(n).unwrap_or(Colour::White))
    }

    /// Starts play: builds the start position from the set-up gathered so far.
    fn begin_play(&mut self, line: usize, mover: Option<usize>) -> Result<(), ImportError> {
        if self.game.is_some() {
            return Ok(());
        }
        // The first move's player is the first mover. (`Start Pn` is not reliable: in the
        // 2004 records `P0[Start P1]` precedes a first move by P0, and on custom boards P0
        // builds the board and P1 moves first.)
        if mover.is_some() {
            if self.first.is_some() && self.first != mover {
                self.start_overridden = true;
            }
            self.first = mover;
        }
        if let (Some(swapper), Some(mover)) = (self.swapped_by, mover)
            && swapper == mover
        {
            return Err(reject(
                RejectKind::OutOfTurn,
                line,
                format!("P{mover} swapped sides, then made the first move itself"),
            ));
        }
        let layout = match &self.layout {
            Some(l) => l.clone(),
            None => {
                let l = Layout::custom_wide(&self.custom_places)
                    .map_err(|e| reject(RejectKind::BadLayout, line, e.to_string()))?;
                self.layout = Some(l.clone());
                l
            }
        };
        if layout.len() > S::CAPACITY {
            return Err(reject(
                RejectKind::WideBoard,
                line,
                format!(
                    "the board has {} places, more than the {} this reader holds",
                    layout.len(),
                    S::CAPACITY
                ),
            ));
        }
        let first = self.first.unwrap_or(0);
        let mut setup: Setup<S> = Setup::start_in(layout, self.rules.set);
        for r in &self.setup_rings_removed {
            setup.rings &= !r.bit_in::<S>();
        }
        for (colour, place) in &self.setup_marbles {
            if (setup.rings & place.bit_in()).any() {
                setup.marbles[colour.index()] |= place.bit_in();
            }
        }
        setup.supply = self.setup_supply;
        // BoardSpace index `first` is the game's player one.
        setup.captures = [self.setup_captures[first], self.setup_captures[1 - first]];
        setup.to_move = Player::One;
        let position = Position::from_setup(setup).map_err(|e| {
            reject(
                RejectKind::EditDuringPlay,
                line,
                format!("set-up is not a position: {e}"),
            )
        })?;
        let mut game = Game::from_position(position, self.rules);
        game.reserve(self.expected_turns);
        self.game = Some(game);
        Ok(())
    }

    /// Handles a gesture before play starts (edit mode, handicaps, building a custom board).
    fn setup_gesture(&mut self, g: &Gesture) -> Result<(), ImportError> {
        self.undo_or_edit_seen |= g.verb != "r+";
        match g.verb.as_str() {
            "r+" if self.layout.is_none() => {
                let c = self.coord(g, 0)?;
                if !self.custom_places.contains(&c) {
                    self.custom_places.push(c);
                }
                self.designer = self.designer.or(g.player);
            }
            "r-" if self.layout.is_none() => {
                let c = self.coord(g, 0)?;
                self.custom_places.retain(|p| *p != c);
            }
            "r-" => {
                let p = self.place(g, 0)?;
                self.setup_rings_removed.push(p);
            }
            "r+" => {
                let p = self.place(g, 0)?;
                self.setup_rings_removed.retain(|r| *r != p);
            }
            "rtor" => {
                let from = self.number(g, 0, 2)?;
                let colour = self.colour(g, 1)?;
                let to = self.number(g, 2, 2)?;
                self.move_between_racks(g, from, colour, to)?;
            }
            "rtob" => {
                let from = self.number(g, 0, 2)?;
                let colour = self.colour(g, 1)?;
                let place = self.place(g, 2)?;
                self.take_from_rack(g, from, colour)?;
                self.setup_marbles.retain(|(_, p)| *p != place);
                self.setup_marbles.push((colour, place));
            }
            "btor" => {
                let place = self.place(g, 0)?;
                let to = self.number(g, 2, 2)?;
                if let Some(i) = self.setup_marbles.iter().position(|(_, p)| *p == place) {
                    let (colour, _) = self.setup_marbles.remove(i);
                    self.give_to_rack(to, colour);
                }
            }
            _ => {
                return Err(reject(
                    RejectKind::BadGesture,
                    g.line,
                    format!("`{}` during set-up", g.text),
                ));
            }
        }
        Ok(())
    }

    fn rack(&mut self, rack: usize) -> &mut Marbles {
        if rack == 2 {
            &mut self.setup_supply
        } else {
            &mut self.setup_captures[rack]
        }
    }

    fn take_from_rack(
        &mut self,
        g: &Gesture,
        rack: usize,
        colour: Colour,
    ) -> Result<(), ImportError> {
        let r = self.rack(rack);
        let n = r.get(colour);
        if n == 0 {
            return Err(reject(
                RejectKind::EditDuringPlay,
                g.line,
                format!("`{}`: rack {rack} has no {colour} marble", g.text),
            ));
        }
        r.set(colour, n - 1);
        Ok(())
    }

    fn give_to_rack(&mut self, rack: usize, colour: Colour) {
        let r = self.rack(rack);
        r.set(colour, r.get(colour).saturating_add(1));
    }

    fn move_between_racks(
        &mut self,
        g: &Gesture,
        from: usize,
        colour: Colour,
        to: usize,
    ) -> Result<(), ImportError> {
        if from == to {
            self.null_gestures += 1;
            return Ok(());
        }
        self.take_from_rack(g, from, colour)?;
        self.give_to_rack(to, colour);
        Ok(())
    }

    /// Turns the pending gestures into a move and plays it.
    fn finish_turn(&mut self, line: usize) -> Result<(), ImportError> {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return Ok(());
        }
        let game = self.game.as_mut().ok_or_else(|| {
            reject(
                RejectKind::MalformedTurn,
                line,
                "a move before play started",
            )
        })?;
        if game.is_over() {
            self.gestures_after_end += 1;
            return Ok(());
        }
        let position = game.position().clone();
        let layout = position.layout();
        let mv = match (&pending.placement, pending.jumps.is_empty()) {
            (Some((rack, colour, at)), true) => {
                let from_captures = *rack != 2;
                if from_captures != position.supply().is_empty() {
                    let detail = if from_captures {
                        format!(
                            "a marble placed from a player's captures at {} while the supply is not empty",
                            layout.coord(*at)
                        )
                    } else {
                        format!(
                            "a marble placed from the supply at {} while the supply is empty",
                            layout.coord(*at)
                        )
                    };
                    return Err(reject(RejectKind::IllegalMove, pending.line, detail));
                }
                Move::place(*colour, *at, pending.removal)
            }
            (None, false) if pending.removal.is_none() => {
                let from = pending.jumps[0].0;
                let mut landings = Vec::new();
                let mut at = from;
                for &(a, b) in &pending.jumps {
                    if a != at {
                        return Err(reject(
                            RejectKind::MalformedTurn,
                            pending.line,
                            format!(
                                "a chain jumps from {} after landing on {}",
                                layout.coord(a),
                                layout.coord(at)
                            ),
                        ));
                    }
                    landings.push(b);
                    at = b;
                }
                let capture = Capture::from_landings(layout, from, &landings).ok_or_else(|| {
                    let path: Vec<String> = std::iter::once(from)
                        .chain(landings.iter().copied())
                        .map(|p| layout.coord(p).to_string())
                        .collect();
                    reject(
                        RejectKind::IllegalMove,
                        pending.line,
                        format!(
                            "{} is not a chain of jumps over neighbouring rings",
                            path.join("-")
                        ),
                    )
                })?;
                Move::Capture(capture)
            }
            (None, true) => {
                return Err(reject(
                    RejectKind::MalformedTurn,
                    pending.line,
                    "a ring removed without a marble placed",
                ));
            }
            _ => {
                return Err(reject(
                    RejectKind::MalformedTurn,
                    pending.line,
                    "a turn with both a placement and a jump",
                ));
            }
        };
        if let Some(p) = pending.player {
            let expected = if position.to_move() == Player::One {
                self.first.unwrap_or(0)
            } else {
                1 - self.first.unwrap_or(0)
            };
            if p != expected {
                return Err(reject(
                    RejectKind::OutOfTurn,
                    pending.line,
                    format!("P{p} moves but it is P{expected}'s turn"),
                ));
            }
        }
        if let Err(reason) = game.play(&mv) {
            let text = crate::notation::official::move_text(&position, &mv);
            return Err(reject(
                RejectKind::IllegalMove,
                pending.line,
                format!("{text}: {reason}"),
            ));
        }
        self.lines.push(pending.line);
        self.starts.push(pending.index);
        if let Some(outcome) = game.outcome() {
            self.ending = Ending::Rules(outcome);
        }
        Ok(())
    }

    fn play_gesture(&mut self, g: &Gesture) -> Result<(), ImportError> {
        // A change of player ends the turn in records without `Done`.
        if let (Some(p), Some(q)) = (g.player, self.pending.player)
            && p != q
            && !self.pending.is_empty()
        {
            self.finish_turn(g.line)?;
        }
        if self.game.as_ref().is_some_and(|game| game.is_over())
            || !matches!(self.ending, Ending::Unfinished | Ending::Rules(_))
        {
            if !matches!(g.verb.as_str(), "done" | "resign" | "winontime") {
                self.gestures_after_end += 1;
            }
            return Ok(());
        }
        match g.verb.as_str() {
            "done" => self.finish_turn(g.line)?,
            "reset" => {
                if !self.pending.is_empty() {
                    self.undo_gestures += 1;
                    self.undo_or_edit_seen = true;
                }
                self.pending = Pending::default();
            }
            "resign" => {
                // A resignation abandons the turn in progress (a ring removed, then resign).
                if g.player.is_some() && g.player == self.pending.player {
                    self.pending = Pending::default();
                } else {
                    self.finish_turn(g.line)?;
                }
                if let Some(p) = g.player
                    && self.game.as_ref().is_some_and(|game| !game.is_over())
                {
                    self.ending = Ending::Resigned(p);
                }
            }
            "winontime" => {
                self.finish_turn(g.line)?;
                if let Some(p) = g.player
                    && self.game.as_ref().is_some_and(|game| !game.is_over())
                {
                    self.ending = Ending::WinOnTime(p);
                }
            }
            "start" => {
                // A second `Start` restarts nothing in the records seen; it is harmless only
                // before the first move.
                if !self.lines.is_empty() {
                    return Err(reject(
                        RejectKind::EditDuringPlay,
                        g.line,
                        format!("`{}` after moves were played", g.text),
                    ));
                }
            }
            "edit" => {
                return Err(reject(
                    RejectKind::EditDuringPlay,
                    g.line,
                    "edit mode during play",
                ));
            }
            "rtor" => {
                let from = self.number(g, 0, 2)?;
                let to = self.number(g, 2, 2)?;
                if from == to {
                    self.null_gestures += 1;
                } else {
                    return Err(reject(
                        RejectKind::EditDuringPlay,
                        g.line,
                        format!("`{}`: marbles moved between racks during play", g.text),
                    ));
                }
            }
            "r+" if self.lines.is_empty() && self.pending.is_empty() && self.game.is_none() => {
                self.setup_gesture(g)?;
            }
            "swap" => self.swap(g)?,
            _ => {
                if self.game.is_none() {
                    self.begin_play(g.line, g.player)?;
                }
                self.turn_gesture(g)?;
            }
        }
        Ok(())
    }

    /// `Swap` (the pie rule of "Zertz+xx"): once the board is designed and before the first
    /// move, the player who did not design it may give the first move back to the designer. A
    /// second `Swap` by the same player takes it back.
    fn swap(&mut self, g: &Gesture) -> Result<(), ImportError> {
        let refuse = |why: &str| {
            Err(reject(
                RejectKind::BadGesture,
                g.line,
                format!("`{}`: {why}", g.text),
            ))
        };
        let (Some(designer), Some(player)) = (self.designer, g.player) else {
            return refuse("a swap of sides needs a board designed with R+ (Zertz+xx)");
        };
        if !self.lines.is_empty() || !self.pending.is_empty() {
            return refuse("sides can be swapped only before the first move");
        }
        if player == designer {
            return refuse("only the player who did not design the board may swap sides");
        }
        if self.swapped_by.take().is_none() {
            self.swapped_by = Some(player);
        } else {
            self.undo_gestures += 1;
            self.undo_or_edit_seen = true;
        }
        Ok(())
    }

    fn turn_gesture(&mut self, g: &Gesture) -> Result<(), ImportError> {
        if self.pending.is_empty() {
            self.pending.player = g.player;
            self.pending.line = g.line;
            self.pending.index = g.index;
        }
        match g.verb.as_str() {
            "rtob" => {
                let rack = self.number(g, 0, 2)?;
                let colour = self.colour(g, 1)?;
                let at = self.place(g, 2)?;
                if self.pending.placement.is_some() {
                    // Seen in five records (four of them first turns of April-May 2004):
                    // later moves show both marbles on the board, so it is not a pick-up.
                    return Err(reject(
                        RejectKind::MalformedTurn,
                        g.line,
                        format!("`{}`: a second marble placed in one turn", g.text),
                    ));
                }
                self.pending.placement = Some((rack, colour, at));
            }
            "r-" => {
                let at = self.place(g, 0)?;
                if self.pending.removal.is_some() {
                    return Err(reject(
                        RejectKind::MalformedTurn,
                        g.line,
                        format!("`{}`: a second ring removed in one turn", g.text),
                    ));
                }
                self.pending.removal = Some(at);
            }
            "r+" => {
                let at = self.place(g, 0)?;
                if self.pending.removal == Some(at) {
                    self.pending.removal = None;
                    self.undo_gestures += 1;
                    self.undo_or_edit_seen = true;
                } else {
                    return Err(reject(
                        RejectKind::UnmatchedUndo,
                        g.line,
                        format!("`{}`: no ring was removed there this turn", g.text),
                    ));
                }
            }
            "btor" => {
                let at = self.place(g, 0)?;
                match self.pending.placement {
                    Some((_, _, placed)) if placed == at => {
                        self.pending.placement = None;
                        self.undo_gestures += 1;
                        self.undo_or_edit_seen = true;
                    }
                    _ => {
                        return Err(reject(
                            RejectKind::UnmatchedUndo,
                            g.line,
                            format!("`{}`: no marble was placed there this turn", g.text),
                        ));
                    }
                }
            }
            "btob" => {
                let from = self.place(g, 0)?;
                let to = self.place(g, 2)?;
                if from == to {
                    self.null_gestures += 1;
                } else if let Some((rack, colour, placed)) = self
                    .pending
                    .placement
                    .filter(|p| p.2 == from && self.pending.jumps.is_empty())
                {
                    // The marble just placed, dragged to another ring before the turn ended.
                    let _ = placed;
                    self.pending.placement = Some((rack, colour, to));
                    self.undo_gestures += 1;
                    self.undo_or_edit_seen = true;
                } else if self.pending.jumps.last() == Some(&(to, from)) {
                    // A jump taken back.
                    self.pending.jumps.pop();
                    self.undo_gestures += 1;
                    self.undo_or_edit_seen = true;
                } else {
                    self.pending.jumps.push((from, to));
                }
            }
            _ => {
                return Err(reject(
                    RejectKind::BadGesture,
                    g.line,
                    format!("unknown gesture `{}`", g.text),
                ));
            }
        }
        if self.pending.is_empty() {
            self.pending = Pending::default();
        }
        Ok(())
    }
}

/// Reads a BoardSpace record and replays it. On success the game holds every move; on failure
/// the error names the line and the reason.
///
/// The game's sets of places are `u64`: a board of more than 64 places is refused with
/// [`RejectKind::WideBoard`] (see [`import_wide`] and [`import_any`]).
pub fn import(text: &str) -> Result<Imported, ImportError> {
    import_as(text)
}

/// [`import`] for boards of up to 128 places: the game's sets of places are `u128`. A larger
/// board is refused with [`RejectKind::WideBoard`].
pub fn import_wide(text: &str) -> Result<Imported<Wide>, ImportError> {
    import_as(text)
}

/// [`import`] for boards of any size BoardSpace can make (up to its whole grid of 204
/// places): the game's sets of places are [`Huge`].
pub fn import_huge(text: &str) -> Result<Imported<Huge>, ImportError> {
    import_as(text)
}

/// A record replayed with the narrowest sets of places its board allows.
#[derive(Clone, Debug)]
pub enum AnyImported {
    /// A board of at most 64 places (every official board).
    Narrow(Imported),
    /// A board of 65 to 128 places.
    Wide(Imported<Wide>),
    /// A board of 129 to 204 places.
    Huge(Imported<Huge>),
}

/// [`import`], [`import_wide`] or [`import_huge`]: the first whose sets of places hold the
/// board. (A record is read again only when its board turns out too large, which the reader
/// finds before the first move.)
pub fn import_any(text: &str) -> Result<AnyImported, ImportError> {
    let too_large = |e: &ImportError| e.kind == RejectKind::WideBoard;
    match import(text) {
        Err(e) if too_large(&e) => match import_wide(text) {
            Err(e) if too_large(&e) => import_huge(text).map(AnyImported::Huge),
            other => other.map(AnyImported::Wide),
        },
        other => other.map(AnyImported::Narrow),
    }
}

fn import_as<S: LayoutWidth>(text: &str) -> Result<Imported<S>, ImportError> {
    if text.trim().is_empty() {
        return Err(reject(RejectKind::EmptyFile, 1, "the file is empty"));
    }
    let props =
        sgf::parse(text).map_err(|e| reject(RejectKind::Syntax, e.line, e.message.clone()))?;
    import_props(&props).map(|(imported, _)| imported)
}

/// Replays the properties of a record's main line (as [`sgf::parse`] reads them). Also gives,
/// for each turn played, the index in `props` of the property of its first gesture, so that
/// the reader of variations can tell which turn a comment follows.
pub(crate) fn import_props<S: LayoutWidth>(
    props: &[sgf::Property],
) -> Result<(Imported<S>, Vec<usize>), ImportError> {
    let value = |key: &str| {
        props
            .iter()
            .find(|p| p.key == key)
            .map(|p| p.value.trim().to_string())
    };
    if let Some(gm) = value("GM")
        && gm != "22"
    {
        return Err(reject(
            RejectKind::UnknownVariant,
            1,
            format!("GM[{gm}] is not ZÈRTZ (GM[22])"),
        ));
    }
    let variant = value("SU").unwrap_or_else(|| "Zertz".into());
    let (layout, _custom) = variant_layout(&variant).ok_or_else(|| {
        let line = props
            .iter()
            .find(|p| p.key == "SU")
            .map(|p| p.line)
            .unwrap_or(1);
        reject(
            RejectKind::UnknownVariant,
            line,
            format!("unknown variant SU[{variant}]"),
        )
    })?;
    let mut players = [String::new(), String::new()];
    for p in props {
        if let Some(rest) = p.value.trim().strip_prefix("id ") {
            let id = rest.trim().trim_matches('"').to_string();
            match p.key.as_str() {
                "P0" => players[0] = id,
                "P1" => players[1] = id,
                _ => {}
            }
        }
    }
    let rules = Rules::default();
    let mut reader = Reader {
        rules,
        layout: layout.map(LayoutRef::from),
        custom_places: Vec::new(),
        setup_rings_removed: Vec::new(),
        setup_marbles: Vec::new(),
        setup_captures: [Marbles::NONE; 2],
        setup_supply: RuleSet::STANDARD.supply,
        first: None,
        editing: false,
        game: None,
        lines: Vec::new(),
        expected_turns: 0,
        starts: Vec::new(),
        pending: Pending::default(),
        ending: Ending::Unfinished,
        gestures_after_end: 0,
        null_gestures: 0,
        undo_gestures: 0,
        undo_or_edit_seen: false,
        start_overridden: false,
        designer: None,
        swapped_by: None,
    };
    // A turn takes at least two properties (a move and `Done`); room for a long game at most.
    reader.expected_turns = (props.len() / 2).min(1024);
    reader.lines.reserve(reader.expected_turns);
    reader.starts.reserve(reader.expected_turns);
    // Gestures are read one at a time as they are acted on (a record has hundreds).
    let gestures = props
        .iter()
        .enumerate()
        .filter_map(|(i, p)| parse_gesture(p, i));
    let run = || -> Result<(), ImportError> {
        let mut last_line = None;
        for g in gestures {
            last_line = Some(g.line);
            let g = &g;
            if g.verb == "edit" && reader.game.is_none() && reader.lines.is_empty() {
                reader.editing = true;
                reader.undo_or_edit_seen = true;
                continue;
            }
            if g.verb == "start" && reader.game.is_none() {
                let who = g.args.first().map(|s| s.to_ascii_uppercase());
                reader.first = match who.as_deref() {
                    Some("P0") => Some(0),
                    Some("P1") => Some(1),
                    _ => {
                        return Err(reject(
                            RejectKind::BadGesture,
                            g.line,
                            format!("`{}`: expected Start P0 or Start P1", g.text),
                        ));
                    }
                };
                // Play begins with the first move (on custom boards, rings are still added
                // with R+ after Start).
                reader.editing = false;
                continue;
            }
            if reader.editing {
                reader.setup_gesture(g)?;
                continue;
            }
            reader.play_gesture(g)?;
        }
        let last_line = last_line.unwrap_or(1);
        if reader.game.is_none() {
            reader.begin_play(last_line, None)?;
        }
        reader.finish_turn(last_line)?;
        Ok(())
    };
    if let Err(mut e) = run() {
        e.after_undo_or_edit = reader.undo_or_edit_seen;
        return Err(e);
    }
    let result_text = value("RE");
    let result = match &result_text {
        None => RecordedResult::None,
        Some(t) => read_result(t, &players),
    };
    let game = reader
        .game
        .take()
        .ok_or_else(|| reject(RejectKind::MalformedTurn, 1, "no game"))?;
    let starts = std::mem::take(&mut reader.starts);
    let imported = Imported {
        variant,
        players,
        first: reader.first.unwrap_or(0),
        swapped: reader.swapped_by.is_some(),
        result_text,
        result,
        date: value("DT"),
        name: value("GN"),
        game,
        lines: reader.lines,
        ending: reader.ending,
        gestures_after_end: reader.gestures_after_end,
        null_gestures: reader.null_gestures,
        undo_gestures: reader.undo_gestures,
    };
    Ok((imported, starts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_are_known_whatever_their_case_and_others_match_none() {
        assert_eq!(Verb::new("RtoB").as_str(), "rtob");
        assert_eq!(Verb::new("WINONTIME").as_str(), "winontime");
        assert_eq!(Verb::new("R-"), "r-");
        for word in ["", "RtoBx", "winontimes", "Pick", "é", "r+r+r+r+r+r+"] {
            assert_eq!(Verb::new(word).as_str(), "", "{word}");
        }
    }

    #[test]
    fn gesture_words_are_kept_up_to_the_most_read() {
        let args = Args::of("2 0 E 1 x y z w".split_whitespace());
        assert_eq!(args.first(), Some(&"2"));
        assert_eq!(args.get(3), Some(&"1"));
        assert_eq!(args.get(Args::MAX - 1), Some(&"y"));
        assert_eq!(args.get(Args::MAX), None);
        assert_eq!(Args::of("".split_whitespace()).first(), None);
    }
}
