//! A tree of variations: a start position, headers, and nodes each holding one step of play (a
//! move, or a bribe proposed and answered under the bribe house rule), a comment, and the steps
//! that may follow it, the first of them being the main line.
//!
//! ```
//! use zertz::tree::{GameTree, Step};
//! use zertz::{Position, Rules};
//!
//! let mut tree = GameTree::new(Position::standard(), Rules::default());
//! let root = tree.root();
//! let a = tree.add_text(root, "wd4 a1").unwrap();
//! let b = tree.add_text(root, "Gd4,a1").unwrap(); // a second first move: a variation
//! assert_eq!(tree.add_text(root, "Wd4,a1").unwrap(), a); // already there
//! tree.set_comment(b, "grey is sharper").unwrap();
//! tree.promote(b).unwrap();
//! assert_eq!(tree.main_line(), vec![b]);
//! let text = tree.to_record_text();
//! assert!(text.contains("1. Gd4,a1 {grey is sharper} (1. Wd4,a1)"), "{text}");
//! assert_eq!(GameTree::from_text(&text).unwrap(), tree);
//! ```
//!
//! Node ids are indexes of an arena: they stay valid while the tree is edited (promoting or
//! deleting other nodes does not move them); a deleted node's id is never reused.
//!
//! The text forms are in [`text`] (detection and errors), [`crate::record`] (the project's
//! record format with variations) and [`sgf`] (BoardSpace's SGF with variations).

pub mod sgf;
pub mod text;

use std::fmt;

use crate::game::{Game, GameError, Turn};
use crate::marbles::Marbles;
use crate::moves::Move;
use crate::notation::{self, official};
use crate::position::{DrawReason, Outcome, Position, WinReason};
use crate::record::{self, Record};
use crate::rules::Rules;

pub use text::{TextError, TextFormat};

/// The id of a node of a [`GameTree`]: stable while the tree is edited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The root: the start position, before any step.
    pub const ROOT: NodeId = NodeId(0);

    /// The index of the node in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id with this index (it may name no node of a given tree).
    pub fn from_index(index: usize) -> Option<NodeId> {
        u32::try_from(index).ok().map(NodeId)
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One step of play from a node to its child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A move.
    Move(Move),
    /// A bribe proposed by the player to move and answered by the other (rules.md 7.3): if
    /// accepted, the proposer hands the marbles over and passes (a turn, written `-`); if
    /// rejected, nothing changes and the same player moves next.
    Bribe {
        /// The marbles offered.
        bribe: Marbles,
        /// Whether the opponent accepted them.
        accepted: bool,
    },
}

impl Step {
    /// True when the step is a turn of the game (a move or a bribed pass), false for a rejected
    /// bribe.
    pub fn is_turn(&self) -> bool {
        !matches!(
            self,
            Step::Bribe {
                accepted: false,
                ..
            }
        )
    }

    /// The step as text in `before`, the position it is played in: official notation for a
    /// move (`Wd4,a1`), `bribe 1/0/0 accepted` or `bribe 1/0/0 rejected` for a bribe.
    pub fn text(&self, before: &Position) -> String {
        match self {
            Step::Move(mv) => official::move_text(before, mv),
            Step::Bribe { bribe, accepted } => format!("bribe {bribe} {}", answer(*accepted)),
        }
    }

    /// The record format's event of a bribe step, `(bribe 1/0/0 accepted)`.
    pub(crate) fn event(bribe: Marbles, accepted: bool) -> String {
        format!("(bribe {bribe} {})", answer(accepted))
    }
}

fn answer(accepted: bool) -> &'static str {
    if accepted { "accepted" } else { "rejected" }
}

/// A node: the step that leads to it from its parent (none for the root), the position after
/// it, its comment and the steps that follow.
#[derive(Clone, Debug)]
pub struct Node {
    step: Option<Step>,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    comment: String,
    position: Position,
}

impl Node {
    /// The step from the parent to this node; `None` for the root.
    pub fn step(&self) -> Option<Step> {
        self.step
    }

    /// The parent; `None` for the root.
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The nodes that follow, the main line first.
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }

    /// The comment (empty when there is none).
    pub fn comment(&self) -> &str {
        &self.comment
    }

    /// The position after the step.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// What an edit of a tree was refused for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// No node has this id (never made, or deleted).
    #[error("there is no node {0} in this tree")]
    NoSuchNode(NodeId),
    /// The step cannot be played at the node.
    #[error("`{text}` cannot be played here: {reason}")]
    Illegal {
        /// The step as given.
        text: String,
        /// Why not.
        reason: String,
    },
    /// The root has no step and cannot be deleted or promoted.
    #[error("the root of the tree is the start position: it cannot be {0}")]
    Root(&'static str),
    /// A header that the start position or the rules already say, or a bad value.
    #[error("header {name}: {message}")]
    Header {
        /// The header's name.
        name: String,
        /// What is wrong.
        message: String,
    },
}

