//! The static evaluation of a quiet position (no capture pending), from the point of view of the
//! player to move.
//!
//! It knows the four winning sets of both players: for each set still within reach (enough
//! marbles of its colours left in the supply and on the board), a value that grows steeply as
//! the set nears completion. Then the captured marbles themselves, a bonus for having the move,
//! and the best isolation the player to move could make right now. The weights are plain
//! numbers ([`Weights`]), written to and read from a small text format so that tuning by
//! self-play (`zertz tune`) can change them and a run can be reproduced.

use std::fmt;

use zertz::{Colour, Marbles, Player, Position};

use crate::isolation::{Isolation, isolations};

/// The largest "marbles still needed" the set tables distinguish (more counts as this many).
pub const MAX_NEED: usize = 8;

/// The weights of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a reachable single-colour set (white, grey, black) that still needs `n` marbles,
    /// at index `n` (index 0 is unused: a complete set has won).
    pub single: [[i32; MAX_NEED + 1]; 3],
    /// The same for the each-colour set, by the total number of marbles it still needs.
    pub each: [i32; MAX_NEED + 1],
    /// Value of each captured marble by colour.
    pub material: [i32; 3],
    /// Bonus for the player to move.
    pub tempo: i32,
    /// Share (per mille) of the best immediate isolation's value credited to the player to move.
    pub isolation: i32,
    /// Value to the player to move of each quarter of a quiet ring (an empty ring next to no
    /// marble: a placement there never gives a capture).
    pub quiet: i32,
    /// Value to the player to move of an odd number of quiet rings (who makes the last quiet
    /// placement matters once every other placement gives something away).
    pub parity: i32,
    /// Share (per mille) of the opponent's best immediate isolation counted against the player
    /// to move: a threat that a reply may not parry (0 leaves it out).
    pub threat: i32,
}

impl Default for Weights {
    /// The tuned weights of `weights.txt` (see that file for the command that made them).
    fn default() -> Weights {
        Weights::parse(TUNED).unwrap_or_else(|_| Weights::baseline())
    }
}

/// The tuned weights, as written by `zertz tune`.
const TUNED: &str = include_str!("../weights.txt");

impl Weights {
    /// The hand-set weights the tuning started from.
    pub fn baseline() -> Weights {
        let curve = [0, 400, 160, 70, 30, 14, 6, 3, 1];
        Weights {
            single: [curve, curve, curve],
            each: [0, 330, 140, 60, 28, 12, 6, 3, 1],
            material: [10, 8, 6],
            tempo: 20,
            isolation: 650,
            quiet: 0,
            parity: 0,
            threat: 0,
        }
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weights, line {line}: {message}")]
pub struct WeightsError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl Weights {
    /// The names and values of every weight, in a fixed order (for tuning and for the file).
    pub fn named(&self) -> Vec<(String, i32)> {
        let mut out = Vec::new();
        for (c, table) in self.single.iter().enumerate() {
            for (n, v) in table.iter().enumerate().skip(1) {
                out.push((format!("single.{}.{n}", Colour::ALL[c].name()), *v));
            }
        }
        for (n, v) in self.each.iter().enumerate().skip(1) {
            out.push((format!("each.{n}"), *v));
        }
        for (c, v) in self.material.iter().enumerate() {
            out.push((format!("material.{}", Colour::ALL[c].name()), *v));
        }
        out.push(("tempo".into(), self.tempo));
        out.push(("isolation".into(), self.isolation));
        out.push(("quiet".into(), self.quiet));
        out.push(("parity".into(), self.parity));
        out.push(("threat".into(), self.threat));
        out
    }

    /// Sets a weight by its name (as in [`Weights::named`]).
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let mut parts = name.split('.');
        let (kind, a, b) = (parts.next(), parts.next(), parts.next());
        let colour = |s: Option<&str>| Colour::ALL.iter().position(|c| Some(c.name()) == s);
        let need = |s: Option<&str>| {
            s.and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=MAX_NEED).contains(n))
        };
        match (kind, a, b) {
            (Some("single"), c, n) => match (colour(c), need(n)) {
                (Some(c), Some(n)) => self.single[c][n] = value,
                _ => return false,
            },
            (Some("each"), n, None) => match need(n) {
                Some(n) => self.each[n] = value,
                None => return false,
            },
            (Some("material"), c, None) => match colour(c) {
                Some(c) => self.material[c] = value,
                None => return false,
            },
            (Some("tempo"), None, None) => self.tempo = value,
            (Some("isolation"), None, None) => self.isolation = value,
            (Some("quiet"), None, None) => self.quiet = value,
            (Some("parity"), None, None) => self.parity = value,
            (Some("threat"), None, None) => self.threat = value,
            _ => return false,
        }
        true
    }

    /// Reads weights written by `Display`: `name value` per line, `#` comments. Weights not
    /// named keep their baseline value.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::baseline();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| WeightsError {
                line: i + 1,
                message,
            };
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(err(format!("expected `name value`, found `{line}`")));
            };
            let value: i32 = value
                .parse()
                .map_err(|_| err(format!("`{value}` is not a whole number")))?;
            if !w.set(name, value) {
                return Err(err(format!("unknown weight `{name}`")));
            }
        }
        Ok(w)
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in self.named() {
            writeln!(f, "{name} {value}")?;
        }
        Ok(())
    }
}

