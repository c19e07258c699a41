//! Official GIPF notation (rules.md section 6).
//!
//! - placement: `Wd4,d1`, or `Wd4` when no ring is free;
//! - capture: `x d1Gd3Wd5` — the start, then for each jump the colour taken and the landing;
//! - isolation after a placement: `Bd7,b2 x Wa1Wa2`;
//! - a pass after an accepted bribe: `-` (see [`crate::Game`]).
//!
//! On input, spaces are allowed between the parts, and the colours inside a capture may be left
//! out (`x d1d3d5`); when given they must match the marbles jumped.

use super::{Cursor, MoveParseError};
use crate::bits::{Bits, PlaceSet};
use crate::layout::{Layout, LayoutWidth, Place};
use crate::marbles::Colour;
use crate::moves::{Capture, Move};
use crate::position::Position;

/// The official notation of a legal move in `position`, with its isolation suffix.
pub fn move_text<S: LayoutWidth>(position: &Position<S>, mv: &Move) -> String {
    let mut s = String::new();
    write_move_text(&mut s, position, mv);
    s
}

/// A line of moves from `position` (an engine's principal variation, say) in official
/// notation, one text per move, as far as the moves are legal one after another: a line read
/// from a search table may end in a move its last position no longer allows, and stops there.
pub fn line_text<S: LayoutWidth>(position: &Position<S>, moves: &[Move]) -> Vec<String> {
    let mut p = position.clone();
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        if p.check(mv).is_err() {
            break;
        }
        out.push(move_text(&p, mv));
        p.play_unchecked(mv);
    }
    out
}

/// [`move_text`] appended to `out` (a record of many moves is written into one buffer).
pub fn write_move_text<S: LayoutWidth>(out: &mut String, position: &Position<S>, mv: &Move) {
    let mut after = position.clone();
    after.play_unchecked(mv);
    write_played_move_text(out, position, &after, mv);
}

/// [`write_move_text`] of the move `mv` that led from `before` to `after` (consecutive
/// positions of a game): the marbles taken by isolation are read from the two positions rather
/// than by playing the move again (a record writes every move of its game).
pub(crate) fn write_played_move_text<S: LayoutWidth>(
    out: &mut String,
    before: &Position<S>,
    after: &Position<S>,
    mv: &Move,
) {
    match mv {
        Move::Capture(c) => write_capture_text(out, before, c),
        Move::Place(p) => {
            let layout = before.layout();
            out.push(p.colour.letter());
            layout.coord(p.at).push_to(out);
            if let Some(r) = p.remove {
                out.push(',');
                layout.coord(r).push_to(out);
            }
            // On the board before, with the marble placed, and gone after: isolated.
            let isolated = Colour::ALL.map(|c| {
                let mut had = before.marbles(c);
                if c == p.colour {
                    had |= S::bit(p.at.index() as u8);
                }
                had & !after.marbles(c)
            });
            write_isolation_suffix(out, layout, &isolated);
        }
    }
}

/// ` x Wa1Wa2` for the marbles taken by isolation (empty when none), in place order.
pub fn isolation_suffix<S: PlaceSet>(layout: &Layout, isolated: &[S; 3]) -> String {
    let mut s = String::new();
    write_isolation_suffix(&mut s, layout, isolated);
    s
}

fn write_isolation_suffix<S: PlaceSet>(out: &mut String, layout: &Layout, isolated: &[S; 3]) {
    let all = isolated[0] | isolated[1] | isolated[2];
    if all.none() {
        return;
    }
    out.push_str(" x ");
    for i in Bits(all) {
        let colour = Colour::ALL
            .into_iter()
            .find(|c| isolated[c.index()].has(i))
            .unwrap_or(Colour::White);
        out.push(colour.letter());
        layout.coord(Place(i)).push_to(out);
    }
}

/// The official notation of a capture chain in `position`: `x d1Gd3Wd5`.
pub fn capture_text<S: LayoutWidth>(position: &Position<S>, c: &Capture) -> String {
    let mut s = String::new();
    write_capture_text(&mut s, position, c);
    s
}

fn write_capture_text<S: LayoutWidth>(out: &mut String, position: &Position<S>, c: &Capture) {
    let layout = position.layout();
    out.push_str("x ");
    layout.coord(c.from()).push_to(out);
    for (over, to) in c.steps(layout).unwrap_or_default() {
        let colour = position.colour_at(over).map(|c| c.letter()).unwrap_or('?');
        out.push(colour);
        layout.coord(to).push_to(out);
    }
}