/// A tree of variations with comments. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct GameTree {
    rules: Rules,
    headers: Vec<(String, String)>,
    /// How the main line ended outside the rules (resignation, time, forfeit, agreement).
    declared: Option<Outcome>,
    /// The arena; `None` marks a deleted node. Index 0 is the root.
    nodes: Vec<Option<Node>>,
}

impl GameTree {
    /// A tree holding only `start`, played under `rules` (their rule set is the position's).
    pub fn new(start: Position, mut rules: Rules) -> GameTree {
        rules.set = start.rule_set();
        GameTree {
            rules,
            headers: Vec::new(),
            declared: None,
            nodes: vec![Some(Node {
                step: None,
                parent: None,
                children: Vec::new(),
                comment: String::new(),
                position: start,
            })],
        }
    }

    /// The tree of one game: its turns and bribes as the main line, its headers none, and its
    /// ending kept when the rules did not decide it. A bribe still waiting for its answer is
    /// left out.
    pub fn from_game(game: &Game) -> GameTree {
        // The game has checked every turn and bribe: its positions are taken as they are.
        let mut tree = GameTree::new(game.start().clone(), game.rules());
        let mut at = NodeId::ROOT;
        let positions = game.positions();
        let mut bribes = game.bribes().iter().peekable();
        for (i, turn) in game.turns().iter().enumerate() {
            let (Some(before), Some(after)) = (positions.get(i), positions.get(i + 1)) else {
                break;
            };
            let mut passed = false;
            while let Some(b) = bribes.next_if(|b| b.at_turn == i) {
                match b.accepted {
                    Some(false) => {
                        let step = Step::Bribe {
                            bribe: b.bribe,
                            accepted: false,
                        };
                        at = tree.push(at, step, before.clone());
                    }
                    Some(true) if !passed => {
                        let step = Step::Bribe {
                            bribe: b.bribe,
                            accepted: true,
                        };
                        at = tree.push(at, step, after.clone());
                        passed = true;
                    }
                    _ => {}
                }
            }
            if let (Turn::Move(mv), false) = (turn, passed) {
                at = tree.push(at, Step::Move(*mv), after.clone());
            }
        }
        let end = game.position();
        for b in bribes {
            if b.accepted == Some(false) {
                let step = Step::Bribe {
                    bribe: b.bribe,
                    accepted: false,
                };
                at = tree.push(at, step, end.clone());
            }
        }
        if let Some(outcome) = game.outcome()
            && is_declared(outcome)
        {
            tree.declared = Some(outcome);
        }
        tree
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.root_node().position
    }

    /// The rules the moves are played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The root's id ([`NodeId::ROOT`]).
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    fn root_node(&self) -> &Node {
        match self.nodes.first() {
            Some(Some(root)) => root,
            // The root is made with the tree and never deleted.
            _ => unreachable!("a tree always has its root"),
        }
    }

