//! The pairing of one round, bracket by bracket (articles 1.9, 2, 3 and 4 of C.04.3).
//!
//! Each bracket is paired with a maximum-weight matching over all players not yet paired
//! (the bracket and everyone below it, and the bye when the number is odd). An edge's weight
//! is a vector of criteria compared in order: first that the whole round can be completed
//! (C4, every edge counts one), then the score of the bye's assignee (C5), the pairs and the
//! scores paired in the bracket (C6, C7), the pairs and scores of the following bracket
//! (C8), the bye assignee's unplayed games (C9), colours (C10-C13) and floats (C14-C21).
//! Among the pairings best on every criterion the rules take the one generated first
//! (articles 3.5-3.7 and 4): the heterogeneous bracket's set of paired moved-down players
//! (the smallest different pairing number first), their opponents (transpositions of S2),
//! then the remainder's exchanges (fewest, smallest difference of the numbers exchanged,
//! highest number moved from S1, lowest moved from S2) and its transpositions. Those
//! choices are made one after the other, each kept only when a pairing still best on every
//! criterion allows it.

use super::colour;
use super::player::{Float, PlayerState};
use super::solve::{FieldEdge, solve};
use crate::matching::IncrementalMatching;
use crate::trf::Colour;

/// A round's pairs (ranking indices, higher-ranked first) and the bye's receiver.
pub(super) type RoundPairs = (Vec<(usize, usize)>, Option<usize>);

/// A bracket's pairs and its downfloaters.
type BracketPairs = (Vec<(usize, usize)>, Vec<usize>);

/// The round being paired: its players in ranking order (score, then pairing number).
pub(super) struct Round<'a> {
    pub ps: Vec<&'a PlayerState>,
    pub n: usize,
    pub has_bye: bool,
    legal: Vec<Vec<bool>>,
    initial: Colour,
    /// C5: the lowest score the bye's assignee can have (fixed for the whole round, since
    /// every bracket keeps it possible).
    bye_score: Option<u32>,
}

