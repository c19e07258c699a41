//! Maximum-weight matching in a general graph: Edmonds' primal-dual blossom algorithm in the
//! O(n³) form (labels S and T, blossoms shrunk and expanded, the four kinds of dual change),
//! over any unsigned integer-like weight, so that a weight can hold many criteria side by
//! side in fields of bits (see [`Big`]).

use std::cmp::Ordering;

/// A non-negative weight: what the algorithm needs of a number.
pub trait Weight: Copy + Ord + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
    /// One.
    fn one() -> Self;
    /// The number `x`.
    fn from_u64(x: u64) -> Self;
    /// The sum.
    fn plus(self, other: Self) -> Self;
    /// The difference; `other` is never larger than `self`.
    fn minus(self, other: Self) -> Self;
    /// Half, rounded down.
    fn half(self) -> Self;
    /// Twice.
    fn twice(self) -> Self {
        self.plus(self)
    }
}

impl Weight for u64 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn from_u64(x: u64) -> Self {
        x
    }
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn minus(self, other: Self) -> Self {
        self - other
    }
    fn half(self) -> Self {
        self >> 1
    }
}

impl Weight for u128 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn from_u64(x: u64) -> Self {
        x as u128
    }
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn minus(self, other: Self) -> Self {
        self - other
    }
    fn half(self) -> Self {
        self >> 1
    }
}

/// An unsigned integer of `N` 64-bit limbs, least significant first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Big<const N: usize>(pub [u64; N]);

impl<const N: usize> Big<N> {
    /// `value << shift`; bits shifted past the top are lost.
    pub fn shifted(value: u64, shift: usize) -> Self {
        let mut out = [0u64; N];
        let limb = shift / 64;
        let bit = shift % 64;
        if limb < N {
            out[limb] = value << bit;
            if bit > 0 && limb + 1 < N {
                out[limb + 1] = value >> (64 - bit);
            }
        }
        Big(out)
    }

    /// The value shifted right by `shift` bits.
    pub fn shifted_right(self, shift: usize) -> Self {
        let mut out = [0u64; N];
        let limb = shift / 64;
        let bit = shift % 64;
        for (i, o) in out.iter_mut().enumerate() {
            let src = i + limb;
            if src < N {
                *o = self.0[src] >> bit;
                if bit > 0 && src + 1 < N {
                    *o |= self.0[src + 1] << (64 - bit);
                }
            }
        }
        Big(out)
    }
}

impl<const N: usize> Ord for Big<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Big<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Weight for Big<N> {
    fn zero() -> Self {
        Big([0; N])
    }
    fn one() -> Self {
        Big::shifted(1, 0)
    }
    fn from_u64(x: u64) -> Self {
        Big::shifted(x, 0)
    }
    fn plus(self, other: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *o = s2;
            carry = c1 || c2;
        }
        Big(out)
    }
    fn minus(self, other: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *o = d2;
            borrow = b1 || b2;
        }
        Big(out)
    }
    fn half(self) -> Self {
        self.shifted_right(1)
    }
}

const NONE: usize = usize::MAX;

/// The solver's state, kept between solves so that the matching can be re-optimised after
/// edges are removed (see [`IncrementalMatching`]); see also [`max_weight_matching`].
struct Solver<W: Weight> {
    n: usize,
    edges: Vec<(usize, usize, W)>,
    endpoint: Vec<usize>,
    /// For each vertex, its edges: the remote endpoint, the neighbour, the weight (kept
    /// together, so that a scan reads memory in order).
    neighbend: Vec<Vec<Adj<W>>>,
    /// Edges taken out of the graph.
    removed: Vec<bool>,
    /// Edges removed since the last solve, whose effect on the matching, the duals and the
    /// blossoms is still to be applied.
    pending: Vec<usize>,
    /// Scratch space: the blossom whose cycle uses each edge, or `NONE`.
    cycle_of: Vec<usize>,
    /// The number of vertices of each blossom.
    bsize: Vec<usize>,
    /// While set, the stages stop as soon as twice the dual objective (an upper bound on
    /// twice the optimum) falls below it.
    floor: Option<W>,
    /// The stages stopped on `floor`.
    stopped: bool,
    /// Removed edges still in the lists of their ends (skipped there).
    stale: usize,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    saved: Option<Saved<W>>,
}

/// An edge seen from one of its vertices.
#[derive(Clone, Copy)]
struct Adj<W> {
    /// The remote endpoint (`2k` or `2k + 1` for edge `k`).
    p: usize,
    /// The neighbour.
    w: usize,
    weight: W,
}

/// What a solve changes, kept to undo it.
struct Saved<W> {
    removed: Vec<usize>,
    stale: usize,
    pending: Vec<usize>,
    bsize: Vec<usize>,
    mate: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
}