/// A turn of a game in official notation: the move as [`move_text`] writes it, or `-` for a pass
/// bought with a bribe. `position` is the position the turn was played in.
pub fn turn_text<S: LayoutWidth>(position: &Position<S>, turn: &crate::game::Turn) -> String {
    match turn {
        crate::game::Turn::Move(mv) => move_text(position, mv),
        crate::game::Turn::Pass { .. } => "-".to_string(),
    }
}

/// Parses a move in official notation and checks that it is legal in `position`.
pub fn parse<S: LayoutWidth>(position: &Position<S>, text: &str) -> Result<Move, MoveParseError> {
    let (mv, written) = parse_parts(position, text)?;
    position
        .check(&mv)
        .map_err(|reason| MoveParseError::Illegal {
            text: text.to_string(),
            reason,
        })?;
    if let Some(written) = written {
        verify_written_isolation(position, text, &mv, written)?;
    }
    Ok(mv)
}

fn place_of(
    layout: &Layout,
    cur: &Cursor,
    coord: (String, usize),
) -> Result<Place, MoveParseError> {
    layout
        .parse_place(&coord.0)
        .map_err(|e| cur.error(coord.1, coord.0.clone(), e.to_string()))
}

/// Written colours of a capture, checked against the marbles actually jumped.
fn check_capture_colours<S: LayoutWidth>(
    position: &Position<S>,
    text: &str,
    capture: &Capture,
    colours: &[Option<Colour>],
) -> Result<(), MoveParseError> {
    let layout = position.layout();
    let Some(steps) = capture.steps(layout) else {
        return Ok(());
    };
    // Colours mid-chain: the board does not change colour under the jumper, so the colour
    // on each jumped place is the one in the position before the move.
    for (i, ((over, _), written)) in steps.iter().zip(colours).enumerate() {
        if let (Some(written), Some(actual)) = (written, position.colour_at(*over))
            && *written != actual
        {
            return Err(MoveParseError::Mismatch {
                text: text.to_string(),
                message: format!(
                    "jump {} takes the {} marble at {}, not a {} one",
                    i + 1,
                    actual,
                    layout.coord(*over),
                    written
                ),
            });
        }
    }
    Ok(())
}

/// Parses the shape of a move without checking legality (places must exist on the board).
pub fn parse_unchecked<S: LayoutWidth>(
    position: &Position<S>,
    text: &str,
) -> Result<Move, MoveParseError> {
    parse_parts(position, text).map(|(mv, _)| mv)
}

/// A written isolation suffix: the marbles it lists.
type Written = Vec<(Colour, Place)>;