/// Marbles of each colour still to be won: in the supply or on the board.
fn available(position: &Position) -> [u32; 3] {
    let supply = position.supply();
    let mut out = [0; 3];
    for c in Colour::ALL {
        out[c.index()] = supply.get(c) as u32 + position.marbles(c).count_ones();
    }
    out
}

/// The value of a player's captures: reachable sets by how near they are, plus material.
pub fn captures_value(
    w: &Weights,
    position: &Position,
    captures: Marbles,
    avail: &[u32; 3],
) -> i32 {
    let rules = position.rule_set();
    let mut v = 0;
    let mut each_need = 0u32;
    let mut each_reachable = true;
    for c in Colour::ALL {
        let have = captures.get(c) as u32;
        let need = (rules.single.get(c) as u32).saturating_sub(have);
        if need > 0 && need <= avail[c.index()] {
            v += w.single[c.index()][(need as usize).min(MAX_NEED)];
        }
        let need_each = (rules.each as u32).saturating_sub(have);
        if need_each > avail[c.index()] {
            each_reachable = false;
        }
        each_need += need_each;
        v += w.material[c.index()] * have as i32;
    }
    if each_reachable && each_need > 0 {
        v += w.each[(each_need as usize).min(MAX_NEED)];
    }
    v
}

/// The evaluation without the isolation term: the captures of both players and the tempo.
pub fn static_value(w: &Weights, position: &Position) -> i32 {
    let me = position.to_move();
    let avail = available(position);
    let mine = captures_value(w, position, position.captures(me), &avail);
    let theirs = captures_value(w, position, position.captures(me.other()), &avail);
    mine - theirs + w.tempo
}

/// Empty rings next to no marble.
pub fn quiet_rings(position: &Position) -> u32 {
    let layout = position.layout();
    let near: u64 = zertz::Bits(position.occupied())
        .filter_map(|i| layout.place_at_index(i as usize))
        .fold(0, |acc, p| acc | layout.neighbour_mask(p));
    (position.empty() & !near).count_ones()
}

/// The tempo terms (quiet rings and their parity), from the side to move's view.
fn tempo_terms(w: &Weights, quiet: u32) -> i32 {
    w.quiet * quiet as i32 / 4 + if quiet % 2 == 1 { w.parity } else { 0 }
}

/// How much the tempo terms can add, seen from the player who moves now, after any placement:
/// an allowance for bounds that ignore them.
pub fn tempo_allowance(w: &Weights, position: &Position) -> i32 {
    let quiet = quiet_rings(position) as i32;
    w.quiet.abs() * quiet / 4 + w.parity.abs()
}

