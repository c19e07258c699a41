//! One test per rule and special case of rules.md sections 3-5 and 7.2-7.3, each on a small
//! hand-built position whose answer was worked out by hand (the reasoning is in the comments).
//!
//! Geometry used in the comments: a place is `(x, y)` with `x` the column (a = 0) and
//! `y = 2 * (row - 1) + first[x]`. On the 37 board `first` is 3 2 1 0 1 2 3 (so a1 = (0,3),
//! b1 = (1,2), c1 = (2,1), d1 = (3,0), e1 = (4,1), f1 = (5,2), g1 = (6,3)); on custom layouts it
//! is 1 2 1 2 … (a1 = (0,1), b1 = (1,2), c1 = (2,1)). Neighbours: N (0,+2), NE (+1,+1),
//! SE (+1,-1), S (0,-2), SW (-1,-1), NW (-1,+1). A ring is free when it is empty and two
//! neighbouring directions in a row hold no ring.

use zertz::notation::official;
use zertz::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("bad position string {text}: {e}"))
}

/// The legal moves in official notation, sorted.
fn texts(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| official::move_text(p, m))
        .collect();
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn mv(p: &Position, text: &str) -> Move {
    official::parse(p, text).unwrap_or_else(|e| panic!("{text} in {p}: {e}"))
}