fn parse_parts<S: LayoutWidth>(
    position: &Position<S>,
    text: &str,
) -> Result<(Move, Option<Written>), MoveParseError> {
    let layout = position.layout();
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    let start = cur.offset();
    match cur.peek() {
        None => Err(cur.error(start, String::new(), "empty move")),
        Some('x') | Some('X') => {
            cur.bump();
            cur.skip_spaces();
            let from_text = cur.coordinate(false).ok_or_else(|| {
                cur.error(
                    cur.offset(),
                    cur.rest_token(),
                    "expected the starting ring of the capture, such as d1",
                )
            })?;
            let from = place_of(layout, &cur, from_text)?;
            let mut landings = Vec::new();
            let mut colours = Vec::new();
            loop {
                cur.skip_spaces();
                if cur.done() {
                    break;
                }
                let here = cur.offset();
                let colour = cur.peek_colour();
                if colour.is_some() {
                    cur.bump();
                } else if cur.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                    return Err(cur.error(here, cur.rest_token(), "expected a colour W, G or B"));
                }
                let coord = cur.coordinate(false).ok_or_else(|| {
                    cur.error(
                        cur.offset(),
                        cur.rest_token(),
                        "expected a landing ring such as d3",
                    )
                })?;
                landings.push(place_of(layout, &cur, coord)?);
                colours.push(colour);
            }
            if landings.is_empty() {
                return Err(cur.error(
                    cur.offset(),
                    String::new(),
                    "a capture needs at least one landing ring",
                ));
            }
            let mut at = from;
            for (i, &to) in landings.iter().enumerate() {
                if Capture::from_landings(layout, at, &[to]).is_none() {
                    return Err(MoveParseError::Syntax {
                        text: text.to_string(),
                        token: layout.coord(to).to_string(),
                        offset: start,
                        message: format!(
                            "jump {} from {} to {} is not a jump over one neighbouring ring",
                            i + 1,
                            layout.coord(at),
                            layout.coord(to)
                        ),
                    });
                }
                at = to;
            }
            let capture = Capture::from_landings(layout, from, &landings)
                .ok_or_else(|| cur.error(start, text.to_string(), "the chain is too long"))?;
            check_capture_colours(position, text, &capture, &colours)?;
            Ok((Move::Capture(capture), None))
        }
        Some(_) => {
            let Some(colour) = cur.peek_colour() else {
                return Err(cur.error(
                    start,
                    cur.rest_token(),
                    "expected a colour W, G or B followed by a ring (Wd4,d1), or x for a capture (x d1Gd3)",
                ));
            };
            cur.bump();
            cur.skip_spaces();
            let at_text = cur.coordinate(false).ok_or_else(|| {
                cur.error(
                    cur.offset(),
                    cur.rest_token(),
                    "expected the ring to place on, such as d4 (lower case)",
                )
            })?;
            let at = place_of(layout, &cur, at_text)?;
            cur.skip_spaces();
            let mut remove = None;
            let mut written = None;
            // The removed ring after a comma, as the notation writes it, or after a dash or a
            // space, as people often type it (`Wd4-a1`, `W d4 a1`).
            let separated = matches!(cur.peek(), Some(',') | Some('-'));
            if separated || cur.coordinate_follows(cur.at) {
                if separated {
                    cur.bump();
                }
                cur.skip_spaces();
                let r = cur.coordinate(false).ok_or_else(|| {
                    cur.error(
                        cur.offset(),
                        cur.rest_token(),
                        "expected the ring to remove after the comma",
                    )
                })?;
                remove = Some(place_of(layout, &cur, r)?);
                cur.skip_spaces();
            }
            if !cur.done() {
                // Only an isolation suffix may follow: x Wa1Wa2.
                let here = cur.offset();
                if !matches!(cur.peek(), Some('x') | Some('X')) {
                    return Err(cur.error(
                        here,
                        cur.rest_token(),
                        "unexpected text after the placement",
                    ));
                }
                cur.bump();
                cur.skip_spaces();
                let mut marbles = Vec::new();
                while !cur.done() {
                    let here = cur.offset();
                    let colour = cur.peek_colour().ok_or_else(|| {
                        cur.error(
                            here,
                            cur.rest_token(),
                            "expected an isolated marble such as Wa1",
                        )
                    })?;
                    cur.bump();
                    let coord = cur.coordinate(false).ok_or_else(|| {
                        cur.error(
                            cur.offset(),
                            cur.rest_token(),
                            "expected the ring of the isolated marble",
                        )
                    })?;
                    marbles.push((colour, place_of(layout, &cur, coord)?));
                    cur.skip_spaces();
                }
                if marbles.is_empty() {
                    return Err(cur.error(
                        here,
                        "x".into(),
                        "an isolation suffix lists the marbles taken, such as x Wa1",
                    ));
                }
                written = Some(marbles);
            }
            Ok((Move::place(colour, at, remove), written))
        }
    }
}

