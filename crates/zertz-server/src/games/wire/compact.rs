//! The legal moves in the compact form clients expand (docs/server.md, "What a move costs"):
//! a placement is any colour that may be placed on any empty ring, removing any free ring but
//! the one just filled (or none when no other is free), so the colours, the empty rings and the
//! free rings say it all but for the few placements that isolate a group (whose text names the
//! marbles taken) and, under the no-repetition rule, those that would repeat a position. A
//! capture turn lists its captures: they are few. A few hundred bytes instead of ~18 KB.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use zertz::notation::official;
use zertz::{Game, Move, Placement, Position, Repetition};

use crate::games::wire::legal::coord_texts;

/// The legal moves of the player to move, compact.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactLegal {
    /// The colours that may be placed (`W`, `G`, `B`, in that order): from the supply, or from
    /// the mover's captures once the supply is empty. Empty on a capture turn.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub colours: String,
    /// The empty rings, in place order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub empty: Vec<Arc<str>>,
    /// The free rings (empty rings that may be removed), in place order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free: Vec<Arc<str>>,
    /// The placements whose text names marbles taken by isolation, in full (`Bd7,b2 x Wa1Wa2`):
    /// each replaces the text without its ` x …` in the expanded list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub isolating: Vec<String>,
    /// Placements the colours and rings allow that the no-repetition rule forbids (their text
    /// as the expansion writes it): left out of the expanded list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repeating: Vec<String>,
    /// On a capture turn, every capture (and nothing else is legal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<String>,
}

/// Why a compact form read from a client cannot be expanded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CompactError {
    /// A colour letter other than `W`, `G` or `B`.
    #[error("`{0}` is not a colour: the colours are W, G and B")]
    Colour(char),
}

impl CompactLegal {
    /// The legal moves of `game` now, compact; `None` when there is none (the game is over, a
    /// bribe awaits its answer, or the mover has nothing to place).
    pub fn of(game: &Game) -> Option<CompactLegal> {
        if game.outcome().is_some() || game.pending_bribe().is_some() {
            return None;
        }
        let position = game.position();
        if position.winner_by_captures().is_some() {
            return None;
        }
        if position.has_capture() {
            let captures: Vec<String> = game
                .legal_moves()
                .iter()
                .map(|mv| official::move_text(position, mv))
                .collect();
            return (!captures.is_empty()).then(|| CompactLegal {
                captures,
                ..CompactLegal::default()
            });
        }
        let colours: String = position
            .placement_source()
            .colours()
            .map(|c| c.letter())
            .collect();
        let (empty, free) = (position.empty(), position.free_rings());
        if colours.is_empty() || empty == 0 {
            return None;
        }
        let coords = coord_texts(position.layout());
        let texts = |set: u64| places(set).map(|i| coords[i].clone()).collect();
        let compact = CompactLegal {
            isolating: isolating(position, &colours),
            repeating: if game.rules().repetition == Repetition::Forbidden {
                repeating(game)
            } else {
                Vec::new()
            },
            colours,
            empty: texts(empty),
            free: texts(free),
            captures: Vec::new(),
        };
        // Every placement may be forbidden by the no-repetition rule: then there is no move.
        // (Counting the placements compares texts: only done when some are forbidden.)
        (compact.repeating.is_empty() || compact.repeating.len() < compact.placements())
            .then_some(compact)
    }

    /// How many placements the colours and rings make (before `repeating` is left out).
    fn placements(&self) -> usize {
        let per_colour: usize = self
            .empty
            .iter()
            .map(|at| {
                let others = self.free.iter().filter(|r| *r != at).count();
                others.max(1)
            })
            .sum();
        per_colour * self.colours.chars().count()
    }

    /// One legal move drawn with `random` (uniformly but for the rare repeating placements,
    /// which are skipped to the next), without spelling out the others: what a client that
    /// plays at random needs. `None` when there is no move or a colour is not one.
    pub fn pick(&self, random: u64) -> Option<String> {
        if !self.captures.is_empty() {
            return Some(self.captures[(random % self.captures.len() as u64) as usize].clone());
        }
        let colours: Vec<char> = self.colours.chars().collect();
        if colours.iter().any(|c| !"WGB".contains(*c)) {
            return None;
        }
        let total = self.placements();
        (0..total.min(self.repeating.len() + 1))
            .map(|k| self.nth_placement(&colours, (random as usize).wrapping_add(k) % total))
            .find(|text| !self.repeating.contains(text))
            .map(|text| self.in_full(text))
    }

