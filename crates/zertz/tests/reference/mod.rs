//! The rules from first principles, for checking the move generator: every conceivable
//! placement (colour × place × removal or none) and every sequence of jump directions from every
//! place, each put to `Position::check`, and the legal moves computed with nothing but
//! `Layout::neighbour`, `Position::has_ring` and `Position::colour_at`. Independent of the sets
//! of places (marbles are a `Vec<bool>` by place index), so one reference serves every width.

#![allow(dead_code)]

use std::collections::HashSet;

use zertz::layout::LayoutWidth;
use zertz::*;

/// Which places hold a marble, by place index.
pub type Occupied = Vec<bool>;

pub fn occupied<S: LayoutWidth>(p: &Position<S>) -> Occupied {
    p.layout()
        .places()
        .map(|q| p.colour_at(q).is_some())
        .collect()
}

pub fn ring<S: LayoutWidth>(p: &Position<S>, place: Option<Place>) -> bool {
    place.is_some_and(|q| p.has_ring(q))
}

/// An empty ring with two neighbouring directions in a row without a ring.
pub fn free<S: LayoutWidth>(p: &Position<S>, place: Place) -> bool {
    let layout = p.layout();
    ring(p, Some(place))
        && p.colour_at(place).is_none()
        && (0..6).any(|d| {
            !ring(p, layout.neighbour(place, Direction::ALL[d]))
                && !ring(p, layout.neighbour(place, Direction::ALL[(d + 1) % 6]))
        })
}

pub fn someone_won<S: LayoutWidth>(p: &Position<S>) -> bool {
    let r = p.rule_set();
    Player::BOTH.iter().any(|pl| {
        let c = p.captures(*pl).0;
        (0..3).any(|i| c[i] >= r.single.0[i]) || c.iter().all(|&n| n >= r.each)
    })
}

/// The jump from `at` in direction `d` with marbles on `occ`: (landing) if legal.
pub fn my_jump<S: LayoutWidth>(
    p: &Position<S>,
    occ: &Occupied,
    at: Place,
    d: Direction,
) -> Option<Place> {
    let layout = p.layout();
    let over = layout.neighbour(at, d)?;
    let to = layout.neighbour(over, d)?;
    (occ[over.index()] && ring(p, Some(to)) && !occ[to.index()]).then_some(to)
}

pub fn jump_board(occ: &Occupied, at: Place, over: Place, to: Place) -> Occupied {
    let mut next = occ.clone();
    next[at.index()] = false;
    next[over.index()] = false;
    next[to.index()] = true;
    next
}

/// Every complete chain, found by a depth-first search of our own.
pub fn my_chains<S: LayoutWidth>(p: &Position<S>) -> HashSet<Move> {
    fn go<S: LayoutWidth>(
        p: &Position<S>,
        occ: &Occupied,
        at: Place,
        chain: &mut Capture,
        out: &mut HashSet<Move>,
    ) {
        let layout = p.layout();
        let mut any = false;
        for d in Direction::ALL {
            if let Some(to) = my_jump(p, occ, at, d) {
                any = true;
                let over = layout.neighbour(at, d).unwrap();
                assert!(chain.push(d));
                go(p, &jump_board(occ, at, over, to), to, chain, out);
                chain.pop();
            }
        }
        if !any && !chain.is_empty() {
            out.insert(Move::Capture(*chain));
        }
    }
    let mut out = HashSet::new();
    let occ = occupied(p);
    for from in p.layout().places() {
        if occ[from.index()] {
            go(p, &occ, from, &mut Capture::start(from), &mut out);
        }
    }
    out
}

/// Every legal placement, from first principles.
pub fn my_placements<S: LayoutWidth>(p: &Position<S>) -> HashSet<Move> {
    let layout = p.layout();
    let occ = occupied(p);
    let source = if p.supply().is_empty() {
        p.captures(p.to_move())
    } else {
        p.supply()
    };
    let free_rings: Vec<Place> = layout.places().filter(|q| free(p, *q)).collect();
    let mut out = HashSet::new();
    for colour in Colour::ALL {
        if source.get(colour) == 0 {
            continue;
        }
        for at in layout.places() {
            if !ring(p, Some(at)) || occ[at.index()] {
                continue;
            }
            let others: Vec<Place> = free_rings.iter().copied().filter(|r| *r != at).collect();
            if others.is_empty() {
                out.insert(Move::place(colour, at, None));
            }
            for r in others {
                out.insert(Move::place(colour, at, Some(r)));
            }
        }
    }
    out
}

