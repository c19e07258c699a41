//! "Zertz+xx" games (BoardSpace's "Zèrtz Extreme"): player one designs the board, ring by ring,
//! on BoardSpace's grid of 17 columns of 12 places, and ends the design; player two then makes
//! the first move, or swaps (the pie rule) so that the designer moves first.
//!
//! The design lives in the room beside the game. Until it is finished the room's game is a
//! placeholder on a board of one ring (it only carries the rule set and the rules); finishing
//! the design replaces it with the game on the designed board, player two to move, and a swap
//! replaces that with the same start, player one to move. Every step is an event of the log, so
//! a restart rebuilds the design as it was.
//!
//! The server's designed boards hold at most 64 rings: its games, its engine and its stores
//! use the rules library's 64-place boards (`Narrow`). BoardSpace records of larger boards are
//! read by the library's `import_any` and replayed in the analysis board, not played here.

use std::collections::BTreeSet;

use serde::Serialize;
use zertz::{Coord, Game, Layout, Player, Position, Setup};

use crate::games::model::{Action, Event, SeatKind, seat_number};
use crate::games::room::{Refusal, Room};

/// Columns of BoardSpace's Zertz+xx grid (`a` to `q`).
pub const GRID_COLUMNS: u8 = 17;
/// Places in each column of the grid (rows 1 to 12).
pub const GRID_ROWS: u8 = 12;
/// The most rings a board designed on this server may hold.
pub const MAX_DESIGN_RINGS: usize = zertz::layout::MAX_PLACES;
/// The board the settings and the placeholder game use until the design is finished.
pub const PLACEHOLDER_BOARD: &str = "a1";
/// The player who designs the board.
pub const DESIGNER: Player = Player::One;

/// Holds the placeholder board's layout for the life of the process. Every design game starts
/// on it, and a custom layout nobody holds is freed and then counts as new again in a client's
/// allowance: without this, each design would be charged for the placeholder once the last
/// design in memory had finished. Called when the hub is made, outside any allowance.
pub fn hold_placeholder() {
    static HELD: std::sync::OnceLock<Option<zertz::LayoutRef>> = std::sync::OnceLock::new();
    HELD.get_or_init(|| Layout::from_spec(PLACEHOLDER_BOARD).ok());
}

/// Where a designed board stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Design {
    /// The rings placed so far.
    pub rings: BTreeSet<Coord>,
    /// The designer has finished: the game is on the designed board.
    pub done: bool,
    /// Player two swapped: the designer moves first.
    pub swapped: bool,
}

/// The design as clients receive it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DesignView {
    /// `designing` (rings are being added), `swap_or_move` (player two chooses), or `played`
    /// (the first move is made, or the designer moves first after a swap).
    pub phase: &'static str,
    /// The seat that designs (1).
    pub designer: u8,
    /// The rings placed, as coordinates of the grid.
    pub rings: Vec<String>,
    /// The whole grid as a position string of the custom frame: `.` for a ring, `-` for a
    /// place of the grid without one (what the browser draws while the board is designed).
    pub grid: String,
    /// Player two swapped sides.
    pub swapped: bool,
    /// The most rings the board may hold.
    pub max_rings: usize,
}

fn refuse<T>(text: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::NotNow(text.into()))
}

/// Reads a place of the grid (`c3`), or says what is wrong with it.
pub fn grid_place(text: &str) -> Result<Coord, Refusal> {
    let bad = || {
        Refusal::BadRequest(format!(
            "`{text}` is not a place of the Zertz+xx grid (columns a to q, rows 1 to 12)"
        ))
    };
    let c: Coord = text.trim().parse().map_err(|_| bad())?;
    if c.column >= GRID_COLUMNS || c.row == 0 || c.row > GRID_ROWS {
        return Err(bad());
    }
    Ok(c)
}

/// The start of the game on `rings`, under the placeholder game's rule set, `to_move` first.
fn start_on(
    rings: &BTreeSet<Coord>,
    placeholder: &Position,
    to_move: Player,
) -> Result<Position, String> {
    let coords: Vec<Coord> = rings.iter().copied().collect();
    let layout = Layout::custom(&coords).map_err(|e| format!("the designed board: {e}"))?;
    let setup = Setup {
        to_move,
        ..Setup::start(layout, placeholder.rule_set())
    };
    Position::from_setup(setup).map_err(|e| format!("the designed board: {e}"))
}