impl<W: Weight> Solver<W> {
    /// Twice the reduced cost of edge `k` between two different top-level blossoms.
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i].plus(self.dualvar[j]).minus(w.twice())
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.blossomchilds[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.bsize[b] = path.iter().map(|&c| self.bsize[c]).sum();
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        let mut bestslack: Vec<Option<W>> = vec![None; 2 * self.n];
        // The slack is taken only for an edge that leaves the blossom to an S-blossom: an
        // edge inside it may have a negative slack by the vertex duals alone.
        let mut consider = |s: &Self, k: usize, j: usize, duals: W, twice_weight: W| {
            let bj = s.inblossom[j];
            if bj != b && s.label[bj] == 1 {
                let slack = duals.minus(twice_weight);
                if bestslack[bj].is_none_or(|x| slack < x) {
                    bestedgeto[bj] = k;
                    bestslack[bj] = Some(slack);
                }
            }
        };
        for &bv in &path {
            match self.blossombestedges[bv].take() {
                Some(list) => {
                    for k in list {
                        if self.removed[k] {
                            continue;
                        }
                        let (i, j, w) = self.edges[k];
                        let duals = self.dualvar[i].plus(self.dualvar[j]);
                        let j = if self.inblossom[j] == b { i } else { j };
                        consider(self, k, j, duals, w.twice());
                    }
                }
                None => {
                    for v in self.leaves_of(bv) {
                        for idx in 0..self.neighbend[v].len() {
                            let a = self.neighbend[v][idx];
                            if self.removed[a.p / 2] {
                                continue;
                            }
                            let duals = self.dualvar[v].plus(self.dualvar[a.w]);
                            consider(self, a.p / 2, a.w, duals, a.weight.twice());
                        }
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| -> usize { (((j % len) + len) % len) as usize };
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let q = endps[at(j - endptrick as isize)];
                self.label[self.endpoint[p ^ 1]] = 0;
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = found {
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[m]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let at = |j: isize| -> usize { (((j % len) + len) % len) as usize };
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i as usize);
        self.blossomendps[b].rotate_left(i as usize);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    /// Swaps the matched and unmatched edges on the alternating path from `s` up to the root
    /// of its tree; `s` is then matched through endpoint `p` (or left free, `NONE`).
    fn augment_from(&mut self, mut s: usize, mut p: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint[self.labelend[bs]];
            let bt = self.inblossom[t];
            s = self.endpoint[self.labelend[bt]];
            let j = self.endpoint[self.labelend[bt] ^ 1];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        self.augment_from(v, 2 * k + 1);
        self.augment_from(w, 2 * k);
    }

    /// The primal-dual stages, from any state in which the duals are feasible, every matched
    /// edge is tight and every blossom is whole: each stage grows alternating trees from the
    /// free vertices whose dual is still positive (the optimality conditions want the dual of
    /// a free vertex to be zero) and ends with an augmentation, or when such a vertex's dual
    /// reaches zero (if it is matched, the path to its tree's root is flipped so that it
    /// becomes the free one). From scratch (every vertex free, every dual equal) this is
    /// Edmonds' algorithm as usual; after a few edges are removed, only the few vertices they
    /// freed are searched from.
    fn solve(&mut self) {
        let n = self.n;
        loop {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            let roots: Vec<usize> = (0..n)
                .filter(|&v| self.mate[v] == NONE && self.dualvar[v] > W::zero())
                .collect();
            if roots.is_empty() {
                break;
            }
            let odd = |d: W| d != d.half().twice();
            let parity = odd(self.dualvar[roots[0]]);
            for &r in &roots[1..] {
                if odd(self.dualvar[r]) != parity {
                    self.raise_root(r);
                }
            }
            for &r in &roots {
                if self.label[self.inblossom[r]] == 0 {
                    self.assign_label(r, 1, NONE);
                }
            }
            'stage: loop {
                while let Some(v) = self.queue.pop() {
                    for idx in 0..self.neighbend[v].len() {
                        let Adj { p, w, weight } = self.neighbend[v][idx];
                        let k = p / 2;
                        if self.removed[k] {
                            continue;
                        }
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.dualvar[v].plus(self.dualvar[w]).minus(weight.twice());
                            if kslack == W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            let bw = self.inblossom[w];
                            if self.label[bw] == 0 {
                                if self.mate[self.blossombase[bw]] == NONE {
                                    // A free vertex whose dual is already zero: augment.
                                    self.labelend[w] = NONE;
                                    self.labelend[bw] = NONE;
                                    self.augment_matching(k);
                                    break 'stage;
                                }
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    break 'stage;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                // No augmenting path with tight edges: change the duals. Type 1: an
                // S-vertex's dual reaches zero (a free one first, on a tie).
                let mut deltatype = 1;
                let mut delta = W::zero();
                let mut deltavertex = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 1 {
                        let d = self.dualvar[v];
                        let better = deltavertex == NONE
                            || d < delta
                            || (d == delta
                                && self.mate[v] == NONE
                                && self.mate[deltavertex] != NONE);
                        if better {
                            delta = d;
                            deltavertex = v;
                        }
                    }
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let kslack = self.slack(self.bestedge[b]);
                        let d = kslack.half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].minus(delta),
                        2 => self.dualvar[v] = self.dualvar[v].plus(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].plus(delta),
                            2 => self.dualvar[b] = self.dualvar[b].minus(delta),
                            _ => {}
                        }
                    }
                }
                if let Some(floor) = self.floor
                    && self.objective2() < floor
                {
                    self.stopped = true;
                    return;
                }
                match deltatype {
                    1 => {
                        if self.mate[deltavertex] != NONE {
                            // A matched S-vertex of zero dual: it becomes the free one.
                            self.augment_from(deltavertex, NONE);
                        }
                        break 'stage;
                    }
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, mut j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// Twice the dual objective, `Σ 2y_v + Σ z_B·(|B| - 1)`: at least twice the weight of
    /// any matching (linear-programming duality).
    fn objective2(&self) -> W {
        let mut total = W::zero();
        for v in 0..self.n {
            total = total.plus(self.dualvar[v]);
        }
        for b in self.n..2 * self.n {
            if self.blossombase[b] != NONE && self.dualvar[b] != W::zero() {
                // z·(|B| - 1) by doubling.
                let (mut x, mut c) = (self.dualvar[b], self.bsize[b] - 1);
                while c > 0 {
                    if c & 1 == 1 {
                        total = total.plus(x);
                    }
                    x = x.twice();
                    c >>= 1;
                }
            }
        }
        total
    }

    /// Raises by one the dual of the free vertex `r` (and of every vertex of the blossoms
    /// around it, lowering theirs, so that no edge inside them changes): every root of a
    /// stage must have duals of the same parity, so that the slack of an edge between two
    /// S-vertices is even and half of it an integer.
    fn raise_root(&mut self, r: usize) {
        loop {
            let b = self.inblossom[r];
            if b == r {
                self.dualvar[r] = self.dualvar[r].plus(W::one());
                return;
            }
            if self.dualvar[b] == W::zero() {
                self.dissolve(b);
                continue;
            }
            self.dualvar[b] = self.dualvar[b].minus(W::one());
            for v in self.leaves_of(b) {
                self.dualvar[v] = self.dualvar[v].plus(W::one());
            }
            return;
        }
    }

    /// Back to the start of Edmonds' algorithm on the edges in `include` (and not removed):
    /// nothing matched, no blossom, every vertex's dual the largest weight.
    fn reset(&mut self, include: &[bool]) {
        let n = self.n;
        let mut maxweight = W::zero();
        for v in &mut self.neighbend {
            v.clear();
        }
        self.stale = 0;
        for (k, &(i, j, w)) in self.edges.iter().enumerate() {
            if include[k] && !self.removed[k] {
                maxweight = maxweight.max(w);
                self.neighbend[i].push(Adj {
                    p: 2 * k + 1,
                    w: j,
                    weight: w,
                });
                self.neighbend[j].push(Adj {
                    p: 2 * k,
                    w: i,
                    weight: w,
                });
            }
        }
        self.pending.clear();
        self.mate.iter_mut().for_each(|m| *m = NONE);
        self.labelend.iter_mut().for_each(|m| *m = NONE);
        self.inblossom = (0..n).collect();
        self.blossomparent.iter_mut().for_each(|m| *m = NONE);
        self.blossomchilds.iter_mut().for_each(Vec::clear);
        self.blossomendps.iter_mut().for_each(Vec::clear);
        self.blossombase = (0..n).chain(std::iter::repeat_n(NONE, n)).collect();
        self.unusedblossoms = (n..2 * n).collect();
        self.dualvar = std::iter::repeat_n(maxweight, n)
            .chain(std::iter::repeat_n(W::zero(), n))
            .collect();
    }

    /// A new solver for the graph, nothing solved yet.
    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        for &(i, j, _) in &edges {
            endpoint.push(i);
            endpoint.push(j);
        }
        let m = edges.len();
        Solver {
            n,
            edges,
            endpoint,
            neighbend: vec![Vec::new(); n],
            removed: vec![false; m],
            pending: Vec::new(),
            cycle_of: vec![NONE; m],
            bsize: vec![1; 2 * n],
            floor: None,
            stopped: false,
            stale: 0,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar: vec![W::zero(); 2 * n],
            allowedge: vec![false; m],
            queue: Vec::new(),
            saved: None,
        }
    }

    /// Solves from scratch, first on the edges marked in `first` (those likely to be used),
    /// then, while the final duals are violated by edges left out, with those added
    /// (linear-programming optimality: a matching and feasible duals in complementary
    /// slackness prove the optimum). The final state serves every edge not removed.
    fn solve_sparse(&mut self, first: &[bool]) {
        let mut included = first.to_vec();
        self.reset(&included);
        self.solve();
        loop {
            // Each vertex's blossom duals summed, and its top blossom's: the blossom part of
            // an edge's dual sum lies between them (checked exactly only in between).
            let mut around = vec![W::zero(); self.n];
            let mut top = vec![W::zero(); self.n];
            for v in 0..self.n {
                let mut b = self.blossomparent[v];
                while b != NONE {
                    around[v] = around[v].plus(self.dualvar[b]);
                    b = self.blossomparent[b];
                }
                if self.inblossom[v] != v {
                    top[v] = self.dualvar[self.inblossom[v]];
                }
            }
            let violated: Vec<usize> = (0..self.edges.len())
                .filter(|&k| {
                    if included[k] || self.removed[k] {
                        return false;
                    }
                    let (i, j, w) = self.edges[k];
                    let base = self.dualvar[i].plus(self.dualvar[j]);
                    if self.inblossom[i] != self.inblossom[j] {
                        return base < w.twice();
                    }
                    if base.plus(top[i].twice()) >= w.twice() {
                        return false;
                    }
                    if base.plus(around[i].min(around[j]).twice()) < w.twice() {
                        return true;
                    }
                    !self.dual_feasible(i, j, w)
                })
                .collect();
            if violated.is_empty() {
                break;
            }
            for k in violated {
                included[k] = true;
                self.admit(k);
            }
            self.solve();
        }
        for (k, &inc) in included.iter().enumerate() {
            if !inc && !self.removed[k] {
                self.link(k);
            }
        }
    }

    /// Puts edge `k` in its ends' lists.
    fn link(&mut self, k: usize) {
        let (i, j, w) = self.edges[k];
        self.neighbend[i].push(Adj {
            p: 2 * k + 1,
            w: j,
            weight: w,
        });
        self.neighbend[j].push(Adj {
            p: 2 * k,
            w: i,
            weight: w,
        });
    }

    /// Adds edge `k`, left out so far, to the graph solved: if the duals are too small for
    /// it, the blossoms around one end are taken apart and that end's dual raised until
    /// the edge is tight (that end is unmatched, its matched edge being tight no more).
    fn admit(&mut self, k: usize) {
        self.link(k);
        let (i, j, w) = self.edges[k];
        if self.dual_sum(i, j) >= w.twice() {
            return;
        }
        while self.inblossom[i] != i {
            self.dissolve(self.inblossom[i]);
        }
        let sum = self.dual_sum(i, j);
        if sum < w.twice() {
            self.dualvar[i] = self.dualvar[i].plus(w.twice()).minus(sum);
            if self.mate[i] != NONE {
                let m = self.endpoint[self.mate[i]];
                self.mate[m] = NONE;
                self.mate[i] = NONE;
            }
        }
    }

    /// Takes apart the top-level blossom `b`: its dual goes to its vertices (which keeps
    /// every edge inside it as it was and the edges leaving it feasible); the matched edge
    /// at its base, no longer tight when that dual was positive, is unmatched.
    fn dissolve(&mut self, b: usize) {
        let z = self.dualvar[b];
        if z > W::zero() {
            for v in self.leaves_of(b) {
                self.dualvar[v] = self.dualvar[v].plus(z);
            }
            let base = self.blossombase[b];
            if self.mate[base] != NONE {
                let m = self.endpoint[self.mate[base]];
                self.mate[m] = NONE;
                self.mate[base] = NONE;
            }
        }
        let childs = std::mem::take(&mut self.blossomchilds[b]);
        for &c in &childs {
            self.blossomparent[c] = NONE;
            for v in self.leaves_of(c) {
                self.inblossom[v] = c;
            }
        }
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.dualvar[b] = W::zero();
        self.unusedblossoms.push(b);
    }

    /// Applies the removal of the pending edges: a blossom whose cycle uses one is taken
    /// apart (with every blossom around it), a matched one is unmatched. The duals stay
    /// feasible, the matched edges tight, the blossoms whole.
    fn apply_removals(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return;
        }
        // The blossom whose cycle uses each edge (an edge is in one cycle at most).
        let mut marked = Vec::new();
        for b in self.n..2 * self.n {
            if self.blossombase[b] != NONE {
                for &p in &self.blossomendps[b] {
                    self.cycle_of[p / 2] = b;
                    marked.push(p / 2);
                }
            }
        }
        for k in pending {
            let (i, j, _) = self.edges[k];
            let c = self.cycle_of[k];
            // Taken apart already with a blossom around it: nothing more to do.
            if c != NONE && self.blossombase[c] != NONE {
                let mut chain = vec![c];
                let mut b = self.blossomparent[c];
                while b != NONE {
                    chain.push(b);
                    b = self.blossomparent[b];
                }
                for &b in chain.iter().rev() {
                    self.dissolve(b);
                }
            }
            if self.mate[i] == 2 * k + 1 {
                self.mate[i] = NONE;
                self.mate[j] = NONE;
            }
        }
        for k in marked {
            self.cycle_of[k] = NONE;
        }
    }

    /// Whether an edge of weight `w` between `i` and `j` (not necessarily one the solver
    /// knew) respects the final duals: `2y_i + 2y_j + 2·Σz(blossoms holding both) ≥ 2w`.
    fn dual_feasible(&self, i: usize, j: usize, w: W) -> bool {
        self.dualvar[i].plus(self.dualvar[j]) >= w.twice() || self.dual_sum(i, j) >= w.twice()
    }

    /// `2y_i + 2y_j + 2·Σz(blossoms holding both)`: twice the weight edge `i`-`j` may have.
    fn dual_sum(&self, i: usize, j: usize) -> W {
        let mut lhs = self.dualvar[i].plus(self.dualvar[j]);
        if self.inblossom[i] == self.inblossom[j] {
            // The smallest blossom holding both (blossoms may nest deeply: walk up from the
            // deeper one to the same depth, then from both together), and every one
            // around it.
            let depth = |mut v: usize| {
                let mut d = 0;
                while self.blossomparent[v] != NONE {
                    v = self.blossomparent[v];
                    d += 1;
                }
                d
            };
            let (mut a, mut b) = (i, j);
            let (mut da, mut db) = (depth(a), depth(b));
            while da > db {
                a = self.blossomparent[a];
                da -= 1;
            }
            while db > da {
                b = self.blossomparent[b];
                db -= 1;
            }
            while a != b {
                a = self.blossomparent[a];
                b = self.blossomparent[b];
            }
            while a != NONE {
                lhs = lhs.plus(self.dualvar[a].twice());
                a = self.blossomparent[a];
            }
        }
        lhs
    }

    fn partners(&self) -> Vec<Option<usize>> {
        self.mate
            .iter()
            .map(|&p| {
                if p == NONE {
                    None
                } else {
                    Some(self.endpoint[p])
                }
            })
            .collect()
    }
}

/// A maximum-weight matching kept between solves: edges can be removed and the optimum
/// found again from the previous one (its duals, blossoms and matching, with only the
/// vertices the removal freed searched from), and a solve can be undone.
pub trait IncrementalMatching {
    /// Takes edge `k` (its index in the list given) out of the graph; applied at the next
    /// [`IncrementalMatching::resolve`].
    fn remove(&mut self, k: usize);
    /// The optimum again, after removals.
    fn resolve(&mut self);
    /// The optimum again, after removals, unless the duals prove on the way that it weighs
    /// less than the optimum before them minus `margin` (the matching is then left half
    /// solved, to be restored): whether it was solved.
    fn resolve_above(&mut self, margin: u64) -> bool;
    /// Each vertex's partner.
    fn partners(&self) -> Vec<Option<usize>>;
    /// The indices of the matched edges.
    fn matched_edges(&self) -> Vec<usize>;
    /// Remembers the state (the matching, duals, blossoms and removals), replacing what was
    /// remembered.
    fn save(&mut self);
    /// Goes back to the state last saved.
    fn restore(&mut self);
    /// Whether every matching in which vertex `v` is free or matched through one of the
    /// edges `allowed` weighs less than the optimum minus `margin`, as the duals prove
    /// (linear-programming duality: such a matching loses at least the reduced cost of each
    /// of its edges, and the dual of each vertex it leaves free). Valid after removals not
    /// yet solved again, as long as the optimum found last is still in the graph.
    fn certainly_worse(&self, v: usize, allowed: &[usize], margin: u64) -> bool;
}

impl<W: Weight> IncrementalMatching for Solver<W> {
    fn remove(&mut self, k: usize) {
        if !self.removed[k] {
            self.removed[k] = true;
            self.stale += 1;
            self.pending.push(k);
            if let Some(s) = &mut self.saved {
                s.removed.push(k);
            }
        }
    }

    fn resolve(&mut self) {
        self.apply_removals();
        self.solve();
    }

    fn resolve_above(&mut self, margin: u64) -> bool {
        let mut before = W::zero();
        for k in IncrementalMatching::matched_edges(self) {
            before = before.plus(self.edges[k].2.twice());
        }
        let cut = W::from_u64(margin).twice();
        self.floor = (before >= cut).then(|| before.minus(cut));
        self.stopped = false;
        self.apply_removals();
        self.solve();
        self.floor = None;
        !self.stopped
    }

    fn partners(&self) -> Vec<Option<usize>> {
        Solver::partners(self)
    }

    fn matched_edges(&self) -> Vec<usize> {
        (0..self.n)
            .filter(|&v| self.mate[v] != NONE && self.mate[v] & 1 == 1)
            .map(|v| self.mate[v] / 2)
            .collect()
    }

    fn save(&mut self) {
        // Many removed edges still listed: out of the lists with them (an edge removed
        // after this is put back by `restore` and must still be listed).
        let listed: usize = self.neighbend.iter().map(Vec::len).sum();
        if 8 * self.stale > listed {
            let removed = &self.removed;
            for list in &mut self.neighbend {
                list.retain(|a| !removed[a.p / 2]);
            }
            self.stale = 0;
        }
        self.saved = Some(Saved {
            removed: Vec::new(),
            stale: self.stale,
            pending: self.pending.clone(),
            bsize: self.bsize.clone(),
            mate: self.mate.clone(),
            inblossom: self.inblossom.clone(),
            blossomparent: self.blossomparent.clone(),
            blossomchilds: self.blossomchilds.clone(),
            blossombase: self.blossombase.clone(),
            blossomendps: self.blossomendps.clone(),
            unusedblossoms: self.unusedblossoms.clone(),
            dualvar: self.dualvar.clone(),
        });
    }

    fn certainly_worse(&self, v: usize, allowed: &[usize], margin: u64) -> bool {
        let twice = W::from_u64(margin).twice();
        self.dualvar[v] > twice
            && allowed.iter().all(|&k| {
                let (i, j, w) = self.edges[k];
                let exceeds = |sum: W| sum > w.twice() && sum.minus(w.twice()) > twice;
                exceeds(self.dualvar[i].plus(self.dualvar[j])) || exceeds(self.dual_sum(i, j))
            })
    }

    fn restore(&mut self) {
        let s = self.saved.take().expect("a saved state");
        for k in s.removed {
            self.removed[k] = false;
        }
        self.pending = s.pending;
        self.stale = s.stale;
        self.bsize = s.bsize;
        self.mate = s.mate;
        self.inblossom = s.inblossom;
        self.blossomparent = s.blossomparent;
        self.blossomchilds = s.blossomchilds;
        self.blossombase = s.blossombase;
        self.blossomendps = s.blossomendps;
        self.unusedblossoms = s.unusedblossoms;
        self.dualvar = s.dualvar;
    }
}

/// A maximum-weight matching of `n` vertices, solved as [`max_weight_matching_sparse`]
/// does, kept to be solved again after edges are removed.
pub fn incremental_matching<W: Weight + 'static>(
    n: usize,
    edges: Vec<(usize, usize, W)>,
    first: &[bool],
    removed: &[bool],
) -> Box<dyn IncrementalMatching> {
    let mut s = Solver::new(n, edges);
    for (k, &r) in removed.iter().enumerate() {
        if r {
            s.removed[k] = true;
        }
    }
    s.solve_sparse(first);
    Box::new(s)
}

/// A maximum-weight matching of the graph with `n` vertices and the given edges
/// `(u, v, weight)`: each vertex's partner, or `None`. Edges of weight zero may be left out.
/// Weights of all edges must leave room for twice the largest weight plus twice the largest
/// weight again (the duals) without overflow.
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    run_solver(n, edges).partners()
}

fn run_solver<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Solver<W> {
    let mut s = Solver::new(n, edges.to_vec());
    s.reset(&vec![true; edges.len()]);
    s.solve();
    s
}

/// The same matching as [`max_weight_matching`], found faster on dense graphs: solved first
/// on the edges marked in `first` (those likely to be used), then the final duals are
/// checked against every other edge (linear-programming optimality: a matching and feasible
/// duals in complementary slackness prove the optimum); edges that violate them are added
/// and the matching solved again, until none does.
pub fn max_weight_matching_sparse<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    first: &[bool],
) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let mut s = Solver::new(n, edges.to_vec());
    s.solve_sparse(first);
    s.partners()
}

