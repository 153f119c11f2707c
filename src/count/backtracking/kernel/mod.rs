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
//! richer feature sets, each entered with the token of [`crate::count::arch`] that proves the
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
use crate::board::spec::Spec;
use crate::count::arch::Build;
use crate::count::gpu;
use crate::error::Result;
use crate::names::named_enum;
use std::sync::OnceLock;

/// The most tasks per batch for the GPU takes (`Counter::launch`): with
/// [`gpu::HOST_ROWS`] rows placed on the host, about 10^5 to 10^6 subtrees at
/// N = 18 to 21, a GPU thread each (an H100 runs about 2.7 × 10^5 threads at once). A guess
/// until `scripts/measure/gpu-device.sh` measures it.
pub const GPU_BATCH: usize = 256;

/// Which kernel counts the tasks of the backtracking method.
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
    /// available): the default, the fastest measured (the performance log (docs/performance/log.md)).
    #[default]
    Wide,
    /// On an NVIDIA GPU (`crate::count::gpu`, the `gpu` feature): each task expanded a few
    /// rows on the host, each subtree counted by one GPU thread as `fast` counts. Its one CPU
    /// build, the kernel's source compiled for this CPU, is what the tests run; a count asks
    /// for the GPU first ([`Kernel::available`]).
    Gpu,
}

named_enum!(Kernel, "kernel", {
    Simple => "simple",
    Fast => "fast",
    Lanes => "lanes",
    Wide => "wide",
    Gpu => "gpu",
});

impl Kernel {
    /// Every kernel that runs on the CPU (not [`Kernel::Gpu`]).
    pub const ALL: [Kernel; 4] = [Kernel::Simple, Kernel::Fast, Kernel::Lanes, Kernel::Wide];

    /// Whether the kernel counts on a GPU.
    pub fn is_gpu(self) -> bool {
        self == Kernel::Gpu
    }

    /// Whether the kernel can count here: every CPU kernel can; the GPU kernel where a GPU
    /// was found (else the one-sentence reason why not, `Error::Usage`).
    pub fn available(self) -> Result<()> {
        self.device().map(|_| ())
    }

    /// The device that counts: the GPU's name for the GPU kernel (or why none can count),
    /// `None` for the kernels that count on this CPU.
    pub fn device(self) -> Result<Option<String>> {
        match self {
            Kernel::Gpu => gpu::available().map(Some),
            _ => Ok(None),
        }
    }

    /// How many tasks one call of the kernel should take, where a call has a fixed cost
    /// (the GPU's launch: batches of up to [`GPU_BATCH`] tasks, each a few thousand
    /// subtrees, so that a launch fills the GPU); `None` for the CPU kernels.
    pub fn launch_size(self) -> Option<usize> {
        self.is_gpu().then_some(GPU_BATCH)
    }

    /// Whether the kernel has a build for `build`'s features: every CPU kernel a portable and
    /// a popcnt/bmi one, `wide` also AVX2 and AVX-512F ones; `gpu` the portable one only.
    fn has(self, build: Build) -> bool {
        match self {
            Kernel::Gpu => build.rank() == 0,
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
        if self == Kernel::Gpu {
            return Build::Portable;
        }
        static CHOSEN: OnceLock<[Build; 4]> = OnceLock::new();
        let table = CHOSEN
            .get_or_init(|| Kernel::ALL.map(|k| *k.builds().last().expect("the portable build")));
        table[self as usize]
    }

    /// Counts the completions of every spec in `specs` into `out` (same length). Panics
    /// where the GPU fails ([`Kernel::Gpu`]): counts go through [`Kernel::try_count_batch`],
    /// which says so.
    pub fn count_batch(self, specs: &[Spec], out: &mut [Found]) {
        self.count_batch_in(self.build(), specs, out)
    }

    /// [`Kernel::count_batch`], or the error of a GPU that failed in the middle of it
    /// ([`Error::Device`](crate::Error::Device)): the CPU kernels never fail.
    pub fn try_count_batch(self, specs: &[Spec], out: &mut [Found]) -> Result<()> {
        match self {
            Kernel::Gpu => gpu::count_batch(specs, out),
            _ => {
                self.count_batch(specs, out);
                Ok(())
            }
        }
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
            (Kernel::Gpu, Build::Portable) => {
                gpu::count_batch(specs, out).unwrap_or_else(|e| panic!("{e}"))
            }
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
            let got = crate::count::arch::testing::each_build(k.name(), &k.builds(), |b| {
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
            "unknown kernel 'turbo': expected one of simple, fast, lanes, wide, gpu"
        );
        assert_eq!("gpu".parse::<Kernel>(), Ok(Kernel::Gpu));
        // Its CPU build (the kernel's source compiled for this CPU, no GPU here) agrees.
        let specs = [Spec::new(8, &[]), Spec::new(10, &[(0, 1)])];
        let mut got = [Found::default(); 2];
        Kernel::Gpu.count_batch(&specs, &mut got);
        assert_eq!(
            got,
            [Kernel::Fast.count(&specs[0]), Kernel::Fast.count(&specs[1])]
        );
    }
}
