//! A tree as BoardSpace SGF: the main line exactly as BoardSpace writes a game (so that it
//! reads there and in [`crate::boardspace::import`] as the game), each variation a standard SGF
//! branch `(;…)(;…)` at the node where it leaves the line (the main line first), comments as
//! `C[…]` on the node that ends a turn (`Done`), the root's comment in the first node.
//!
//! Reading takes every line of the SGF tree from its root to a leaf, replays it as a BoardSpace
//! record, and merges the lines: a step already in the tree is not added twice. A comment
//! belongs to the turn whose first gesture comes before it (the root's when none does).

use std::collections::HashSet;

use super::text::{TextError, TextFormat, excerpt};
use super::{GameTree, NodeId, Step};
use crate::boardspace::export::Writer;
use crate::boardspace::import::import_props;
use crate::boardspace::sgf::{self, Property};
use crate::boardspace::{Ending, ExportError, ExportInfo, ImportError, RecordedResult};
use crate::game::Turn;
use crate::marbles::Player;
use crate::position::{DrawReason, Outcome, WinReason};

/// The names written when the tree has no `Player1` / `Player2` header (BoardSpace names both
/// players, and a result names the winner).
pub const DEFAULT_NAMES: [&str; 2] = ["Player1", "Player2"];

/// The most properties read along all the lines of an SGF text together (each line is replayed
/// from the root), so that a text with very many variations is refused rather than read for
/// long.
pub const MAX_WORK: usize = 1_000_000;

/// Work left while writing branches without recursion.
enum Work {
    /// The main continuation after a node, whose step was turn `index - 1`.
    Line(NodeId, usize),
    /// Open a branch at gesture number `n` and write its first step (turn `index`).
    Open(NodeId, usize, usize),
    /// Close the branch.
    Close,
}

impl GameTree {
    /// The tree as BoardSpace SGF with variations. Players come from the `Player1` and
    /// `Player2` headers, the date from `Date`, the game's name from `Game`; the result is the
    /// main line's. Refused for what BoardSpace cannot hold (another rule set, a set-up it
    /// cannot make, a bribe).
    pub fn to_sgf(&self) -> Result<String, ExportError> {
        let game = self.main_game();
        let name = |i: usize, h: &str| {
            self.header(h)
                .filter(|v| !v.is_empty())
                .unwrap_or(DEFAULT_NAMES[i])
                .to_string()
        };
        let info = ExportInfo {
            players: [name(0, "Player1"), name(1, "Player2")],
            date: self.header("Date").map(str::to_string),
            name: self.header("Game").map(str::to_string),
            designer: self.designer(),
        };
        let root_comment = self.comment(NodeId::ROOT).unwrap_or("");
        let mut w = Writer::begin(self.start(), game.outcome(), &info, root_comment)?;
        let mut work = vec![Work::Line(NodeId::ROOT, 0)];
        while let Some(item) = work.pop() {
            match item {
                Work::Line(from, index) => {
                    let mut at = from;
                    let mut i = index;
                    loop {
                        let children = self.children(at).unwrap_or(&[]);
                        match children {
                            [] => break,
                            [only] => {
                                self.write_step(&mut w, *only, i)?;
                                at = *only;
                                i += 1;
                            }
                            _ => {
                                let n = w.gesture_number();
                                for &c in children.iter().rev() {
                                    work.push(Work::Close);
                                    work.push(Work::Line(c, i + 1));
                                    work.push(Work::Open(c, n, i));
                                }
                                break;
                            }
                        }
                    }
                }
                Work::Open(id, n, i) => {
                    w.open_branch(n);
                    self.write_step(&mut w, id, i)?;
                }
                Work::Close => w.close_branch(),
            }
        }
        Ok(w.finish())
    }

