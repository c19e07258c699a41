//! Checks the position an external engine says it holds against the match's, by meaning: both
//! are read by the rules library and the positions compared, so that spacing, a `\r` at the
//! end of the line or another spelling of the same rule set is no reason to forfeit a game.
//! When they do differ, the message gives both strings and what differs, field by field.

use zertz::{Player, Position};

/// Checks `written`, the position string an engine answered, against `expected`.
pub fn check(expected: &Position, written: &str) -> Result<(), String> {
    let theirs: Position = written.parse().map_err(|e| {
        format!("the engine answered `{written}`, which is not a position string ({e}); the match holds `{expected}`")
    })?;
    if theirs == *expected {
        return Ok(());
    }
    Err(format!(
        "the engine holds `{theirs}`, the match `{expected}`: {}",
        differences(expected, &theirs).join("; ")
    ))
}

/// What differs between the match's position `ours` and the engine's `theirs`, in words
/// (`ring d4: the match W, the engine empty`).
pub fn differences(ours: &Position, theirs: &Position) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name}: the match {a}, the engine {b}"));
        }
    };
    let (la, lb) = (ours.layout(), theirs.layout());
    field("board", la.spec(), lb.spec());
    field(
        "rules",
        ours.rule_set().to_string(),
        theirs.rule_set().to_string(),
    );
    if la.spec() == lb.spec() {
        for place in la.places() {
            let (a, b) = (ring(ours, place), ring(theirs, place));
            field(&format!("ring {}", la.coord(place)), a, b);
        }
    }
    field(
        "supply",
        ours.supply().to_string(),
        theirs.supply().to_string(),
    );
    for player in [Player::One, Player::Two] {
        field(
            &format!("player {} captures", player.number()),
            ours.captures(player).to_string(),
            theirs.captures(player).to_string(),
        );
    }
    field(
        "to move",
        ours.to_move().number().to_string(),
        theirs.to_move().number().to_string(),
    );
    out
}

/// What a place holds, in words.
fn ring(position: &Position, place: zertz::Place) -> String {
    if !position.has_ring(place) {
        return "removed".into();
    }
    match position.colour_at(place) {
        Some(c) => c.letter().to_string(),
        None => "empty".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1";

    #[test]
    fn the_same_position_written_otherwise_is_the_same() {
        let ours: Position = START.parse().unwrap();
        for written in [
            START,
            "37  standard ..../...../....../......./....../...../....   6/8/10 0/0/0 0/0/0 1 \r",
            "\t37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
            "37 Standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
            "37 custom:6/8/10:4/5/6/3 ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
        ] {
            assert_eq!(check(&ours, written), Ok(()), "{written:?}");
        }
    }

    #[test]
    fn a_different_position_is_named_field_by_field() {
        let ours: Position = START.parse().unwrap();
        let theirs = "37 standard -.../...../....../...W.../....../...../.... 5/8/10 0/0/0 0/0/0 2";
        let message = check(&ours, theirs).unwrap_err();
        for part in [
            "ring a1: the match empty, the engine removed",
            "ring d4: the match empty, the engine W",
            "supply: the match 6/8/10, the engine 5/8/10",
            "to move: the match 1, the engine 2",
            START,
            theirs,
        ] {
            assert!(message.contains(part), "`{part}` not in {message}");
        }
        assert!(!message.contains("captures"), "{message}");
        let other = "61 standard ...../....../......./......../........./......../......./....../..... 6/8/10 0/0/0 0/0/0 1";
        let message = check(&ours, other).unwrap_err();
        assert!(message.contains("board: the match 37"), "{message}");
        let message = check(&ours, "37 standard").unwrap_err();
        assert!(message.contains("not a position string"), "{message}");
        assert!(message.contains("expected 7 fields"), "{message}");
    }
}
