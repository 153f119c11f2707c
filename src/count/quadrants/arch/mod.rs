//! The one way into the quadrant method's vector code.
//!
//! Every piece of the method that gains from a richer instruction set is written once,
//! generic over a [`Simd`] build: [`Portable`] runs on any CPU, and on x86-64 [`Avx2`] and
//! [`Avx512`] are tokens whose only constructors check the CPU (through the kernels' [`isa`],
//! detected once), so holding one proves the features. A [`Build`] names one of them; [`Build::run`] is the
//! only place that enters a `#[target_feature]` body, and only with a token in hand. No safe
//! function can reach vector code on a CPU without it, and no `unsafe fn` leaves this folder.
//!
//! [`Build::all`] lists every build this CPU runs, so the tests run the join and the matcher
//! through each of them on the same inputs, as the kernels' tests do.

#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2, Avx512};

use super::join::{join_portable, Kept};
use super::matcher::{CHUNK, COMBOS};

/// The vector primitives the generic code calls, one implementation per build.
pub trait Simd: Copy {
    /// Appends to `out` the key `top_key | keys[i]` of every kept south quarter `i` whose
    /// `meets[i]` has no bit in common with `top_meet` (the half-boards one north quarter
    /// makes with the south ones), in order. `south` holds its count rounded up to four (the
    /// padding is read, never kept).
    fn join(self, top: (u64, u64), south: Kept, out: &mut Vec<u64>);

    /// The bits of `x` at the positions set in `mask`, packed into the low bits in order (a
    /// parallel bit extract). Only builds that [`Build::extracts`] are asked for anything but
    /// `mask == u64::MAX` (where it is `x`).
    fn extract(self, x: u64, mask: u64) -> u64;

    /// Sets `out` to the `queries` that have none of the bits `m`, in order.
    fn keep_lacking(self, queries: &[u64], m: u64, out: &mut Vec<u64>);

    /// A matcher's table entry of chunk `c` for the key `key`:
    /// `table[c * COMBOS + (key >> (c * CHUNK)) % COMBOS]` ([`entry_portable`]). Panics if
    /// the table has no chunk `c`.
    fn entry<L>(self, table: &[L], c: usize, key: u64) -> &L;
}

/// A piece of work compiled once per build: [`Build::run`] calls [`Work::run`] inside a
/// function compiled for the build's instruction set, so everything it inlines (marked
/// `#[inline(always)]`) is compiled for it too.
pub trait Work {
    /// What the work returns.
    type Out;
    /// Does the work with the build `simd`.
    fn run<S: Simd>(self, simd: S) -> Self::Out;
}

/// The build for any CPU: plain Rust, one pair at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Portable;

impl Simd for Portable {
    #[inline(always)]
    fn join(self, top: (u64, u64), south: Kept, out: &mut Vec<u64>) {
        join_portable(top, south, out);
    }

    #[inline(always)]
    fn extract(self, x: u64, mask: u64) -> u64 {
        // Never asked for a real extract (it would cost a loop over the mask's bits).
        debug_assert_eq!(mask, u64::MAX);
        x
    }

    #[inline(always)]
    fn keep_lacking(self, queries: &[u64], m: u64, out: &mut Vec<u64>) {
        keep_lacking_portable(queries, m, out);
    }

    #[inline(always)]
    fn entry<L>(self, table: &[L], c: usize, key: u64) -> &L {
        entry_portable(table, c, key)
    }
}

/// [`Simd::entry`] by a shift and a mask.
#[inline(always)]
pub fn entry_portable<L>(table: &[L], c: usize, key: u64) -> &L {
    &table[c * COMBOS + ((key >> (c * CHUNK)) as usize & (COMBOS - 1))]
}

/// [`Simd::keep_lacking`] one query at a time, without a branch per query.
#[inline(always)]
pub fn keep_lacking_portable(queries: &[u64], m: u64, out: &mut Vec<u64>) {
    out.clear();
    out.resize(queries.len(), 0);
    let mut n = 0;
    for &q in queries {
        out[n] = q;
        n += usize::from(q & m == 0);
    }
    out.truncate(n);
}

/// One build of the quadrant method's vector code, chosen once (the richest this CPU runs)
/// or named by a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// Any CPU.
    Portable,
    /// AVX2 with popcnt and bmi (the token proves the CPU has them).
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// The AVX2 build's features with AVX-512F, VL and VPOPCNTDQ.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

