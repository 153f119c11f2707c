//! Counting kernels: each counts the completions of one task.
//!
//! Every task is a set of fixed queens (its [`Spec`]); a kernel searches the free rows only,
//! with each row's squares attacked by the fixed queens precomputed. All kernels share one
//! signature, `fn(&Spec) -> Counts`, and are pure: no locks, no shared state.
//!
//! - [`simple`]: plain recursion over the free rows: the yardstick (with a mirror plan it is the
//!   classic recursive counter of Jeff Somers' program).
//! - [`fast`]: an explicit-stack loop that counts the last free row without descending into it.
//! - [`lanes`]: four subtrees (of any tasks in a batch) searched in lock step, branch-free, so
//!   the processor overlaps them instead of stalling on mispredicted branches.
//! - [`wide`]: no path at all: each free row keeps a pile of pending nodes, and a step expands
//!   16 nodes of one row at once (AVX-512 on CPUs that have it and boards up to 32; 8 with
//!   AVX2; the same steps in scalar code elsewhere): the default.
//!
//! Each kernel is compiled twice, portable and (on x86-64) with `popcnt`/`bmi1`/`bmi2`; the
//! tuned build is chosen at run time when the CPU has those instructions ([`tuned_cpu`]);
//! `wide` also checks for AVX-512 ([`avx512_cpu`]), else AVX2 ([`avx2_cpu`]).
//!
//! [`count_task`] picks the kernel and turns its counts into a [`Tally`]; the symmetric plan's
//! rotational task is counted by [`crate::symmetry::count_rotational`] instead.

/// Compiles a kernel body twice: as is, and (on x86-64) with the `popcnt`, `bmi1` and `bmi2`
/// instructions enabled; the latter is used when the CPU has them (checked at run time, the
/// check is cached). Without this the portable x86-64 baseline counts bits in software.
macro_rules! dispatch {
    ($body:path, $spec:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt,bmi1,bmi2")]
            fn tuned(s: &$crate::kernel::Spec) -> $crate::kernel::Counts {
                $body(s)
            }
            if $crate::kernel::tuned_cpu() {
                // SAFETY: the CPU has the features `tuned` was compiled for.
                return unsafe { tuned($spec) };
            }
        }
        $body($spec)
    }};
}

pub mod fast;
pub mod lanes;
pub mod simple;
pub mod wide;

/// Whether this CPU runs the kernels' tuned build (x86-64 with popcnt, bmi1 and bmi2).
pub fn tuned_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs the `wide` kernel's AVX-512 steps (AVX-512F and popcnt, x86-64).
/// With [`tuned_cpu`], the one place where CPU features are detected.
pub fn avx512_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs the `wide` kernel's AVX2 steps (AVX2 and popcnt, x86-64), used when
/// it has no AVX-512.
pub fn avx2_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The instruction set the kernels run with on this CPU, for reports.
pub fn cpu_features() -> &'static str {
    match (tuned_cpu(), avx512_cpu(), avx2_cpu()) {
        (true, true, _) => "x86-64+popcnt+bmi1+bmi2+avx512f",
        (true, false, true) => "x86-64+popcnt+bmi1+bmi2+avx2",
        (true, false, false) => "x86-64+popcnt+bmi1+bmi2",
        _ => "portable",
    }
}

use crate::bits::full_mask;
use crate::plan::{Task, TaskKind};
use std::ops::AddAssign;

/// The most queens a task can fix before its search starts.
pub const MAX_FIXED: usize = 8;

/// Which kernel counts the tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Kernel {
    /// Plain recursion: the yardstick.
    Simple,
    /// Explicit stack, last free row counted in place.
    Fast,
    /// Several subtrees searched in lock step, branch-free.
    Lanes,
    /// Many pending nodes of one row expanded together (16 AVX-512 or 8 AVX2 lanes where
    /// available).
    Wide,
}