impl<'a> Round<'a> {
    pub fn new(states: &'a [PlayerState], initial: Colour) -> Round<'a> {
        let mut ps: Vec<&PlayerState> = states.iter().collect();
        ps.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
        let n = ps.len();
        let mut legal = vec![vec![false; n + 1]; n + 1];
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (ps[i], ps[j]);
                let ok = !a.met.contains(&b.id)
                    && !b.met.contains(&a.id)
                    && (!absolute_clash(a, b) || a.topscorer || b.topscorer);
                legal[i][j] = ok;
                legal[j][i] = ok;
            }
            legal[i][n] = !ps[i].bye_barred;
            legal[n][i] = legal[i][n];
        }
        Round {
            ps,
            n,
            has_bye: n % 2 == 1,
            legal,
            initial,
            bye_score: None,
        }
    }

    /// Whether `v` may receive the bye: C2, and C5's lowest possible score.
    fn bye_allowed(&self, v: usize) -> bool {
        self.legal[v][self.n] && self.bye_score.is_none_or(|s| self.ps[v].score == s)
    }

    /// Whether the players `set` (and the bye, when the round has one) can all be paired
    /// under the absolute criteria; no two of `apart` may meet (moved-down players of one
    /// bracket never meet each other).
    fn completable_set(&self, set: &[usize], apart: &[bool]) -> bool {
        let mut vs: Vec<usize> = set.to_vec();
        if self.has_bye {
            vs.push(self.n);
        }
        let adj: Vec<Vec<usize>> = vs
            .iter()
            .map(|&u| {
                (0..vs.len())
                    .filter(|&j| {
                        let v = vs[j];
                        if u == v {
                            return false;
                        }
                        if u == self.n {
                            return self.bye_allowed(v);
                        }
                        if v == self.n {
                            return self.bye_allowed(u);
                        }
                        self.legal[u][v] && !(apart[u] && apart[v])
                    })
                    .collect()
            })
            .collect();
        crate::matching::max_cardinality_matching(&adj)
            .iter()
            .all(|m| m.is_some())
    }

    /// The colour of the higher-ranked player `i` (`i < j`) against `j`.
    pub fn colour(&self, i: usize, j: usize) -> Colour {
        colour::allocate(self.ps[i], self.ps[j], self.initial)
    }

    /// Pairs the round: pairs of ranking indices (higher-ranked first) and the index of the
    /// player given the pairing-allocated bye.
    pub fn pair(&mut self) -> Option<RoundPairs> {
        let everyone: Vec<usize> = (0..self.n).collect();
        let nobody = vec![false; self.n + 1];
        if self.has_bye {
            let mut scores: Vec<u32> = (0..self.n)
                .filter(|&v| self.legal[v][self.n])
                .map(|v| self.ps[v].score)
                .collect();
            scores.sort_unstable();
            scores.dedup();
            self.bye_score = None;
            for s in scores {
                self.bye_score = Some(s);
                if self.completable_set(&everyone, &nobody) {
                    break;
                }
                self.bye_score = None;
            }
            self.bye_score?;
        } else if !self.completable_set(&everyone, &nobody) {
            return None;
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..self.n {
            match groups.last_mut() {
                Some(g) if self.ps[g[0]].score == self.ps[i].score => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        let mut mdps: Vec<usize> = Vec::new();
        let mut pairs = Vec::new();
        for gi in 0..groups.len() {
            let mut members = mdps.clone();
            members.extend(&groups[gi]);
            let lower: Vec<usize> = groups[gi + 1..].iter().flatten().copied().collect();
            let next: Vec<usize> = groups.get(gi + 1).cloned().unwrap_or_default();
            if mdps.is_empty()
                && let Some(p) = self.perfect_natural(&members, &lower)
            {
                pairs.extend(p);
                continue;
            }
            let region = next.len() < lower.len();
            let mut b = Bracket::new(
                self,
                members.clone(),
                mdps.len(),
                next.clone(),
                lower.clone(),
                region,
            );
            let mut result = b.run();
            if b.incomplete {
                let mut full = Bracket::new(self, members, mdps.len(), next, lower, false);
                result = full.run();
            }
            let (p, floaters) = result?;
            pairs.extend(p);
            mdps = floaters;
        }
        let bye = match (self.has_bye, mdps.as_slice()) {
            (true, [one]) => Some(*one),
            (false, []) => None,
            _ => return None,
        };
        Some((pairs, bye))
    }
}

impl Round<'_> {
    /// A homogeneous bracket of even size whose first candidate (S1 player i against S2
    /// player i) breaks no criterion at all is perfect and accepted at once (article 3.4),
    /// when the players below can still all be paired.
    fn perfect_natural(&self, members: &[usize], lower: &[usize]) -> Option<Vec<(usize, usize)>> {
        let n = members.len();
        if n == 0 || n % 2 == 1 {
            return None;
        }
        let h = n / 2;
        let mut pairs = Vec::with_capacity(h);
        for i in 0..h {
            let (u, v) = (members[i], members[i + h]);
            if !self.legal[u][v] {
                return None;
            }
            let c = self.colour(u, v);
            if colour::failures(self.ps[u], self.ps[v], c) != [0; 4] {
                return None;
            }
            pairs.push((u, v));
        }
        let nobody = vec![false; self.n + 1];
        self.completable_set(lower, &nobody).then_some(pairs)
    }
}

fn absolute_clash(a: &PlayerState, b: &PlayerState) -> bool {
    use super::player::Preference::Absolute;
    matches!((a.preference, b.preference), (Absolute(x), Absolute(y)) if x == y)
}

/// The pairing of one bracket.
struct Bracket<'r, 'a> {
    r: &'r Round<'a>,
    /// The bracket's players in ranking order, moved-down players first.
    members: Vec<usize>,
    m0: usize,
    /// All players not yet paired and the bye (vertex `r.n`): the matching's vertices.
    active: Vec<usize>,
    local: Vec<usize>,
    in_b: Vec<bool>,
    is_mdp: Vec<bool>,
    in_n: Vec<bool>,
    has_next: bool,
    bsn: Vec<usize>,
    levels_b: Vec<u32>,
    levels_next: Vec<u32>,
    resident_score: u32,
    sd_list: Vec<u32>,
    c9: bool,
    max_unplayed: u32,
    banned: Vec<Vec<bool>>,
    phase: Phase,
    best: Vec<Option<usize>>,
    best_key: Vec<u64>,
    /// The steering field summed over `best` (the part of its weight below the criteria).
    best_steer: u64,
    /// The steering field summed over the matching solved last.
    last_steer: u64,
    /// Only the bracket and the next scoregroup are in the matching; the players further
    /// down must be checked to pair among themselves and with those left.
    region: bool,
    /// The players below the next scoregroup (region mode).
    further: Vec<usize>,
    /// A region solution left the rest unpairable: pair the bracket in full instead.
    pub incomplete: bool,
    cache: Option<Vec<FieldEdge>>,
    /// Region mode: whether the players further down can be paired with each set of
    /// players left unpaired, as found so far.
    completable: std::collections::HashMap<Vec<usize>, bool>,
    /// The index in `cache` of the edge between two local vertices.
    edge_at: Vec<Vec<u32>>,
    /// The matching of the current phase, kept to be solved again from its optimum after
    /// more edges are banned.
    solver: Option<Box<dyn IncrementalMatching>>,
    /// The edges and matching of the previous weights, kept when new weights come in case
    /// they order the matchings the same way.
    previous: Option<(Vec<FieldEdge>, Box<dyn IncrementalMatching>)>,
}

#[derive(Clone)]
enum Phase {
    Criteria,
    /// Choose which moved-down players are paired: the first in pairing order.
    MdpSet,
    /// A homogeneous bracket or remainder: `rem` its players, the first `s1` form S1.
    Exchange {
        in_rem: Vec<bool>,
        rbsn: Vec<usize>,
        s1: usize,
        size: usize,
    },
}

impl<'r, 'a> Bracket<'r, 'a> {
    fn new(
        r: &'r Round<'a>,
        members: Vec<usize>,
        m0: usize,
        next: Vec<usize>,
        lower: Vec<usize>,
        region: bool,
    ) -> Self {
        let n = r.n;
        let mut active = members.clone();
        let further: Vec<usize>;
        if region {
            active.extend(&next);
            further = lower
                .iter()
                .copied()
                .filter(|v| !next.contains(v))
                .collect();
        } else {
            active.extend(&lower);
            further = Vec::new();
            if r.has_bye {
                active.push(n);
            }
        }
        let mut local = vec![usize::MAX; n + 1];
        for (i, &v) in active.iter().enumerate() {
            local[v] = i;
        }
        let mut in_b = vec![false; n + 1];
        let mut is_mdp = vec![false; n + 1];
        let mut bsn = vec![0; n + 1];
        for (i, &v) in members.iter().enumerate() {
            in_b[v] = true;
            is_mdp[v] = i < m0;
            bsn[v] = i + 1;
        }
        let mut in_n = vec![false; n + 1];
        for &v in &next {
            in_n[v] = true;
        }
        let score = |v: usize| r.ps[v].score;
        let mut levels_b: Vec<u32> = members.iter().map(|&v| score(v)).collect();
        levels_b.dedup();
        let mut levels_next: Vec<u32> = members.iter().map(|&v| score(v)).collect();
        levels_next.extend(next.iter().map(|&v| score(v)));
        levels_next.dedup();
        let resident_score = members.last().map(|&v| score(v)).unwrap_or(0);
        let mut sd_list: Vec<u32> = members[..m0]
            .iter()
            .map(|&v| score(v) - resident_score)
            .collect();
        sd_list.dedup();
        let max_unplayed = members.iter().map(|&v| r.ps[v].unplayed).max().unwrap_or(0);
        let m = active.len();
        Bracket {
            r,
            members,
            m0,
            active,
            local,
            in_b,
            is_mdp,
            in_n,
            has_next: !next.is_empty(),
            bsn,
            levels_b,
            levels_next,
            resident_score,
            sd_list,
            c9: false,
            max_unplayed,
            banned: vec![vec![false; m]; m],
            phase: Phase::Criteria,
            best: Vec::new(),
            best_key: Vec::new(),
            best_steer: 0,
            last_steer: 0,
            region,
            further,
            incomplete: false,
            cache: None,
            completable: std::collections::HashMap::new(),
            edge_at: Vec::new(),
            solver: None,
            previous: None,
        }
    }

    fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
        self.invalidate();
    }

    /// The weights change: the edges are built again and the matching solved from scratch.
    fn invalidate(&mut self) {
        if let (Some(c), Some(s)) = (self.cache.take(), self.solver.take()) {
            self.previous = Some((c, s));
        }
    }

    /// The criteria vector of the edge between vertices `u` and `v` (`u < v`; the bye is
    /// `r.n`). The last field only steers the solver towards early candidates and is never
    /// compared.
    fn fields(&self, u: usize, v: usize) -> Vec<u64> {
        let r = self.r;
        let bye = v == r.n;
        let mut f = Vec::with_capacity(48);
        // C4: the whole round completed (only when everyone is in the matching; C5 is kept
        // by offering the bye only to players of the lowest score it can go to).
        f.push(u64::from(!self.region));
        let both = !bye && self.in_b[u] && self.in_b[v];
        // C6
        f.push(both as u64);
        // C7: scores paired, level by level from the top.
        let level_b = |x: usize| self.levels_b.iter().position(|&s| s == r.ps[x].score);
        for l in 0..self.levels_b.len().saturating_sub(1) {
            let c = if both {
                (level_b(u) == Some(l)) as u64 + (level_b(v) == Some(l)) as u64
            } else {
                0
            };
            f.push(c);
        }
        // C8: pairs and scores paired in the following bracket.
        if self.has_next {
            let nb = |x: usize| self.in_b[x] || self.in_n[x];
            let next_pair = !bye && !both && nb(u) && nb(v) && !(self.in_b[u] && self.in_b[v]);
            f.push(next_pair as u64);
            let level = |x: usize| self.levels_next.iter().position(|&s| s == r.ps[x].score);
            for l in 0..self.levels_next.len().saturating_sub(1) {
                let c = if next_pair {
                    (level(u) == Some(l)) as u64 + (level(v) == Some(l)) as u64
                } else {
                    0
                };
                f.push(c);
            }
        }
        // C9: the bye's assignee with the fewest unplayed games.
        f.push(if self.c9 && bye && self.in_b[u] {
            (self.max_unplayed + 1 - r.ps[u].unplayed) as u64
        } else {
            0
        });
        // C10-C13: colours.
        let fails = if both {
            let c = r.colour(u, v);
            colour::failures(r.ps[u], r.ps[v], c)
        } else {
            [0; 4]
        };
        for x in fails {
            f.push(if both { 2 - x as u64 } else { 0 });
        }
        // C14-C17: floats of the previous round and of the one before.
        let mdp_pair = both && (self.is_mdp[u] != self.is_mdp[v]);
        let (m, res) = if self.is_mdp[u] { (u, v) } else { (v, u) };
        for back in 0..2 {
            let down = |x: usize| {
                (self.in_b[x] && !self.is_mdp[x] && r.ps[x].floats[back] == Some(Float::Down))
                    as u64
            };
            f.push(if both { down(u) + down(v) } else { 0 });
            f.push((mdp_pair && r.ps[res].floats[back] != Some(Float::Up)) as u64);
        }
        // Reorder: C14, C15, C16, C17 were pushed as (C14, C15), (C16, C17): already in order.
        // C18-C21: score differences of repeated floats, largest first.
        let sd_index = |x: usize| {
            let sd = r.ps[x].score - self.resident_score;
            self.sd_list.iter().position(|&s| s == sd).unwrap_or(0)
        };
        for back in 0..2 {
            // C18 / C20: moved-down players floating again (unpaired ones count as the
            // largest difference of all).
            let k = self.sd_list.len();
            let j = if mdp_pair && r.ps[m].floats[back] == Some(Float::Down) {
                sd_index(m) + 1
            } else {
                0
            };
            for l in 0..k {
                f.push((l < j) as u64);
            }
            // C19 / C21: their opponents floating up again.
            let k = self.sd_list.len().saturating_sub(1);
            let j = if mdp_pair && r.ps[res].floats[back] == Some(Float::Up) {
                sd_index(m)
            } else {
                0
            };
            for l in 0..k {
                f.push((l < j) as u64);
            }
        }
        // Generation order.
        match &self.phase {
            Phase::Criteria => {}
            Phase::MdpSet => {
                for i in 0..self.m0 {
                    let mdp = self.members[i];
                    f.push((mdp_pair && m == mdp) as u64);
                }
            }
            Phase::Exchange {
                in_rem,
                rbsn,
                s1,
                size,
            } => {
                let pair = !bye && in_rem[u] && in_rem[v];
                let lo = rbsn[u].min(if bye { usize::MAX } else { rbsn[v] });
                let both_s2 = pair && rbsn[u] > *s1 && rbsn[v] > *s1;
                f.push((pair && !both_s2) as u64);
                f.push(if pair { (size + 1 - lo) as u64 } else { 0 });
            }
        }
        // Steering only: early players with early partners.
        let nb = self.members.len() + 1;
        f.push(if both {
            ((nb - self.bsn[u]) * (nb - self.bsn[v])) as u64
        } else {
            0
        });
        f
    }

    fn build_edges(&mut self) {
        if self.cache.is_some() {
            return;
        }
        let r = self.r;
        let m = self.active.len();
        let mut edges = Vec::new();
        for a in 0..m {
            for b in a + 1..m {
                let (u, v) = (self.active[a], self.active[b]);
                let (u, v) = if u < v { (u, v) } else { (v, u) };
                let ok = if v == r.n {
                    r.bye_allowed(u)
                } else {
                    r.legal[u][v] && !(self.is_mdp[u] && self.is_mdp[v])
                };
                if ok {
                    edges.push((a, b, self.fields(u, v)));
                }
            }
        }
        let mut edge_at = vec![vec![u32::MAX; m]; m];
        for (k, &(a, b, _)) in edges.iter().enumerate() {
            edge_at[a][b] = k as u32;
            edge_at[b][a] = k as u32;
        }
        self.cache = Some(edges);
        self.edge_at = edge_at;
    }

    /// Region mode: whether the players left unpaired by `mate`, with those further down,
    /// can still all be paired.
    fn rest_completable(&mut self, mate: &[Option<usize>]) -> bool {
        let left: Vec<usize> = self
            .active
            .iter()
            .enumerate()
            .filter(|(a, _)| mate[*a].is_none())
            .map(|(_, &v)| v)
            .collect();
        if let Some(&known) = self.completable.get(&left) {
            return known;
        }
        let mut rest = left.clone();
        rest.extend(&self.further);
        let known = self.r.completable_set(&rest, &self.in_b);
        self.completable.insert(left, known);
        known
    }

    /// Solves under the current bans (from scratch after the weights changed, else from the
    /// previous optimum): the partners (local indices) and the compared part of the total.
    fn solve_now(&mut self) -> (Vec<Option<usize>>, Vec<u64>) {
        self.solve_above(None).expect("solved in full")
    }

    /// As [`Bracket::solve_now`]; with a margin, gives up (`None`) as soon as the duals
    /// prove the optimum weighs less than the previous one minus the margin.
    fn solve_above(&mut self, margin: Option<u64>) -> Option<(Vec<Option<usize>>, Vec<u64>)> {
        self.build_edges();
        let edges = self.cache.as_ref().expect("built");
        if self.solver.is_none()
            && let Some((old, s)) = self.previous.take()
            && same_order(&old, edges)
        {
            self.solver = Some(s);
        }
        self.previous = None;
        let solver = match &mut self.solver {
            Some(s) => {
                match margin {
                    Some(m) => {
                        if !s.resolve_above(m) {
                            return None;
                        }
                    }
                    None => s.resolve(),
                }
                s
            }
            None => {
                // Likely edges first: near neighbours, and S1 against S2 around the natural
                // partner.
                let h = self.members.len() / 2;
                let window = 8;
                let first: Vec<bool> = edges
                    .iter()
                    .map(|(a, b, _)| {
                        let d = b - a;
                        d <= window || d.abs_diff(h) <= window || self.active[*b] == self.r.n
                    })
                    .collect();
                let removed: Vec<bool> =
                    edges.iter().map(|(a, b, _)| self.banned[*a][*b]).collect();
                self.solver
                    .insert(solve(self.active.len(), edges, &first, &removed))
            }
        };
        let mate = solver.partners();
        let nf = edges.first().map(|e| e.2.len()).unwrap_or(1);
        let mut key = vec![0u64; nf];
        for k in solver.matched_edges() {
            for (x, f) in key.iter_mut().zip(&edges[k].2) {
                *x += f;
            }
        }
        self.last_steer = key.pop().unwrap_or(0);
        if self.region && !self.incomplete && !self.rest_completable(&mate) {
            self.incomplete = true;
        }
        Some((mate, key))
    }

    fn resolve(&mut self) {
        let (mate, key) = self.solve_now();
        self.best = mate;
        self.best_key = key;
        self.best_steer = self.last_steer;
    }

    fn partner(&self, v: usize) -> Option<usize> {
        self.best[self.local[v]].map(|l| self.active[l])
    }

    fn ban(&mut self, u: usize, v: usize) {
        let (a, b) = (self.local[u], self.local[v]);
        if self.banned[a][b] {
            return;
        }
        self.banned[a][b] = true;
        self.banned[b][a] = true;
        let k = self.edge_at.get(a).map_or(u32::MAX, |row| row[b]);
        if k != u32::MAX {
            if let Some(s) = &mut self.solver {
                s.remove(k as usize);
            } else if let Some((_, s)) = &mut self.previous {
                s.remove(k as usize);
            }
        }
    }

    /// Bans the edges if a best pairing remains without them; reports whether it did.
    fn try_bans(&mut self, bans: &[(usize, usize)]) -> bool {
        let uses = bans.iter().any(|&(u, v)| self.partner(u) == Some(v));
        if !uses {
            for &(u, v) in bans {
                self.ban(u, v);
            }
            return true;
        }
        if self.certainly_worse(bans) {
            return false;
        }
        let fresh: Vec<(usize, usize)> = bans
            .iter()
            .map(|&(u, v)| (self.local[u], self.local[v]))
            .filter(|&(a, b)| !self.banned[a][b])
            .collect();
        let had_solver = self.solver.is_some();
        if let Some(s) = &mut self.solver {
            s.save();
        }
        for &(u, v) in bans {
            self.ban(u, v);
        }
        let solved = self.solve_above(Some(self.best_steer));
        if let Some((mate, key)) = solved
            && key == self.best_key
        {
            self.best = mate;
            self.best_steer = self.last_steer;
            true
        } else {
            for (a, b) in fresh {
                self.banned[a][b] = false;
                self.banned[b][a] = false;
            }
            match &mut self.solver {
                Some(s) if had_solver => s.restore(),
                _ => self.solver = None,
            }
            false
        }
    }

    /// Whether the duals of the current optimum prove that no pairing without the edges
    /// `bans` (all at the vertex of the first) is best on the compared criteria: every such
    /// pairing leaves that vertex unpaired or pairs it through an edge still allowed, and
    /// loses more than the steering part of the optimum's weight.
    fn certainly_worse(&self, bans: &[(usize, usize)]) -> bool {
        let (Some(s), Some(&(x, _))) = (&self.solver, bans.first()) else {
            return false;
        };
        let a = self.local[x];
        let mut out = vec![false; self.active.len()];
        for &(u, v) in bans {
            if u == x {
                out[self.local[v]] = true;
            } else if v == x {
                out[self.local[u]] = true;
            }
        }
        let allowed: Vec<usize> = (0..self.active.len())
            .filter(|&b| !out[b] && !self.banned[a][b])
            .map(|b| self.edge_at[a][b])
            .filter(|&k| k != u32::MAX)
            .map(|k| k as usize)
            .collect();
        s.certainly_worse(a, &allowed, self.best_steer)
    }

    /// The edges of `x` other than to `y`, and those of `y` other than to `x`.
    fn others(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut bans = Vec::new();
        for &z in &self.active {
            if z != y && z != x {
                bans.push((x, z));
                bans.push((y, z));
            }
        }
        bans
    }

    fn fix(&mut self, x: usize, y: usize) {
        for (u, v) in self.others(x, y) {
            self.ban(u, v);
        }
    }

    /// Gives `x`, in order, the first partner among `candidates` that a best pairing allows.
    fn first_partner(&mut self, x: usize, candidates: &[usize]) {
        let Some(y0) = self.partner(x) else {
            return;
        };
        let before: Vec<usize> = candidates
            .iter()
            .copied()
            .take_while(|&y| y != y0)
            .filter(|&y| {
                let (a, b) = if x < y { (x, y) } else { (y, x) };
                !self.banned[self.local[x]][self.local[y]] && self.r.legal[a][b]
            })
            .collect();
        // Usually no earlier candidate is allowed: one trial with `x` kept to all of them
        // settles it (a best pairing with `x` paired to one of them, or unpaired, is what
        // any trial of one of them would find). Otherwise they are tried one by one.
        if !before.is_empty() && self.try_bans(&self.outside(x, &before)) {
            for &y in &before {
                if self.try_bans(&self.others(x, y)) {
                    return;
                }
            }
        }
        let y = self.partner(x).expect("partner");
        self.fix(x, y);
    }

    /// The edges of `x` to players not in `keep`.
    fn outside(&self, x: usize, keep: &[usize]) -> Vec<(usize, usize)> {
        let mut kept = vec![false; self.active.len()];
        for &y in keep {
            kept[self.local[y]] = true;
        }
        self.active
            .iter()
            .copied()
            .filter(|&z| z != x && !kept[self.local[z]])
            .map(|z| (x, z))
            .collect()
    }

    fn pairs_in(&self, set: &[bool]) -> usize {
        self.active
            .iter()
            .filter(|&&v| v < self.r.n && set[v])
            .filter(|&&v| matches!(self.partner(v), Some(p) if p < self.r.n && set[p] && p > v))
            .count()
    }

    fn run(&mut self) -> Option<BracketPairs> {
        let r = self.r;
        // The generation order's fields lie below every criterion, so the first solve is
        // made with those of the first phase already (the moved-down players', or the
        // exchanges' with S1 guessed as half the bracket, checked after): the criteria are
        // read from it all the same, and one solve from scratch is saved. Likewise C9 is
        // guessed (on when the bracket is odd and the round has a bye: one player left over
        // when the bracket is fully paired) and checked, the pairs counted by C6 above it
        // not depending on it.
        self.c9 = r.has_bye && self.members.len() % 2 == 1;
        if self.m0 > 0 {
            self.set_phase(Phase::MdpSet);
        } else {
            let members = self.members.clone();
            self.set_phase(self.exchange_fields(&members, members.len() / 2));
        }
        self.resolve();
        if !self.region && !self.best.iter().all(|m| m.is_some()) {
            return None;
        }
        let pairs = self.pairs_in(&self.in_b.clone());
        let c9 = r.has_bye && self.members.len() - 2 * pairs == 1;
        if c9 != self.c9 {
            self.c9 = c9;
            self.invalidate();
            self.resolve();
        }
        let mut rem: Vec<usize> = self.members.clone();
        if self.m0 > 0 {
            let mdps: Vec<usize> = self.members[..self.m0].to_vec();
            let residents: Vec<usize> = self.members[self.m0..].to_vec();
            let paired: Vec<usize> = mdps
                .iter()
                .copied()
                .filter(|&m| matches!(self.partner(m), Some(p) if p < r.n && self.in_b[p]))
                .collect();
            for &m in &mdps {
                if paired.contains(&m) {
                    let outside: Vec<usize> = self
                        .active
                        .iter()
                        .copied()
                        .filter(|&z| !self.in_b[z])
                        .collect();
                    for z in outside {
                        self.ban(m, z);
                    }
                } else {
                    for &z in &residents {
                        self.ban(m, z);
                    }
                }
            }
            for &m in &paired {
                self.first_partner(m, &residents);
            }
            rem = residents
                .into_iter()
                .filter(|&v| !matches!(self.partner(v), Some(p) if p < r.n && self.is_mdp[p]))
                .collect();
        }
        self.exchange_phase(&rem);
        let mut out = Vec::new();
        let mut floaters = Vec::new();
        for &v in &self.members {
            match self.partner(v) {
                Some(p) if p < r.n && self.in_b[p] => {
                    if v < p {
                        out.push((v, p));
                    }
                }
                _ => floaters.push(v),
            }
        }
        Some((out, floaters))
    }

    /// The phase of the exchanges in the remainder `rem` whose S1 has `s1` players.
    fn exchange_fields(&self, rem: &[usize], s1: usize) -> Phase {
        let mut in_rem = vec![false; self.r.n + 1];
        let mut rbsn = vec![0; self.r.n + 1];
        for (i, &v) in rem.iter().enumerate() {
            in_rem[v] = true;
            rbsn[v] = i + 1;
        }
        Phase::Exchange {
            in_rem,
            rbsn,
            s1,
            size: rem.len(),
        }
    }

    /// A homogeneous bracket or the remainder: exchanges, then transpositions.
    fn exchange_phase(&mut self, rem: &[usize]) {
        let r = self.r;
        if rem.len() < 2 {
            return;
        }
        let mut in_rem = vec![false; r.n + 1];
        let mut rbsn = vec![0; r.n + 1];
        for (i, &v) in rem.iter().enumerate() {
            in_rem[v] = true;
            rbsn[v] = i + 1;
        }
        let s1 = self.pairs_in(&in_rem);
        if s1 == 0 {
            return;
        }
        let already = matches!(&self.phase, Phase::Exchange { in_rem: cur, s1: cur_s1, .. }
            if *cur_s1 == s1 && *cur == in_rem);
        if !already {
            self.set_phase(self.exchange_fields(rem, s1));
            self.resolve();
        }
        let s1r: Vec<usize> = rem[..s1].to_vec();
        let s2r: Vec<usize> = rem[s1..].to_vec();
        let k = s2r
            .iter()
            .filter(|&&v| matches!(self.partner(v), Some(p) if p < r.n && in_rem[p] && rbsn[p] > s1 && p > v))
            .count();
        let outside: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&z| z == r.n || !in_rem[z])
            .collect();
        if k > 0 {
            // Players moved from S1: the highest numbers first.
            let mut outs = 0;
            for &x in s1r.iter().rev() {
                let make_in: Vec<(usize, usize)> = rem
                    .iter()
                    .copied()
                    .filter(|&y| rbsn[y] > s1 || (rbsn[y] > rbsn[x]))
                    .map(|y| (x, y))
                    .collect();
                let make_out: Vec<(usize, usize)> = rem
                    .iter()
                    .copied()
                    .filter(|&y| rbsn[y] <= s1 && rbsn[y] < rbsn[x])
                    .map(|y| (x, y))
                    .chain(outside.iter().map(|&z| (x, z)))
                    .collect();
                if outs < k && self.try_bans(&make_in) {
                    outs += 1;
                } else {
                    for (u, v) in make_out {
                        self.ban(u, v);
                    }
                }
            }
            // Players moved from S2: the lowest numbers first.
            let mut ins = 0;
            for &y in &s2r {
                let make_in: Vec<(usize, usize)> = rem
                    .iter()
                    .copied()
                    .filter(|&z| rbsn[z] < rbsn[y])
                    .map(|z| (y, z))
                    .chain(outside.iter().map(|&z| (y, z)))
                    .collect();
                let make_out: Vec<(usize, usize)> = rem
                    .iter()
                    .copied()
                    .filter(|&z| rbsn[z] > rbsn[y])
                    .map(|z| (y, z))
                    .collect();
                if ins < k && self.try_bans(&make_in) {
                    ins += 1;
                } else {
                    for (u, v) in make_out {
                        self.ban(u, v);
                    }
                }
            }
        }
        // S1 after the exchange: the players of each pair with the lower number.
        let mut new_s1: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&v| matches!(self.partner(v), Some(p) if p < r.n && in_rem[p] && rbsn[p] > rbsn[v]))
            .collect();
        new_s1.sort_by_key(|&v| rbsn[v]);
        let new_s2: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|v| !new_s1.contains(v))
            .collect();
        for &x in &new_s1 {
            self.first_partner(x, &new_s2);
        }
    }
}

/// Whether two lists of the same edges have the same weights once the fields that are zero
/// on every edge are left out (such fields take no bits in the packed weight), so that a
/// matching optimal under one is optimal under the other.
fn same_order(a: &[FieldEdge], b: &[FieldEdge]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let used = |list: &[FieldEdge]| -> Vec<usize> {
        let nf = list.first().map_or(0, |e| e.2.len());
        (0..nf)
            .filter(|&f| list.iter().any(|e| e.2[f] != 0))
            .collect()
    };
    let (ua, ub) = (used(a), used(b));
    ua.len() == ub.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.0 == y.0 && x.1 == y.1 && ua.iter().zip(&ub).all(|(&i, &j)| x.2[i] == y.2[j])
        })
}