/// The move as written, without the legality check (to look at the refusal).
fn shape(p: &Position, text: &str) -> Move {
    official::parse_unchecked(p, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn after(p: &Position, text: &str) -> Position {
    let next = p.play(&mv(p, text)).unwrap();
    next.check_invariants().unwrap();
    next
}

fn refusal(p: &Position, text: &str) -> IllegalMove {
    p.check(&shape(p, text))
        .expect_err(&format!("{text} should be refused in {p}"))
}

fn at(p: &Position, coord: &str) -> Place {
    p.layout().parse_place(coord).unwrap()
}

/// A 37-ring standard position: marbles such as `"Wd4 Gd5"`, removed rings such as `"c2 e1"`;
/// the supply is the standard one minus the marbles on the board, player one to move.
fn setup37(marbles: &str, removed: &str) -> Setup {
    let layout = Layout::standard();
    let mut s = Setup::start(layout, RuleSet::STANDARD);
    for token in marbles.split_whitespace() {
        let colour = Colour::from_letter(token.chars().next().unwrap()).unwrap();
        let place = layout.parse_place(&token[1..]).unwrap();
        s.marbles[colour.index()] |= place.bit();
        s.supply.0[colour.index()] -= 1;
    }
    for token in removed.split_whitespace() {
        s.rings &= !layout.parse_place(token).unwrap().bit();
    }
    s
}

fn p37(marbles: &str, removed: &str) -> Position {
    Position::from_setup(setup37(marbles, removed)).unwrap()
}

/// Every conceivable placement: every colour on every place, removing every place or nothing.
fn all_placements(p: &Position) -> Vec<Move> {
    let layout = p.layout();
    let mut out = Vec::new();
    for colour in Colour::ALL {
        for a in layout.places() {
            out.push(Move::place(colour, a, None));
            for r in layout.places() {
                out.push(Move::place(colour, a, Some(r)));
            }
        }
    }
    out
}

/// Every conceivable one-jump capture (every start, every direction that stays on the board).
fn all_single_jumps(p: &Position) -> Vec<Move> {
    let layout = p.layout();
    let mut out = Vec::new();
    for from in layout.places() {
        for d in Direction::ALL {
            let mut c = Capture::start(from);
            c.push(d);
            if c.steps(layout).is_some() {
                out.push(Move::Capture(c));
            }
        }
    }
    out
}

fn win(winner: Player) -> Option<Outcome> {
    Some(Outcome::Win {
        winner,
        reason: WinReason::WinningSet,
    })
}

fn no_move(winner: Player) -> Option<Outcome> {
    Some(Outcome::Win {
        winner,
        reason: WinReason::NoLegalMove,
    })
}

// ---------------------------------------------------------------------------------------------
// Section 3: captures
// ---------------------------------------------------------------------------------------------

/// A marble jumps an adjacent marble in each of the six directions.
#[test]
fn capture_in_each_of_the_six_directions() {
    // White on d4 = (3,6), grey on its neighbour in direction d. The board is otherwise empty
    // and every ring is there, so two captures exist: white over grey onto d4 + 2d, and grey
    // over white onto d4 - d (both on the board: d4 is the centre).
    //   N : d5 (3,8);  white lands d6 (3,10); grey lands d3 (3,4)
    //   NE: e4 (4,7);  white lands f4 (5,8);  grey lands c3 (2,5)
    //   SE: e3 (4,5);  white lands f2 (5,4);  grey lands c4 (2,7)
    //   S : d3 (3,4);  white lands d2 (3,2);  grey lands d5 (3,8)
    //   SW: c3 (2,5);  white lands b2 (1,4);  grey lands e4 (4,7)
    //   NW: c4 (2,7);  white lands b4 (1,8);  grey lands e3 (4,5)
    // After one jump a single marble is left, so no chain continues.
    let cases = [
        (Direction::North, "d5", "x d4Gd6", "x d5Wd3"),
        (Direction::NorthEast, "e4", "x d4Gf4", "x e4Wc3"),
        (Direction::SouthEast, "e3", "x d4Gf2", "x e3Wc4"),
        (Direction::South, "d3", "x d4Gd2", "x d3Wd5"),
        (Direction::SouthWest, "c3", "x d4Gb2", "x c3We4"),
        (Direction::NorthWest, "c4", "x d4Gb4", "x c4We3"),
    ];
    for (d, grey, white_jumps, grey_jumps) in cases {
        let p = p37(&format!("Wd4 G{grey}"), "");
        assert_eq!(texts(&p), sorted(&[white_jumps, grey_jumps]), "{d:?}");
        let Move::Capture(c) = mv(&p, white_jumps) else {
            panic!("not a capture")
        };
        assert_eq!(c.directions().collect::<Vec<_>>(), vec![d]);
        let next = after(&p, white_jumps);
        assert_eq!(next.captures(Player::One), Marbles::new(0, 1, 0));
        assert_eq!(next.occupied().count_ones(), 1);
    }
}

/// The colour of the marbles does not matter: any colour jumps any colour.
#[test]
fn any_colour_jumps_any_colour() {
    // Jumper on d4, jumped marble on d5: as in the north case above, two captures, and the
    // mover captures the jumped colour.
    for jumper in Colour::ALL {
        for jumped in Colour::ALL {
            let (j, k) = (jumper.letter(), jumped.letter());
            let p = p37(&format!("{j}d4 {k}d5"), "");
            let up = format!("x d4{k}d6");
            let down = format!("x d5{j}d3");
            assert_eq!(texts(&p), sorted(&[&up, &down]));
            let next = after(&p, &up);
            let mut expected = Marbles::NONE;
            expected.set(jumped, 1);
            assert_eq!(next.captures(Player::One), expected);
            assert_eq!(next.colour_at(at(&p, "d6")), Some(jumper));
        }
    }
}

/// A capture is compulsory: every placement is refused while one is available.
#[test]
fn capture_is_compulsory() {
    // White c3 = (2,5), grey c4 = (2,7), ring c2 removed. White over grey northwards lands on
    // c5 (empty); grey over white southwards would land on c2, which is gone. No other marble,
    // so the only move is x c3Gc5, and no further jump follows from c5.
    let p = p37("Wc3 Gc4", "c2");
    assert_eq!(texts(&p), sorted(&["x c3Gc5"]));
    // Without the capture, placements with removal would be legal (a1 is free):
    assert!(p.free_rings() & at(&p, "a1").bit() != 0);
    for m in all_placements(&p) {
        assert_eq!(
            p.check(&m),
            Err(IllegalMove::CaptureCompulsory {
                available: "x c3Gc5".into()
            })
        );
    }
    let e = official::parse(&p, "Wd4,a1").unwrap_err().to_string();
    assert_eq!(
        e,
        "`Wd4,a1` is not legal here: a capture is compulsory: x c3Gc5 is available"
    );
}

/// Each complete chain is one move; branches may differ in length; partial chains are refused;
/// no ring is removed during a capture.
#[test]
fn chain_branches_are_separate_moves() {
    // White a1 (0,3), grey b2 (1,4), grey c4 (2,7), black d3 (3,4), black d6 (3,10). The only
    // adjacent pair is a1-b2 (b2 is NE of a1); b2 over a1 would leave the board, so the only
    // first jump is a1 over b2 onto c3 (2,5). From c3 two jumps: N over c4 onto c5 (2,9), and
    // SE over d3 onto e2 (4,3).
    //   - from e2 every neighbour is empty: the chain ends (2 jumps);
    //   - from c5, NE over d6 onto e6 (4,11); from e6 nothing: the chain ends (3 jumps).
    let p = p37("Wa1 Gb2 Gc4 Bd3 Bd6", "");
    assert_eq!(
        texts(&p),
        sorted(&["x a1Gc3Be2", "x a1Gc3Gc5Be6"]),
        "the shorter branch is a move too"
    );
    // Partial chains are not moves.
    assert_eq!(
        refusal(&p, "x a1Gc3"),
        IllegalMove::ChainIncomplete("c3".into())
    );
    assert_eq!(
        refusal(&p, "x a1Gc3Gc5"),
        IllegalMove::ChainIncomplete("c5".into())
    );
    let short = after(&p, "x a1Gc3Be2");
    assert_eq!(short.captures(Player::One), Marbles::new(0, 1, 1));
    assert_eq!(short.colour_at(at(&p, "e2")), Some(Colour::White));
    let long = after(&p, "x a1Gc3Gc5Be6");
    assert_eq!(long.captures(Player::One), Marbles::new(0, 2, 1));
    assert_eq!(long.colour_at(at(&p, "e6")), Some(Colour::White));
    // Rings are never removed during a capture turn.
    assert_eq!(long.rings(), p.rings());
    assert_eq!(short.rings(), p.rings());
    assert_eq!(long.supply(), p.supply());
    assert_eq!(long.to_move(), Player::Two);
}

/// A chain may end on the ring it started from.
#[test]
fn chain_may_land_back_on_its_start() {
    // Black jumper on d2 = (3,2). The six marbles sit on the midpoints of the radius-2 ring
    // around d4: e2 (4,3) W, f3 (5,6) G, e5 (4,9) B, c5 (2,9) W, b3 (1,6) G, c2 (2,3) B; the
    // other ring-2 places f2, f4, d6, b4, b2 are empty. Midpoints are never adjacent to each
    // other. c1 and e1 are removed so that c2 and e2 cannot jump over d2 (they would land
    // there). So d2 has two first jumps (NE over e2, NW over c2), and from every landing
    // exactly one jump goes on, round the ring, back to d2:
    //   d2 -e2-> f2 -f3-> f4 -e5-> d6 -c5-> b4 -b3-> b2 -c2-> d2
    //   d2 -c2-> b2 -b3-> b4 -c5-> d6 -e5-> f4 -f3-> f2 -e2-> d2
    // Two chains with different landings are two moves, both ending on their start.
    let p = pos("37 standard ..../..G../-B..W./.B...../-W..B./..G../.... 4/6/7 0/0/0 0/0/0 1");
    assert_eq!(
        texts(&p),
        sorted(&["x d2Wf2Gf4Bd6Wb4Gb2Bd2", "x d2Bb2Gb4Wd6Bf4Gf2Wd2"])
    );
    for text in ["x d2Wf2Gf4Bd6Wb4Gb2Bd2", "x d2Bb2Gb4Wd6Bf4Gf2Wd2"] {
        let next = after(&p, text);
        assert_eq!(next.captures(Player::One), Marbles::new(2, 2, 2));
        assert_eq!(next.occupied(), at(&p, "d2").bit());
        assert_eq!(next.colour_at(at(&p, "d2")), Some(Colour::Black));
        let Move::Capture(c) = mv(&p, text) else {
            panic!()
        };
        assert_eq!(c.end(p.layout()), Some(c.from()));
        assert_eq!(c.len(), 6);
    }
}

// ---------------------------------------------------------------------------------------------
// Section 3: placements
// ---------------------------------------------------------------------------------------------

/// The band layout a1-5, b1-4, c1-5: columns a and c full of marbles, b2 white, b1 b3 b4 empty.
/// The middle rings b1..b4 are not free: b2 and b3 have all six neighbours; b1 lacks only its
/// south neighbour, b4 only its north one. Every marble of a and c is on an edge ring but holds a
/// marble, so no ring is free. No capture: a jump must land on b1, b3 or b4, and for each of them
/// the two places in some direction would both have to hold marbles: from the sides the second
/// place is off the board; along column b the neighbour of b1 and b3 towards b2 is followed by
/// an empty ring, and b4 has no ring to the north.
const BAND: &str = "custom standard GBGBG/.W../BGBGB";

/// No ring is free after the placement: the move removes nothing, and a removal is refused.
#[test]
fn placement_without_free_ring_removes_nothing() {
    let p = pos(&format!("{BAND} 1/1/1 0/0/0 0/0/0 1"));
    assert_eq!(p.free_rings(), 0);
    assert_eq!(
        texts(&p),
        sorted(&[
            "Wb1", "Wb3", "Wb4", "Gb1", "Gb3", "Gb4", "Bb1", "Bb3", "Bb4"
        ])
    );
    let next = after(&p, "Wb1");
    assert_eq!(next.rings(), p.rings());
    assert_eq!(next.supply(), Marbles::new(0, 1, 1));
    assert_eq!(
        refusal(&p, "Wb1,b3"),
        IllegalMove::NotFree("b3".into()),
        "b3 is empty but cannot slide out"
    );
    assert_eq!(
        refusal(&p, "Wb1,a1"),
        IllegalMove::NotFree("a1".into()),
        "a1 is at the edge but holds a marble"
    );
}

/// The flower layout a2-3, b1-3, c2-3 (b2 and its six neighbours), with b2 and a2 empty.
/// a2 is the only free ring (b2 has all six neighbours). No capture: outer marbles are adjacent
/// only along the rim, and every rim line leaves the layout after two places; a jump over the
/// empty centre is impossible.
const FLOWER: &str = "custom standard _.W/G.B/_WG";

/// Placing on the last free ring leaves nothing to remove; placing elsewhere must remove it.
#[test]
fn placing_on_the_only_free_ring_removes_nothing() {
    let p = pos(&format!("{FLOWER} 1/1/1 0/0/0 0/0/0 1"));
    assert_eq!(p.free_rings(), at(&p, "a2").bit());
    // On a2: no free ring is left, nothing removed; b2 stays empty, no isolation.
    // On b2: a2 must go; then the six remaining rings are all full and form one group, so the
    // mover takes them all (listed in place order a3 b1 b2 b3 c2 c3).
    assert_eq!(
        texts(&p),
        sorted(&[
            "Wa2",
            "Ga2",
            "Ba2",
            "Wb2,a2 x Wa3Gb1Wb2Bb3Wc2Gc3",
            "Gb2,a2 x Wa3Gb1Gb2Bb3Wc2Gc3",
            "Bb2,a2 x Wa3Gb1Bb2Bb3Wc2Gc3",
        ])
    );
    assert_eq!(
        refusal(&p, "Wb2"),
        IllegalMove::MustRemove {
            example: "a2".into()
        }
    );
    let next = after(&p, "Wa2");
    assert_eq!(next.rings(), p.rings());
    // The notation with its isolation suffix reads back, the placed marble included.
    let m = Move::place(Colour::Black, at(&p, "b2"), Some(at(&p, "a2")));
    assert_eq!(official::parse(&p, "Bb2,a2 x Wa3Gb1Bb2Bb3Wc2Gc3"), Ok(m));
    assert!(official::parse(&p, "Bb2,a2 x Wa3Gb1Wb2Bb3Wc2Gc3").is_err());
}

/// The removed ring must be free.
#[test]
fn removed_ring_must_be_free() {
    let start = Position::standard();
    // d4 is the centre: all six neighbours there.
    assert_eq!(refusal(&start, "Wa1,d4"), IllegalMove::NotFree("d4".into()));
    // a1 is a corner but holds a marble.
    let p = p37("Wa1", "");
    assert_eq!(refusal(&p, "Wd4,a1"), IllegalMove::NotFree("a1".into()));
    assert_eq!(refusal(&p, "Wd4,a1").to_string(), "ring a1 is not free");
    // A ring already gone cannot be removed again.
    let p = p37("", "a1");
    assert_eq!(refusal(&p, "Wd4,a1"), IllegalMove::NoRing("a1".into()));
    // Nor the ring just played on.
    assert_eq!(
        refusal(&start, "Wa1,a1"),
        IllegalMove::RemovesPlacedRing("a1".into())
    );
    // And when a ring is free, one must be removed (a1 is the first free ring).
    assert_eq!(
        refusal(&start, "Wd4"),
        IllegalMove::MustRemove {
            example: "a1".into()
        }
    );
}

/// A placement on an occupied ring, or where there is no ring, is refused.
#[test]
fn placement_on_occupied_or_missing_ring_is_refused() {
    let p = p37("Wd4", "b2");
    assert_eq!(refusal(&p, "Gd4,a1"), IllegalMove::Occupied("d4".into()));
    assert_eq!(refusal(&p, "Gb2,a1"), IllegalMove::NoRing("b2".into()));
    // No legal placement targets either place.
    for m in p.legal_moves() {
        let Move::Place(pl) = m else { panic!() };
        assert_ne!(pl.at, at(&p, "d4"));
        assert_ne!(pl.at, at(&p, "b2"));
    }
}

// ---------------------------------------------------------------------------------------------
// Section 4: isolation
// ---------------------------------------------------------------------------------------------

/// Rings b2, c1 and c2 are gone; a1 (white) and b1 (grey) form a group joined to the rest only
/// through a2 (a1's neighbours are a2, b2, b1; b1's are a1, b2, c2, c1). a2 = (0,5) is free: its
/// SW and NW places are off the board. a1 and b1 cannot jump each other (c1 is gone, and the
/// other way leaves the board).
const LINKED: &str = "37 standard W.../G-.../--..../......./....../...../.... 5/7/10";

/// Removing the last link of a full group isolates it: the mover captures it, its rings go.
#[test]
fn isolation_by_removal_captures_the_full_group() {
    let p = pos(&format!("{LINKED} 0/0/0 0/0/0 1"));
    assert!(!p.is_split());
    let m = mv(&p, "Bd4,a2");
    assert_eq!(official::move_text(&p, &m), "Bd4,a2 x Wa1Gb1");
    let next = p.play(&m).unwrap();
    next.check_invariants().unwrap();
    assert_eq!(
        next.to_string(),
        "37 standard --../--.../--..../...B.../....../...../.... 5/7/9 1/1/0 0/0/0 2"
    );
    assert!(!next.is_split());
    // The notation with the isolation written is accepted; a wrong suffix is not.
    assert_eq!(official::parse(&p, "Bd4,a2 x Wa1Gb1"), Ok(m));
    assert!(official::parse(&p, "Bd4,a2 x Wa1").is_err());
    // A removal elsewhere takes nothing.
    let other = after(&p, "Bd4,d1");
    assert_eq!(other.captures(Player::One), Marbles::NONE);
    assert_eq!(other.colour_at(at(&p, "a1")), Some(Colour::White));
}

/// An isolation can complete a winning set.
#[test]
fn isolation_can_win() {
    let p = pos(&format!("{LINKED} 3/0/0 0/0/0 1"));
    let next = after(&p, "Bd4,a2");
    assert_eq!(next.captures(Player::One), Marbles::new(4, 1, 0));
    assert_eq!(next.outcome(), win(Player::One));
}

/// As LINKED, but a2 is already gone and b1 is empty: the group {a1 white, b1 empty} is cut off
/// and still has an empty ring, so it stays.
const CUT: &str = "37 standard W-../.-.../--..../......./....../...../.... 5/8/10 0/0/0 0/0/0 1";

/// A cut-off group with an empty ring stays in play: placements there are allowed, its free
/// rings may be removed.
#[test]
fn cut_off_group_with_an_empty_ring_stays_in_play() {
    let p = pos(CUT);
    assert!(p.is_split());
    assert_eq!(p.colour_at(at(&p, "a1")), Some(Colour::White));
    // Free rings: b1 (its N and NE places b2, c2 are gone), the 14 rings left of the original
    // rim (a3 a4 b5 c6 d1 d7 e1 e6 f1 f5 g1-g4), and b3, c3, d2, opened by the removals (b3:
    // S b2 and SW a2 gone; c3: S c2 and SW b2 gone; d2: SW c1 and NW c2 gone). 18 free rings
    // among 32 empty ones: per colour 18 * 17 + 14 * 18 = 558 placements, three colours.
    assert_eq!(p.free_rings().count_ones(), 18);
    assert_eq!(p.legal_moves().len(), 3 * 558);
    // A move elsewhere leaves the group alone.
    let next = after(&p, "Gd4,d1");
    assert_eq!(next.colour_at(at(&p, "a1")), Some(Colour::White));
    assert!(next.has_ring(at(&p, "b1")));
    assert_eq!(next.captures(Player::One), Marbles::NONE);
    // Its free ring b1 may be removed: a1 is then a full group on its own, and is taken.
    let m = mv(&p, "Gd4,b1");
    assert_eq!(official::move_text(&p, &m), "Gd4,b1 x Wa1");
    let next = p.play(&m).unwrap();
    assert_eq!(next.captures(Player::One), Marbles::new(1, 0, 0));
    assert!(!next.has_ring(at(&p, "a1")));
    assert!(!next.is_split());
}

/// Filling the last empty ring of a group cut off earlier isolates it.
#[test]
fn isolation_by_filling_the_last_empty_ring_of_a_cut_off_group() {
    let p = pos(CUT);
    // Grey on b1 fills the group {a1, b1}; d1 is removed from the main group.
    let m = mv(&p, "Gb1,d1");
    assert_eq!(official::move_text(&p, &m), "Gb1,d1 x Wa1Gb1");
    assert_eq!(official::parse(&p, "Gb1,d1 x Wa1Gb1"), Ok(m));
    let next = p.play(&m).unwrap();
    next.check_invariants().unwrap();
    assert_eq!(next.captures(Player::One), Marbles::new(1, 1, 0));
    assert_eq!(next.supply(), Marbles::new(5, 7, 10));
    assert!(!next.has_ring(at(&p, "a1")) && !next.has_ring(at(&p, "b1")));
    assert!(!next.is_split());
}

/// Every full group is taken, several at once if need be, the placed marble included.
#[test]
fn isolation_takes_every_full_group_at_once() {
    // One column a1-a4 (custom frame): white a1, grey a3, a2 and a4 empty. In a single column
    // every ring has two neighbouring directions in a row without a ring, so both empty rings
    // are free. a1 and a3 are not adjacent: no capture. Only white is in the supply.
    //   Wa2: a4 must go; a1 a2 a3 are one full group: all taken.
    //   Wa4: a2 must go; {a1} and {a3, a4} are two full groups: both taken.
    let p = pos("custom standard W.G. 1/0/0 0/0/0 0/0/0 1");
    assert_eq!(
        texts(&p),
        sorted(&["Wa2,a4 x Wa1Wa2Ga3", "Wa4,a2 x Wa1Ga3Wa4"])
    );
    let next = after(&p, "Wa4,a2");
    assert_eq!(next.rings(), 0);
    assert_eq!(next.captures(Player::One), Marbles::new(2, 1, 0));
    assert_eq!(next.outcome(), no_move(Player::One));
}

/// rules.md 4 takes every cut-off full group, whatever its size: when a removal leaves a full
/// group and a group with empty rings, the full one goes even if it is the larger.
#[test]
fn isolation_takes_the_full_group_even_if_larger() {
    // One column a1-a6: white a4, grey a6, the rest empty (a4 and a6 are not adjacent: no
    // capture). The free rings are the empty ones, a1 a2 a3 a5. Grey only. For each placement
    // and removal, the groups left and whether one is full:
    //   Ga1: ,a2 leaves {a1} full; ,a3 leaves {a1 a2} and {a4 a5 a6}, each with an empty ring;
    //        ,a5 leaves {a6} full.
    //   Ga2: ,a1 one group; ,a3 {a1 a2} {a4 a5 a6} both with an empty ring; ,a5 {a6} full.
    //   Ga3: ,a1 one group; ,a2 {a1} empty and {a3..a6} with a5 empty; ,a5 {a6} full.
    //   Ga5: ,a1 one group; ,a2 {a1} empty, {a3..a6} with a3 empty; ,a3 {a1 a2} empty and
    //        {a4 a5 a6} full: the three-ring group is taken, the two empty rings stay.
    let p = pos("custom standard ...W.G 0/1/0 0/0/0 0/0/0 1");
    assert_eq!(
        texts(&p),
        sorted(&[
            "Ga1,a2 x Ga1",
            "Ga1,a3",
            "Ga1,a5 x Ga6",
            "Ga2,a1",
            "Ga2,a3",
            "Ga2,a5 x Ga6",
            "Ga3,a1",
            "Ga3,a2",
            "Ga3,a5 x Ga6",
            "Ga5,a1",
            "Ga5,a2",
            "Ga5,a3 x Wa4Ga5Ga6",
        ])
    );
    let next = after(&p, "Ga5,a3");
    assert_eq!(
        next.to_string(),
        "custom standard ..---- 0/0/0 1/2/0 0/0/0 2"
    );
}

/// Filling the last empty ring of the board: the mover captures every marble on it.
#[test]
fn full_board_goes_to_the_mover() {
    // FLOWER after Wa2: all six outer rings full, the centre b2 empty and not free. No capture
    // (rim lines leave the layout, the centre is empty). Player two must place on b2, with no
    // removal; the whole board is then one full group.
    let p = pos(&format!("{FLOWER} 1/1/1 0/0/0 0/0/0 1"));
    let p = after(&p, "Wa2");
    assert_eq!(
        texts(&p),
        sorted(&["Gb2 x Wa2Wa3Gb1Gb2Bb3Wc2Gc3", "Bb2 x Wa2Wa3Gb1Bb2Bb3Wc2Gc3"])
    );
    let next = after(&p, "Gb2");
    assert_eq!(next.rings(), 0);
    // White a2 a3 c2, grey b1 b2 c3, black b3.
    assert_eq!(next.captures(Player::Two), Marbles::new(3, 3, 1));
    // Not a standard winning set, but player one has nothing left to play on: the mover wins
    // all the same (rulebook F.2).
    assert_eq!(next.outcome(), no_move(Player::Two));
    assert!(next.legal_moves().is_empty());

    // Under Blitz rules three whites are a winning set.
    let blitz = pos("custom blitz _.W/G.B/_WG 1/1/1 0/0/0 0/0/0 1");
    let next = after(&after(&blitz, "Wa2"), "Gb2");
    assert_eq!(next.outcome(), win(Player::Two));
}

// ---------------------------------------------------------------------------------------------
// Section 3: the empty supply; section 5: no marble to place
// ---------------------------------------------------------------------------------------------

const EMPTY37: &str = "37 standard ..../...../....../......./....../...../....";

/// With an empty supply a player places from their own captures, only colours they hold.
#[test]
fn empty_supply_places_own_captures() {
    let p = pos(&format!("{EMPTY37} 0/0/0 2/0/1 0/4/0 1"));
    // Empty board: 37 empty rings, the 18 rim rings free: per colour 18 * 17 + 19 * 18 = 648.
    // Player one holds white and black only.
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 2 * 648);
    let colours: std::collections::BTreeSet<Colour> = moves
        .iter()
        .map(|m| match m {
            Move::Place(pl) => pl.colour,
            Move::Capture(_) => panic!("no capture on an empty board"),
        })
        .collect();
    assert_eq!(colours, [Colour::White, Colour::Black].into());
    assert_eq!(
        refusal(&p, "Gd4,a1"),
        IllegalMove::NotInCaptures(Colour::Grey)
    );
    let next = after(&p, "Bd4,a1");
    assert_eq!(next.supply(), Marbles::NONE);
    assert_eq!(next.captures(Player::One), Marbles::new(2, 0, 0));
    assert_eq!(next.captures(Player::Two), Marbles::new(0, 4, 0));
    // Player two holds only grey. a1 gone: b2 lacks only its SW neighbour, so 17 free rings
    // among 35 empty: 17 * 16 + 18 * 17 = 578 grey placements.
    assert_eq!(next.legal_moves().len(), 578);
    assert!(
        next.legal_moves()
            .iter()
            .all(|m| matches!(m, Move::Place(pl) if pl.colour == Colour::Grey))
    );
}

/// While the supply holds anything, placements come from it, even if the player holds other
/// colours.
#[test]
fn supply_is_used_before_captures() {
    let p = pos(&format!("{EMPTY37} 0/0/1 3/3/0 0/0/0 1"));
    assert_eq!(p.legal_moves().len(), 648, "black only");
    assert_eq!(
        refusal(&p, "Wd4,a1"),
        IllegalMove::NotInSupply(Colour::White)
    );
    let next = after(&p, "Bd4,a1");
    assert_eq!(next.supply(), Marbles::NONE);
    assert_eq!(next.captures(Player::One), Marbles::new(3, 3, 0));
    // Player two now has an empty supply, no captures and no jump (one marble on the board):
    // no legal move, and loses.
    assert_eq!(next.outcome(), no_move(Player::One));
}

/// A player who must place and holds no marble loses; one who can capture must capture.
#[test]
fn player_with_no_marble_to_place_loses() {
    let p = pos(&format!("{EMPTY37} 0/0/0 0/0/0 1/1/1 1"));
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), no_move(Player::Two));
    for m in all_placements(&p).iter().step_by(7) {
        assert!(p.check(m).is_err());
    }
    // After playing his last marble, player one leaves player two, who holds nothing, without
    // a move (a lone marble cannot be jumped).
    let p = pos(&format!("{EMPTY37} 0/0/0 1/0/0 0/0/0 1"));
    assert_eq!(p.outcome(), None);
    let next = after(&p, "Wd4,a1");
    assert_eq!(next.outcome(), no_move(Player::One));
    assert!(next.legal_moves().is_empty());

    // Holding nothing does not lose while a capture is available: it is compulsory anyway.
    let mut s = setup37("Wc3 Gc4", "c2");
    s.supply = Marbles::NONE;
    let p = Position::from_setup(s).unwrap();
    assert_eq!(p.outcome(), None);
    assert_eq!(texts(&p), sorted(&["x c3Gc5"]));
}