/// The environment variable that caps the build the quadrant method runs (`portable`, `avx2`
/// or `avx512`: the richest this CPU runs, up to the one named), so that a CPU with AVX-512
/// can measure the AVX2 build too.
pub const BUILD_VAR: &str = "NQUEENS_QUADRANT_BUILD";

impl Build {
    /// The richest build this CPU runs, up to the one [`BUILD_VAR`] names (an unknown name
    /// is an error).
    pub fn best() -> Result<Build, String> {
        let all = Build::all();
        let Some(cap) = std::env::var_os(BUILD_VAR).filter(|v| !v.is_empty()) else {
            return Ok(*all.last().expect("the portable build"));
        };
        let names = ["portable", "avx2", "avx512"];
        let cap = cap.to_string_lossy();
        let Some(rank) = names.iter().position(|&n| n == cap) else {
            return Err(format!(
                "{BUILD_VAR}={cap}: name a build of the quadrant method (portable, avx2 or avx512)"
            ));
        };
        let mut below = all
            .into_iter()
            .filter(|b| names.iter().position(|&n| n == b.name()).unwrap_or(0) <= rank);
        Ok(below.next_back().expect("the portable build"))
    }

    /// Every build this CPU runs, the portable one first and the richest last (the tests run
    /// each).
    pub fn all() -> Vec<Build> {
        let mut v = vec![Build::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            v.extend(Avx2::new().map(Build::Avx2));
            v.extend(Avx512::new().map(Build::Avx512));
        }
        v
    }

    /// The build's name, as [`BUILD_VAR`] and reports give it.
    pub fn name(self) -> &'static str {
        match self {
            Build::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Build::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Build::Avx512(_) => "avx512",
        }
    }

    /// Whether [`Simd::extract`] is one instruction in this build (BMI2's `pext`): the sieve
    /// then packs each leaf's live bits to save lookups; the portable build matches unpacked.
    pub fn extracts(self) -> bool {
        match self {
            Build::Portable => false,
            #[cfg(target_arch = "x86_64")]
            Build::Avx2(_) | Build::Avx512(_) => true,
        }
    }

    /// Runs `work` compiled for this build.
    #[inline]
    pub fn run<W: Work>(self, work: W) -> W::Out {
        match self {
            Build::Portable => work.run(Portable),
            #[cfg(target_arch = "x86_64")]
            Build::Avx2(t) => t.run(work),
            #[cfg(target_arch = "x86_64")]
            Build::Avx512(t) => t.run(work),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table entries of a pair's size and alignment, and of a block's.
    #[derive(Clone, Copy)]
    #[repr(C, align(64))]
    struct Wide([u64; 8]);
    #[derive(Clone, Copy)]
    #[repr(C, align(32))]
    struct Narrow([u64; 4]);

    /// Which entry `entry` picked, through a build.
    struct Picks<'a, L> {
        table: &'a [L],
        keys: &'a [u64],
    }

    impl<L> Work for Picks<'_, L> {
        type Out = Vec<usize>;
        fn run<S: Simd>(self, simd: S) -> Vec<usize> {
            let base = self.table.as_ptr();
            let mut v = Vec::new();
            for &k in self.keys {
                for c in 0..self.table.len() / COMBOS {
                    let e: *const L = simd.entry(self.table, c, k);
                    // SAFETY: both point into `table`.
                    v.push(unsafe { e.offset_from(base) } as usize);
                }
            }
            v
        }
    }

    /// Every build picks the entry the plain formula names, for both entry sizes and every
    /// chunk a 64-bit key has (the last one by a shift in every build).
    #[test]
    fn every_build_picks_the_same_table_entries() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let keys: Vec<u64> = (0..200)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .chain([0, u64::MAX])
            .collect();
        let chunks = 64usize.div_ceil(CHUNK);
        let wide = vec![Wide([0; 8]); chunks * COMBOS];
        let narrow = vec![Narrow([0; 4]); chunks * COMBOS];
        let want = |c: usize, k: u64| c * COMBOS + (k >> (c * CHUNK)) as usize % COMBOS;
        let plain: Vec<usize> = keys
            .iter()
            .flat_map(|&k| (0..chunks).map(move |c| want(c, k)))
            .collect();
        for build in Build::all() {
            let name = build.name();
            let keys = &keys[..];
            assert_eq!(build.run(Picks { table: &wide, keys }), plain, "{name}");
            assert_eq!(
                build.run(Picks {
                    table: &narrow,
                    keys
                }),
                plain,
                "{name}"
            );
        }
    }
}
