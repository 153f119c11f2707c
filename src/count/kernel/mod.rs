//! Counting kernels: each counts the completions of a batch of [`Spec`]s (boards with some
//! queens fixed). They are internals of the backtracking method: pure functions with one
//! signature ([`BatchFn`]), no locks, no shared state, no allocation per node.
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
//! **One dispatch mechanism.** The instruction set is detected once ([`isa`]); every kernel
//! has a portable build and, on x86-64, builds for richer instruction sets ([`Isa`]). The
//! build each kernel runs is chosen once per process ([`Kernel::count_batch`]); [`builds`]
//! lists every build this CPU can run, so tests run them all on the same inputs.

pub mod fast;
pub mod lanes;
pub mod simple;
pub mod wide;

use crate::board::spec::Spec;
use crate::names::named_enum;
use std::sync::OnceLock;

/// What a kernel found below a task's fixed queens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Found {
    /// Completions (unweighted).
    pub solutions: u64,
    /// Queens placed by the search.
    pub nodes: u64,
}

/// A kernel build: counts the completions of every spec in `specs` into `out` (same length).
pub type BatchFn = fn(specs: &[Spec], out: &mut [Found]);

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
    /// available): the default, the fastest measured (docs/PERFORMANCE.md).
    #[default]
    Wide,
}

named_enum!(Kernel, "kernel", {
    Simple => "simple",
    Fast => "fast",
    Lanes => "lanes",
    Wide => "wide",
});

/// Instruction sets the kernels are built for, each including the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Isa {
    /// Any CPU: the target's baseline.
    Portable,
    /// x86-64 with popcnt, bmi1 and bmi2.
    Bmi,
    /// [`Isa::Bmi`] and AVX2 (the `wide` kernel's 8-lane steps).
    Avx2,
    /// [`Isa::Avx2`] and AVX-512F (the `wide` kernel's 16-lane steps).
    Avx512,
}

impl Isa {
    /// How reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Bmi => "x86-64+popcnt+bmi1+bmi2",
            Isa::Avx2 => "x86-64+popcnt+bmi1+bmi2+avx2",
            Isa::Avx512 => "x86-64+popcnt+bmi1+bmi2+avx2+avx512f",
        }
    }
}

/// The richest instruction set of this CPU, detected once: the one place where CPU features
/// are asked for.
pub fn isa() -> Isa {
    static ISA: OnceLock<Isa> = OnceLock::new();
    *ISA.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Isa {
    use std::arch::is_x86_feature_detected as has;
    if !(has!("popcnt") && has!("bmi1") && has!("bmi2")) {
        Isa::Portable
    } else if !has!("avx2") {
        Isa::Bmi
    } else if !has!("avx512f") {
        Isa::Avx2
    } else {
        Isa::Avx512
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Isa {
    Isa::Portable
}

/// Whether this CPU has [`Isa::Avx512`] with the 256-bit forms (AVX-512VL) and the 64-bit lane
/// popcount (VPOPCNTDQ), which the quadrant method's AVX-512 build needs; detected once.
pub fn avx512_popcount() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            isa() >= Isa::Avx512 && has!("avx512vl") && has!("avx512vpopcntdq")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    })
}

/// The build of `kernel` for `isa`, if `kernel` has one for exactly that instruction set and
/// this CPU runs it. Every unsafe call of a build with target features is here, behind the
/// check against [`isa`].
fn build(kernel: Kernel, want: Isa) -> Option<BatchFn> {
    if want > isa() {
        return None;
    }
    let f: BatchFn = match (kernel, want) {
        (Kernel::Simple, Isa::Portable) => simple::portable,
        (Kernel::Fast, Isa::Portable) => fast::portable,
        (Kernel::Lanes, Isa::Portable) => lanes::portable,
        (Kernel::Wide, Isa::Portable) => wide::portable,
        // SAFETY (all below): `want <= isa()`, so this CPU has the build's features.
        #[cfg(target_arch = "x86_64")]
        (Kernel::Simple, Isa::Bmi) => |s, o| unsafe { simple::bmi(s, o) },
        #[cfg(target_arch = "x86_64")]
        (Kernel::Fast, Isa::Bmi) => |s, o| unsafe { fast::bmi(s, o) },
        #[cfg(target_arch = "x86_64")]
        (Kernel::Lanes, Isa::Bmi) => |s, o| unsafe { lanes::bmi(s, o) },
        #[cfg(target_arch = "x86_64")]
        (Kernel::Wide, Isa::Bmi) => |s, o| unsafe { wide::bmi(s, o) },
        #[cfg(target_arch = "x86_64")]
        (Kernel::Wide, Isa::Avx2) => |s, o| unsafe { wide::avx2(s, o) },
        #[cfg(target_arch = "x86_64")]
        (Kernel::Wide, Isa::Avx512) => |s, o| unsafe { wide::avx512(s, o) },
        _ => return None,
    };
    Some(f)
}

/// Every build of `kernel` this CPU runs, poorest first, with its instruction set.
pub fn builds(kernel: Kernel) -> Vec<(Isa, BatchFn)> {
    [Isa::Portable, Isa::Bmi, Isa::Avx2, Isa::Avx512]
        .into_iter()
        .filter_map(|i| build(kernel, i).map(|f| (i, f)))
        .collect()
}

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 4] = [Kernel::Simple, Kernel::Fast, Kernel::Lanes, Kernel::Wide];

    /// The build this kernel runs on this CPU (its richest), chosen once per process.
    pub fn build(self) -> BatchFn {
        static CHOSEN: OnceLock<[BatchFn; 4]> = OnceLock::new();
        let table = CHOSEN.get_or_init(|| {
            Kernel::ALL.map(|k| {
                builds(k)
                    .last()
                    .map_or(simple::portable as BatchFn, |b| b.1)
            })
        });
        table[self as usize]
    }

    /// Counts the completions of every spec in `specs` into `out` (same length).
    pub fn count_batch(self, specs: &[Spec], out: &mut [Found]) {
        assert_eq!(specs.len(), out.len(), "one output per spec");
        (self.build())(specs, out)
    }

    /// Counts the completions of one spec.
    pub fn count(self, spec: &Spec) -> Found {
        let mut out = [Found::default()];
        self.count_batch(std::slice::from_ref(spec), &mut out);
        out[0]
    }
}

/// Defines a kernel's portable build and (on x86-64) its popcnt/bmi build from one
/// `#[inline(always)]` body `fn(&[Spec], &mut [Found])`, compiled once for each.
macro_rules! portable_and_bmi {
    ($body:path) => {
        /// The portable build.
        pub fn portable(specs: &[Spec], out: &mut [Found]) {
            $body(specs, out)
        }

        /// The build with popcnt, bmi1 and bmi2.
        ///
        /// # Safety
        /// The CPU must have popcnt, bmi1 and bmi2 ([`super::Isa::Bmi`]).
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,bmi1,bmi2")]
        pub unsafe fn bmi(specs: &[Spec], out: &mut [Found]) {
            $body(specs, out)
        }
    };
}

pub(crate) use portable_and_bmi;

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
            let all = builds(k);
            assert!(all.iter().any(|b| b.0 == Isa::Portable));
            for (i, f) in all {
                let mut got = vec![Found::default(); specs.len()];
                f(&specs, &mut got);
                assert_eq!(got, want, "{k} {i:?}");
            }
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