// ---------------------------------------------------------------------------------------------
// Section 1/5: winning sets
// ---------------------------------------------------------------------------------------------

/// The c3/c4 position of `capture_is_compulsory` with `jumped` on c4: the only move x c3?c5
/// captures one marble of that colour.
fn capture_one(rule_set: RuleSet, jumped: Colour, before: Marbles, to_move: Player) -> Position {
    let mut s = setup37(&format!("Wc3 {}c4", jumped.letter()), "c2");
    s.rule_set = rule_set;
    s.supply = Marbles::new(1, 1, 1);
    s.captures[to_move.index()] = before;
    s.to_move = to_move;
    let p = Position::from_setup(s).unwrap();
    assert_eq!(p.outcome(), None);
    let text = format!("x c3{}c5", jumped.letter());
    assert_eq!(texts(&p), sorted(&[&text]));
    after(&p, &text)
}

#[test]
fn winning_sets_standard() {
    use Colour::*;
    let s = RuleSet::STANDARD;
    // 4 white, 5 grey, 6 black, 3 of each.
    let cases = [
        (White, Marbles::new(3, 0, 0), Marbles::new(4, 0, 0)),
        (Grey, Marbles::new(0, 4, 0), Marbles::new(0, 5, 0)),
        (Black, Marbles::new(0, 0, 5), Marbles::new(0, 0, 6)),
        (Black, Marbles::new(3, 3, 2), Marbles::new(3, 3, 3)),
    ];
    for (jumped, before, after_capture) in cases {
        for player in Player::BOTH {
            let next = capture_one(s, jumped, before, player);
            assert_eq!(next.captures(player), after_capture);
            assert_eq!(next.outcome(), win(player), "{before} + {jumped}");
            assert!(next.legal_moves().is_empty());
        }
    }
    // Short of every set (3 white, 4 grey, 2 black): no win.
    let next = capture_one(s, Grey, Marbles::new(3, 3, 2), Player::One);
    assert_eq!(next.captures(Player::One), Marbles::new(3, 4, 2));
    assert_eq!(next.outcome(), None);
}