impl Kernel {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Simple => "simple",
            Kernel::Fast => "fast",
            Kernel::Lanes => "lanes",
            Kernel::Wide => "wide",
        }
    }

    /// Counts the completions of `spec` with this kernel.
    pub fn count(self, spec: &Spec) -> Counts {
        match self {
            Kernel::Simple => simple::count(spec),
            Kernel::Fast => fast::count(spec),
            Kernel::Lanes => lanes::count(spec),
            Kernel::Wide => wide::count(spec),
        }
    }
}

/// A board with some queens fixed, ready for a kernel: the free rows in order, how far apart
/// they are, and the squares of each free row that the fixed queens attack.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Board size.
    pub n: u32,
    /// `n` low bits set.
    pub full: u64,
    /// Number of free rows.
    pub k: usize,
    /// The free rows, top to bottom (`rows[..k]`).
    pub rows: [u8; 64],
    /// `gap[i] = rows[i+1] - rows[i]`: how far the diagonals move between free rows.
    pub gap: [u8; 64],
    /// Columns of free row `i` attacked by the fixed queens (their columns and diagonals).
    pub forbid: [u64; 64],
}

impl Spec {
    /// The spec of an `n` board with the given fixed queens `(row, col)`, 0-based. The queens
    /// must be on the board, in distinct rows, and not attack each other (the planner and the
    /// placement checks make sure of that).
    pub fn new(n: u32, fixed: &[(u8, u8)]) -> Spec {
        let nn = n as usize;
        let mut row_forbid = [0u64; 64];
        let mut taken = [false; 64];
        for &(r, c) in fixed {
            let (r, c) = (r as usize, c as usize);
            taken[r] = true;
            for (y, f) in row_forbid.iter_mut().enumerate().take(nn) {
                let d = y.abs_diff(r);
                *f |= 1 << c;
                if c + d < nn {
                    *f |= 1 << (c + d);
                }
                if c >= d {
                    *f |= 1 << (c - d);
                }
            }
        }
        let mut spec = Spec {
            n,
            full: full_mask(n),
            k: 0,
            rows: [0; 64],
            gap: [0; 64],
            forbid: [0; 64],
        };
        for y in (0..nn).filter(|&y| !taken[y]) {
            spec.rows[spec.k] = y as u8;
            spec.forbid[spec.k] = row_forbid[y];
            if spec.k > 0 {
                spec.gap[spec.k - 1] = (y - spec.rows[spec.k - 1] as usize) as u8;
            }
            spec.k += 1;
        }
        spec
    }

    /// The spec of a planned task: its fixed queens plus the bounds its kind adds.
    pub fn for_task(n: u32, task: &Task) -> Spec {
        let mut spec = Spec::new(n, task.queens());
        if task.kind == TaskKind::Corner {
            // Of a corner solution and its transpose, the one whose column-1 queen is below
            // row b (the row-1 queen's column) is counted: column 1 is barred in rows 2..=b.
            let b = task.queens()[1].1 as usize;
            for i in 0..spec.k {
                if (spec.rows[i] as usize) <= b {
                    spec.forbid[i] |= 2;
                }
            }
        }
        if let TaskKind::Edge {
            bound1, late: true, ..
        } = task.kind
        {
            let (b, m) = (bound1 as usize, n as usize - 1);
            let side = 1u64 | 1 << m;
            let outside = spec.full & !(full_mask(n - bound1) & !full_mask(bound1));
            for i in 0..spec.k {
                let y = spec.rows[i] as usize;
                if y < b || y > m - b {
                    spec.forbid[i] |= side;
                }
                if y == m {
                    spec.forbid[i] |= outside;
                }
            }
            // Each square where a rotation could tie is either fixed in the task or barred.
            for (r, c) in crate::plan::tie_squares(n, bound1) {
                if !task.queens().contains(&(r as u8, c as u8)) {
                    spec.forbid_square(r, c);
                }
            }
        }
        spec
    }

    /// Bars the square (`row`, `col`) if `row` is free.
    pub fn forbid_square(&mut self, row: u32, col: u32) {
        if let Some(i) = self.rows[..self.k].iter().position(|&r| r as u32 == row) {
            self.forbid[i] |= 1 << col;
        }
    }
}

