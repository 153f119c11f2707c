//! Counting kernels: each counts the completions of a batch of [`Spec`]s (boards with some
//! queens fixed). They are internals of the backtracking method: pure functions with one
//! signature (`fn(&[Spec], &mut [Found])`), no locks, no shared state, no allocation per node.
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
//! **One dispatch mechanism.** Every kernel has a portable build and, on x86-64, builds for
//! richer feature sets, each entered with the token of [`crate::arch`] that proves the
//! CPU has them ([`Kernel::count_batch_in`]). The build each kernel runs is chosen once per
//! process ([`Kernel::build`]); [`Kernel::builds`] lists every build of it this CPU runs, so
//! the tests run them all on the same inputs.

mod builds;
pub mod fast;
pub mod found;
pub mod lanes;
pub mod simple;
pub mod wide;

pub use self::found::Found;
use crate::arch::Build;
use nqueens_board::named_enum;
use nqueens_board::spec::Spec;
use std::sync::OnceLock;

/// Which kernel counts the tasks of the backtracking method on this CPU (the GPU's own
/// counter is in the GPU room: `crate::backend::Backend` names both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Kernel {
    /// Plain recursion: the yardstick.
    Simple,
    /// Explicit stack, last free row counted in place.
    Fast,
    /// Several subtrees searched in lock step, branch-free.
    Lanes,
    /// Many pending nodes of one row expanded together (16 AVX-512 or 8 AVX2 lanes where
    /// available): the default, the fastest measured (docs/performance/log.md).
    #[default]
    Wide,
}

named_enum!(Kernel, "kernel", {
    Simple => "simple",
    Fast => "fast",
    Lanes => "lanes",
    Wide => "wide",
});

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 4] = [Kernel::Simple, Kernel::Fast, Kernel::Lanes, Kernel::Wide];

    /// Whether the kernel has a build for `build`'s features: every kernel a portable and a
    /// popcnt/bmi one, `wide` also AVX2 and AVX-512F ones.
    fn has(self, build: Build) -> bool {
        match self {
            Kernel::Wide => build.rank() <= 3,
            _ => build.rank() <= 1,
        }
    }

    /// Every build of this kernel this CPU runs, poorest first (the tests run each).
    pub fn builds(self) -> Vec<Build> {
        Build::all().into_iter().filter(|&b| self.has(b)).collect()
    }

    /// The build this kernel runs on this CPU (its richest), chosen once per process.
    pub fn build(self) -> Build {
        static CHOSEN: OnceLock<[Build; 4]> = OnceLock::new();
        let table = CHOSEN
            .get_or_init(|| Kernel::ALL.map(|k| *k.builds().last().expect("the portable build")));
        table[self as usize]
    }

    /// Counts the completions of every spec in `specs` into `out` (same length).
    pub fn count_batch(self, specs: &[Spec], out: &mut [Found]) {
        self.count_batch_in(self.build(), specs, out)
    }

    /// [`Kernel::count_batch`] in `build`, one of [`Kernel::builds`] (panics on another).
    /// Each build with target features is entered with its token.
    pub fn count_batch_in(self, build: Build, specs: &[Spec], out: &mut [Found]) {
        assert_eq!(specs.len(), out.len(), "one output per spec");
        match (self, build) {
            (Kernel::Simple, Build::Portable) => simple::portable(specs, out),
            (Kernel::Fast, Build::Portable) => fast::portable(specs, out),
            (Kernel::Lanes, Build::Portable) => lanes::portable(specs, out),
            (Kernel::Wide, Build::Portable) => wide::portable(specs, out),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Simple, Build::Bmi(t)) => simple::bmi(t, specs, out),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Fast, Build::Bmi(t)) => fast::bmi(t, specs, out),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Lanes, Build::Bmi(t)) => lanes::bmi(t, specs, out),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Wide, Build::Bmi(t)) => wide::bmi(t, specs, out),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Wide, Build::Avx2(t)) => wide::avx2(t, specs, out),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Wide, Build::Avx512F(t)) => wide::avx512(t, specs, out),
            #[allow(unreachable_patterns)]
            (k, b) => panic!("kernel {k} has no {} build", b.name()),
        }
    }

    /// Counts the completions of one spec.
    pub fn count(self, spec: &Spec) -> Found {
        let mut out = [Found::default()];
        self.count_batch(std::slice::from_ref(spec), &mut out);
        out[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_build_of_every_kernel_agrees_with_simple() {
        let boards: [&[(u8, u8)]; 5] = [&[], &[(0, 1)], &[(0, 1), (3, 0)], &[(2, 2), (7, 5)], &[]];
        let specs: Vec<Spec> = boards.iter().map(|q| Spec::new(8, q)).collect();
        let mut want = vec![Found::default(); specs.len()];
        simple::portable(&specs, &mut want);
        assert_eq!(want[0].solutions, 92);
        for k in Kernel::ALL {
            assert_eq!(k.builds()[0], Build::Portable);
            let got = crate::arch::testing::each_build(k.name(), &k.builds(), |b| {
                let mut got = vec![Found::default(); specs.len()];
                k.count_batch_in(b, &specs, &mut got);
                got
            });
            assert_eq!(got, want, "{k}");
        }
        assert_eq!(Kernel::Fast.count(&Spec::new(4, &[])).nodes, 16);
    }

    #[test]
    fn kernels_parse_and_print_their_names() {
        for k in Kernel::ALL {
            assert_eq!(k.name().parse::<Kernel>(), Ok(k));
            assert_eq!(k.to_string(), k.name());
        }
        let e = "turbo".parse::<Kernel>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown kernel 'turbo': expected one of simple, fast, lanes, wide"
        );
    }
}
