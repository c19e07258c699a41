//! Maximum-weight matching in a general graph: Edmonds' primal-dual blossom algorithm in the
//! O(n³) form (labels S and T, blossoms shrunk and expanded, the four kinds of dual change),
//! over any unsigned integer-like weight, so that a weight can hold many criteria side by
//! side in fields of bits (see [`Big`]).

use std::cmp::Ordering;

/// A non-negative weight: what the algorithm needs of a number.
pub trait Weight: Copy + Ord + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
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

/// The solver's state; see [`max_weight_matching`].
struct Solver<'a, W: Weight> {
    n: usize,
    edges: &'a [(usize, usize, W)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
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
}

impl<W: Weight> Solver<'_, W> {
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
        for &bv in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
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

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
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
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack == W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
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
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with tight edges: change the duals.
                let mut deltatype = 1;
                let mut delta = *self.dualvar[..n].iter().min().expect("vertices");
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
                match deltatype {
                    1 => break,
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
            if !augmented {
                break;
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
}

/// A maximum-weight matching of the graph with `n` vertices and the given edges
/// `(u, v, weight)`: each vertex's partner, or `None`. Edges of weight zero may be left out.
/// Weights of all edges must leave room for twice the largest weight plus twice the largest
/// weight again (the duals) without overflow.
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let s = run_solver(n, edges);
    s.mate
        .iter()
        .map(|&p| if p == NONE { None } else { Some(s.endpoint[p]) })
        .collect()
}

fn run_solver<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Solver<'_, W> {
    let maxweight = edges.iter().map(|e| e.2).max().expect("edges");
    let mut endpoint = Vec::with_capacity(2 * edges.len());
    let mut neighbend = vec![Vec::new(); n];
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        endpoint.push(i);
        endpoint.push(j);
        neighbend[i].push(2 * k + 1);
        neighbend[j].push(2 * k);
    }
    let mut s = Solver {
        n,
        edges,
        endpoint,
        neighbend,
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
        dualvar: std::iter::repeat_n(maxweight, n)
            .chain(std::iter::repeat_n(W::zero(), n))
            .collect(),
        allowedge: vec![false; edges.len()],
        queue: Vec::new(),
    };
    s.solve();
    s
}

impl<W: Weight> Solver<'_, W> {
    /// Whether an edge of weight `w` between `i` and `j` (not necessarily one the solver
    /// knew) respects the final duals: `2y_i + 2y_j + 2·Σz(blossoms holding both) ≥ 2w`.
    fn dual_feasible(&self, i: usize, j: usize, w: W) -> bool {
        let mut lhs = self.dualvar[i].plus(self.dualvar[j]);
        if self.inblossom[i] == self.inblossom[j] {
            let chain = |mut v: usize| {
                let mut c = Vec::new();
                while self.blossomparent[v] != NONE {
                    v = self.blossomparent[v];
                    c.push(v);
                }
                c
            };
            let (ci, cj) = (chain(i), chain(j));
            for b in ci.iter().filter(|b| cj.contains(b)) {
                lhs = lhs.plus(self.dualvar[*b].twice());
            }
        }
        lhs >= w.twice()
    }
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
    if n == 0 || first.iter().all(|&f| f) {
        return max_weight_matching(n, edges);
    }
    let mut included = first.to_vec();
    loop {
        let sub: Vec<(usize, usize, W)> = edges
            .iter()
            .zip(&included)
            .filter(|(_, inc)| **inc)
            .map(|(e, _)| *e)
            .collect();
        let s = run_solver(n, &sub);
        let mut added = false;
        for (e, &(i, j, w)) in edges.iter().enumerate() {
            if !included[e] && !s.dual_feasible(i, j, w) {
                included[e] = true;
                added = true;
            }
        }
        if !added {
            return s
                .mate
                .iter()
                .map(|&p| if p == NONE { None } else { Some(s.endpoint[p]) })
                .collect();
        }
    }
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