impl Design {
    /// The design as clients see it.
    pub fn view(&self, turns: usize) -> DesignView {
        let phase = if !self.done {
            "designing"
        } else if turns == 0 && !self.swapped {
            "swap_or_move"
        } else {
            "played"
        };
        let columns: Vec<String> = (0..GRID_COLUMNS)
            .map(|x| {
                (1..=GRID_ROWS)
                    .map(|row| {
                        if self.rings.contains(&Coord::new(x, row)) {
                            '.'
                        } else {
                            '-'
                        }
                    })
                    .collect()
            })
            .collect();
        DesignView {
            phase,
            designer: seat_number(DESIGNER),
            rings: self.rings.iter().map(Coord::to_string).collect(),
            grid: format!("custom standard {} 0/0/0 0/0/0 0/0/0 1", columns.join("/")),
            swapped: self.swapped,
            max_rings: MAX_DESIGN_RINGS,
        }
    }
}

impl Room {
    /// The board is still being designed (a Zertz+xx game before its design is finished).
    pub fn designing(&self) -> bool {
        self.design.as_ref().is_some_and(|d| !d.done)
    }

    /// Why `action` cannot be taken now because of the design: a design action in a game
    /// without one, or, while the board is designed, anything but designing, aborting,
    /// resigning and claiming the win from an absent opponent.
    pub fn design_refusal(&self, action: &Action) -> Option<Refusal> {
        let design_action = matches!(
            action,
            Action::AddRing { .. }
                | Action::RemoveRing { .. }
                | Action::FinishDesign {}
                | Action::Swap {}
        );
        match &self.design {
            None => design_action.then(|| {
                Refusal::BadRequest(
                    "this game's board is not designed by its players (only Zertz+xx games are)"
                        .into(),
                )
            }),
            Some(d) if !d.done && !design_action => (!matches!(
                action,
                Action::Abort {} | Action::Resign {} | Action::ClaimVictory {}
            ))
            .then(|| {
                Refusal::NotNow(format!(
                    "the board is being designed: player {} adds rings and finishes the \
                         design before anyone moves",
                    seat_number(DESIGNER)
                ))
            }),
            Some(_) => None,
        }
    }

    /// Why a Zertz+xx game against the engine has no rematch: the rematch swaps the seats,
    /// and the engine cannot design a board.
    pub fn design_rematch_refusal(&self) -> Option<Refusal> {
        let engine = self
            .settings
            .seats
            .iter()
            .any(|s| matches!(s, SeatKind::Engine { .. }));
        (self.design.is_some() && engine).then(|| {
            Refusal::NotNow(
                "no rematch of a Zertz+xx game against the engine: the engine would design \
                 the board, and it cannot; start a new game instead"
                    .into(),
            )
        })
    }

    /// The events of a design action by `seat` (`add_ring`, `remove_ring`, `finish_design`,
    /// `swap`), or why it is refused.
    pub fn decide_design(&self, seat: Player, action: &Action) -> Result<Vec<Event>, Refusal> {
        let Some(design) = &self.design else {
            return Err(Refusal::BadRequest(
                "this game's board is not designed by its players".into(),
            ));
        };
        let n = seat_number(seat);
        match action {
            Action::AddRing { at } | Action::RemoveRing { at } => {
                let adding = matches!(action, Action::AddRing { .. });
                self.decide_ring(design, seat, at, adding)
            }
            Action::FinishDesign {} => self.decide_finish(design, seat),
            _ => {
                if !design.done {
                    refuse("there is nothing to swap yet: the board is still being designed")
                } else if seat == DESIGNER {
                    refuse("only the player who did not design the board may swap")
                } else if design.swapped || self.game.turns().len() > self.history_turns {
                    refuse("sides can be swapped only once, before the first move")
                } else {
                    Ok(vec![Event::Swapped { seat: n }])
                }
            }
        }
    }