    fn write_step(&self, w: &mut Writer, id: NodeId, index: usize) -> Result<(), ExportError> {
        let Some(node) = self.node(id) else {
            return Ok(());
        };
        let parent = node.parent().unwrap_or(NodeId::ROOT);
        let Ok(before) = self.position(parent) else {
            return Ok(());
        };
        match node.step() {
            Some(Step::Move(mv)) => w.turn(index, before, &Turn::Move(mv))?,
            Some(Step::Bribe { accepted: true, .. }) => return Err(ExportError::Pass(index + 1)),
            Some(Step::Bribe { .. }) => return Err(ExportError::Bribe(index + 1)),
            None => {}
        }
        w.comment(node.comment());
        Ok(())
    }

    /// Who designed a "Zertz+xx" board, from the `Designer` header (`1` or `2`), which
    /// [`GameTree::from_sgf`] sets on such records and [`GameTree::to_sgf`] writes back as the
    /// design and the `Swap` that followed it.
    pub fn designer(&self) -> Option<Player> {
        match self.header(DESIGNER)?.trim() {
            "1" => Some(Player::One),
            "2" => Some(Player::Two),
            _ => None,
        }
    }

    /// Reads BoardSpace SGF with or without variations.
    pub fn from_sgf(text: &str) -> Result<GameTree, TextError> {
        let err = |line, column, token: String, message: String| TextError {
            format: TextFormat::Sgf,
            line,
            column,
            token,
            message,
        };
        if text.trim().is_empty() {
            return Err(err(1, 1, String::new(), "the text is empty".into()));
        }
        let sgf = sgf::parse_tree(text).map_err(|e| {
            err(
                e.line,
                e.column,
                excerpt(text, e.line, e.column),
                e.message.clone(),
            )
        })?;
        // Each line is replayed from the root: bound the work before doing it.
        let parents = sgf.parents();
        let leaves = sgf.leaves();
        let mut depth = vec![0usize; sgf.nodes.len()];
        for (n, node) in sgf.nodes.iter().enumerate() {
            // Children come after their parent in the arena.
            let above = parents[n].map_or(0, |p| depth[p]);
            depth[n] = above + node.properties.len();
        }
        let work: usize = leaves.iter().map(|&l| depth[l]).sum();
        if work > MAX_WORK {
            return Err(err(
                1,
                1,
                String::new(),
                format!(
                    "the variations hold {work} properties along their lines; at most {MAX_WORK} are read"
                ),
            ));
        }
        let mut tree: Option<GameTree> = None;
        let mut commented: HashSet<usize> = HashSet::new();
        for leaf in leaves {
            let path = sgf.path_to(leaf, &parents);
            let mut props: Vec<Property> = Vec::new();
            // The number of properties up to the end of each node of the path.
            let mut ends = Vec::with_capacity(path.len());
            for &n in &path {
                props.extend(sgf.nodes[n].properties.iter().cloned());
                ends.push(props.len());
            }
            let (imported, starts) = import_props(&props).map_err(|e| import_error(&e, &props))?;
            let game = &imported.game;
            let tree = match &mut tree {
                Some(tree) => {
                    if tree.start() != game.start() {
                        let first = path
                            .iter()
                            .find_map(|&n| sgf.nodes[n].properties.first())
                            .cloned();
                        let (line, column, token) = first
                            .map(|p| (p.line, p.column, shown(&p)))
                            .unwrap_or((1, 1, String::new()));
                        return Err(err(
                            line,
                            column,
                            token,
                            "a variation that changes the start position: variations branch off after the set-up"
                                .into(),
                        ));
                    }
                    tree
                }
                None => tree.insert(main_tree(&imported)),
            };
            let mut ids = Vec::with_capacity(game.turns().len());
            let mut at = NodeId::ROOT;
            for (i, turn) in game.turns().iter().enumerate() {
                if let (Turn::Move(mv), Some(after)) = (turn, game.positions().get(i + 1)) {
                    at = tree.push(at, Step::Move(*mv), after.clone());
                    ids.push(at);
                }
            }
            for (k, &n) in path.iter().enumerate() {
                let comments: Vec<&Property> = sgf.nodes[n]
                    .properties
                    .iter()
                    .filter(|p| p.key == "C")
                    .collect();
                if comments.is_empty() || !commented.insert(n) {
                    continue;
                }
                // The turns whose first gesture comes before the end of this node.
                let begun = starts.partition_point(|&s| s < ends[k]);
                let target = match begun.checked_sub(1) {
                    Some(t) => ids.get(t).copied().unwrap_or(at),
                    None => NodeId::ROOT,
                };
                for c in comments {
                    tree.append_comment(target, &c.value);
                }
            }
        }
        let mut tree =
            tree.ok_or_else(|| err(1, 1, String::new(), "no game in the SGF text".into()))?;
        // The ending was taken from the first line read, which later lines may extend (a
        // variation written before the rest of the main line): a main line the rules end keeps
        // no declared ending, as a record's would not (found by the tree_text fuzz target).
        if tree.declared.is_some() {
            let last = tree.main_line().last().copied().unwrap_or(NodeId::ROOT);
            if tree.game_at(last).is_ok_and(|g| g.outcome().is_some()) {
                tree.declared = None;
            }
        }
        Ok(tree)
    }
}