/// What a kernel found below a task's fixed queens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Completions (unweighted).
    pub solutions: u64,
    /// Queens placed by the search.
    pub nodes: u64,
}

/// What the symmetric count knows about classes (orbits under the 8 symmetries of the square),
/// summed over tasks.
///
/// Every solution of an N×N board with N > 1 has an orbit of 2 (it is symmetric under a
/// quarter turn), 4 (under a half turn only) or 8 (no symmetry); the lone 1×1 board has an
/// orbit of 1. A task whose border is symmetric under `t` quarter turns finds each class of 8
/// `t` times and counts `4/t` quarters per solution; it finds a symmetric class fewer times,
/// so the whole plan's quarters fall short by 2 per class of 4 and 1 per class of 2, which the
/// rotational task's counts restore (see [`crate::plan`]). The split is exact only for a whole
/// plan: see [`Classes::orbits`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Classes {
    /// Classes of one solution (only the 1×1 board).
    pub c1: u128,
    /// Classes of eight found once each (tasks whose border no turn leaves as it is).
    pub c8: u128,
    /// Quarters of a class found in tasks whose border a turn leaves as it is.
    pub quarters: u128,
    /// Solutions symmetric under a quarter turn (boards of 4 and more).
    pub sym90: u128,
    /// Solutions symmetric under a half turn, the quarter-turn ones included (boards of 4
    /// and more).
    pub sym180: u128,
}

impl Classes {
    /// The number of classes of 1, 2, 4 and 8 solutions. Exact for a whole plan's sum;
    /// for part of one the split of the quarters is only approximate.
    pub fn orbits(&self) -> [u128; 4] {
        let c2 = self.sym90 / 2;
        let c4 = self.sym180.saturating_sub(self.sym90) / 4;
        let c8 = self.c8 + self.quarters.saturating_sub(2 * c4 + c2) / 4;
        [self.c1, c2, c4, c8]
    }
    /// The number of classes: A002562's a(n) when summed over a whole board.
    pub fn unique(&self) -> u128 {
        self.orbits().iter().sum()
    }
}

impl AddAssign for Classes {
    fn add_assign(&mut self, o: Classes) {
        self.c1 += o.c1;
        self.c8 += o.c8;
        self.quarters += o.quarters;
        self.sym90 += o.sym90;
        self.sym180 += o.sym180;
    }
}

/// What counting one task (or a sum of tasks) found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Solutions, each counted with its task's weight: the contribution to A000170.
    pub total: u128,
    /// The split by symmetry class, when the algorithm knows it (`symmetric` only).
    pub classes: Option<Classes>,
    /// Nodes visited: queens placed.
    pub nodes: u128,
}

impl Tally {
    /// The number of solutions up to symmetry, when known.
    pub fn unique(&self) -> Option<u128> {
        self.classes.map(|c| c.unique())
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.total += o.total;
        self.nodes += o.nodes;
        self.classes = match (self.classes, o.classes) {
            (Some(mut a), Some(b)) => {
                a += b;
                Some(a)
            }
            (a, None) => a,
            (None, b) => b,
        };
    }
}

/// Counts one task of an `n`-queens plan with `kernel`.
pub fn count_task(n: u32, task: &Task, kernel: Kernel) -> Tally {
    count_spec(&Spec::for_task(n, task), task, kernel)
}

/// Counts the completions of `spec`, the board of `task` (possibly with more queens fixed, see
/// [`crate::plan::Plan::spec`]), and weighs them as the task's kind says.
pub fn count_spec(spec: &Spec, task: &Task, kernel: Kernel) -> Tally {
    if let Some(t) = count_whole(spec, task) {
        return t;
    }
    weigh(task, kernel.count(spec))
}

/// Counts the tasks no kernel counts: the rotational task of the symmetric plan.
fn count_whole(spec: &Spec, task: &Task) -> Option<Tally> {
    if task.kind != TaskKind::Rotational {
        return None;
    }
    let r = crate::symmetry::count_rotational(spec.n);
    Some(Tally {
        total: 0,
        classes: Some(Classes {
            sym90: r.sym90 as u128,
            sym180: r.sym180 as u128,
            ..Classes::default()
        }),
        nodes: r.nodes as u128,
    })
}