#[test]
fn winning_sets_blitz() {
    use Colour::*;
    let b = RuleSet::BLITZ;
    // 3 white, 4 grey, 5 black, 2 of each.
    let cases = [
        (White, Marbles::new(2, 0, 0), Marbles::new(3, 0, 0)),
        (Grey, Marbles::new(0, 3, 0), Marbles::new(0, 4, 0)),
        (Black, Marbles::new(0, 0, 4), Marbles::new(0, 0, 5)),
        (Black, Marbles::new(2, 2, 1), Marbles::new(2, 2, 2)),
    ];
    for (jumped, before, after_capture) in cases {
        for player in Player::BOTH {
            let next = capture_one(b, jumped, before, player);
            assert_eq!(next.captures(player), after_capture);
            assert_eq!(next.outcome(), win(player), "{before} + {jumped}");
        }
    }
    // The same captures are not a standard win.
    let next = capture_one(b, Grey, Marbles::new(2, 3, 1), Player::One);
    assert_eq!(next.captures(Player::One), Marbles::new(2, 4, 1));
    assert_eq!(next.outcome(), win(Player::One));
    let next = capture_one(RuleSet::STANDARD, Grey, Marbles::new(2, 3, 1), Player::One);
    assert_eq!(next.outcome(), None);
}