    /// The `i`-th placement the colours and rings make (`i` below [`Self::placements`]),
    /// without an isolation suffix.
    fn nth_placement(&self, colours: &[char], i: usize) -> String {
        let per_colour = self.placements() / colours.len().max(1);
        let (colour, mut i) = (colours[i / per_colour], i % per_colour);
        for at in &self.empty {
            let others: Vec<&Arc<str>> = self.free.iter().filter(|r| *r != at).collect();
            let n = others.len().max(1);
            if i < n {
                return match others.get(i) {
                    Some(r) => format!("{colour}{at},{r}"),
                    None => format!("{colour}{at}"),
                };
            }
            i -= n;
        }
        String::new()
    }

    /// `text` with its isolation suffix, if it isolates.
    fn in_full(&self, text: String) -> String {
        self.isolating
            .iter()
            .find(|full| {
                full.strip_prefix(text.as_str())
                    .is_some_and(|rest| rest.starts_with(" x "))
            })
            .cloned()
            .unwrap_or(text)
    }

    /// The legal moves in official notation, in the rules library's order: captures as given;
    /// otherwise for each colour, each empty ring, each free ring but that one (or none when no
    /// other is free), with the isolating texts in full and the repeating ones left out.
    pub fn expand(&self) -> Result<Vec<String>, CompactError> {
        if !self.captures.is_empty() {
            return Ok(self.captures.clone());
        }
        if let Some(c) = self.colours.chars().find(|c| !"WGB".contains(*c)) {
            return Err(CompactError::Colour(c));
        }
        let mut out = Vec::with_capacity(self.placements());
        for colour in self.colours.chars() {
            for at in &self.empty {
                let mut push = |text: String| {
                    if !self.repeating.contains(&text) {
                        out.push(self.in_full(text));
                    }
                };
                let mut removed = false;
                for r in self.free.iter().filter(|r| *r != at) {
                    push(format!("{colour}{at},{r}"));
                    removed = true;
                }
                if !removed {
                    push(format!("{colour}{at}"));
                }
            }
        }
        Ok(out)
    }
}

