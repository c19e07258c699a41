//! The legal moves of a position as clients receive them: official notation, written once per
//! position straight into the JSON array every message copies.

use serde::Serialize;
use zertz::Game;
use zertz::notation::official;

/// The legal moves of the player to move in official notation, computed once per position and
/// shared (cheaply cloned) by every view of it; kept as the JSON array clients receive, so it
/// is written once and copied as it is into every message.
#[derive(Clone, Debug, Default)]
pub struct LegalMoves {
    /// The JSON array (`None`: no move). Written here from coordinates and move letters,
    /// which never need escaping, so it is not parsed again to be checked (debug builds do).
    json: Option<std::sync::Arc<String>>,
    len: usize,
}

/// The texts of the places of `layout` (`a1`, `b2`…), by place index: made once per official
/// layout, and each time for a custom one (kept, they would outlive its layout, which is freed
/// with its last game).
pub(crate) fn coord_texts(layout: &zertz::Layout) -> std::sync::Arc<[std::sync::Arc<str>]> {
    use std::sync::{Arc, OnceLock};
    let texts = |layout: &zertz::Layout| -> Arc<[Arc<str>]> {
        layout
            .places()
            .map(|p| Arc::from(layout.coord(p).to_string()))
            .collect()
    };
    static OFFICIAL: OnceLock<Vec<Arc<[Arc<str>]>>> = OnceLock::new();
    let official = OFFICIAL.get_or_init(|| {
        zertz::BoardKind::OFFICIAL
            .iter()
            .map(|&kind| texts(zertz::Layout::official(kind)))
            .collect()
    });
    match zertz::BoardKind::OFFICIAL
        .iter()
        .position(|&kind| kind == layout.kind())
    {
        Some(i) => official[i].clone(),
        None => texts(layout),
    }
}

impl LegalMoves {
    /// The legal moves of `game` now (none when it is over or a bribe awaits its answer).
    ///
    /// The same texts as [`official::move_text`] gives, written straight into one buffer:
    /// placements from a table of the layout's coordinates (the isolation suffix from the
    /// position after the move, as the library finds it), captures by the library.
    pub fn of(game: &Game) -> LegalMoves {
        let position = game.position();
        let layout = position.layout();
        let moves = game.legal_moves();
        if moves.is_empty() {
            return LegalMoves::default();
        }
        let coords = coord_texts(layout);
        let (rings, empty) = (position.rings(), position.empty());
        // Whether the rings without the one removed (by index; 64: none removed) are in one
        // piece, found once per ring removed.
        let mut whole: [Option<bool>; 65] = [None; 65];
        let mut json = String::with_capacity(2 + moves.len() * 10);
        json.push('[');
        for (i, mv) in moves.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push('"');
            match mv {
                zertz::Move::Place(p) => {
                    json.push(p.colour.letter());
                    json.push_str(&coords[p.at.index()]);
                    if let Some(r) = p.remove {
                        json.push(',');
                        json.push_str(&coords[r.index()]);
                    }
                    // A group is isolated (and taken) only when it has no empty ring left: on a
                    // board in one piece after the removal with an empty ring left, nothing
                    // is. Otherwise the library plays the move and says what it takes.
                    let removed = p.remove.map_or(0, |r| r.bit());
                    let left = rings & !removed;
                    let in_one_piece = *whole[p.remove.map_or(64, |r| r.index())]
                        .get_or_insert_with(|| {
                            layout.flood(left & left.wrapping_neg(), left) == left
                        });
                    if !in_one_piece || empty & !p.at.bit() & !removed == 0 {
                        let mut after = position.clone();
                        let played = after.play_unchecked(mv);
                        if played.isolated.iter().any(|&set| set != 0) {
                            json.push_str(&official::isolation_suffix(layout, &played.isolated));
                        }
                    }
                }
                zertz::Move::Capture(_) => json.push_str(&official::move_text(position, mv)),
            }
            json.push('"');
        }
        json.push(']');
        debug_assert!(
            serde_json::from_str::<Vec<&str>>(&json).is_ok(),
            "legal moves written as invalid JSON: {json}"
        );
        LegalMoves {
            json: Some(std::sync::Arc::new(json)),
            len: moves.len(),
        }
    }

    /// How many moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No legal move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a JSON array of strings.
    pub fn json(&self) -> &str {
        self.json.as_deref().map_or("[]", String::as_str)
    }

    /// The moves, one string each.
    pub fn to_vec(&self) -> Vec<String> {
        serde_json::from_str(self.json()).unwrap_or_default()
    }
}

/// The name by which `serde_json` recognises a raw JSON text to copy as it is (what its
/// `RawValue` serialises as); other serialisers see a struct with one field.
const RAW_JSON: &str = "$serde_json::private::RawValue";

impl Serialize for LegalMoves {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match &self.json {
            // As `serde_json::value::RawValue` does, without parsing the text again to build
            // one (a `RawValue` is checked when made: ~20 KB per position).
            Some(json) => {
                let mut raw = serializer.serialize_struct(RAW_JSON, 1)?;
                raw.serialize_field(RAW_JSON, json.as_str())?;
                raw.end()
            }
            None => serializer.collect_seq(std::iter::empty::<&str>()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::{Layout, Position, RuleSet, Rules};

    #[test]
    fn legal_moves_are_the_library_s_texts() {
        let game = Game::from_position(Position::standard(), Rules::default());
        let mut seed = 7u64;
        // Along random games to their end, on several boards: every position's texts match
        // the library's, captures and isolations included.
        let mut isolating = 0;
        for (i, board) in ["37", "48", "61", "37", "40"]
            .iter()
            .cycle()
            .take(60)
            .enumerate()
        {
            let start = Position::new(
                Layout::from_spec(board).unwrap(),
                "standard".parse::<RuleSet>().unwrap(),
            );
            let mut game = if i == 0 {
                game.clone()
            } else {
                Game::from_position(start, Rules::default())
            };
            for _ in 0..200 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let fast = LegalMoves::of(&game);
                let slow: Vec<String> = moves
                    .iter()
                    .map(|mv| official::move_text(game.position(), mv))
                    .collect();
                assert_eq!(fast.to_vec(), slow);
                assert_eq!(fast.len(), slow.len());
                isolating += moves
                    .iter()
                    .filter(|mv| {
                        let mut after = game.position().clone();
                        after.play_unchecked(mv).isolated_places() != 0
                    })
                    .count();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                game.play(&mv).unwrap();
            }
        }
        assert!(
            isolating > 100,
            "only {isolating} isolating moves were checked"
        );
        assert!(LegalMoves::default().is_empty());
        assert_eq!(serde_json::to_string(&LegalMoves::default()).unwrap(), "[]");
        // Serialised as the array itself, inside a value too.
        let legal = LegalMoves::of(&game);
        #[derive(Serialize)]
        struct Holder<'a> {
            legal_moves: &'a LegalMoves,
            n: usize,
        }
        let text = serde_json::to_string(&Holder {
            legal_moves: &legal,
            n: 1,
        })
        .unwrap();
        assert_eq!(text, format!(r#"{{"legal_moves":{},"n":1}}"#, legal.json()));
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["legal_moves"].as_array().unwrap().len(), legal.len());
        assert_eq!(serde_json::to_value(&legal).unwrap(), back["legal_moves"]);
    }
}
