//! [`Build`]: which build of the vector code runs, named by its token.

use super::portable::Portable;
use super::simd::PerBuild;
#[cfg(target_arch = "x86_64")]
use super::x86::{Avx2, Avx512, Avx512F, Bmi};

/// One build of the vector code: the portable one, or a token's (holding it proves the CPU
/// has the features). Each build includes the features of the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// Any CPU.
    Portable,
    /// popcnt, bmi1 and bmi2.
    #[cfg(target_arch = "x86_64")]
    Bmi(Bmi),
    /// [`Build::Bmi`]'s features and AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// [`Build::Avx2`]'s features and AVX-512F.
    #[cfg(target_arch = "x86_64")]
    Avx512F(Avx512F),
    /// [`Build::Avx512F`]'s features and AVX-512VL and VPOPCNTDQ.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

/// The builds' names, poorest first, as [`Build::name`] gives them.
pub const BUILD_NAMES: [&str; 5] = ["portable", "bmi", "avx2", "avx512f", "avx512"];

impl Build {
    /// Every build this CPU runs, the portable one first and the richest last.
    pub fn all() -> Vec<Build> {
        let mut v = vec![Build::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            v.extend(Bmi::new().map(Build::Bmi));
            v.extend(Avx2::new().map(Build::Avx2));
            v.extend(Avx512F::new().map(Build::Avx512F));
            v.extend(Avx512::new().map(Build::Avx512));
        }
        v
    }

    /// The richest build this CPU runs.
    pub fn richest() -> Build {
        *Build::all().last().expect("the portable build")
    }

    /// The build's name ([`BUILD_NAMES`]).
    pub fn name(self) -> &'static str {
        BUILD_NAMES[self.rank()]
    }

    /// Its place in [`BUILD_NAMES`]: a build includes the features of every build of a
    /// lower rank.
    pub fn rank(self) -> usize {
        match self {
            Build::Portable => 0,
            #[cfg(target_arch = "x86_64")]
            Build::Bmi(_) => 1,
            #[cfg(target_arch = "x86_64")]
            Build::Avx2(_) => 2,
            #[cfg(target_arch = "x86_64")]
            Build::Avx512F(_) => 3,
            #[cfg(target_arch = "x86_64")]
            Build::Avx512(_) => 4,
        }
    }

    /// The instruction sets the build is compiled for, as reports name them.
    pub fn describe(self) -> &'static str {
        [
            "portable",
            "x86-64+popcnt+bmi1+bmi2",
            "x86-64+popcnt+bmi1+bmi2+avx2",
            "x86-64+popcnt+bmi1+bmi2+avx2+avx512f",
            "x86-64+popcnt+bmi1+bmi2+avx2+avx512f+avx512vl+avx512vpopcntdq",
        ][self.rank()]
    }

    /// This build as a [`SimdBuild`], if it is one: the portable one, AVX2 and AVX-512 are;
    /// the backtracking kernels' own BMI and AVX-512F builds are not.
    pub fn simd(self) -> Option<SimdBuild> {
        match self {
            Build::Portable => Some(SimdBuild::Portable),
            #[cfg(target_arch = "x86_64")]
            Build::Avx2(t) => Some(SimdBuild::Avx2(t)),
            #[cfg(target_arch = "x86_64")]
            Build::Avx512(t) => Some(SimdBuild::Avx512(t)),
            #[cfg(target_arch = "x86_64")]
            Build::Bmi(_) | Build::Avx512F(_) => None,
        }
    }
}

/// A build that code written once, generic over [`Simd`](super::Simd), is compiled in (the
/// quadrant method's join, sieve and matcher): the portable one, AVX2 or AVX-512. Only these
/// run a [`PerBuild`] work, which is compiled once for each of them; the backtracking
/// kernels' BMI and AVX-512F builds have none of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimdBuild {
    /// Any CPU.
    Portable,
    /// [`Build::Avx2`].
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// [`Build::Avx512`].
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

impl SimdBuild {
    /// Every one this CPU runs, the portable one first and the richest last.
    pub fn all() -> Vec<SimdBuild> {
        Build::all().into_iter().filter_map(Build::simd).collect()
    }

    /// Its name ([`BUILD_NAMES`]).
    pub fn name(self) -> &'static str {
        Build::from(self).name()
    }

    /// Whether [`super::Simd::extract`] is one instruction in this build (BMI2's `pext`): the
    /// sieve then packs each leaf's live bits to save lookups; the portable build matches
    /// unpacked.
    pub fn extracts(self) -> bool {
        self != SimdBuild::Portable
    }

    /// Runs `work` compiled for this build: the only way from generic code into a
    /// `#[target_feature]` body, and only with the build's token in hand.
    #[inline]
    pub fn run<W: PerBuild>(self, work: W) -> W::Out {
        match self {
            SimdBuild::Portable => work.run(Portable),
            #[cfg(target_arch = "x86_64")]
            SimdBuild::Avx2(t) => t.run(work),
            #[cfg(target_arch = "x86_64")]
            SimdBuild::Avx512(t) => t.run(work),
        }
    }
}

impl From<SimdBuild> for Build {
    fn from(b: SimdBuild) -> Build {
        match b {
            SimdBuild::Portable => Build::Portable,
            #[cfg(target_arch = "x86_64")]
            SimdBuild::Avx2(t) => Build::Avx2(t),
            #[cfg(target_arch = "x86_64")]
            SimdBuild::Avx512(t) => Build::Avx512(t),
        }
    }
}
