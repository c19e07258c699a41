//! The check of a try: the learner's earlier right moves are replayed (each with the scripted
//! reply after it), then the new move is read in any notation the server knows, played with the
//! rules library, and held against the step's goals. The answer says whether the step (and the
//! lesson) is done and why, in words; an illegal move gets the rules' reason.

use serde::Serialize;
use zertz::notation::{self, MoveParseError, official};
use zertz::{Move, Outcome, Position, sentences};

use crate::lessons::{Goal, Lesson, Step};

/// What a try was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The move does the step's task.
    Right,
    /// A legal move that does not do the task.
    Wrong,
    /// A move the rules refuse here.
    Illegal,
}

/// The answer to a try.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// Right, wrong or illegal.
    pub result: Verdict,
    /// True when this try finished the lesson.
    pub done: bool,
    /// Why, in words.
    pub why: String,
    /// The move in official notation (legal tries).
    pub r#move: Option<String>,
    /// The move in words (legal tries).
    pub said: Option<String>,
    /// The position after the try (legal tries).
    pub position: Option<String>,
    /// The opponent's scripted answer, when the lesson goes on after a right move.
    pub reply: Option<String>,
    /// The opponent's answer in words.
    pub reply_said: Option<String>,
    /// Where the learner goes on: the position of the step to do next (after the reply), or
    /// the step's own position again after a wrong or illegal try.
    pub next_position: String,
    /// The step to do next (equal to the number of steps once the lesson is done).
    pub step: usize,
}

/// A try that cannot be checked: the request itself is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TryError {
    /// An earlier move of `moves` is not the right move of its step.
    #[error("moves[{index}]: {message}")]
    BadLine {
        /// Which of the earlier moves.
        index: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Every step is done already.
    #[error("lesson {lesson} has {steps} step(s), and `moves` already does them all")]
    Finished {
        /// The lesson.
        lesson: String,
        /// How many steps it has.
        steps: usize,
    },
    /// The move's text is not a move in any notation.
    #[error("move: {0}")]
    NotAMove(String),
    /// The lesson's own data is broken (a bug, caught by the tests).
    #[error("{0}")]
    Broken(String),
}

/// The position where step `moves.len()` starts, after replaying `moves` (each the right move
/// of its step, followed by its reply).
pub fn replay(lesson: &Lesson, moves: &[String]) -> Result<Position, TryError> {
    let mut position = lesson.start().map_err(TryError::Broken)?;
    if moves.len() >= lesson.steps.len() {
        return Err(TryError::Finished {
            lesson: lesson.id.to_string(),
            steps: lesson.steps.len(),
        });
    }
    for (index, (text, step)) in moves.iter().zip(lesson.steps).enumerate() {
        let bad = |message: String| TryError::BadLine { index, message };
        let mv = notation::parse_any(&position, text.trim()).map_err(|e| bad(e.to_string()))?;
        let (after, _) = play(&position, &mv);
        if let Err(why) = goals_hold(step, &position, &mv, &after) {
            return Err(bad(format!(
                "`{text}` does not do step {}: {why}",
                index + 1
            )));
        }
        position = after;
        if let Some(reply) = step.reply {
            position = play_text(&position, reply).map_err(TryError::Broken)?;
        }
    }
    Ok(position)
}

/// Whether `moves`, one right move for each step, do the whole lesson: what a browser shows
/// for a lesson done as a guest, before the account it logs into counts it (issue 39, F15: a
/// bare list of ids counted before). The error says what is missing, in words.
pub fn completed(lesson: &Lesson, moves: &[String]) -> Result<(), String> {
    let steps = lesson.steps.len();
    let Some((last, before)) = moves.split_last() else {
        return Err("no moves: a lesson counts with the moves that did it".into());
    };
    if moves.len() != steps {
        return Err(format!(
            "{} move(s) for a lesson of {steps} step(s)",
            moves.len()
        ));
    }
    let answer = try_move(lesson, before, last).map_err(|e| e.to_string())?;
    if answer.done {
        Ok(())
    } else {
        Err(format!(
            "moves[{}]: `{last}` does not do the last step",
            steps - 1
        ))
    }
}

