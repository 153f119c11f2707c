//! The interleaved branch-free counter: several tasks searched in lock step on one core.
//!
//! The plain loop is bound by one unpredictable branch per node (descend or go back?). Here
//! [`LANES`] searches, each over its own task, advance together, one step each per round. A
//! step is branch-free: it takes the next free square of the lane's current row (or none),
//! computes the next row's free squares, and moves the lane's row index down, up or nowhere
//! with arithmetic instead of jumps. The lanes are independent, so the processor overlaps
//! their dependency chains. The only branch left in the loop is "did a lane finish its
//! task?", taken once per task: lanes then take the next task of the batch.

use super::builds::portable_and_bmi;
use super::found::Found;
use nqueens_board::spec::Spec;

/// Searches run in lock step.
pub const LANES: usize = 4;

/// One lane's search: masks and untried squares per free-row index, and where it is.
#[derive(Clone, Copy)]
struct Lane {
    /// Per free-row index: the columns, both diagonal masks, and the untried squares, side by
    /// side so that one step writes the next row's state with one wide store.
    st: [[u64; 4]; 128],
    /// The free-row index being filled; below [`BASE`] once the subtree is done.
    i: usize,
    /// The task (index into the batch) this lane is counting; `usize::MAX` when idle.
    task: usize,
}

/// Free-row index where every subtree starts: the free rows above it are fixed per subtree.
const BASE: usize = 2;

/// A subtree's start: the masks after the first [`BASE`] free rows, the next row's squares.
#[derive(Clone, Copy)]
struct Root {
    task: usize,
    cols: u64,
    d1: u64,
    d2: u64,
    avail: u64,
}

impl Lane {
    const IDLE: Lane = Lane {
        st: [[0; 4]; 128],
        i: BASE,
        task: usize::MAX,
    };

    /// One branch-free step of the search of `s`; returns the nodes and solutions it found.
    #[inline(always)]
    fn step(&mut self, s: &Spec) -> (u64, u64) {
        // Masking the index (a no-op: a lane's row index stays below 63) lets the compiler
        // drop the bounds checks.
        let i = self.i & 63;
        let [cols, d1, d2, a] = self.st[i];
        let bit = a & a.wrapping_neg();
        self.st[i][3] = a ^ bit;
        let g = s.gap[i];
        let nc = cols | bit;
        let n1 = (d1 | bit) << g;
        let n2 = (d2 | bit) >> g;
        let free = s.full & !(nc | n1 | n2 | s.forbid[(i + 1) & 63]);
        let pc = free.count_ones() as u64;
        let live = (a != 0) as u64;
        let at_last = (i + 2 == s.k) as u64;
        let down = live & (1 - at_last) & (free != 0) as u64;
        self.st[i + 1] = [nc, n1, n2, free];
        // Down one row, stay (a leaf row or a dead end: the next square), or back up.
        self.i = (i + down as usize) - (1 - live as usize);
        (pc * live, pc * live * at_last)
    }

    #[inline(always)]
    fn start(&mut self, r: &Root) {
        self.st[BASE] = [r.cols, r.d1, r.d2, r.avail];
        self.i = BASE;
        self.task = r.task;
    }
}

portable_and_bmi!(batch);

/// Counts the completions of every spec in `specs` into `out` (same length): the first
/// two free rows of each are expanded into subtrees, and [`LANES`] subtrees are searched
/// at a time, whichever tasks they belong to.
#[inline(always)]
fn batch(specs: &[Spec], out: &mut [Found]) {
    assert_eq!(specs.len(), out.len());
    let roots = roots(specs, out);
    // Idle lanes step this board harmlessly: their row has no square, so they stay done.
    let idle = Spec::new(4, &[]);
    let mut next = 0usize;
    let mut lanes = [Lane::IDLE; LANES];
    // Kept apart from the lanes' stacks so the compiler can hold them in registers.
    let mut spec: [&Spec; LANES] = [&idle; LANES];
    let mut nodes = [0u64; LANES];
    let mut sols = [0u64; LANES];
    let mut active = 0usize;
    for (l, lane) in lanes.iter_mut().enumerate() {
        if next < roots.len() {
            lane.start(&roots[next]);
            spec[l] = &specs[roots[next].task];
            next += 1;
            active += 1;
        }
    }
    while active > 0 {
        let mut finished = false;
        for l in 0..LANES {
            let (n, x) = lanes[l].step(spec[l]);
            nodes[l] += n;
            sols[l] += x;
            finished |= lanes[l].i < BASE;
        }
        if finished {
            for l in 0..LANES {
                let lane = &mut lanes[l];
                if lane.i >= BASE {
                    continue;
                }
                if lane.task != usize::MAX {
                    let o = &mut out[lane.task];
                    o.nodes += nodes[l];
                    o.solutions += sols[l];
                    active -= 1;
                }
                nodes[l] = 0;
                sols[l] = 0;
                if next < roots.len() {
                    lane.start(&roots[next]);
                    spec[l] = &specs[roots[next].task];
                    next += 1;
                    active += 1;
                } else {
                    lane.task = usize::MAX;
                    lane.i = BASE;
                    lane.st[BASE][3] = 0;
                    spec[l] = &idle;
                }
            }
        }
    }
}

/// The subtrees of a batch: each spec's first two free rows expanded (their nodes counted into
/// `out`); specs too small to split are counted whole into `out`.
#[inline(always)]
fn roots(specs: &[Spec], out: &mut [Found]) -> Vec<Root> {
    let mut roots: Vec<Root> = Vec::with_capacity(64 * specs.len());
    for (t, s) in specs.iter().enumerate() {
        if s.k <= BASE + 1 {
            out[t] = super::fast::count(s);
            continue;
        }
        // Expand the first two free rows (BASE = 2) into roots.
        let a0 = s.full & !s.forbid[0];
        let mut nodes = a0.count_ones() as u64;
        let mut f0 = a0;
        while f0 != 0 {
            let b0 = f0 & f0.wrapping_neg();
            f0 ^= b0;
            let (c1, x1, y1) = (b0, b0 << s.gap[0], b0 >> s.gap[0]);
            let a1 = s.full & !(c1 | x1 | y1 | s.forbid[1]);
            nodes += a1.count_ones() as u64;
            let mut f1 = a1;
            while f1 != 0 {
                let b1 = f1 & f1.wrapping_neg();
                f1 ^= b1;
                let g = s.gap[1];
                let (c2, x2, y2) = (c1 | b1, (x1 | b1) << g, (y1 | b1) >> g);
                let a2 = s.full & !(c2 | x2 | y2 | s.forbid[2]);
                nodes += a2.count_ones() as u64;
                if a2 != 0 {
                    roots.push(Root {
                        task: t,
                        cols: c2,
                        d1: x2,
                        d2: y2,
                        avail: a2,
                    });
                }
            }
        }
        out[t] = Found {
            solutions: 0,
            nodes,
        };
    }
    roots
}