    fn decide_ring(
        &self,
        design: &Design,
        seat: Player,
        at: &str,
        adding: bool,
    ) -> Result<Vec<Event>, Refusal> {
        if seat != DESIGNER {
            return refuse(format!(
                "only player {} designs the board",
                seat_number(DESIGNER)
            ));
        }
        if design.done {
            return refuse("the design is finished: the board can no longer change");
        }
        let c = grid_place(at)?;
        let (n, at) = (seat_number(seat), c.to_string());
        match (adding, design.rings.contains(&c)) {
            (true, true) => refuse(format!("there is already a ring on {c}")),
            (false, false) => refuse(format!("there is no ring on {c} to remove")),
            (true, false) if design.rings.len() >= MAX_DESIGN_RINGS => refuse(format!(
                "the board already has {MAX_DESIGN_RINGS} rings, the most a board of this \
                 server may hold"
            )),
            (true, false) => Ok(vec![Event::RingAdded { seat: n, at }]),
            (false, true) => Ok(vec![Event::RingRemoved { seat: n, at }]),
        }
    }

    fn decide_finish(&self, design: &Design, seat: Player) -> Result<Vec<Event>, Refusal> {
        if seat != DESIGNER {
            return refuse(format!(
                "only player {} designs the board",
                seat_number(DESIGNER)
            ));
        }
        if design.done {
            return refuse("the design is already finished");
        }
        if design.rings.is_empty() {
            return refuse("the board has no ring yet: add rings before finishing the design");
        }
        let start = start_on(&design.rings, self.game.position(), DESIGNER.other())
            .map_err(Refusal::NotNow)?;
        if start.is_over() {
            return refuse("on this board the game would be over before the first move");
        }
        Ok(vec![Event::DesignFinished {
            seat: seat_number(seat),
        }])
    }