/// Checks the move `text` for the step after `moves`.
pub fn try_move(lesson: &Lesson, moves: &[String], text: &str) -> Result<Answer, TryError> {
    let before = replay(lesson, moves)?;
    let index = moves.len();
    let step = &lesson.steps[index];
    let text = text.trim();
    if text.is_empty() {
        return Err(TryError::NotAMove(
            "empty: give a move such as Wd4,a1 or x d5Wd3".into(),
        ));
    }
    let mv = match notation::parse_any(&before, text) {
        Ok(mv) => mv,
        Err(e @ MoveParseError::Syntax { .. }) => return Err(TryError::NotAMove(e.to_string())),
        Err(e) => {
            let reason = match e {
                MoveParseError::Illegal { reason, .. } => reason.to_string(),
                other => other.to_string(),
            };
            return Ok(Answer {
                result: Verdict::Illegal,
                done: false,
                why: format!("That move is not allowed: {reason}. {}", step.hints[0]),
                r#move: None,
                said: None,
                position: None,
                reply: None,
                reply_said: None,
                next_position: before.to_string(),
                step: index,
            });
        }
    };
    let (after, said) = play(&before, &mv);
    let official_text = official::move_text(&before, &mv);
    match goals_hold(step, &before, &mv, &after) {
        Ok(()) => {
            let last = index + 1 == lesson.steps.len();
            let (mut next, mut reply, mut reply_said) = (after.clone(), None, None);
            if let Some(r) = step.reply.filter(|_| !last) {
                let reply_move = notation::parse_any(&after, r).map_err(|e| {
                    TryError::Broken(format!("lesson {}: reply {r}: {e}", lesson.id))
                })?;
                let (then, words) = play_reply(&after, &reply_move);
                next = then;
                reply = Some(official::move_text(&after, &reply_move));
                reply_said = Some(words);
            }
            Ok(Answer {
                result: Verdict::Right,
                done: last,
                why: step.right.to_string(),
                r#move: Some(official_text),
                said: Some(said),
                position: Some(after.to_string()),
                reply,
                reply_said,
                next_position: next.to_string(),
                step: index + 1,
            })
        }
        Err(failure) => Ok(Answer {
            result: Verdict::Wrong,
            done: false,
            why: format!("{said} {failure} {}", step.wrong),
            r#move: Some(official_text),
            said: Some(said),
            position: Some(after.to_string()),
            reply: None,
            reply_said: None,
            next_position: before.to_string(),
            step: index,
        }),
    }
}

/// Plays a legal move: the position after it and the move in words.
fn play(before: &Position, mv: &Move) -> (Position, String) {
    let said = sentences::turn(before, mv, "You");
    let mut after = before.clone();
    after.play_unchecked(mv);
    (after, second_person(&said))
}

/// A sentence of the library (which speaks of a third person) said to the player: "You places
/// a white marble on d4 and removes ring a1" reads "You place … and remove …". Only the verbs
/// of "You" change: "it isolates … and takes …" stays.
fn second_person(said: &str) -> String {
    if said.starts_with("You places ") {
        said.replacen("You places ", "You place ", 1).replacen(
            " and removes ring ",
            " and remove ring ",
            1,
        )
    } else {
        said.replacen("You captures ", "You capture ", 1)
    }
}

/// Plays the opponent's move: the position after it and the move in words.
fn play_reply(before: &Position, mv: &Move) -> (Position, String) {
    let said = sentences::turn(before, mv, "Your opponent");
    let mut after = before.clone();
    after.play_unchecked(mv);
    (after, said)
}

/// Plays a move given in notation (the lessons' scripted replies).
fn play_text(before: &Position, text: &str) -> Result<Position, String> {
    let mv = notation::parse_any(before, text).map_err(|e| e.to_string())?;
    Ok(play(before, &mv).0)
}

/// The number of marbles a placement took by isolation.
fn isolated(before: &Position, mv: &Move) -> u32 {
    if mv.is_capture() {
        return 0;
    }
    let mut after = before.clone();
    after.play_unchecked(mv).isolated_places().count_ones()
}

fn count_word(n: u32) -> String {
    let word = sentences::number_word(n);
    if n == 1 {
        format!("{word} marble")
    } else {
        format!("{word} marbles")
    }
}

/// Ok when every goal of `step` holds for `mv`, else the first failure in words.
pub fn goals_hold(
    step: &Step,
    before: &Position,
    mv: &Move,
    after: &Position,
) -> Result<(), String> {
    for goal in step.goals {
        goal_holds(goal, before, mv, after)?;
    }
    Ok(())
}