/// A finished position refuses every move, in `Position` and in `Game`.
#[test]
fn finished_position_refuses_every_move() {
    let done = capture_one(
        RuleSet::STANDARD,
        Colour::White,
        Marbles::new(3, 0, 0),
        Player::One,
    );
    assert_eq!(done.outcome(), win(Player::One));
    // Marbles are still on the board (white c5) and rings are free: only the end stops play.
    for m in all_placements(&done)
        .into_iter()
        .chain(all_single_jumps(&done))
    {
        assert_eq!(done.check(&m), Err(IllegalMove::GameOver));
        assert!(done.play(&m).is_err());
    }
    assert_eq!(
        done.pass_with_bribe(Marbles::NONE),
        Err(IllegalMove::GameOver)
    );
    let rules = Rules {
        bribes: true,
        ..Rules::default()
    };
    let mut game = Game::from_position(done.clone(), rules);
    assert_eq!(game.outcome(), win(Player::One));
    assert!(game.legal_moves().is_empty());
    let m = Move::place(Colour::Grey, at(&done, "d4"), Some(at(&done, "a1")));
    assert!(matches!(game.play(&m), Err(GameError::Over(_))));
    assert!(matches!(
        game.propose_bribe(Marbles::NONE),
        Err(GameError::Over(_))
    ));
    assert!(matches!(game.resign(Player::Two), Err(GameError::Over(_))));

    // A position lost for want of a move refuses everything too.
    let stuck = pos(&format!("{EMPTY37} 0/0/0 0/0/0 1/1/1 1"));
    let mut game = Game::from_position(stuck.clone(), Rules::default());
    assert_eq!(game.outcome(), no_move(Player::Two));
    for m in all_placements(&stuck).iter().step_by(5) {
        assert!(stuck.check(m).is_err());
        assert!(matches!(game.play(m), Err(GameError::Over(_))));
    }
}