/// The place indices of `set`, in order.
fn places(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The placements of `position` (colours `colours`) that take marbles by isolation, in full.
/// A group is taken only when it is cut off with no empty ring left: on a board still in one
/// piece after the removal with an empty ring left, nothing is, so most placements are ruled
/// out without being played.
fn isolating(position: &Position, colours: &str) -> Vec<String> {
    let layout = position.layout();
    let (rings, empty, free) = (position.rings(), position.empty(), position.free_rings());
    // Whether the rings without the one removed (by index; 64: none) are in one piece.
    let mut whole: [Option<bool>; 65] = [None; 65];
    // Which rings a marble fills and which is removed decide what is isolated, whatever the
    // colour: each pair is played once (with the first colour), in the order of the list.
    let Some(first) = colours.chars().find_map(zertz::Colour::from_letter) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    for at in places(empty) {
        let others = free & !(1u64 << at);
        // Each other free ring, or none when there is no other.
        let removals = places(others)
            .map(Some)
            .chain((others == 0).then_some(None));
        for remove in removals {
            let removed = remove.map_or(0, |r| 1u64 << r);
            let left = rings & !removed;
            let in_one_piece = *whole[remove.unwrap_or(64)]
                .get_or_insert_with(|| layout.flood(left & left.wrapping_neg(), left) == left);
            if in_one_piece && empty & !(1u64 << at) & !removed != 0 {
                continue;
            }
            let (Some(at), remove) = (
                layout.place_at_index(at),
                remove.and_then(|r| layout.place_at_index(r)),
            ) else {
                continue;
            };
            let mut after = position.clone();
            let mv = Move::Place(Placement {
                colour: first,
                at,
                remove,
            });
            if after.play_unchecked(&mv).isolated.iter().any(|&s| s != 0) {
                pairs.push((at, remove));
            }
        }
    }
    let mut out = Vec::new();
    for colour in colours.chars().filter_map(zertz::Colour::from_letter) {
        for &(at, remove) in &pairs {
            let mv = Move::Place(Placement { colour, at, remove });
            out.push(official::move_text(position, &mv));
        }
    }
    out
}

/// The placements the colours and rings allow that the game's no-repetition rule forbids,
/// written as the expansion writes them (without an isolation suffix).
fn repeating(game: &Game) -> Vec<String> {
    let position = game.position();
    let legal = game.legal_moves();
    position
        .legal_moves()
        .into_iter()
        .filter(|mv| !legal.contains(mv))
        .map(|mv| match mv {
            Move::Place(p) => {
                let text = official::move_text(position, &Move::Place(p));
                match text.split_once(" x ") {
                    Some((head, _)) => head.to_string(),
                    None => text,
                }
            }
            Move::Capture(_) => official::move_text(position, &mv),
        })
        .collect()
}

/// The compact legal moves of a state, shared by every view of one position (cheaply cloned);
/// `null` on the wire when there is no legal move.
#[derive(Clone, Debug, Default)]
pub struct Legal(Option<Arc<CompactLegal>>);

impl Legal {
    /// The legal moves of `game` now.
    pub fn of(game: &Game) -> Legal {
        Legal(CompactLegal::of(game).map(Arc::new))
    }

    /// The compact form, if there is a legal move.
    pub fn get(&self) -> Option<&CompactLegal> {
        self.0.as_deref()
    }
}

impl PartialEq for Legal {
    fn eq(&self, other: &Legal) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl Serialize for Legal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use zertz::{Layout, RuleSet, Rules};

    /// The rules library's list, in official notation.
    fn library(game: &Game) -> Vec<String> {
        game.legal_moves()
            .iter()
            .map(|mv| official::move_text(game.position(), mv))
            .collect()
    }

    /// A start on `board` whose supply is `supply` and captures `captures` (three white/grey/
    /// black fields each): small supplies reach the empty supply within a few moves.
    fn start(board: &str, supply: &str, captures: [&str; 2]) -> Position {
        let standard = Position::new(
            Layout::from_spec(board).unwrap(),
            "standard".parse::<RuleSet>().unwrap(),
        )
        .to_string();
        let mut fields: Vec<&str> = standard.split(' ').collect();
        fields[3] = supply;
        fields[4] = captures[0];
        fields[5] = captures[1];
        fields.join(" ").parse().unwrap()
    }

    /// What the positions along the games held, so that the test shows it met every case.
    #[derive(Default, Debug)]
    struct Seen {
        positions: usize,
        captures: usize,
        from_captures: usize,
        no_free_ring: usize,
        only_free_ring_filled: usize,
        isolating: usize,
        repeating: usize,
    }

    /// Plays a random game from `start`, checking every position's compact moves.
    fn check_game(start: Position, rules: Rules, mut seed: u64, seen: &mut Seen) {
        let mut game = Game::from_position(start, rules);
        for _ in 0..300 {
            let want = library(&game);
            let compact = CompactLegal::of(&game);
            let got = compact
                .as_ref()
                .map(|c| c.expand().unwrap())
                .unwrap_or_default();
            assert_eq!(got, want, "at {}", game.position());
            let position = game.position();
            seen.positions += 1;
            if let Some(c) = &compact {
                seen.captures += usize::from(!c.captures.is_empty());
                seen.isolating += usize::from(!c.isolating.is_empty());
                seen.repeating += usize::from(!c.repeating.is_empty());
                if c.captures.is_empty() {
                    seen.from_captures += usize::from(position.supply().is_empty());
                    seen.no_free_ring += usize::from(c.free.is_empty());
                    seen.only_free_ring_filled += usize::from(
                        c.free.len() == 1 && c.empty.contains(&c.free[0]) && c.empty.len() > 1,
                    );
                }
                // Drawn at random without spelling out: one of the list.
                assert!(want.contains(&c.pick(seed).unwrap()));
            }
            if want.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves = game.legal_moves();
            let mv = moves[(seed % moves.len() as u64) as usize];
            game.play(&mv).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Along random games on several boards, with full and nearly empty supplies, under
        /// both repetition rules: the compact moves expand to exactly the library's list.
        #[test]
        fn compact_moves_expand_to_the_library_s_list(
            seed in 1u64..u64::MAX,
            board in prop::sample::select(vec!["37", "40", "48", "61"]),
            small in any::<bool>(),
            forbidden in any::<bool>(),
        ) {
            let mut seen = Seen::default();
            let start = if small {
                start(board, "1/0/1", ["1/1/0", "0/1/1"])
            } else {
                start(board, "6/8/10", ["0/0/0", "0/0/0"])
            };
            let rules = Rules {
                repetition: if forbidden { Repetition::Forbidden } else { Repetition::ThreefoldDraw },
                ..Rules::default()
            };
            check_game(start, rules, seed, &mut seen);
            prop_assert!(seen.positions > 0);
        }
    }

    /// The same over many games at once, counting what they met: thousands of positions,
    /// with captures, an empty supply, no free ring, isolations and forbidden repetitions.
    #[test]
    fn every_case_is_met() {
        let mut seen = Seen::default();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..360u64 {
            let board = ["37", "40", "48", "61"][(i % 4) as usize];
            let start = match i % 5 {
                0 => start(board, "6/8/10", ["0/0/0", "0/0/0"]),
                1 => start(board, "1/0/1", ["1/1/0", "0/1/1"]),
                2 => start(board, "0/0/0", ["1/1/1", "1/1/1"]),
                3 => RIM_FULL.parse().unwrap(),
                _ => band(),
            };
            let rules = Rules {
                repetition: if i % 2 == 0 {
                    Repetition::Forbidden
                } else {
                    Repetition::ThreefoldDraw
                },
                ..Rules::default()
            };
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(i) | 1;
            check_game(start, rules, seed, &mut seen);
        }
        assert!(seen.positions > 5000, "{seen:?}");
        assert!(seen.captures > 100, "{seen:?}");
        assert!(seen.from_captures > 100, "{seen:?}");
        assert!(seen.no_free_ring > 100, "{seen:?}");
        assert!(seen.isolating > 50, "{seen:?}");
        assert!(seen.repeating > 0, "{seen:?}");
    }

    /// A 37-ring board whose rim is full of marbles: no ring is free, so placements remove
    /// none, and no marble can jump.
    const RIM_FULL: &str =
        "37 standard WGBW/B...G/G....B/W.....W/B....G/G...B/WBGW 2/2/2 0/0/0 0/0/0 1";

    /// A band where four turns bring the position back (as in the server's record tests):
    /// player one holding a white, player two a grey; played from after its first turn, `Wb4`,
    /// the three others come back to where `Wb4` would recreate the start.
    fn band() -> Position {
        let band: Position = "custom standard GBGBG/.W../BGBGB 0/0/0 1/0/0 0/1/0 1"
            .parse()
            .unwrap();
        band.play(&official::parse(&band, "Wb4").unwrap()).unwrap()
    }

    #[test]
    fn a_placement_that_would_repeat_is_listed_as_repeating() {
        let rules = Rules {
            repetition: Repetition::Forbidden,
            ..Rules::default()
        };
        let mut game = Game::from_position(band(), rules);
        for text in ["Gb1", "x b1Wb3", "x b4Gb2"] {
            let mv = official::parse(game.position(), text).unwrap();
            game.play(&mv).unwrap();
        }
        let compact = CompactLegal::of(&game).unwrap();
        assert_eq!(compact.repeating, ["Wb4"]);
        assert!(compact.free.is_empty());
        assert_eq!(compact.expand().unwrap(), library(&game));
        assert_eq!(compact.expand().unwrap(), ["Wb1", "Wb3"]);
    }

    #[test]
    fn the_start_of_a_37_ring_game_is_small() {
        let game = Game::from_position(Position::standard(), Rules::default());
        let compact = CompactLegal::of(&game).unwrap();
        assert_eq!(compact.colours, "WGB");
        assert_eq!(compact.empty.len(), 37);
        assert_eq!(compact.expand().unwrap().len(), 1944);
        let text = serde_json::to_string(&compact).unwrap();
        assert!(text.len() < 400, "{} bytes: {text}", text.len());
        // What the wire carries reads back the same.
        let back: CompactLegal = serde_json::from_str(&text).unwrap();
        assert_eq!(back, compact);
        let bad = CompactLegal {
            colours: "WX".into(),
            ..compact
        };
        assert_eq!(bad.expand(), Err(CompactError::Colour('X')));
        assert_eq!(bad.pick(3), None);
    }
}