    /// The node `id`, if the tree holds it.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index()).and_then(Option::as_ref)
    }

    fn get(&self, id: NodeId) -> Result<&Node, TreeError> {
        self.node(id).ok_or(TreeError::NoSuchNode(id))
    }

    fn get_mut(&mut self, id: NodeId) -> Result<&mut Node, TreeError> {
        self.nodes
            .get_mut(id.index())
            .and_then(Option::as_mut)
            .ok_or(TreeError::NoSuchNode(id))
    }

    /// How many nodes the tree holds, the root included.
    pub fn len(&self) -> usize {
        self.nodes.iter().filter(|n| n.is_some()).count()
    }

    /// True when the tree holds only its root.
    pub fn is_empty(&self) -> bool {
        self.root_node().children.is_empty()
    }

    /// The headers other than those the start position, the rules and the main line's ending
    /// say (players, date, event, …), in order.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The value of a header, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a header (replacing one of the same name). The headers the tree derives (`Board`,
    /// `Rules`, `Start`, `Repetition`, `Bribes`, `Result`, `Termination`) are refused: they
    /// come from the start position, the rules and [`GameTree::set_ending`].
    pub fn set_header(&mut self, name: &str, value: &str) -> Result<(), TreeError> {
        if record::is_derived(name) {
            return Err(TreeError::Header {
                name: name.to_string(),
                message: "this header is derived from the start position, the rules or the ending"
                    .into(),
            });
        }
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid || value.contains('\n') {
            return Err(TreeError::Header {
                name: name.to_string(),
                message: "a header name is letters, digits, `_` or `-`, and its value one line"
                    .into(),
            });
        }
        match self
            .headers
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value.to_string(),
            None => self.headers.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// Removes a header; true if it was there.
    pub fn remove_header(&mut self, name: &str) -> bool {
        let before = self.headers.len();
        self.headers.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        before != self.headers.len()
    }

    pub(crate) fn set_headers_unchecked(&mut self, headers: Vec<(String, String)>) {
        self.headers = headers;
    }

    /// How the main line ended outside the rules (a resignation, time, a forfeit or a draw by
    /// agreement), if it did.
    pub fn ending(&self) -> Option<Outcome> {
        self.declared
    }

    /// Sets how the main line ended outside the rules (`None`: it did not). An ending the rules
    /// decide (a winning set, no legal move, repetition) is refused: those follow from the
    /// moves. When the main line ends by the rules, their result is the one written.
    pub fn set_ending(&mut self, ending: Option<Outcome>) -> Result<(), TreeError> {
        if let Some(outcome) = ending
            && !is_declared(outcome)
        {
            return Err(TreeError::Header {
                name: "Termination".into(),
                message: format!("`{outcome}` follows from the moves; it cannot be declared"),
            });
        }
        self.declared = ending;
        Ok(())
    }

    /// A tree of `start` whose rules and extra headers come from record headers: `Repetition`
    /// and `Bribes` set the rules, `Board`, `Rules`, `Start`, `Result` and `Termination` are
    /// left out (the start position says the first three; give the last two to
    /// [`GameTree::set_result`] once the main line is in), every other header is kept.
    pub fn with_headers(
        start: Position,
        headers: &[(String, String)],
    ) -> Result<GameTree, TreeError> {
        let rule_headers: Vec<(String, String)> = headers
            .iter()
            .filter(|(k, _)| {
                k.eq_ignore_ascii_case("Repetition") || k.eq_ignore_ascii_case("Bribes")
            })
            .cloned()
            .collect();
        let (_, rules) = record::start_and_rules(&rule_headers).map_err(|(name, message)| {
            TreeError::Header {
                name: name.to_string(),
                message,
            }
        })?;
        let mut tree = GameTree::new(start, rules);
        for (k, v) in headers {
            if !record::is_derived(k) {
                tree.set_header(k, v)?;
            }
        }
        Ok(tree)
    }

    /// Sets the ending from a record's `Result` (`1-0`, `0-1`, `1/2-1/2`, `*`) and
    /// `Termination`, checked against the main line as a record's are: a main line the rules
    /// end must end with the result stated; one they leave open may end by resignation, time,
    /// forfeit or agreement.
    pub fn set_result(&mut self, result: &str, termination: Option<&str>) -> Result<(), TreeError> {
        self.declared = None;
        let game = self.main_game();
        let declared = record::settle(&game, result, termination).map_err(|(_, message)| {
            TreeError::Header {
                name: "Result".into(),
                message,
            }
        })?;
        self.declared = declared;
        Ok(())
    }

    /// The comment of the node.
    pub fn comment(&self, id: NodeId) -> Result<&str, TreeError> {
        Ok(&self.get(id)?.comment)
    }

    /// Sets the comment of a node (the root's comment is about the whole tree). Spaces around
    /// it are dropped; an empty comment is no comment.
    pub fn set_comment(&mut self, id: NodeId, comment: &str) -> Result<(), TreeError> {
        self.get_mut(id)?.comment = comment.trim().to_string();
        Ok(())
    }

    /// Adds a comment after the one the node already has (a space between them).
    pub(crate) fn append_comment(&mut self, id: NodeId, comment: &str) {
        let comment = comment.trim();
        if let Ok(node) = self.get_mut(id) {
            if comment.is_empty() {
            } else if node.comment.is_empty() {
                node.comment = comment.to_string();
            } else {
                node.comment.push(' ');
                node.comment.push_str(comment);
            }
        }
    }

    /// The children of a node, the main line first.
    pub fn children(&self, id: NodeId) -> Result<&[NodeId], TreeError> {
        Ok(&self.get(id)?.children)
    }

    /// The position at a node (after its step).
    pub fn position(&self, id: NodeId) -> Result<&Position, TreeError> {
        Ok(&self.get(id)?.position)
    }

    /// The nodes from the root's child down to `id` (empty for the root).
    pub fn path(&self, id: NodeId) -> Result<Vec<NodeId>, TreeError> {
        let mut path = Vec::new();
        let mut at = id;
        loop {
            let node = self.get(at)?;
            match node.parent {
                Some(parent) => {
                    path.push(at);
                    at = parent;
                }
                None => break,
            }
        }
        path.reverse();
        Ok(path)
    }

    /// The main line: from the root, each node's first child (the root not included).
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_from(NodeId::ROOT)
    }

    /// The main continuation after `id`: its first child, that one's first child, and so on.
    pub fn line_from(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(&next) = self.node(at).and_then(|n| n.children.first()) {
            line.push(next);
            at = next;
        }
        line
    }

    /// The game from the start to the node: every step replayed, so that repetition counts and
    /// bribes are known.
    pub fn game_at(&self, id: NodeId) -> Result<Game, TreeError> {
        let mut game = Game::from_position(self.start().clone(), self.rules);
        for n in self.path(id)? {
            let node = self.get(n)?;
            if let Some(step) = node.step {
                apply(&mut game, &step).map_err(|e| TreeError::Illegal {
                    text: step.text(game.position()),
                    reason: e.to_string(),
                })?;
            }
        }
        Ok(game)
    }

    /// The game of the main line, ended as [`GameTree::ending`] says when the rules leave it
    /// open.
    pub fn main_game(&self) -> Game {
        let last = self.main_line().last().copied().unwrap_or(NodeId::ROOT);
        let mut game = match self.game_at(last) {
            Ok(game) => game,
            // Every step was checked when it was added.
            Err(_) => Game::from_position(self.start().clone(), self.rules),
        };
        if let Some(outcome) = self.declared {
            let _ = game.end(outcome);
        }
        game
    }

    /// The main line as a record (headers and game).
    pub fn main_record(&self) -> Record {
        Record {
            headers: self.headers.clone(),
            game: self.main_game(),
        }
    }

    /// Plays `step` at node `at`: returns the child that already holds it, or a new child
    /// appended after the others (a new variation, or the main line if it is the first).
    pub fn add(&mut self, at: NodeId, step: Step) -> Result<NodeId, TreeError> {
        if let Some(existing) = self.child_with(at, &step)? {
            return Ok(existing);
        }
        let mut game = self.game_at(at)?;
        if let Err(e) = apply(&mut game, &step) {
            return Err(TreeError::Illegal {
                text: step.text(&self.get(at)?.position),
                reason: e.to_string(),
            });
        }
        Ok(self.push(at, step, game.position().clone()))
    }

    /// Plays a step written as text at node `at`: a move in official notation, read leniently
    /// (`Wd4,a1`, `wd4 a1`, host notation), or a bribe `bribe 1/0/0 accepted` /
    /// `(bribe 1/0/0 rejected)`. As [`GameTree::add`] otherwise.
    pub fn add_text(&mut self, at: NodeId, text: &str) -> Result<NodeId, TreeError> {
        let position = self.get(at)?.position.clone();
        let step = parse_step(&position, text).map_err(|reason| TreeError::Illegal {
            text: text.to_string(),
            reason,
        })?;
        self.add(at, step)
    }

    fn child_with(&self, at: NodeId, step: &Step) -> Result<Option<NodeId>, TreeError> {
        Ok(self
            .get(at)?
            .children
            .iter()
            .copied()
            .find(|&c| self.node(c).and_then(|n| n.step).as_ref() == Some(step)))
    }

    /// Appends a child already checked (by a reader that replays as it goes), or returns the
    /// child that holds the same step.
    pub(crate) fn push(&mut self, at: NodeId, step: Step, position: Position) -> NodeId {
        if let Ok(Some(existing)) = self.child_with(at, &step) {
            return existing;
        }
        let Some(id) = NodeId::from_index(self.nodes.len()) else {
            return at;
        };
        self.nodes.push(Some(Node {
            step: Some(step),
            parent: Some(at),
            children: Vec::new(),
            comment: String::new(),
            position,
        }));
        if let Ok(parent) = self.get_mut(at) {
            parent.children.push(id);
        }
        id
    }

    /// Moves the variation holding `id` one place up among its siblings: the nearest node on
    /// the path to `id` that is not its parent's first child moves before the sibling above it.
    /// Returns false when `id` is already on the main line.
    pub fn promote(&mut self, id: NodeId) -> Result<bool, TreeError> {
        if id == NodeId::ROOT {
            self.get(id)?;
            return Ok(false);
        }
        for n in self.path(id)?.into_iter().rev() {
            let parent = self.get(n)?.parent.unwrap_or(NodeId::ROOT);
            let siblings = &mut self.get_mut(parent)?.children;
            if let Some(i) = siblings.iter().position(|&c| c == n)
                && i > 0
            {
                siblings.swap(i - 1, i);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Makes the line through `id` the main line: every node on its path becomes its parent's
    /// first child (the others keep their order). Returns false when it already was.
    pub fn make_main_line(&mut self, id: NodeId) -> Result<bool, TreeError> {
        let mut changed = false;
        for n in self.path(id)? {
            let parent = self.get(n)?.parent.unwrap_or(NodeId::ROOT);
            let siblings = &mut self.get_mut(parent)?.children;
            if let Some(i) = siblings.iter().position(|&c| c == n)
                && i > 0
            {
                let c = siblings.remove(i);
                siblings.insert(0, c);
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Deletes a node and everything after it. The root cannot be deleted.
    pub fn delete(&mut self, id: NodeId) -> Result<(), TreeError> {
        let parent = self.get(id)?.parent.ok_or(TreeError::Root("deleted"))?;
        self.get_mut(parent)?.children.retain(|&c| c != id);
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let Some(node) = self.nodes.get_mut(n.index()).and_then(Option::take) {
                stack.extend(node.children);
            }
        }
        Ok(())
    }

    /// Every node id of the tree, depth first, the main line first at each node.
    pub fn ids(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![NodeId::ROOT];
        while let Some(n) = stack.pop() {
            out.push(n);
            if let Some(node) = self.node(n) {
                stack.extend(node.children.iter().rev());
            }
        }
        out
    }

    /// The depth of the longest line (the number of steps).
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(NodeId::ROOT, 0usize)];
        while let Some((n, d)) = stack.pop() {
            deepest = deepest.max(d);
            if let Some(node) = self.node(n) {
                stack.extend(node.children.iter().map(|&c| (c, d + 1)));
            }
        }
        deepest
    }
}

/// Trees are equal when they hold the same start, rules, headers, ending, and the same steps
/// and comments in the same order, whatever their node ids.
impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        if self.rules != other.rules
            || self.headers != other.headers
            || self.declared != other.declared
            || self.start() != other.start()
        {
            return false;
        }
        let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
        while let Some((a, b)) = stack.pop() {
            let (Some(x), Some(y)) = (self.node(a), other.node(b)) else {
                return false;
            };
            if x.step != y.step || x.comment != y.comment || x.children.len() != y.children.len() {
                return false;
            }
            stack.extend(x.children.iter().copied().zip(y.children.iter().copied()));
        }
        true
    }
}