    /// Applies a design event (see [`Room::apply`]).
    pub(crate) fn apply_design(&mut self, event: &Event) -> Result<(), String> {
        let rules = self.game.rules();
        let design = self
            .design
            .as_mut()
            .ok_or("a design event in a game whose board is not designed")?;
        match event {
            Event::RingAdded { at, .. } => {
                let c = grid_place(at).map_err(|e| e.to_string())?;
                if design.done || !design.rings.insert(c) {
                    return Err(format!("ring {c} added twice or after the design"));
                }
            }
            Event::RingRemoved { at, .. } => {
                let c = grid_place(at).map_err(|e| e.to_string())?;
                if design.done || !design.rings.remove(&c) {
                    return Err(format!("ring {c} removed without being there"));
                }
            }
            Event::DesignFinished { .. } | Event::Swapped { .. } => {
                let swap = matches!(event, Event::Swapped { .. });
                // A design is finished once, then swapped at most once.
                if design.done != swap || design.swapped {
                    return Err("the design finished twice, or a swap out of place".into());
                }
                design.done = true;
                design.swapped = swap;
                let first = if swap { DESIGNER } else { DESIGNER.other() };
                let start = start_on(&design.rings, self.game.position(), first)?;
                self.game = Game::from_position(start, rules);
            }
            _ => return Err("not a design event".into()),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::ClockSpec;
    use crate::games::model::GameSettings;

    fn room() -> Room {
        let start = Position::new(
            Layout::from_spec(PLACEHOLDER_BOARD).unwrap(),
            "standard".parse().unwrap(),
        );
        let settings = GameSettings {
            start: start.to_string(),
            design: true,
            berserk: false,
            ..GameSettings::for_tests(ClockSpec::Unlimited {})
        };
        Room::started_for_tests(settings)
    }

    fn act(room: &mut Room, seat: Player, action: Action) -> Result<(), Refusal> {
        for e in room.decide(seat, &action, 0)? {
            room.apply(e, 0).unwrap();
        }
        Ok(())
    }

    fn add(at: &str) -> Action {
        Action::AddRing { at: at.into() }
    }

    #[test]
    fn design_then_swap_then_the_designer_moves() {
        let mut r = room();
        assert!(r.designing());
        let e = act(&mut r, Player::Two, add("a1")).unwrap_err();
        assert!(e.to_string().contains("only player 1 designs"), "{e}");
        let e = act(&mut r, Player::One, Action::FinishDesign {}).unwrap_err();
        assert!(e.to_string().contains("no ring yet"), "{e}");
        for c in ["c3", "c4", "d3", "d4", "d5", "e3", "e4", "b3"] {
            act(&mut r, Player::One, add(c)).unwrap();
        }
        assert!(matches!(
            act(&mut r, Player::One, add("c3")),
            Err(Refusal::NotNow(t)) if t.contains("already a ring on c3")
        ));
        assert!(matches!(
            act(&mut r, Player::One, add("r1")),
            Err(Refusal::BadRequest(t)) if t.contains("not a place of the Zertz+xx grid")
        ));
        act(&mut r, Player::One, Action::RemoveRing { at: "b3".into() }).unwrap();
        let e = act(&mut r, Player::One, Action::Move { text: "Wc3".into() }).unwrap_err();
        assert!(e.to_string().contains("being designed"), "{e}");
        let e = act(&mut r, Player::Two, Action::Swap {}).unwrap_err();
        assert!(e.to_string().contains("still being designed"), "{e}");
        act(&mut r, Player::One, Action::FinishDesign {}).unwrap();
        assert!(!r.designing());
        assert_eq!(r.game.position().layout().len(), 7);
        assert_eq!(
            r.game.to_move(),
            Player::Two,
            "the other player may move first"
        );
        assert_eq!(r.design.as_ref().unwrap().view(0).phase, "swap_or_move");
        let e = act(&mut r, Player::One, Action::Swap {}).unwrap_err();
        assert!(e.to_string().contains("did not design"), "{e}");
        act(&mut r, Player::Two, Action::Swap {}).unwrap();
        assert_eq!(r.game.to_move(), Player::One, "the designer moves first");
        let e = act(&mut r, Player::Two, Action::Swap {}).unwrap_err();
        assert!(e.to_string().contains("only once"), "{e}");
        act(
            &mut r,
            Player::One,
            Action::Move {
                text: "Wc3,e3".into(),
            },
        )
        .unwrap();
        // Replaying the log rebuilds the same game.
        let again = Room::replay("g", &r.log).unwrap();
        assert_eq!(again.game.position(), r.game.position());
        assert_eq!(again.design, r.design);
        assert_eq!(again.game.start().to_move(), Player::One);
    }

    #[test]
    fn playing_on_instead_of_swapping() {
        let mut r = room();
        for c in ["c3", "c4", "d3", "d4", "d5", "e3", "e4"] {
            act(&mut r, Player::One, add(c)).unwrap();
        }
        act(&mut r, Player::One, Action::FinishDesign {}).unwrap();
        act(
            &mut r,
            Player::Two,
            Action::Move {
                text: "Bd4,e4".into(),
            },
        )
        .unwrap();
        let e = act(&mut r, Player::Two, Action::Swap {}).unwrap_err();
        assert!(e.to_string().contains("before the first move"), "{e}");
        assert_eq!(r.design.as_ref().unwrap().view(1).phase, "played");
        let e = act(&mut r, Player::One, add("a1")).unwrap_err();
        assert!(e.to_string().contains("can no longer change"), "{e}");
    }

    #[test]
    fn at_most_64_rings() {
        let mut r = room();
        let mut added = 0;
        'grid: for x in 0..GRID_COLUMNS {
            for row in 1..=GRID_ROWS {
                if added == MAX_DESIGN_RINGS {
                    break 'grid;
                }
                act(&mut r, Player::One, add(&Coord::new(x, row).to_string())).unwrap();
                added += 1;
            }
        }
        let e = act(&mut r, Player::One, add("q12")).unwrap_err();
        assert!(e.to_string().contains("already has 64 rings"), "{e}");
        act(&mut r, Player::One, Action::FinishDesign {}).unwrap();
        assert_eq!(r.game.position().layout().len(), 64);
    }

    #[test]
    fn design_actions_in_an_ordinary_game_are_refused() {
        let settings = GameSettings::for_tests(ClockSpec::Unlimited {});
        let mut r = Room::started_for_tests(settings);
        assert!(matches!(
            act(&mut r, Player::Two, Action::Swap {}),
            Err(Refusal::BadRequest(t)) if t.contains("only Zertz+xx")
        ));
    }
}