/// Turns a kernel's counts of a task into its tally, by the task's kind.
pub fn weigh(task: &Task, c: Counts) -> Tally {
    let found = c.solutions as u128;
    let (total, classes) = match task.kind {
        TaskKind::Weighted { weight } => (found * weight as u128, None),
        // The 1×1 board's one solution is alone in its class; 2×2 and 3×3 have none.
        TaskKind::Tiny => (
            found,
            Some(Classes {
                c1: found,
                ..Classes::default()
            }),
        ),
        // Corner solutions, and edge ones whose border no turn keeps, are classes of 8.
        TaskKind::Corner | TaskKind::Edge { turns: 1, .. } => (
            8 * found,
            Some(Classes {
                c8: found,
                ..Classes::default()
            }),
        ),
        TaskKind::Edge { turns, .. } => (
            8 * found / turns as u128,
            Some(Classes {
                quarters: 4 * found / turns as u128,
                ..Classes::default()
            }),
        ),
        TaskKind::Rotational => unreachable!("the rotational task is not counted by a kernel"),
    };
    Tally {
        total,
        classes,
        nodes: c.nodes as u128,
    }
}

/// Counts a batch of tasks of one plan (their specs built by `spec`), in order. The `lanes`
/// and `wide` kernels search several of them at once; the others count them one by one.
pub fn count_batch(tasks: &[Task], kernel: Kernel, spec: impl Fn(&Task) -> Spec) -> Vec<Tally> {
    let batch_kernel: fn(&[Spec], &mut [Counts]) = match kernel {
        Kernel::Lanes => lanes::count_batch,
        Kernel::Wide => wide::count_batch,
        Kernel::Simple | Kernel::Fast => {
            return tasks
                .iter()
                .map(|t| count_spec(&spec(t), t, kernel))
                .collect()
        }
    };
    let mut out = vec![Tally::default(); tasks.len()];
    let mut batch = Vec::with_capacity(tasks.len());
    let mut at = Vec::with_capacity(tasks.len());
    for (i, t) in tasks.iter().enumerate() {
        let sp = spec(t);
        if let Some(whole) = count_whole(&sp, t) {
            out[i] = whole;
        } else {
            batch.push(sp);
            at.push(i);
        }
    }
    let mut counts = vec![Counts::default(); batch.len()];
    batch_kernel(&batch, &mut counts);
    for (j, &i) in at.iter().enumerate() {
        out[i] = weigh(&tasks[i], counts[j]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_of_fixed_queens() {
        // 4×4 with a queen at row 0, column 1: rows 1..3 free.
        let s = Spec::new(4, &[(0, 1)]);
        assert_eq!(s.k, 3);
        assert_eq!(&s.rows[..3], &[1, 2, 3]);
        assert_eq!(&s.gap[..2], &[1, 1]);
        assert_eq!(s.forbid[0], 0b0111); // column 1 and both diagonals
        assert_eq!(s.forbid[1], 0b1010); // column 1 and column 3 (two rows down)
        assert_eq!(s.forbid[2], 0b0010); // column 1; the diagonals fell off the board
        let t = Spec::new(6, &[(0, 1), (3, 0), (5, 4)]);
        assert_eq!(&t.rows[..t.k], &[1, 2, 4]);
        assert_eq!(&t.gap[..2], &[1, 2]);
    }

    #[test]
    fn kernels_agree_on_fixed_queens() {
        for fixed in [&[][..], &[(0, 1)], &[(0, 1), (3, 0)], &[(2, 2), (7, 5)]] {
            let s = Spec::new(8, fixed);
            assert_eq!(simple::count(&s), fast::count(&s), "{fixed:?}");
            assert_eq!(simple::count(&s), lanes::count(&s), "{fixed:?}");
        }
        assert_eq!(fast::count(&Spec::new(8, &[])).solutions, 92);
        assert_eq!(fast::count(&Spec::new(4, &[])).nodes, 16);
    }
}
