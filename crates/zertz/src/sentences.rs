//! Sentences for people: what a turn did and how a game ended, written once here so that the
//! terminal and the web page say the same words for the same events.

use crate::marbles::{Colour, Marbles, Player};
use crate::moves::Move;
use crate::position::{DrawReason, Outcome, Position, WinReason};

/// A small number as a word (`four`), a larger one in digits.
pub fn number_word(n: u32) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// Marbles counted by colour: `1 white and 2 grey marbles`, `a black marble`.
pub fn marbles_words(counts: [u32; 3]) -> String {
    let parts: Vec<String> = Colour::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| format!("{n} {}", c.name()))
        .collect();
    let total: u32 = counts.iter().sum();
    // "1 white and 1 grey marble", "1 white and 2 grey marbles": the last count decides.
    let last = counts.iter().rev().find(|n| **n > 0).copied().unwrap_or(0);
    let noun = if last == 1 { "marble" } else { "marbles" };
    match parts.len() {
        0 => "no marble".into(),
        1 if total == 1 => format!("a {} marble", parts[0].trim_start_matches("1 ")),
        1 => format!("{} {noun}", parts[0]),
        _ => {
            let (last, rest) = parts.split_last().unwrap_or((&parts[0], &[]));
            format!("{} and {last} {noun}", rest.join(", "))
        }
    }
}

/// What `mv`, played by `who` in `before`, did: the placement and the ring removed, the marbles
/// a capture took, the rings and marbles an isolation took.
pub fn turn(before: &Position, mv: &Move, who: &str) -> String {
    let layout = before.layout();
    match mv {
        Move::Place(p) => {
            let mut text = format!(
                "{who} places a {} marble on {}",
                p.colour.name(),
                layout.coord(p.at)
            );
            match p.remove {
                Some(r) => text.push_str(&format!(" and removes ring {}", layout.coord(r))),
                None => text.push_str(" (no ring is free to remove)"),
            }
            let mut after = before.clone();
            let played = after.play_unchecked(mv);
            let taken = played.isolated.map(|set| set.count_ones());
            let rings: u32 = taken.iter().sum();
            if rings > 0 {
                text.push_str(&format!(
                    "; it isolates {} {} and takes {}",
                    number_word(rings),
                    if rings == 1 { "ring" } else { "rings" },
                    marbles_words(taken)
                ));
            }
            text.push('.');
            text
        }
        Move::Capture(c) => {
            let steps = c.steps(layout).unwrap_or_default();
            let mut taken = [0u32; 3];
            let mut path = vec![layout.coord(c.from()).to_string()];
            for (over, to) in &steps {
                if let Some(colour) = before.colour_at(*over) {
                    taken[colour.index()] += 1;
                }
                path.push(layout.coord(*to).to_string());
            }
            if steps.len() > 1 {
                format!(
                    "{who} captures {} in a chain of {} jumps ({}).",
                    marbles_words(taken),
                    number_word(steps.len() as u32),
                    path.join(" → ")
                )
            } else {
                format!(
                    "{who} captures {} ({}).",
                    marbles_words(taken),
                    path.join(" → ")
                )
            }
        }
    }
}

/// A turn passed for a bribe: `who` hands `bribe` to the opponent.
pub fn pass(bribe: Marbles, who: &str) -> String {
    let counts = Colour::ALL.map(|c| u32::from(bribe.get(c)));
    format!(
        "{who} passes, handing over {} as a bribe.",
        marbles_words(counts)
    )
}

/// How the game ended, with the players' `names` (player one's, player two's); `last` is the
/// position it ended in (whose captures say which winning set was reached).
pub fn outcome(outcome: &Outcome, names: [&str; 2], last: &Position) -> String {
    let name = |p: Player| names[p.index()];
    match *outcome {
        Outcome::Win { winner, reason } => {
            let loser = name(winner.other());
            let who = name(winner);
            match reason {
                WinReason::WinningSet => {
                    let rules = last.rule_set();
                    let held = last.captures(winner);
                    let single = Colour::ALL
                        .into_iter()
                        .find(|&c| held.get(c) >= rules.single.get(c));
                    match single {
                        Some(c) => format!(
                            "{who} wins with {} {} marbles.",
                            number_word(u32::from(held.get(c))),
                            c.name()
                        ),
                        None => format!(
                            "{who} wins with {} marbles of each colour.",
                            number_word(u32::from(rules.each))
                        ),
                    }
                }
                WinReason::NoLegalMove => format!("{who} wins: {loser} has no legal move."),
                WinReason::Resignation => format!("{who} wins: {loser} resigned."),
                WinReason::Time => format!("{who} wins on time: {loser} ran out of time."),
                WinReason::Forfeit => format!("{who} wins: {loser} left the game."),
            }
        }
        Outcome::Draw(DrawReason::Repetition) => {
            "Draw: the same position came up a third time.".into()
        }
        Outcome::Draw(DrawReason::Agreement) => "Draw by agreement.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::official;

    #[test]
    fn marbles_are_counted_in_words() {
        assert_eq!(marbles_words([1, 0, 0]), "a white marble");
        assert_eq!(marbles_words([0, 0, 2]), "2 black marbles");
        assert_eq!(marbles_words([1, 1, 0]), "1 white and 1 grey marble");
        assert_eq!(
            marbles_words([1, 2, 3]),
            "1 white, 2 grey and 3 black marbles"
        );
        assert_eq!(marbles_words([0, 0, 0]), "no marble");
        assert_eq!(number_word(4), "four");
        assert_eq!(number_word(20), "20");
    }

    #[test]
    fn a_placement_says_what_it_did() {
        let start = Position::standard();
        let mv = official::parse(&start, "Wd4,a1").unwrap();
        assert_eq!(
            turn(&start, &mv, "Ann"),
            "Ann places a white marble on d4 and removes ring a1."
        );
    }

    /// Along a game played by a fixed choice of moves: captures (single and chains) and
    /// isolations say what they took.
    #[test]
    fn captures_and_isolations_say_what_they_took() {
        let mut p = Position::standard();
        let (mut captures, mut isolations) = (0, 0);
        for turn_no in 0..400 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            for m in moves.iter() {
                let text = turn(&p, m, "Ann");
                if m.is_capture() {
                    assert!(text.starts_with("Ann captures "), "{text}");
                    captures += 1;
                }
                if text.contains("isolates") {
                    assert!(text.contains("and takes "), "{text}");
                    isolations += 1;
                }
            }
            p = p.play(&moves[(turn_no * 7919) % moves.len()]).unwrap();
        }
        assert!(captures > 0 && isolations > 0, "{captures} {isolations}");
    }

    #[test]
    fn endings_are_sentences() {
        let start = Position::standard();
        let names = ["Ann", "Bob"];
        let resigned = Outcome::Win {
            winner: Player::Two,
            reason: WinReason::Resignation,
        };
        assert_eq!(outcome(&resigned, names, &start), "Bob wins: Ann resigned.");
        assert_eq!(
            outcome(&Outcome::Draw(DrawReason::Agreement), names, &start),
            "Draw by agreement."
        );
        let set = Outcome::Win {
            winner: Player::One,
            reason: WinReason::WinningSet,
        };
        // (No winning set in this position: the sentence falls back to "each colour".)
        assert_eq!(
            outcome(&set, names, &start),
            "Ann wins with three marbles of each colour."
        );
    }
}