/// The evaluation of a position with no capture pending, from the side to move's view.
pub fn evaluate(w: &Weights, position: &Position) -> i32 {
    let me = position.to_move();
    let avail = available(position);
    let mut score = static_value(w, position);
    if w.quiet != 0 || w.parity != 0 {
        score += tempo_terms(w, quiet_rings(position));
    }
    if w.isolation != 0 || w.threat != 0 {
        let isolations = isolations(position);
        if !isolations.is_empty() {
            score += w.isolation * best_isolation_gain(w, position, &isolations, me, &avail) / 1000;
            if w.threat != 0 {
                score -= w.threat
                    * best_isolation_gain(w, position, &isolations, me.other(), &avail)
                    / 1000;
            }
        }
    }
    score
}

/// How much the best of `isolations` would add to the value of `me`'s captures (`me` may be
/// the player not to move: what they threaten).
fn best_isolation_gain(
    w: &Weights,
    position: &Position,
    isolations: &[Isolation],
    me: Player,
    avail: &[u32; 3],
) -> i32 {
    let before = position.captures(me);
    let base = captures_value(w, position, before, avail);
    let source = position.placement_source();
    let mut best = 0;
    for iso in isolations {
        let mut gained = before;
        for c in Colour::ALL {
            let n = (position.marbles(c) & iso.group).count_ones() as u8;
            gained.set(c, gained.get(c).saturating_add(n));
        }
        // Filling the group's last ring adds the placed marble: the best colour available.
        let colours: Vec<Option<Colour>> = match iso.fill {
            Some(_) => source.colours().map(Some).collect(),
            None => vec![None],
        };
        for colour in colours {
            let mut g = gained;
            if let Some(c) = colour {
                g.set(c, g.get(c).saturating_add(1));
            }
            let value = if position.rule_set().is_win(g) {
                // A win next move: worth far more than any set value.
                4 * w.single[0][1].max(w.each[1])
            } else {
                captures_value(w, position, g, avail) - base
            };
            best = best.max(value);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_text() {
        let mut w = Weights {
            tempo: -3,
            ..Weights::default()
        };
        w.single[1][4] = 77;
        let back = Weights::parse(&w.to_string()).unwrap();
        assert_eq!(back, w);
        assert!(Weights::parse("tempo x").is_err());
        assert!(Weights::parse("nothing 3").is_err());
        assert!(Weights::parse("tempo 1 2").is_err());
        assert_eq!(Weights::parse("# nothing\n").unwrap(), Weights::baseline());
        // The tuned file parses completely (default() would fall back to the baseline).
        assert_eq!(Weights::parse(TUNED), Ok(Weights::default()));
        assert_ne!(Weights::default(), Weights::baseline());
    }

    #[test]
    fn symmetric_start_is_worth_the_tempo() {
        let w = Weights::default();
        let start = Position::standard();
        // No captures yet: only the tempo, and the 37 quiet rings (an odd number).
        assert_eq!(static_value(&w, &start), w.tempo);
        assert_eq!(evaluate(&w, &start), w.tempo + w.quiet * 37 / 4 + w.parity);
    }

    #[test]
    fn nearer_sets_are_worth_more() {
        let w = Weights::default();
        let p = |s: &str| -> Position { s.parse().unwrap() };
        let base = "37 standard ..../...../....../......./....../...../....";
        let three_white = p(&format!("{base} 3/8/10 3/0/0 0/0/0 1"));
        let three_black = p(&format!("{base} 6/8/7 0/0/3 0/0/0 1"));
        assert!(evaluate(&w, &three_white) > evaluate(&w, &three_black));
        // The opponent's captures count against the player to move.
        let theirs = p(&format!("{base} 3/8/10 0/0/0 3/0/0 1"));
        assert!(evaluate(&w, &theirs) < 0);
    }
}
