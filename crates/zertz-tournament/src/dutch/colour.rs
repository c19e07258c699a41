//! Colour allocation (article 5 of C.04.3) and the colour criteria C10-C13 of a pair.

use super::player::{PlayerState, Preference};
use crate::trf::Colour;

/// The colour of `high`, the higher-ranked player of a pair (higher score, or equal score
/// and lower pairing number), against `low`; `initial` is the colour drawn for round 1.
pub fn allocate(high: &PlayerState, low: &PlayerState, initial: Colour) -> Colour {
    let (ph, pl) = (high.preference, low.preference);
    // 5.2.1: grant both preferences.
    match (ph.colour(), pl.colour()) {
        (Some(a), Some(b)) if a != b => return a,
        (Some(a), None) => return a,
        (None, Some(b)) => return b.opposite(),
        _ => {}
    }
    if let (Some(a), Some(_)) = (ph.colour(), pl.colour()) {
        // 5.2.2: grant the stronger preference; both absolute: the wider colour difference.
        match ph.strength().cmp(&pl.strength()) {
            std::cmp::Ordering::Greater => return a,
            std::cmp::Ordering::Less => return a.opposite(),
            std::cmp::Ordering::Equal => {
                if matches!(ph, Preference::Absolute(_)) {
                    let (dh, dl) = (high.colour_difference.abs(), low.colour_difference.abs());
                    if dh > dl {
                        return a;
                    }
                    if dl > dh {
                        return a.opposite();
                    }
                }
            }
        }
    }
    // 5.2.3: alternate to the most recent round in which they had different colours
    // (unplayed rounds do not count: the histories are aligned at their last game).
    let (h, l) = (&high.colours, &low.colours);
    for i in 1..=h.len().min(l.len()) {
        let (a, b) = (h[h.len() - i], l[l.len() - i]);
        if a != b {
            return a.opposite();
        }
    }
    // 5.2.4: the higher-ranked player's preference.
    if let Some(a) = ph.colour() {
        return a;
    }
    // 5.2.5: the initial colour to an odd pairing number. The pairing numbers are those of
    // the players paired in the round, in the order of their start ranks: a player absent
    // from round 1 does not shift the alternation of colours down the boards (as the
    // FIDE-endorsed engines read it).
    if high.position % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

/// The failures of a pair under C10-C13 when `a` gets `colour_a` and `b` the other:
/// `[C10, C11, C12, C13]` counts of players.
pub fn failures(a: &PlayerState, b: &PlayerState, colour_a: Colour) -> [u32; 4] {
    let top = a.topscorer || b.topscorer;
    let mut f = [0; 4];
    for (p, c) in [(a, colour_a), (b, colour_a.opposite())] {
        if let Some(want) = p.preference.colour()
            && want != c
        {
            f[2] += 1;
            if p.preference.strength() >= 2 {
                f[3] += 1;
            }
        }
        let cd = p.colour_difference + if c == Colour::White { 1 } else { -1 };
        if top && cd.abs() > 2 {
            f[0] += 1;
        }
        let n = p.colours.len();
        if top && n >= 2 && p.colours[n - 1] == c && p.colours[n - 2] == c {
            f[1] += 1;
        }
    }
    f
}