// ---------------------------------------------------------------------------------------------
// Section 5 and 7.2: repetition
// ---------------------------------------------------------------------------------------------

/// The band with an empty supply, player one holding a white, player two a grey. A cycle of four
/// turns brings it back (see `BAND` for why no other capture arises):
///
/// 1. `Wb4` (player one). No capture follows: a landing on b3 needs b4 and a ring above it,
///    or b2 and b1 full; a landing on b1 needs b2 and b3 full.
/// 2. `Gb1` (player two). Now b1 over b2 onto b3 is the one capture: b3 is the only empty ring
///    that can be reached, and only from the south.
/// 3. `x b1Wb3` (player one takes the white). The grey on b3 cannot go on: b2 is now empty,
///    above b4 there is no ring, and the far places beyond the side columns are off the board.
/// 4. `x b4Gb2` (player two). b4 over b3 onto b2 is the only jump: b1 is empty, so b2 can only
///    be reached from the north; the white lands on b2 and stops.
///
/// Board, supply (empty) and captures (one white, one grey) are then as at the start.
const CYCLE: [&str; 4] = ["Wb4", "Gb1", "x b1Wb3", "x b4Gb2"];

fn band_cycle_start() -> Position {
    pos(&format!("{BAND} 0/0/0 1/0/0 0/1/0 1"))
}

fn play_text(game: &mut Game, text: &str) {
    let m = mv(game.position(), text);
    game.play(&m)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"));
}

