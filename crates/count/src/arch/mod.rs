//! The one way into vector code, for the backtracking kernels and the quadrant method alike.
//!
//! The CPU's features are asked once ([`cpu`]). Each feature set a build is compiled for has
//! one token type ([`Bmi`], [`Avx2`], [`Avx512F`], [`Avx512`] on x86-64), whose only
//! constructor checks those features: holding a token proves them. A `#[target_feature]`
//! function is private to the module that defines it and is called only by a function that
//! holds its token, so no safe code reaches vector code on a CPU without it, and no
//! `unsafe fn` is public.
//!
//! A [`Build`] names a token (or the portable code); [`Build::all`] lists those this CPU runs,
//! poorest first. Code written once, generic over [`Simd`] (the quadrant method's join, sieve
//! and matcher), runs in the three builds that implement [`Simd`], the portable one, AVX2 and
//! AVX-512 (a [`SimdBuild`], which [`Build::simd`] gives), through [`SimdBuild::run`], which
//! calls a [`PerBuild`] work inside a function compiled for the build's features: the work is
//! compiled three times, not once per build. The backtracking kernels, whose builds are
//! written apart, take their build's token instead. Either way the tests run every
//! build on the same inputs (`testing::each_build`).
//!
//! The files, from the bottom: `simd.rs` (the [`Simd`] and [`PerBuild`] traits and what their
//! primitives read), `portable.rs` (the build for any CPU), `cpu.rs` (the features, asked
//! once), `x86.rs` (the tokens and their primitives), `build.rs` ([`Build`]).

mod build;
pub mod cpu;
mod portable;
mod simd;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use build::{Build, SimdBuild, BUILD_NAMES};
pub use portable::{entry_portable, join_portable, keep_lacking_portable, Portable};
pub use simd::{Candidates, PerBuild, Simd, Top, CHUNK, COMBOS};
#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2, Avx512, Avx512F, Bmi};

/// The tests' runner over every build.
#[cfg(test)]
pub mod testing {
    use super::Build;

    /// Runs `f` in each of `builds` (the first is the reference, usually the portable one)
    /// and asserts that every build gives what the first gives; returns that.
    pub fn each_build<B: Copy + Into<Build>, T: PartialEq + std::fmt::Debug>(
        what: &str,
        builds: &[B],
        mut f: impl FnMut(B) -> T,
    ) -> T {
        let name = |b: B| b.into().name();
        let mut all = builds.iter().map(|&b| (b, f(b)));
        let (first, want) = all.next().expect("at least one build");
        for (b, got) in all {
            assert_eq!(got, want, "{what}: {} against {}", name(b), name(first));
        }
        want
    }
}
