//! The x86-64 builds: the tokens that prove a CPU's features, the functions every generic body
//! of theirs runs in, and their primitives (the join, four pairs per step or eight in the
//! AVX-512 build, the filters of queries, the table lookup by `rorx`, `pext`).

use super::cpu::features;
use super::portable::entry_portable;
use super::simd::{Candidates, PerBuild, Simd, Top, COMBOS};
use std::arch::asm;
use std::arch::x86_64::*;

/// Defines a token type: a proof that this CPU has `$features` (the names of
/// `#[target_feature]`), made only by `new`, which asks [`features`]. With a `$with` name, the
/// token is a [`super::SimdBuild`]'s too, and gets `run`, which calls a [`PerBuild`] work
/// inside a function compiled for the features.
macro_rules! token {
    ($(#[$doc:meta])* $name:ident, $features:literal, $has:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name {
            _proof: (),
        }

        impl $name {
            /// The token, if this CPU has the features.
            pub fn new() -> Option<$name> {
                features().$has.then_some($name { _proof: () })
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, $features:literal, $has:ident, $with:ident) => {
        token!($(#[$doc])* $name, $features, $has);

        impl $name {
            /// Runs `work` compiled for the features.
            #[inline]
            pub(super) fn run<W: PerBuild>(self, work: W) -> W::Out {
                // SAFETY: `self` exists, so the CPU has the features `$with` is compiled for.
                unsafe { $with(self, work) }
            }
        }

        /// `work` with this build, in a function compiled for its features.
        ///
        /// # Safety
        /// The CPU must have every feature of the `target_feature` list.
        #[target_feature(enable = $features)]
        unsafe fn $with<W: PerBuild>(token: $name, work: W) -> W::Out {
            work.run(token)
        }
    };
}

token!(
    /// Proof that this CPU has popcnt, bmi1 and bmi2: the scalar builds of the backtracking
    /// kernels.
    Bmi,
    "popcnt,bmi1,bmi2",
    bmi
);
token!(
    /// Proof that this CPU has popcnt, bmi1, bmi2 and AVX2.
    Avx2,
    "popcnt,bmi1,bmi2,avx2",
    avx2,
    with_avx2
);
token!(
    /// Proof that this CPU has popcnt, bmi1, bmi2, AVX2 and AVX-512F: the backtracking `wide`
    /// kernel's 16-lane steps.
    Avx512F,
    "popcnt,bmi1,bmi2,avx2,avx512f",
    avx512f
);
token!(
    /// Proof that this CPU has popcnt, bmi1, bmi2, AVX2 and AVX-512F, VL and VPOPCNTDQ: the
    /// quadrant method's AVX-512 build (a pair of blocks' lanes is one register there).
    Avx512,
    "popcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512vpopcntdq",
    avx512,
    with_avx512
);

impl Avx512 {
    /// The AVX2 token: its features are among this build's.
    #[inline(always)]
    fn avx2(self) -> Avx2 {
        Avx2 { _proof: () }
    }
}

impl Simd for Avx512 {
    #[inline(always)]
    fn join(self, top: Top, south: Candidates, out: &mut Vec<u64>) {
        // SAFETY: `self` exists, so the CPU has what `join_avx512` is compiled for.
        unsafe { join_avx512(top, south, out) }
    }

    #[inline(always)]
    fn extract(self, x: u64, mask: u64) -> u64 {
        self.avx2().extract(x, mask)
    }

    #[inline(always)]
    fn keep_lacking(self, queries: &[u64], m: u64, out: &mut Vec<u64>) {
        // SAFETY: `self` exists, so the CPU has what `keep_lacking_avx512` is compiled for.
        unsafe { keep_lacking_avx512(queries, m, out) }
    }

    #[inline(always)]
    fn entry<L>(self, table: &[L], c: usize, key: u64) -> &L {
        self.avx2().entry(table, c, key)
    }
}

/// [`Simd::keep_lacking`] eight queries at a time: test eight, compress the kept ones to the
/// front of the register and store all eight; the end moves on by the number kept. The last 0
/// to 7 queries one at a time.
///
/// # Safety
/// The CPU must have popcnt, bmi1, bmi2, AVX2, AVX-512F, VL and VPOPCNTDQ (what the function
/// is compiled for; it uses AVX-512F).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512vpopcntdq")]
unsafe fn keep_lacking_avx512(queries: &[u64], m: u64, out: &mut Vec<u64>) {
    out.clear();
    // Each store writes eight lanes, of which the ones past the kept are overwritten next.
    out.reserve(queries.len() + 8);
    let base = out.as_mut_ptr();
    let mut len = 0;
    let mask = _mm512_set1_epi64(m as i64);
    let octs = queries.len() / 8;
    for i in 0..octs {
        // SAFETY: `8 i + 7 < len(queries)`; the store ends at `len + 8 <= 8 i + 8`, within the
        // capacity reserved.
        unsafe {
            let q = _mm512_loadu_si512(queries.as_ptr().add(8 * i) as *const __m512i);
            let kept = _mm512_testn_epi64_mask(q, mask);
            let packed = _mm512_maskz_compress_epi64(kept, q);
            _mm512_storeu_si512(base.add(len) as *mut __m512i, packed);
            len += kept.count_ones() as usize;
        }
    }
    for &q in &queries[8 * octs..] {
        // SAFETY: `len <= 8 octs + i < len(queries)`, within the capacity.
        unsafe { base.add(len).write(q) };
        len += usize::from(q & m == 0);
    }
    // SAFETY: the first `len` elements were written (the kept queries).
    unsafe { out.set_len(len) };
}

impl Simd for Avx2 {
    #[inline(always)]
    fn join(self, top: Top, south: Candidates, out: &mut Vec<u64>) {
        // SAFETY: `self` exists, so the CPU has what `join_avx2` is compiled for.
        unsafe { join_avx2(top, south, out) }
    }

    #[inline(always)]
    fn extract(self, x: u64, mask: u64) -> u64 {
        // SAFETY: `self` exists, so the CPU has BMI2.
        unsafe { _pext_u64(x, mask) }
    }

    #[inline(always)]
    fn keep_lacking(self, queries: &[u64], m: u64, out: &mut Vec<u64>) {
        // SAFETY: `self` exists, so the CPU has what `keep_lacking_avx2` is compiled for.
        unsafe { keep_lacking_avx2(queries, m, out) }
    }

    #[inline(always)]
    fn entry<L>(self, table: &[L], c: usize, key: u64) -> &L {
        // Bytes into chunk `c`'s entries: key bits `6c..6c + 6` rotated to the entry size's
        // place and masked, two instructions (`rorx` leaves the key alone; a shift would need
        // a copy first). Written out: under a mask, the compiler turns a rotate into a shift.
        macro_rules! offset {
            ($rot:literal, $mask:literal) => {{
                let o: usize;
                // SAFETY: `self` exists, so the CPU has BMI2 (`rorx`); no memory is touched.
                unsafe {
                    asm!(
                        concat!("rorx {o}, {k}, ", $rot),
                        concat!("and {o:e}, ", $mask),
                        o = out(reg) o,
                        k = in(reg) key,
                        options(pure, nomem, nostack),
                    );
                }
                o
            }};
        }
        // A 64-byte entry (a pair) at `combo << 6`, a 32-byte one (a block) at `combo << 5`:
        // rotated right by 6c - 6 or 6c - 5 (mod 64). Chunk 10 would wrap key bits: by shift.
        let off = match (std::mem::size_of::<L>(), c) {
            (64, 0) => offset!("58", "0xfc0"),
            (64, 1) => offset!("0", "0xfc0"),
            (64, 2) => offset!("6", "0xfc0"),
            (64, 3) => offset!("12", "0xfc0"),
            (64, 4) => offset!("18", "0xfc0"),
            (64, 5) => offset!("24", "0xfc0"),
            (64, 6) => offset!("30", "0xfc0"),
            (64, 7) => offset!("36", "0xfc0"),
            (64, 8) => offset!("42", "0xfc0"),
            (64, 9) => offset!("48", "0xfc0"),
            (32, 0) => offset!("59", "0x7e0"),
            (32, 1) => offset!("1", "0x7e0"),
            (32, 2) => offset!("7", "0x7e0"),
            (32, 3) => offset!("13", "0x7e0"),
            (32, 4) => offset!("19", "0x7e0"),
            (32, 5) => offset!("25", "0x7e0"),
            (32, 6) => offset!("31", "0x7e0"),
            (32, 7) => offset!("37", "0x7e0"),
            (32, 8) => offset!("43", "0x7e0"),
            (32, 9) => offset!("49", "0x7e0"),
            _ => return entry_portable(table, c, key),
        };
        let at = c * COMBOS;
        // Folded away where the caller's table length is a constant multiple of COMBOS.
        assert!(at + COMBOS <= table.len(), "no chunk {c} in the table");
        // SAFETY: the mask leaves `off` a multiple of the entry size below `COMBOS` entries,
        // so the entry is one of chunk `c`'s, within `table` (asserted) and aligned as `L`.
        unsafe { &*table.as_ptr().add(at).cast::<u8>().add(off).cast::<L>() }
    }
}

/// [`Simd::keep_lacking`] four queries at a time: test four, move the kept ones to the front
/// of the register (the join's permutations) and store all four; the end moves on by the
/// number kept. The last 0 to 3 queries one at a time.
///
/// # Safety
/// The CPU must have popcnt, bmi1, bmi2 and AVX2 (what the function is compiled for).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn keep_lacking_avx2(queries: &[u64], m: u64, out: &mut Vec<u64>) {
    out.clear();
    // Each store writes four lanes, of which the ones past the kept are overwritten next.
    out.reserve(queries.len() + 4);
    let base = out.as_mut_ptr();
    let mut len = 0;
    let mask = _mm256_set1_epi64x(m as i64);
    let zero = _mm256_setzero_si256();
    let quads = queries.len() / 4;
    for i in 0..quads {
        // SAFETY: `4 i + 3 < len(queries)`; the store ends at `len + 4 <= 4 i + 4`, within the
        // capacity reserved.
        unsafe {
            let q = _mm256_loadu_si256(queries.as_ptr().add(4 * i) as *const __m256i);
            let hit = _mm256_cmpeq_epi64(_mm256_and_si256(q, mask), zero);
            let kept = _mm256_movemask_pd(_mm256_castsi256_pd(hit)) as usize;
            let perm = _mm256_loadu_si256(COMPRESS[kept].as_ptr() as *const __m256i);
            let packed = _mm256_permutevar8x32_epi32(q, perm);
            _mm256_storeu_si256(base.add(len) as *mut __m256i, packed);
            len += kept.count_ones() as usize;
        }
    }
    for &q in &queries[4 * quads..] {
        // SAFETY: `len <= 4 quads + i < len(queries)`, within the capacity.
        unsafe { base.add(len).write(q) };
        len += usize::from(q & m == 0);
    }
    // SAFETY: the first `len` elements were written (the kept queries).
    unsafe { out.set_len(len) };
}

/// For each 4-bit mask of kept lanes, the 32-bit lane indices that move the kept 64-bit lanes
/// to the front, in order.
static COMPRESS: [[u32; 8]; 16] = {
    let mut t = [[0u32; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut to) = (0, 0);
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                t[mask][2 * to] = 2 * lane as u32;
                t[mask][2 * to + 1] = 2 * lane as u32 + 1;
                to += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
};

/// [`Simd::join`] eight pairs at a time: test eight meets, OR the top key onto eight keys,
/// compress the kept ones to the front of the register and store all eight; the end moves on
/// by the number kept. The last four, where the candidates are not a multiple of eight, by
/// the AVX2 build's four lanes (the padding is to four).
///
/// # Safety
/// The CPU must have popcnt, bmi1, bmi2, AVX2, AVX-512F, VL and VPOPCNTDQ (what the function
/// is compiled for; it uses AVX-512F).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512vpopcntdq")]
unsafe fn join_avx512(top: Top, south: Candidates, out: &mut Vec<u64>) {
    let (meets, keys, n) = (south.meets, south.keys, south.len);
    let octs = n / 8;
    assert!(meets.len() >= 8 * octs && keys.len() >= 8 * octs);
    // Each store writes eight lanes, of which the ones past the kept are overwritten next.
    out.reserve(8 * octs + 8);
    let mut len = out.len();
    let base = out.as_mut_ptr();
    let tm = _mm512_set1_epi64(top.meet as i64);
    let tk = _mm512_set1_epi64(top.key as i64);
    for q in 0..octs {
        // SAFETY: `8 q + 7 < 8 octs`, within both inputs (asserted); the store's eight lanes
        // end at most at `len + 8 <= old len + 8 octs + 8`, within the capacity reserved.
        unsafe {
            let m = _mm512_loadu_si512(meets.as_ptr().add(8 * q) as *const __m512i);
            let k = _mm512_loadu_si512(keys.as_ptr().add(8 * q) as *const __m512i);
            let kept = _mm512_testn_epi64_mask(m, tm);
            let packed = _mm512_maskz_compress_epi64(kept, _mm512_or_si512(k, tk));
            _mm512_storeu_si512(base.add(len) as *mut __m512i, packed);
            len += kept.count_ones() as usize;
        }
    }
    // SAFETY: the first `len` elements were written (the old ones, then the kept pairs).
    unsafe { out.set_len(len) };
    if n > 8 * octs {
        let rest = Candidates {
            meets: &meets[8 * octs..],
            keys: &keys[8 * octs..],
            len: n - 8 * octs,
        };
        // SAFETY: this CPU has AVX2 and the rest (what this function is compiled for).
        unsafe { join_avx2(top, rest, out) };
    }
}

/// [`Simd::join`] four pairs at a time: test four meets, OR the top key onto four keys, move
/// the kept ones to the front of the register (a permutation looked up by the test's mask) and
/// store all four; the end moves on by the number kept. The last group reads the padding past
/// `n` and keeps none of it.
///
/// # Safety
/// The CPU must have popcnt, bmi1, bmi2 and AVX2 (what the function is compiled for).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn join_avx2(top: Top, south: Candidates, out: &mut Vec<u64>) {
    let (meets, keys, n) = (south.meets, south.keys, south.len);
    let quads = n.div_ceil(4);
    assert!(meets.len() >= 4 * quads && keys.len() >= 4 * quads);
    // Each store writes four lanes, of which the ones past the kept are overwritten next.
    out.reserve(4 * quads);
    let mut len = out.len();
    let base = out.as_mut_ptr();
    let tm = _mm256_set1_epi64x(top.meet as i64);
    let tk = _mm256_set1_epi64x(top.key as i64);
    let zero = _mm256_setzero_si256();
    for q in 0..quads {
        // The last group's lanes past `n` are padding: never kept.
        let valid = if 4 * q + 4 <= n {
            15
        } else {
            (1 << (n - 4 * q)) - 1
        };
        // SAFETY: `4 q + 3 < 4 quads`, within both inputs (asserted); the store's four lanes
        // end at most at `len + 4 <= old len + 4 quads`, within the capacity reserved.
        unsafe {
            let m = _mm256_loadu_si256(meets.as_ptr().add(4 * q) as *const __m256i);
            let k = _mm256_loadu_si256(keys.as_ptr().add(4 * q) as *const __m256i);
            let hit = _mm256_cmpeq_epi64(_mm256_and_si256(m, tm), zero);
            let mask = _mm256_movemask_pd(_mm256_castsi256_pd(hit)) as usize & valid;
            let perm = _mm256_loadu_si256(COMPRESS[mask].as_ptr() as *const __m256i);
            let packed = _mm256_permutevar8x32_epi32(_mm256_or_si256(k, tk), perm);
            _mm256_storeu_si256(base.add(len) as *mut __m256i, packed);
            len += mask.count_ones() as usize;
        }
    }
    // SAFETY: the first `len` elements were written (the old ones, then the kept pairs).
    unsafe { out.set_len(len) };
}