impl Eq for GameTree {}

/// True for the endings decided outside the rules.
fn is_declared(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Win {
            reason: WinReason::Resignation | WinReason::Time | WinReason::Forfeit,
            ..
        } | Outcome::Draw(DrawReason::Agreement)
    )
}

/// Plays a step in a game.
pub(crate) fn apply(game: &mut Game, step: &Step) -> Result<(), GameError> {
    match step {
        Step::Move(mv) => game.play(mv),
        Step::Bribe { bribe, accepted } => {
            // On an error the caller drops the game: it is not left half changed for use.
            game.propose_bribe(*bribe)?;
            game.answer_bribe(*accepted)
        }
    }
}

/// Reads a step: a bribe (`bribe 1/0/0 accepted`, in parentheses or not, a `-` after it
/// allowed) or a move in official or host notation, checked in `position`.
pub fn parse_step(position: &Position, text: &str) -> Result<Step, String> {
    let t = text.trim();
    let inner = t
        .strip_suffix('-')
        .map(str::trim_end)
        .unwrap_or(t)
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let mut words = inner.split_whitespace();
    if words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("bribe"))
    {
        let rest: Vec<&str> = words.collect();
        let [amount, answer] = rest.as_slice() else {
            return Err(
                "a bribe is written `bribe W/G/B accepted` or `bribe W/G/B rejected`".into(),
            );
        };
        let bribe = Marbles::parse_slashed(amount)?;
        let accepted = match answer.to_ascii_lowercase().as_str() {
            "accepted" => true,
            "rejected" => false,
            _ => return Err(format!("`{answer}`: a bribe is accepted or rejected")),
        };
        return Ok(Step::Bribe { bribe, accepted });
    }
    notation::parse_any(position, t)
        .map(Step::Move)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests;