#[test]
fn threefold_repetition_draws() {
    let start = band_cycle_start();
    assert_eq!(texts(&start), sorted(&["Wb1", "Wb3", "Wb4"]));
    let mut game = Game::from_position(start.clone(), Rules::default());
    for (i, text) in CYCLE.iter().chain(CYCLE.iter()).enumerate() {
        assert_eq!(game.outcome(), None, "before turn {}", i + 1);
        play_text(&mut game, text);
        if i == 3 {
            // Second occurrence: the game goes on.
            assert_eq!(*game.position(), start);
            assert_eq!(game.outcome(), None);
        }
    }
    // Third occurrence.
    assert_eq!(*game.position(), start);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert!(game.legal_moves().is_empty());
    // Undo goes back to a game in progress.
    game.undo().unwrap();
    assert_eq!(game.outcome(), None);
}

/// Under the no-repetition rule the move that recreates an earlier position is missing from the
/// legal moves and refused.
#[test]
fn no_repetition_rule_forbids_the_repeating_move() {
    let rules = Rules {
        repetition: Repetition::Forbidden,
        ..Rules::default()
    };
    // Start one turn into the cycle (after Wb4, player two to move).
    let s1 = after(&band_cycle_start(), "Wb4");
    let mut game = Game::from_position(s1.clone(), rules);
    for text in &CYCLE[1..] {
        play_text(&mut game, text);
    }
    // Back at the band start, which this game has not seen; Wb4 would recreate s1.
    assert_eq!(*game.position(), band_cycle_start());
    let here = game.position().clone();
    let legal: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| official::move_text(&here, m))
        .collect();
    assert_eq!(legal, vec!["Wb1".to_string(), "Wb3".to_string()]);
    let wb4 = mv(&here, "Wb4");
    assert_eq!(game.check(&wb4), Err(GameError::Repeats));
    assert_eq!(game.play(&wb4), Err(GameError::Repeats));
    assert_eq!(
        GameError::Repeats.to_string(),
        "this move recreates an earlier position, which the no-repetition rule forbids"
    );
    assert_eq!(game.turns().len(), 3);
    play_text(&mut game, "Wb3");

    // Under the default rule the same move is fine.
    let mut game = Game::from_position(s1.clone(), Rules::default());
    for text in CYCLE[1..].iter().chain(&CYCLE[..1]) {
        play_text(&mut game, text);
    }
    assert_eq!(*game.position(), s1);
}

/// A player whose every move recreates an earlier position loses.
#[test]
fn no_repetition_rule_player_without_move_loses() {
    let rules = Rules {
        repetition: Repetition::Forbidden,
        ..Rules::default()
    };
    let start = band_cycle_start();
    let mut game = Game::from_position(start, rules);
    for text in &CYCLE[..3] {
        play_text(&mut game, text);
    }
    // Player two's only move, x b4Gb2, recreates the start.
    assert_eq!(texts(game.position()), sorted(&["x b4Gb2"]));
    assert_eq!(game.outcome(), no_move(Player::One));
    assert!(game.legal_moves().is_empty());
    let last = mv(game.position(), "x b4Gb2");
    assert!(matches!(game.play(&last), Err(GameError::Over(_))));
}

// ---------------------------------------------------------------------------------------------
// Section 7.3: bribes
// ---------------------------------------------------------------------------------------------

fn bribe_rules() -> Rules {
    Rules {
        bribes: true,
        ..Rules::default()
    }
}

#[test]
fn bribe_must_be_held_by_both_players() {
    // Player one holds 1/0/2, player two 0/1/1: only 0/0/0 and 0/0/1 are held by both.
    let p = pos(&format!("{EMPTY37} 5/7/7 1/0/2 0/1/1 1"));
    let mut game = Game::from_position(p.clone(), bribe_rules());
    for bad in [
        Marbles::new(1, 0, 0),
        Marbles::new(0, 1, 0),
        Marbles::new(0, 0, 2),
    ] {
        let e = game.propose_bribe(bad).unwrap_err();
        assert!(
            matches!(e, GameError::Illegal(IllegalMove::BadBribe(_))),
            "{bad}: {e}"
        );
        assert!(game.pending_bribe().is_none());
    }
    assert_eq!(
        game.propose_bribe(Marbles::new(1, 0, 0))
            .unwrap_err()
            .to_string(),
        "a bribe must be held by both players: 1/0/0 offered, player 1 holds 1/0/2, player 2 holds 0/1/1"
    );
    assert_eq!(game.bribes_proposed(Player::One), 0);
    // The empty bribe is a bribe.
    game.propose_bribe(Marbles::NONE).unwrap();
    game.answer_bribe(false).unwrap();
    game.propose_bribe(Marbles::new(0, 0, 1)).unwrap();
    assert_eq!(game.bribes_proposed(Player::One), 2);

    // Off unless the rules switch it on.
    let mut plain = Game::from_position(p, Rules::default());
    assert_eq!(
        plain.propose_bribe(Marbles::NONE),
        Err(GameError::BribesOff)
    );
}

#[test]
fn bribes_accepted_and_rejected() {
    let p = pos(&format!("{EMPTY37} 5/7/7 1/0/2 0/1/1 1"));
    let mut game = Game::from_position(p.clone(), bribe_rules());
    // Player one proposes one black. While it waits, nothing can be played.
    game.propose_bribe(Marbles::new(0, 0, 1)).unwrap();
    assert!(game.legal_moves().is_empty());
    let m = mv(&p, "Wd4,a1");
    assert_eq!(
        game.play(&m),
        Err(GameError::BribePending(Marbles::new(0, 0, 1)))
    );
    assert_eq!(
        game.propose_bribe(Marbles::NONE),
        Err(GameError::BribePending(Marbles::new(0, 0, 1)))
    );
    // Rejected: player one must move normally.
    game.answer_bribe(false).unwrap();
    assert_eq!(game.answer_bribe(true), Err(GameError::NoBribePending));
    assert_eq!(game.to_move(), Player::One);
    assert_eq!(game.legal_moves().len(), 3 * 648);
    assert_eq!(*game.position(), p);
    game.play(&m).unwrap();
    // Player two proposes one black (held by both: 0/1/1 and 1/0/2); accepted, it passes the
    // turn and hands the black over.
    game.propose_bribe(Marbles::new(0, 0, 1)).unwrap();
    game.answer_bribe(true).unwrap();
    let now = game.position();
    assert_eq!(now.to_move(), Player::One);
    assert_eq!(now.captures(Player::One), Marbles::new(1, 0, 3));
    assert_eq!(now.captures(Player::Two), Marbles::new(0, 1, 0));
    assert_eq!(now.supply(), Marbles::new(4, 7, 7));
    assert_eq!(now.rings(), p.play(&m).unwrap().rings());
    assert_eq!(
        game.turns().last(),
        Some(&Turn::Pass {
            bribe: Marbles::new(0, 0, 1)
        })
    );
    // Both proposals count, accepted or not.
    assert_eq!(game.bribes_proposed(Player::One), 1);
    assert_eq!(game.bribes_proposed(Player::Two), 1);
    let answers: Vec<_> = game.bribes().iter().map(|b| (b.by, b.accepted)).collect();
    assert_eq!(
        answers,
        vec![(Player::One, Some(false)), (Player::Two, Some(true))]
    );
    // Undo takes back the pass and its proposal.
    assert_eq!(
        game.undo(),
        Ok(Turn::Pass {
            bribe: Marbles::new(0, 0, 1)
        })
    );
    assert_eq!(game.bribes_proposed(Player::Two), 0);
    assert_eq!(game.to_move(), Player::Two);
}