fn goal_holds(goal: &Goal, before: &Position, mv: &Move, after: &Position) -> Result<(), String> {
    let layout = before.layout();
    match *goal {
        Goal::Place {
            colours,
            at,
            remove,
        } => {
            let Move::Place(p) = mv else {
                return Err("That was a capture; the task asks for a placement.".into());
            };
            let letter = p.colour.letter();
            if !colours.is_empty() && !colours.contains(letter) {
                let wanted: Vec<&str> = colours
                    .chars()
                    .filter_map(zertz::Colour::from_letter)
                    .map(|c| c.name())
                    .collect();
                return Err(format!(
                    "The task asks for a {} marble, not {}.",
                    wanted.join(" or "),
                    p.colour.name()
                ));
            }
            let on = layout.coord(p.at).to_string();
            if !at.is_empty() && !at.contains(&on.as_str()) {
                return Err(format!(
                    "The marble went on {on}; the task asks for {}.",
                    at.join(" or ")
                ));
            }
            if !remove.is_empty() {
                let removed = p.remove.map(|r| layout.coord(r).to_string());
                if !removed.as_deref().is_some_and(|r| remove.contains(&r)) {
                    return Err(format!(
                        "The ring removed was {}; the task asks for {}.",
                        removed.as_deref().unwrap_or("none"),
                        remove.join(" or ")
                    ));
                }
            }
            Ok(())
        }
        Goal::Capture(n) => match mv {
            Move::Capture(c) if c.len() >= usize::from(n) => Ok(()),
            Move::Capture(c) => Err(format!(
                "That capture took {}; the task asks for {}.",
                count_word(c.len() as u32),
                sentences::number_word(u32::from(n))
            )),
            Move::Place(_) => Err("That was a placement; the task asks for a capture.".into()),
        },
        Goal::Isolate(n) => {
            let got = isolated(before, mv);
            if got >= u32::from(n) {
                Ok(())
            } else if got == 0 {
                Err("That turn took no marble by isolation.".into())
            } else {
                Err(format!(
                    "That turn took {} by isolation; {} can be taken.",
                    count_word(got),
                    sentences::number_word(u32::from(n))
                ))
            }
        }
        Goal::Win => match after.outcome() {
            Some(Outcome::Win { winner, .. }) if winner == before.to_move() => Ok(()),
            _ => Err("The game goes on: that move does not win.".into()),
        },
        Goal::NoReply => match after.captures_available().first() {
            None => Ok(()),
            // Said in words: the notation is taught only in the lesson "Reading the notation".
            Some(c) => {
                let layout = after.layout();
                let jump = c
                    .steps(layout)
                    .unwrap_or_default()
                    .first()
                    .map(|(over, to)| {
                        format!(
                            "the marble on {} can jump over {} to {}",
                            layout.coord(c.from()),
                            layout.coord(*over),
                            layout.coord(*to)
                        )
                    });
                Err(format!(
                    "That hands your opponent a capture: {}.",
                    jump.unwrap_or_else(|| "one is open".into())
                ))
            }
        },
        Goal::Exact(text) => {
            let wanted = official::parse(before, text)
                .map_err(|e| format!("(the lesson's move {text} does not read: {e})"))?;
            if &wanted == mv {
                Ok(())
            } else {
                Err(format!(
                    "You played {}; the task is {text}.",
                    official::move_text(before, mv)
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::all;

    #[test]
    fn the_player_is_told_in_the_second_person() {
        let start = Position::standard();
        let place = start
            .legal_moves()
            .into_iter()
            .find(|m| matches!(m, Move::Place(p) if p.remove.is_some()))
            .expect("a placement that removes a ring");
        let (_, said) = play(&start, &place);
        assert!(said.starts_with("You place a "), "{said}");
        assert!(said.contains(" and remove ring "), "{said}");
        assert!(!said.contains("removes"), "{said}");
        assert_eq!(
            second_person("You captures a white marble (d4 → d6)."),
            "You capture a white marble (d4 → d6)."
        );
        assert_eq!(
            second_person(
                "You places a grey marble on a1 and removes ring b2; it isolates one ring and takes a white marble."
            ),
            "You place a grey marble on a1 and remove ring b2; it isolates one ring and takes a white marble."
        );
    }

    /// Every right move of every step, for walking a lesson through.
    fn right_moves(lesson: &Lesson) -> Vec<String> {
        let mut line = Vec::new();
        for index in 0..lesson.steps.len() {
            let position = replay(lesson, &line).expect("the line so far replays");
            let mv = position
                .legal_moves()
                .iter()
                .find(|mv| {
                    let (after, _) = play(&position, mv);
                    goals_hold(&lesson.steps[index], &position, mv, &after).is_ok()
                })
                .map(|mv| official::move_text(&position, mv))
                .unwrap_or_else(|| panic!("lesson {} step {index}: no move does it", lesson.id));
            line.push(mv);
        }
        line
    }

    /// The right moves of every lesson complete it; one short, or a wrong last one, or one of
    /// another lesson, do not.
    #[test]
    fn a_lesson_is_completed_by_its_right_moves_only() {
        for lesson in all() {
            let line = right_moves(lesson);
            assert_eq!(completed(lesson, &line), Ok(()), "{}", lesson.id);
            let short = completed(lesson, &line[..line.len() - 1]).unwrap_err();
            assert!(short.contains("move"), "{}: {short}", lesson.id);
            let mut long = line.clone();
            long.push(line[0].clone());
            assert!(completed(lesson, &long).is_err(), "{}", lesson.id);
        }
        let placing = right_moves(lesson("placing"));
        assert!(completed(lesson("isolation"), &placing).is_err());
        let wrong = completed(lesson("capture-choice"), &["x d2Bb2".to_string()]).unwrap_err();
        assert!(wrong.contains("does not do the last step"), "{wrong}");
    }

    /// Every wrong try of every step says each thing once: no sentence twice, the task named
    /// once, and notation (taught in the lesson "Reading the notation") only in the lessons
    /// from there on.
    #[test]
    fn a_wrong_try_says_each_point_once_and_in_words_taught() {
        let notation_from = all().iter().position(|l| l.id == "notation").unwrap();
        let mut tried = 0;
        for (k, lesson) in all().iter().enumerate() {
            let mut line: Vec<String> = Vec::new();
            for index in 0..lesson.steps.len() {
                let position = replay(lesson, &line).unwrap();
                let mut right = None;
                for mv in position.legal_moves().iter() {
                    let text = official::move_text(&position, mv);
                    let answer = try_move(lesson, &line, &text).unwrap();
                    if answer.result == Verdict::Right {
                        right.get_or_insert(text);
                        continue;
                    }
                    tried += 1;
                    let why = &answer.why;
                    let sentences: Vec<&str> =
                        why.split(". ").map(|s| s.trim_end_matches('.')).collect();
                    let distinct: std::collections::HashSet<&&str> = sentences.iter().collect();
                    assert_eq!(
                        distinct.len(),
                        sentences.len(),
                        "{} step {index}: {why}",
                        lesson.id
                    );
                    assert!(
                        why.matches("task ask").count() <= 1,
                        "{} step {index}: {why}",
                        lesson.id
                    );
                    assert!(
                        why.matches("winning set").count() + why.matches("does not win").count()
                            <= 1,
                        "{} step {index}: {why}",
                        lesson.id
                    );
                    if k < notation_from {
                        // A capture in notation starts "x " and a ring: "x d5Wd3".
                        let b = why.as_bytes();
                        let in_notation = b.windows(4).any(|w| {
                            w[0] == b'x'
                                && w[1] == b' '
                                && (b'a'..=b'g').contains(&w[2])
                                && w[3].is_ascii_digit()
                        });
                        assert!(!in_notation, "{} step {index}: {why}", lesson.id);
                    }
                }
                line.push(right.expect("some move does the step"));
            }
        }
        assert!(tried > 100, "{tried}");
    }

    #[test]
    fn every_position_is_legal_and_every_task_achievable() {
        let mut ids = std::collections::HashSet::new();
        for lesson in all() {
            assert!(
                ids.insert(lesson.id),
                "two lessons are called {}",
                lesson.id
            );
            assert!(!lesson.steps.is_empty(), "{} has no step", lesson.id);
            let start = lesson.start().expect("the position parses");
            assert!(
                !start.is_over(),
                "{}: the game is over at the start",
                lesson.id
            );
            assert_eq!(
                start.to_string(),
                lesson.position,
                "{}: written as the library writes it",
                lesson.id
            );
            let mut line: Vec<String> = Vec::new();
            for (index, step) in lesson.steps.iter().enumerate() {
                assert!(
                    !step.hints.is_empty(),
                    "{} step {index}: no hint",
                    lesson.id
                );
                let position = replay(lesson, &line).expect("the line replays");
                let moves = position.legal_moves();
                let (mut right, mut wrong) = (Vec::new(), Vec::new());
                for mv in moves.iter() {
                    let (after, _) = play(&position, mv);
                    match goals_hold(step, &position, mv, &after) {
                        Ok(()) => right.push(official::move_text(&position, mv)),
                        Err(why) => {
                            assert!(!why.starts_with("(the lesson"), "{}: {why}", lesson.id);
                            wrong.push(official::move_text(&position, mv));
                        }
                    }
                }
                assert!(
                    !right.is_empty(),
                    "{} step {index}: no legal move does it",
                    lesson.id
                );
                // Only where every legal move must be of one kind (a forced capture, the last
                // ring) does every move do the task.
                let all_right_is_fine = ["compulsory-capture", "last-ring"].contains(&lesson.id);
                assert!(
                    !wrong.is_empty() || all_right_is_fine,
                    "{} step {index}: every legal move does it ({right:?})",
                    lesson.id
                );
                if let Some(reply) = step.reply {
                    let (after, _) = play(
                        &position,
                        &notation::parse_any(&position, &right[0]).unwrap(),
                    );
                    assert!(
                        play_text(&after, reply).is_ok(),
                        "{}: reply {reply} is legal",
                        lesson.id
                    );
                }
                line.push(right[0].clone());
            }
        }
    }

    #[test]
    fn every_lesson_can_be_completed_through_try_move() {
        for lesson in all() {
            let line = right_moves(lesson);
            for (index, mv) in line.iter().enumerate() {
                let answer = try_move(lesson, &line[..index], mv).expect("a checkable try");
                assert_eq!(
                    answer.result,
                    Verdict::Right,
                    "{}: {}",
                    lesson.id,
                    answer.why
                );
                assert_eq!(answer.done, index + 1 == line.len());
                assert_eq!(answer.step, index + 1);
            }
            let finished = try_move(lesson, &line, "Wd4,a1");
            assert!(
                matches!(finished, Err(TryError::Finished { .. })),
                "{finished:?}"
            );
        }
    }

    fn lesson(id: &str) -> &'static Lesson {
        crate::lessons::find(id).expect("a lesson").1
    }

    #[test]
    fn a_wrong_try_says_why() {
        let answer = try_move(lesson("capture-choice"), &[], "x d2Bb2").unwrap();
        assert_eq!(answer.result, Verdict::Wrong);
        assert!(!answer.done);
        assert!(
            answer
                .why
                .contains("the marble on a1 can jump over b2 to c3"),
            "{}",
            answer.why
        );
        assert_eq!(answer.next_position, lesson("capture-choice").position);

        let answer = try_move(lesson("placing"), &[], "Wd4,a1").unwrap();
        assert_eq!(answer.result, Verdict::Wrong);
        assert!(
            answer.why.contains("grey marble, not white"),
            "{}",
            answer.why
        );

        let answer = try_move(lesson("isolation-capture"), &[], "Gd4,a2").unwrap();
        assert_eq!(answer.result, Verdict::Wrong);
        assert!(
            answer.why.contains("one marble by isolation"),
            "{}",
            answer.why
        );
    }

    #[test]
    fn an_illegal_try_gets_the_rules_reason() {
        let answer = try_move(lesson("compulsory-capture"), &[], "Wa2,a3").unwrap();
        assert_eq!(answer.result, Verdict::Illegal);
        assert!(
            answer.why.contains("a capture is compulsory"),
            "{}",
            answer.why
        );
        let answer = try_move(lesson("free-rings"), &[], "Wc3,b3").unwrap();
        assert_eq!(answer.result, Verdict::Illegal);
        assert!(answer.why.contains("ring b3 is not free"), "{}", answer.why);
    }

    #[test]
    fn host_notation_is_read() {
        let answer = try_move(lesson("host-coordinates"), &[], "B A1 G3").unwrap();
        assert_eq!(answer.result, Verdict::Right, "{}", answer.why);
        assert_eq!(answer.r#move.as_deref(), Some("Bg3,a2"));
    }

    #[test]
    fn a_multi_step_lesson_goes_on_after_the_reply() {
        let l = lesson("notation");
        let first = try_move(l, &[], "Wd4,a1").unwrap();
        assert_eq!(first.result, Verdict::Right);
        assert!(!first.done);
        assert_eq!(first.reply.as_deref(), Some("Gd5,g1"));
        let second = try_move(l, &["Wd4,a1".into()], "x d4Gd6").unwrap();
        assert_eq!(second.result, Verdict::Wrong);
        let done = try_move(l, &["Wd4,a1".into()], "x d5Wd3").unwrap();
        assert!(done.done);
        let bad = try_move(l, &["Wd4,b1".into()], "x d5Wd3");
        assert!(
            matches!(bad, Err(TryError::BadLine { index: 0, .. })),
            "{bad:?}"
        );
    }

    #[test]
    fn bad_text_is_refused_with_a_sentence() {
        for text in ["", "hello", "Zd4,a1", "x"] {
            let e = try_move(lesson("placing"), &[], text).unwrap_err();
            assert!(matches!(e, TryError::NotAMove(_)), "{text}: {e:?}");
            assert!(e.to_string().len() > 10, "{e}");
        }
    }
}