/// The header naming the designer of a "Zertz+xx" board.
const DESIGNER: &str = "Designer";

/// The tree of the main line's record: its start, players, date, name and ending.
fn main_tree(imported: &crate::boardspace::Imported) -> GameTree {
    let game = &imported.game;
    let mut tree = GameTree::new(game.start().clone(), game.rules());
    let mut headers = Vec::new();
    let players = [
        &imported.players[imported.first],
        &imported.players[1 - imported.first],
    ];
    for (name, id) in ["Player1", "Player2"].into_iter().zip(players) {
        if !id.is_empty() {
            headers.push((name.to_string(), id.clone()));
        }
    }
    if let Some(date) = &imported.date {
        headers.push(("Date".to_string(), date.clone()));
    }
    if let Some(name) = &imported.name {
        headers.push(("Game".to_string(), name.clone()));
    }
    // On a designed board player one (who moved first) is the designer exactly when the other
    // player swapped.
    if imported.variant.eq_ignore_ascii_case("Zertz+xx") {
        let designer = if imported.swapped { "1" } else { "2" };
        headers.push((DESIGNER.to_string(), designer.to_string()));
    }
    // A header is one line.
    let headers = headers
        .into_iter()
        .map(|(k, v)| (k, v.replace(['\n', '\r'], " ")))
        .collect();
    tree.set_headers_unchecked(headers);
    let ending = match imported.ending {
        Ending::Rules(_) => None,
        Ending::Resigned(bs) => Some(Outcome::Win {
            winner: imported.player_of(bs).other(),
            reason: WinReason::Resignation,
        }),
        Ending::WinOnTime(bs) => Some(Outcome::Win {
            winner: imported.player_of(bs),
            reason: WinReason::Time,
        }),
        // A result the moves do not reach: the loser resigned, or they agreed a draw.
        Ending::Unfinished => match imported.result {
            RecordedResult::Winner(bs) => Some(Outcome::Win {
                winner: imported.player_of(bs),
                reason: WinReason::Resignation,
            }),
            RecordedResult::Draw => Some(Outcome::Draw(DrawReason::Agreement)),
            _ => None,
        },
    };
    let _ = tree.set_ending(ending);
    tree
}

fn shown(p: &Property) -> String {
    let value: String = p.value.chars().take(40).collect();
    format!("{}[{}]", p.key, value.trim())
}

/// An import error, with the column and the property of the line it names.
fn import_error(e: &ImportError, props: &[Property]) -> TextError {
    let at = props.iter().find(|p| p.line == e.line);
    TextError {
        format: TextFormat::Sgf,
        line: e.line,
        column: at.map_or(1, |p| p.column),
        token: at.map(shown).unwrap_or_default(),
        message: format!("{}: {}", e.kind, e.detail),
    }
}