#[test]
fn bribe_can_hand_the_receiver_a_win() {
    // Player two holds four greys; player one offers one grey, which both hold. Five greys win.
    let p = pos(&format!("{EMPTY37} 6/3/10 0/1/0 0/4/0 1"));
    let mut game = Game::from_position(p, bribe_rules());
    game.propose_bribe(Marbles::new(0, 1, 0)).unwrap();
    game.answer_bribe(true).unwrap();
    assert_eq!(game.position().captures(Player::Two), Marbles::new(0, 5, 0));
    assert_eq!(game.outcome(), win(Player::Two));
    assert!(game.legal_moves().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Handicap
// ---------------------------------------------------------------------------------------------

/// A handicap gives captures before the first move: here player two starts with three whites,
/// taken from the supply.
#[test]
fn handicap_start() {
    let text = format!("{EMPTY37} 3/8/10 0/0/0 3/0/0 1");
    let p = pos(&text);
    assert_eq!(p.to_string(), text);
    let mut game = Game::from_position(p, Rules::default());
    assert_eq!(game.legal_moves().len(), 1944);
    // 1. Wd4,a1  2. Bg1,a2 (g1 is far from d4)  3. Gd5,a3 (next to the white): player two may
    // now jump either way: x d4Gd6 or x d5Wd3. Taking the white makes four: a win that only
    // the handicap makes possible.
    for text in ["Wd4,a1", "Bg1,a2", "Gd5,a3"] {
        play_text(&mut game, text);
    }
    assert_eq!(game.position().supply(), Marbles::new(2, 7, 9));
    assert_eq!(texts(game.position()), sorted(&["x d4Gd6", "x d5Wd3"]));
    play_text(&mut game, "x d5Wd3");
    assert_eq!(game.position().captures(Player::Two), Marbles::new(4, 0, 0));
    assert_eq!(game.outcome(), win(Player::Two));
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

#[test]
fn illegal_move_messages_read_well() {
    let start = Position::standard();
    let compulsory = p37("Wc3 Gc4", "c2");
    let branches = p37("Wa1 Gb2 Gc4 Bd3 Bd6", "");
    let lone = p37("Wd4", "b2");
    let empty_supply = pos(&format!("{EMPTY37} 0/0/0 2/0/1 0/0/0 1"));
    let cases: Vec<(Position, &str, &str)> = vec![
        (
            compulsory.clone(),
            "Wd4,a1",
            "a capture is compulsory: x c3Gc5 is available",
        ),
        (p37("Wa1", ""), "Wd4,a1", "ring a1 is not free"),
        (start.clone(), "Wa1,d4", "ring d4 is not free"),
        (
            start.clone(),
            "Wd4",
            "a free ring must be removed: a1 is free",
        ),
        (
            start.clone(),
            "Wa1,a1",
            "ring a1 now holds the marble just placed and cannot be removed",
        ),
        (lone.clone(), "Gd4,a1", "ring d4 already holds a marble"),
        (lone.clone(), "Gb2,a1", "there is no ring at b2"),
        (lone.clone(), "Ge4,b2", "there is no ring at b2"),
        (
            pos(&format!("{EMPTY37} 0/8/10 0/0/0 0/0/0 1")),
            "Wd4,a1",
            "there is no white marble in the supply",
        ),
        (
            empty_supply,
            "Gd4,a1",
            "the supply is empty and you hold no grey marble to place",
        ),
        (
            start.clone(),
            "x d4d6",
            "there is no marble at d4 to jump with",
        ),
        (
            lone,
            "x d4d6",
            "jump 1 of the chain, from d4: no marble at d5 to jump over",
        ),
        (
            compulsory,
            "x c4c2",
            "jump 1 of the chain, from c4: no ring at c2 to land on",
        ),
        (
            branches,
            "x a1Gc3",
            "the chain must go on: the marble on c3 can still jump",
        ),
        (
            capture_one(
                RuleSet::STANDARD,
                Colour::White,
                Marbles::new(3, 0, 0),
                Player::One,
            ),
            "Gd4,a1",
            "the game is over: no move can be played",
        ),
    ];
    for (p, text, message) in cases {
        assert_eq!(refusal(&p, text).to_string(), message, "{text} in {p}");
        let parsed = official::parse(&p, text).unwrap_err().to_string();
        assert_eq!(parsed, format!("`{text}` is not legal here: {message}"));
    }
    // A jump that does not exist on the board at all is a syntax error naming it.
    let e = official::parse(&start, "x a1a4").unwrap_err().to_string();
    assert!(e.contains("a1") && e.contains("a4"), "{e}");
    // Game-level messages.
    let done = capture_one(
        RuleSet::STANDARD,
        Colour::White,
        Marbles::new(3, 0, 0),
        Player::One,
    );
    let mut game = Game::from_position(done.clone(), Rules::default());
    let e = game
        .play(&Move::place(
            Colour::Grey,
            at(&done, "d4"),
            Some(at(&done, "a1")),
        ))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the game is over (player 1 wins with a winning set of captures)"
    );
}
