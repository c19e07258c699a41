//! Learn (issue 20, item 4): short lessons, each a real position with a task the learner does on
//! the board, hints, and a "why" after each try, in the order a newcomer needs them (docs/
//! learning.md, "Lessons and the rules page"). The lessons are data ([`data`]); a try is checked
//! by replaying it with the rules library ([`check`]); the rules page's pictures are drawn from
//! positions by `zertz::diagram::svg` ([`diagrams`]). Progress is kept by the browser for a
//! guest and in the store for an account.

pub mod check;
pub mod data;
pub mod diagrams;
pub mod routes;
pub(crate) mod sql;
pub mod store;

use zertz::Position;

/// What a step asks of the learner's move. A step is done when every one of its goals holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A placement: of one of these colours (letters, `""` any), on one of these rings (none:
    /// any), removing one of these rings (none: any, or none removed).
    Place {
        /// Allowed colours as letters, such as `"GB"`; empty for any.
        colours: &'static str,
        /// Allowed rings for the marble; empty for any.
        at: &'static [&'static str],
        /// Allowed rings to remove; empty for any.
        remove: &'static [&'static str],
    },
    /// A capture turn that takes at least this many marbles.
    Capture(u8),
    /// A placement that takes at least this many marbles by isolation.
    Isolate(u8),
    /// The mover has won once the move is played (a winning set, or the opponent left
    /// without a legal move).
    Win,
    /// The opponent has no capture in reply.
    NoReply,
    /// Exactly this move (official notation, read in the step's position).
    Exact(&'static str),
}

/// One thing to do in a lesson.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The task, said to the learner.
    pub task: &'static str,
    /// Hints, shown one at a time when asked for.
    pub hints: &'static [&'static str],
    /// What the move must do.
    pub goals: &'static [Goal],
    /// Why the right move is right (shown once it is played).
    pub right: &'static str,
    /// What to think about after a legal move that does not do the task.
    pub wrong: &'static str,
    /// The opponent's answer after the right move (official notation), when the lesson goes on.
    pub reply: Option<&'static str>,
}

/// A lesson: a position and the steps to do in it.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// Stable id, used in addresses and stored progress.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// What the lesson teaches, read before the first try.
    pub intro: &'static str,
    /// The position string the lesson starts from.
    pub position: &'static str,
    /// The steps, in order.
    pub steps: &'static [Step],
}

impl Lesson {
    /// The lesson's start position.
    pub fn start(&self) -> Result<Position, String> {
        self.position
            .parse()
            .map_err(|e| format!("lesson {}: {e}", self.id))
    }
}

/// Every lesson, in the order they are taught.
pub fn all() -> &'static [Lesson] {
    data::LESSONS
}

/// The lesson with this id.
pub fn find(id: &str) -> Option<(usize, &'static Lesson)> {
    all().iter().enumerate().find(|(_, l)| l.id == id)
}