/// A maximum-cardinality matching (Edmonds' algorithm, blossoms found by breadth-first
/// search), starting from a greedy matching: each vertex's partner, or `None`.
pub fn max_cardinality_matching(adj: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = adj.len();
    let mut mate = vec![NONE; n];
    for v in 0..n {
        if mate[v] == NONE
            && let Some(&u) = adj[v].iter().find(|&&u| u != v && mate[u] == NONE)
        {
            mate[v] = u;
            mate[u] = v;
        }
    }
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut used = vec![false; n];
    let mut blossom = vec![false; n];
    let mut queue = std::collections::VecDeque::new();
    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        parent.iter_mut().for_each(|p| *p = NONE);
        used.iter_mut().for_each(|u| *u = false);
        for (i, b) in base.iter_mut().enumerate() {
            *b = i;
        }
        used[root] = true;
        queue.clear();
        queue.push_back(root);
        let mut end = NONE;
        'search: while let Some(v) = queue.pop_front() {
            for &to in &adj[v] {
                if base[v] == base[to] || mate[v] == to {
                    continue;
                }
                if to == root || (mate[to] != NONE && parent[mate[to]] != NONE) {
                    // An odd cycle: shrink it to its base.
                    let lca = {
                        let mut seen = vec![false; n];
                        let mut a = v;
                        loop {
                            a = base[a];
                            seen[a] = true;
                            if mate[a] == NONE {
                                break;
                            }
                            a = parent[mate[a]];
                        }
                        let mut b = to;
                        loop {
                            b = base[b];
                            if seen[b] {
                                break b;
                            }
                            b = parent[mate[b]];
                        }
                    };
                    blossom.iter_mut().for_each(|b| *b = false);
                    for (start, child) in [(v, to), (to, v)] {
                        let (mut x, mut c) = (start, child);
                        while base[x] != lca {
                            blossom[base[x]] = true;
                            blossom[base[mate[x]]] = true;
                            parent[x] = c;
                            c = mate[x];
                            x = parent[mate[x]];
                        }
                    }
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = lca;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if mate[to] == NONE {
                        end = to;
                        break 'search;
                    }
                    let next = mate[to];
                    used[next] = true;
                    queue.push_back(next);
                }
            }
        }
        let mut v = end;
        while v != NONE {
            let pv = parent[v];
            let ppv = mate[pv];
            mate[v] = pv;
            mate[pv] = v;
            v = ppv;
        }
    }
    mate.iter()
        .map(|&m| if m == NONE { None } else { Some(m) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, edges: &[(usize, usize, u64)]) -> u64 {
        fn go(v: usize, n: usize, used: &mut Vec<bool>, w: &[Vec<Option<u64>>]) -> u64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, n, used, w);
            }
            used[v] = true;
            let mut best = go(v + 1, n, used, w);
            for u in v + 1..n {
                if !used[u]
                    && let Some(x) = w[v][u]
                {
                    used[u] = true;
                    best = best.max(x + go(v + 1, n, used, w));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut w = vec![vec![None; n]; n];
        for &(a, b, x) in edges {
            w[a][b] = Some(x);
            w[b][a] = Some(x);
        }
        go(0, n, &mut vec![false; n], &w)
    }

    fn total(edges: &[(usize, usize, u64)], mate: &[Option<usize>]) -> u64 {
        let mut t = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v));
                if v < u {
                    t += edges
                        .iter()
                        .filter(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v))
                        .map(|e| e.2)
                        .max()
                        .expect("a matched pair is an edge");
                }
            }
        }
        t
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut seed = 12345u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for round in 0..3000 {
            let n = 2 + rnd(9) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rnd(100) < 60 {
                        let w = if round % 2 == 0 {
                            1 + rnd(10)
                        } else {
                            1 + rnd(3)
                        };
                        edges.push((a, b, w));
                    }
                }
            }
            let mate = max_weight_matching(n, &edges);
            assert_eq!(total(&edges, &mate), brute(n, &edges), "{edges:?}");
            let big: Vec<(usize, usize, Big<3>)> = edges
                .iter()
                .map(|&(a, b, w)| (a, b, Big::shifted(w, 100)))
                .collect();
            assert_eq!(max_weight_matching(n, &big).len(), n);
            let mate_big = max_weight_matching(n, &big);
            assert_eq!(total(&edges, &mate_big), brute(n, &edges));
        }
    }

    #[test]
    fn cardinality_matches_brute_force() {
        let mut seed = 99u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..3000 {
            let n = 1 + rnd(11) as usize;
            let mut edges = Vec::new();
            let mut adj = vec![Vec::new(); n];
            for a in 0..n {
                for b in a + 1..n {
                    if rnd(100) < 35 {
                        edges.push((a, b, 1u64));
                        adj[a].push(b);
                        adj[b].push(a);
                    }
                }
            }
            let mate = max_cardinality_matching(&adj);
            for (v, m) in mate.iter().enumerate() {
                if let Some(u) = *m {
                    assert_eq!(mate[u], Some(v));
                    assert!(adj[v].contains(&u));
                }
            }
            let size = mate.iter().filter(|m| m.is_some()).count() as u64 / 2;
            assert_eq!(size, brute(n, &edges), "{edges:?}");
        }
    }

    /// Removing edges one batch at a time and solving again from the previous optimum
    /// finds the optimum of the smaller graph; an undone solve gives back the previous one.
    #[test]
    fn re_solving_after_removals_finds_the_optimum() {
        let mut seed = 17u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for round in 0..600 {
            let n = 2 + rnd(if round % 3 == 0 { 9 } else { 24 }) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rnd(100) < 70 {
                        let w = if round % 2 == 0 {
                            1 + rnd(40)
                        } else {
                            1 + rnd(3)
                        };
                        edges.push((a, b, w));
                    }
                }
            }
            if edges.is_empty() {
                continue;
            }
            let first: Vec<bool> = edges.iter().map(|e| e.1 - e.0 <= 2).collect();
            let mut removed = vec![false; edges.len()];
            let mut m = incremental_matching(n, edges.clone(), &first, &removed);
            let weight = |mate: &[Option<usize>], removed: &[bool]| -> u64 {
                let mut t = 0;
                for (k, e) in edges.iter().enumerate() {
                    if mate[e.0] == Some(e.1) {
                        assert!(!removed[k], "a removed edge is matched");
                        t += e.2;
                    }
                }
                t
            };
            let optimum = |removed: &[bool]| -> u64 {
                let kept: Vec<(usize, usize, u64)> = edges
                    .iter()
                    .zip(removed)
                    .filter(|(_, r)| !**r)
                    .map(|(e, _)| *e)
                    .collect();
                let mate = max_weight_matching(n, &kept);
                total(&kept, &mate)
            };
            for _ in 0..6 {
                let mate = m.partners();
                for (v, p) in mate.iter().enumerate() {
                    if let Some(u) = *p {
                        assert_eq!(mate[u], Some(v));
                    }
                }
                assert_eq!(weight(&mate, &removed), optimum(&removed));
                let matched = m.matched_edges();
                let before = (mate.clone(), removed.clone());
                let undo = rnd(3) == 0;
                if undo {
                    m.save();
                }
                // Remove some matched edges and some others.
                for &k in &matched {
                    if rnd(3) == 0 {
                        m.remove(k);
                        removed[k] = true;
                    }
                }
                for _ in 0..rnd(4) {
                    let k = rnd(edges.len() as u64) as usize;
                    m.remove(k);
                    removed[k] = true;
                }
                m.resolve();
                if undo {
                    m.restore();
                    removed = before.1;
                    assert_eq!(m.partners(), before.0);
                    m.resolve();
                    assert_eq!(m.partners(), before.0);
                }
            }
        }
    }

    #[test]
    fn the_sparse_solver_finds_the_same_optimum() {
        let mut seed = 7u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..400 {
            let n = 4 + rnd(30) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rnd(100) < 80 {
                        edges.push((a, b, 1 + rnd(50)));
                    }
                }
            }
            let weight = |mate: &[Option<usize>]| -> u64 {
                edges
                    .iter()
                    .filter(|e| mate[e.0] == Some(e.1))
                    .map(|e| e.2)
                    .sum()
            };
            let dense = max_weight_matching(n, &edges);
            for k in [1, 2, 4] {
                let first: Vec<bool> = edges.iter().map(|e| e.1 - e.0 <= k).collect();
                let sparse = max_weight_matching_sparse(n, &edges, &first);
                for (v, m) in sparse.iter().enumerate() {
                    if let Some(u) = *m {
                        assert_eq!(sparse[u], Some(v));
                    }
                }
                assert_eq!(weight(&sparse), weight(&dense), "k {k}");
            }
        }
    }

    #[test]
    fn big_arithmetic() {
        let a = Big::<2>::shifted(3, 63);
        let b = Big::<2>::shifted(1, 63);
        assert_eq!(a.minus(b), Big::<2>::shifted(1, 64));
        assert_eq!(a.plus(b), Big::<2>::shifted(1, 65));
        assert_eq!(Big::<2>::shifted(1, 65).half(), Big::<2>::shifted(1, 64));
        assert!(Big::<2>::shifted(1, 64) > Big::<2>::shifted(u64::MAX, 0));
    }
}

#[cfg(test)]
mod dual_tests {
    use super::*;

    #[test]
    fn final_duals_are_feasible_for_every_edge() {
        let mut seed = 3u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..300 {
            let n = 2 + rnd(25) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rnd(100) < 70 {
                        edges.push((a, b, 1 + rnd(40)));
                    }
                }
            }
            if edges.is_empty() {
                continue;
            }
            let s = run_solver(n, &edges);
            let bad = edges
                .iter()
                .filter(|&&(i, j, w)| !s.dual_feasible(i, j, w))
                .count();
            assert_eq!(bad, 0, "{n} vertices");
        }
    }
}
