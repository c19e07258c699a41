//! An example game shown in the frame of the position it was asked from. The explorer merges
//! positions equal under a symmetry of the board, so an example game may have reached the
//! position asked about turned or mirrored: the game is then given turned the same way as a
//! whole (every position and move moved by one symmetry), so that it passes through the very
//! position on the board and its moves read as the explorer's table lists them.

use zertz::Position;
use zertz::game::{Game, Turn};
use zertz::record::Record;
use zertz::symmetry::{Frame, inverse, map_move};

/// Where an example game meets the position asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Met {
    /// The record, turned when the game met the position turned.
    pub record: String,
    /// The ply after which the game stands on the position asked about.
    pub ply: usize,
    /// Whether the record was turned.
    pub turned: bool,
}

/// The game of `record` in the frame of `asked`: `None` when the game never reaches `asked`
/// under any symmetry, or when its record does not read (it is then served as stored).
pub fn met(record: &str, asked: &Position) -> Option<Met> {
    let read = Record::parse(record).ok()?;
    let game = &read.game;
    if let Some(ply) = game.positions().iter().position(|p| p == asked) {
        return Some(Met {
            record: record.to_string(),
            ply,
            turned: false,
        });
    }
    let target = Frame::of(asked);
    let (ply, frame) = game
        .positions()
        .iter()
        .enumerate()
        .map(|(k, p)| (k, Frame::of(p)))
        .find(|(_, f)| f.key() == target.key())?;
    // The game's position there, brought to the canonical form, then back into the asked
    // frame: one symmetry for the whole game.
    let layout = asked.layout();
    let syms = layout.symmetries();
    let to_canonical = &syms[frame.symmetry_index()];
    let back = &syms[inverse(layout, target.symmetry_index())];
    let turn = |p: &Position| p.transformed(to_canonical).transformed(back);
    if turn(&game.positions()[ply]) != *asked {
        return None;
    }
    let mut turned = Game::from_position(turn(game.start()), game.rules());
    for t in game.turns() {
        match t {
            Turn::Move(m) => {
                let m = map_move(layout, back, &map_move(layout, to_canonical, m));
                turned.play(&m).ok()?;
            }
            // A bribe is no matter of orientation; the explorer's games hold none.
            Turn::Pass { .. } => return None,
        }
    }
    if let Some(outcome) = game.outcome()
        && turned.outcome().is_none()
    {
        turned.end(outcome).ok()?;
    }
    let headers: Vec<(&str, &str)> = read
        .headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    Some(Met {
        record: Record::new(turned, &headers).text(),
        ply,
        turned: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::notation::official;

    /// A short game as a record: these moves from the standard start.
    fn record_of(moves: &[&str]) -> (String, Vec<Position>) {
        let mut game = Game::standard();
        for m in moves {
            let mv = official::parse(game.position(), m).unwrap();
            game.play(&mv).unwrap();
        }
        let positions = game.positions().to_vec();
        let record = Record::new(game, &[("Player1", "Ann"), ("Player2", "Ben")]).text();
        (record, positions)
    }

    #[test]
    fn a_game_met_as_played_is_served_as_stored() {
        let (record, positions) = record_of(&["Wa2,a1", "Gg3,g1"]);
        let m = met(&record, &positions[1]).unwrap();
        assert_eq!((m.ply, m.turned), (1, false));
        assert_eq!(m.record, record);
    }

    #[test]
    fn a_game_met_turned_is_turned_as_a_whole() {
        let (record, positions) = record_of(&["Wa2,a1", "Gg3,g1", "Bd4,a4"]);
        // The position after two turns moved by each symmetry of the board that changes it.
        let layout = positions[2].layout();
        let images: Vec<Position> = layout
            .symmetries()
            .iter()
            .map(|s| positions[2].transformed(s))
            .filter(|p| *p != positions[2])
            .collect();
        assert!(images.len() >= 5, "{}", images.len());
        for asked in &images {
            let m = met(&record, asked).expect("the game meets the position turned");
            assert!(m.turned);
            assert_eq!(m.ply, 2);
            let again = Record::parse(&m.record).unwrap();
            assert_eq!(&again.game.positions()[2], asked);
            assert_eq!(again.game.turns().len(), 3);
            assert_eq!(again.header("Player1"), Some("Ann"));
        }
        // A position the game never reaches, under any symmetry.
        let (_, other) = record_of(&["Bd4,a1"]);
        assert_eq!(met(&record, &other[1]), None);
    }
}