/// A written isolation suffix must list exactly the marbles the move takes, in any order.
fn verify_written_isolation<S: LayoutWidth>(
    position: &Position<S>,
    text: &str,
    mv: &Move,
    mut written: Written,
) -> Result<(), MoveParseError> {
    let mut after = position.clone();
    let played = after.play_unchecked(mv);
    // The colours come from what the move took, not from the position before it: the marble
    // just placed can be among the isolated ones, and its ring was empty before the move.
    let mut actual: Written = Bits(played.isolated_places())
        .map(|i| {
            let place = Place(i);
            let colour = Colour::ALL
                .into_iter()
                .find(|c| played.isolated[c.index()].has(place.0))
                .unwrap_or(Colour::White);
            (colour, place)
        })
        .collect();
    written.sort();
    actual.sort();
    if written != actual {
        let layout = position.layout();
        let list = |w: &Written| {
            w.iter()
                .map(|(c, p)| format!("{}{}", c.letter(), layout.coord(*p)))
                .collect::<String>()
        };
        let said = if actual.is_empty() {
            "takes nothing by isolation".to_string()
        } else {
            format!("isolates {}", list(&actual))
        };
        return Err(MoveParseError::Mismatch {
            text: text.to_string(),
            message: format!(
                "the move {said}, but the notation says x {}",
                list(&written)
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text written from two consecutive positions names the marbles the rules report as
    /// isolated when the move is played, over random games (isolations and captures come up
    /// by the hundred).
    #[test]
    fn played_move_text_names_the_isolated_marbles() {
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut isolations = 0;
        for layout in [
            crate::layout::Layout::standard(),
            crate::layout::Layout::official(crate::layout::BoardKind::Rings61),
        ] {
            for _ in 0..150 {
                let mut p = Position::new(layout, crate::rules::RuleSet::STANDARD);
                while !p.is_over() {
                    let moves = p.legal_moves();
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let mv = moves[(state % moves.len() as u64) as usize];
                    let mut after = p.clone();
                    let taken = after.play_unchecked(&mv);
                    let mut played = String::new();
                    write_played_move_text(&mut played, &p, &after, &mv);
                    // What the rules report as isolated, written independently.
                    let expected = match mv {
                        Move::Capture(c) => capture_text(&p, &c),
                        Move::Place(pl) => format!(
                            "{}{}{}{}",
                            pl.colour.letter(),
                            layout.coord(pl.at),
                            pl.remove
                                .map(|r| format!(",{}", layout.coord(r)))
                                .unwrap_or_default(),
                            isolation_suffix(layout, &taken.isolated)
                        ),
                    };
                    assert_eq!(played, expected);
                    isolations +=
                        usize::from(matches!(mv, Move::Place(_)) && played.contains(" x "));
                    p = after;
                }
            }
        }
        assert!(isolations > 20, "{isolations} isolations");
    }

    #[test]
    fn a_line_is_written_as_far_as_it_is_legal() {
        let p = Position::standard();
        let first = parse(&p, "Wd4,a1").unwrap();
        let mut after = p.clone();
        after.play_unchecked(&first);
        let second = parse(&after, "Bd5,g4").unwrap();
        assert_eq!(line_text(&p, &[first, second]), ["Wd4,a1", "Bd5,g4"]);
        // The same placement twice: d4 is taken, the line stops before it.
        assert_eq!(line_text(&p, &[first, first, second]), ["Wd4,a1"]);
        assert!(line_text(&p, &[]).is_empty());
    }

    #[test]
    fn placement_round_trip() {
        let p = Position::standard();
        for mv in p.legal_moves().iter().step_by(37) {
            let text = move_text(&p, mv);
            assert_eq!(parse(&p, &text).as_ref(), Ok(mv), "{text}");
        }
        assert_eq!(move_text(&p, &parse(&p, "Wd4,a1").unwrap()), "Wd4,a1");
        assert_eq!(move_text(&p, &parse(&p, " W d4 , a1 ").unwrap()), "Wd4,a1");
    }

    #[test]
    fn errors_name_the_token() {
        let p = Position::standard();
        let e = parse(&p, "Qd4,a1").unwrap_err().to_string();
        assert!(e.contains("character 1") && e.contains("Qd4,a1"), "{e}");
        let e = parse(&p, "Wz9,a1").unwrap_err().to_string();
        assert!(e.contains("z9"), "{e}");
        let e = parse(&p, "Wd4,d5").unwrap_err().to_string();
        assert!(e.contains("ring d5 is not free"), "{e}");
        let e = parse(&p, "Wd4").unwrap_err().to_string();
        assert!(e.contains("a free ring must be removed"), "{e}");
        let e = parse(&p, "Wd4,a1 junk").unwrap_err().to_string();
        assert!(e.contains("junk"), "{e}");
        assert!(parse(&p, "").is_err());
        assert!(parse(&p, "x").is_err());
        assert!(parse(&p, "x d4").is_err());
    }
}

#[cfg(test)]
mod typed_loosely {
    use super::*;

    /// Moves as people type them: the colour in lower case, the removed ring after a dash or a
    /// space. Only where it reads one way: a lower-case colour needs a ring right after it.
    #[test]
    fn any_case_and_separator_where_it_reads_one_way() {
        let start = Position::standard();
        let want = parse(&start, "Wd4,a1").unwrap();
        for text in [
            "wd4,a1",
            "Wd4-a1",
            "W d4 a1",
            "w d4 a1",
            "wd4 a1",
            " Wd4 , a1 ",
        ] {
            assert_eq!(parse(&start, text), Ok(want), "{text}");
        }
        // `b2,a4` is no colour: b2 is a ring.
        let e = parse(&start, "b2,a4").unwrap_err();
        assert!(matches!(e, MoveParseError::Syntax { .. }), "{e}");
        // A capture's colours in lower case, where a ring follows each: along a game played
        // by a fixed choice of moves until captures come.
        let mut p = start;
        let mut captures = 0;
        for turn in 0..200 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            for m in moves.iter().filter(|m| m.is_capture()) {
                let text = move_text(&p, m);
                assert_eq!(parse(&p, &text.to_lowercase()), Ok(*m), "{text}");
                captures += 1;
            }
            p = p.play(&moves[(turn * 7919) % moves.len()]).unwrap();
        }
        assert!(captures > 0, "no capture was met");
    }
}
