//! The `wide` kernel's piles of pending nodes, their fronts, and the scalar build of its steps;
//! the vector builds (`x86.rs`) step the same fronts.

use crate::backtracking::kernel::builds::portable_and_bmi;
use crate::backtracking::kernel::found::Found;
use nqueens_board::spec::Spec;

/// Nodes taken from a pile per step.
pub const WIDTH: usize = 16;

/// Room per pile: fewer than `3 * WIDTH` nodes (see the module doc), plus room for a full
/// vector written past the last one. A power of two, so that masking an index proves it in
/// bounds.
pub(super) const CAP: usize = 64;

/// One row's pile of pending nodes, as four parallel arrays.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Pile<T: Copy> {
    pub(super) cols: [T; CAP],
    pub(super) d1: [T; CAP],
    pub(super) d2: [T; CAP],
    pub(super) avail: [T; CAP],
}

portable_and_bmi!(scalar_batch);

/// Counts every spec with the scalar steps (boards up to 64 columns).
#[inline(always)]
pub(super) fn scalar_batch(specs: &[Spec], out: &mut [Found]) {
    for (s, o) in specs.iter().zip(out) {
        *o = if s.k < 3 {
            crate::backtracking::kernel::fast::count(s)
        } else {
            scalar_search(s)
        };
    }
}

/// The per-row constants of a spec: squares allowed by the fixed queens, and the shift of the
/// diagonals from each free row to the next.
pub(super) fn rows_of(spec: &Spec) -> ([u64; 64], [u32; 64]) {
    let mut allow = [0u64; 64];
    let mut gap = [0u32; 64];
    for i in 0..spec.k {
        allow[i] = spec.full & !spec.forbid[i];
        gap[i] = spec.gap[i] as u32;
    }
    (allow, gap)
}

/// Counts the completions of `spec` (at least 3 free rows) with the scalar steps.
#[inline(always)]
fn scalar_search(spec: &Spec) -> Found {
    let k = spec.k;
    let (allow, gap) = rows_of(spec);
    let mut f = Front::<u64>::new(k);
    if allow[0] != 0 {
        f.push(0, [0, 0, 0, allow[0]]);
    }
    let mut found = Found::default();
    while let Some(i) = f.pick() {
        let (n, s) = step_scalar(&mut f, i, i + 2 == k, allow[i + 1], gap[i]);
        found.nodes += n;
        found.solutions += s;
    }
    found
}

/// One step of a search in scalar code: as the vector steps (`x86::step512`), one node after
/// the other. Every node
/// is written, and a pile's end advances only past the live ones: packing without branches.
#[inline(always)]
fn step_scalar(f: &mut Front<u64>, i: usize, leaf: bool, ok: u64, g: u32) -> (u64, u64) {
    let (take, base, _) = f.frame(i, WIDTH);
    let (top, rest) = f.piles.split_at_mut(i + 1);
    let (cur, next) = (&mut top[i], &mut rest[0]);
    let mut back = base;
    let mut out = f.cnt[i + 1];
    for j in base..base + take {
        // Masking (a no-op: piles hold fewer than CAP nodes) drops the bounds checks.
        let j = j & (CAP - 1);
        let (c, x, y, a) = (cur.cols[j], cur.d1[j], cur.d2[j], cur.avail[j]);
        let bit = a & a.wrapping_neg();
        let rest = a ^ bit;
        let b = back & (CAP - 1);
        [cur.cols[b], cur.d1[b], cur.d2[b], cur.avail[b]] = [c, x, y, rest];
        back += (rest != 0) as usize;
        let (c, x, y) = (c | bit, (x | bit) << g, (y | bit) >> g);
        let free = ok & !(c | x | y);
        let o = out & (CAP - 1);
        [next.cols[o], next.d1[o], next.d2[o], next.avail[o]] = [c, x, y, free];
        out += (free != 0) as usize;
    }
    let born = out - f.cnt[i + 1];
    f.settle(i, take, base, back - base, born, leaf)
}

/// One search's piles and which of them hold nodes.
pub(super) struct Front<T: Copy> {
    pub(super) piles: Vec<Pile<T>>,
    pub(super) cnt: [usize; 64],
    /// Bit i set: pile i holds at least [`WIDTH`] nodes.
    pub(super) full: u64,
    /// Bit i set: pile i holds a node.
    pub(super) some: u64,
}

impl<T: Copy + Default> Front<T> {
    pub(super) fn new(k: usize) -> Front<T> {
        let z = T::default();
        let zero = Pile {
            cols: [z; CAP],
            d1: [z; CAP],
            d2: [z; CAP],
            avail: [z; CAP],
        };
        Front {
            piles: vec![zero; k],
            cnt: [0; 64],
            full: 0,
            some: 0,
        }
    }

    /// The pile to work on: the deepest holding [`WIDTH`] nodes, else the shallowest
    /// non-empty one (to build up nodes again); `None` when the search is done.
    #[inline(always)]
    pub(super) fn pick(&self) -> Option<usize> {
        if self.full != 0 {
            Some(63 - self.full.leading_zeros() as usize)
        } else if self.some != 0 {
            Some(self.some.trailing_zeros() as usize)
        } else {
            None
        }
    }

    #[inline(always)]
    pub(super) fn refresh(&mut self, j: usize) {
        let c = self.cnt[j];
        self.full = (self.full & !(1 << j)) | (((c >= WIDTH) as u64) << j);
        self.some = (self.some & !(1 << j)) | (((c > 0) as u64) << j);
    }

    /// Where a step of `lanes` lanes on pile `i` works: it takes `take` nodes from `base` on,
    /// and its children go onto pile `i + 1` from `at` on. Asserts, in every build, the
    /// bound that keeps the vector steps' loads and stores inside the piles: pile `i + 1`
    /// exists, and a whole vector from `base` and from `at` fits (piles hold fewer than
    /// `3 * WIDTH` nodes, see the module doc).
    #[inline(always)]
    pub(super) fn frame(&self, i: usize, lanes: usize) -> (usize, usize, usize) {
        let take = self.cnt[i].min(lanes);
        let base = self.cnt[i] - take;
        let at = self.cnt[i + 1];
        assert!(
            i + 1 < self.piles.len() && base + lanes <= CAP && at + lanes <= CAP,
            "wide kernel: a step would leave its piles"
        );
        (take, base, at)
    }

    /// Books a step on pile `i` that took `take` nodes from `base` on: `kept` of them went
    /// back (from `base` on), `born` children went onto pile `i + 1` (unless `leaf`: then they
    /// are solutions, counted, not kept). Returns the nodes placed and the solutions found.
    #[inline(always)]
    pub(super) fn settle(
        &mut self,
        i: usize,
        take: usize,
        base: usize,
        kept: usize,
        born: usize,
        leaf: bool,
    ) -> (u64, u64) {
        self.cnt[i] = base + kept;
        self.refresh(i);
        if leaf {
            return ((take + born) as u64, born as u64);
        }
        self.cnt[i + 1] += born;
        self.refresh(i + 1);
        (take as u64, 0)
    }

    /// Appends a node to pile `i`.
    pub(super) fn push(&mut self, i: usize, node: [T; 4]) {
        let (p, at) = (&mut self.piles[i], self.cnt[i]);
        [p.cols[at], p.d1[at], p.d2[at], p.avail[at]] = node;
        self.cnt[i] += 1;
        self.refresh(i);
    }
}