pub fn my_legal_moves<S: LayoutWidth>(p: &Position<S>) -> HashSet<Move> {
    if someone_won(p) {
        return HashSet::new();
    }
    let chains = my_chains(p);
    if chains.is_empty() {
        my_placements(p)
    } else {
        chains
    }
}

/// Every capture `check` accepts, over every sequence of jump directions from every place: a
/// sequence is extended while its jumps are possible on the board (by our own reckoning), and
/// each such sequence and each one-direction extension of it (possible or not) is checked.
pub fn accepted_captures<S: LayoutWidth>(p: &Position<S>) -> HashSet<Move> {
    fn go<S: LayoutWidth>(
        p: &Position<S>,
        occ: Option<&Occupied>,
        at: Place,
        chain: &Capture,
        out: &mut HashSet<Move>,
    ) {
        let layout = p.layout();
        for d in Direction::ALL {
            let mut next = *chain;
            if !next.push(d) {
                continue;
            }
            let m = Move::Capture(next);
            if p.check(&m).is_ok() {
                out.insert(m);
            }
            // Go on only along jumps that are possible: a start with a marble, a marble to jump
            // over, an empty ring to land on.
            if let Some(occ) = occ
                && let Some(to) = my_jump(p, occ, at, d)
            {
                let over = layout.neighbour(at, d).unwrap();
                go(p, Some(&jump_board(occ, at, over, to)), to, &next, out);
            }
        }
    }
    let occ = occupied(p);
    let mut out = HashSet::new();
    for from in p.layout().places() {
        let start = Capture::start(from);
        assert!(p.check(&Move::Capture(start)).is_err(), "an empty chain");
        let occ = occ[from.index()].then_some(&occ);
        go(p, occ, from, &start, &mut out);
    }
    out
}

/// Every placement `check` accepts among all colours × places × (places or none).
pub fn accepted_placements<S: LayoutWidth>(p: &Position<S>) -> HashSet<Move> {
    let layout = p.layout();
    let mut out = HashSet::new();
    for colour in Colour::ALL {
        for at in layout.places() {
            for remove in std::iter::once(None).chain(layout.places().map(Some)) {
                let m = Move::place(colour, at, remove);
                if p.check(&m).is_ok() {
                    out.insert(m);
                }
            }
        }
    }
    out
}

/// The generator against the reference: the same moves, no duplicates, `check` accepting
/// exactly them, the bulk count equal to the list, capture and end flags consistent.
pub fn check_generation<S: LayoutWidth>(p: &Position<S>) {
    let expected = check_moves(p);
    let mut accepted = accepted_placements(p);
    accepted.extend(accepted_captures(p));
    let missing: Vec<_> = expected.difference(&accepted).take(3).collect();
    let extra: Vec<_> = accepted.difference(&expected).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{p}: check refuses {missing:?}, accepts {extra:?}"
    );
}

/// [`check_generation`] without putting every conceivable move to `check`: the generated moves
/// are the reference's, without duplicates, the bulk count equals the list, the capture and end
/// flags agree. Gives the reference's moves.
pub fn check_moves<S: LayoutWidth>(p: &Position<S>) -> HashSet<Move> {
    let generated = p.legal_moves();
    let set: HashSet<Move> = generated.iter().copied().collect();
    assert_eq!(set.len(), generated.len(), "duplicate moves in {p}");
    let expected = my_legal_moves(p);
    let missing: Vec<_> = expected.difference(&set).take(3).collect();
    let extra: Vec<_> = set.difference(&expected).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{p}: generator misses {missing:?}, has extra {extra:?}"
    );
    assert_eq!(p.count_moves(), generated.len() as u64, "{p}");
    if !someone_won(p) {
        assert_eq!(
            p.has_capture(),
            generated.iter().any(Move::is_capture),
            "{p}"
        );
    }
    let over = someone_won(p) || generated.is_empty();
    assert_eq!(p.is_over(), over, "{p}");
    expected
}
