//! The engine's word on a finished game's position (`GET /api/games/{id}/analysis`): the game
//! replayed to a turn, and a short search's best moves with their lines.

use std::time::Duration;

use serde_json::{Value, json};
use zertz::notation::official;
use zertz::{Game, Turn};
use zertz_engine::analysis::analyse_position;
use zertz_engine::{Engine, Limits, SearchOptions};

/// The game after its first `turn` turns (`None` past its end, or if a turn no longer plays).
pub fn replay(game: &Game, turn: usize) -> Option<Game> {
    let mut g = Game::from_position(game.start().clone(), game.rules());
    for t in game.turns().get(..turn)? {
        match t {
            Turn::Move(mv) => g.play(mv).ok()?,
            Turn::Pass { bribe } => {
                g.propose_bribe(*bribe).ok()?;
                g.answer_bribe(true).ok()?;
            }
        }
    }
    Some(g)
}

/// The answer for a position where nothing is left to play.
pub fn over(game: &Game, turn: usize) -> Value {
    json!({ "turn": turn, "to_move": game.to_move().number(), "over": true, "best": [] })
}

/// Searches `game` (after `turn` turns) for `budget` and ranks its `top` moves, each with its
/// score and line. Blocks for the search: called on a blocking thread holding a slot.
pub fn analyse(game: &Game, turn: usize, budget: Duration, top: usize) -> Value {
    let engine = Engine::new(SearchOptions::default(), 16);
    let a = analyse_position(&engine, game, &Limits::movetime(budget), top, &mut |_| {});
    let position = game.position();
    let best: Vec<Value> = a
        .top
        .iter()
        .map(|r| {
            json!({
                "move": official::move_text(position, &r.mv),
                "score": r.score.to_string(),
                "line": official::line_text(position, &r.pv),
            })
        })
        .collect();
    json!({
        "turn": turn,
        "to_move": game.to_move().number(),
        "over": false,
        "score": a.search.score.to_string(),
        "depth": a.search.depth,
        "best": best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_position_is_ranked_from_its_replay() {
        let mut game = Game::standard();
        let mv = zertz::notation::official::parse(game.position(), "Wd4,a1").unwrap();
        game.play(&mv).unwrap();
        assert!(replay(&game, 2).is_none(), "past the end");
        let start = replay(&game, 0).unwrap();
        assert!(start.turns().is_empty());
        // A second: the main search gets half of the budget, and with 50 ms on a loaded CI
        // machine it scored one root move only, so one line came back (30 November 2026).
        let answer = analyse(&start, 0, Duration::from_secs(1), 2);
        assert_eq!(answer["to_move"], 1);
        assert_eq!(answer["over"], false);
        let best = answer["best"].as_array().unwrap();
        assert_eq!(best.len(), 2);
        let first = best[0]["move"].as_str().unwrap();
        assert!(
            zertz::notation::official::parse(start.position(), first).is_ok(),
            "{first}"
        );
        assert_eq!(best[0]["line"][0], first);
    }
}
