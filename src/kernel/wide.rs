//! The row-batched counter: many pending nodes of one row expanded together.
//!
//! The other kernels follow one path down the tree at a time, so every node asks "descend or
//! go back?", a branch the processor cannot predict. Here nothing has a depth of its own.
//! Each free row keeps a small pile of pending nodes (the columns and both diagonals taken
//! above it, and the row's untried squares). A step takes [`WIDTH`] nodes of one row, places
//! the next queen of each, and packs the parents that still have squares back onto their
//! pile and the children that have any square onto the next row's pile; children of the last
//! row but one are counted instead (the last row has at most one square left). The only
//! decision left is which row to work on: the deepest pile holding [`WIDTH`] nodes, else the
//! shallowest non-empty one (to build up nodes again), so a pile never holds `3 * WIDTH`.
//!
//! On x86-64 CPUs with AVX-512 and boards up to 32 columns, a step is 16 `u32` lanes in one
//! register each for columns, diagonals and squares, packed with `vpcompressd`, and each task
//! is searched as two searches whose steps alternate (a step waits on what the step before
//! it packed; the other search fills that wait). CPUs with AVX2 but not AVX-512 run 8 lanes,
//! packing with `vpermd` and a table of lane orders. Elsewhere the same steps run in scalar
//! code on `u64` masks (any board up to 64), packing by writing every node and advancing the
//! pile's end only past the live ones.
//!
//! Nodes are counted as in the other kernels: one per queen placed.

use super::{avx2_cpu, avx512_cpu};
use super::{Counts, Spec};

/// Nodes taken from a pile per step.
pub const WIDTH: usize = 16;

/// Room per pile: fewer than `3 * WIDTH` nodes (see the module doc), plus room for a full
/// vector written past the last one. A power of two, so that masking an index proves it in
/// bounds.
const CAP: usize = 64;

/// One row's pile of pending nodes, as four parallel arrays.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Pile<T: Copy> {
    cols: [T; CAP],
    d1: [T; CAP],
    d2: [T; CAP],
    avail: [T; CAP],
}

/// Counts the completions of `spec`: with AVX-512 (else AVX2) when this CPU has it and the
/// board fits in 32 columns, else with the scalar steps.
pub fn count(spec: &Spec) -> Counts {
    let mut out = [Counts::default()];
    count_batch(std::slice::from_ref(spec), &mut out);
    out[0]
}

/// Counts the completions of every spec in `specs` into `out` (same length): with AVX-512
/// (else AVX2) when this CPU has it and the boards fit in 32 columns (see
/// [`count_batch_avx512`], [`count_batch_avx2`]), else with the scalar steps.
pub fn count_batch(specs: &[Spec], out: &mut [Counts]) {
    assert_eq!(specs.len(), out.len());
    #[cfg(target_arch = "x86_64")]
    if specs.iter().all(|s| s.n <= 32) {
        if avx512_cpu() {
            // SAFETY: the CPU has AVX-512F and popcnt.
            return unsafe { count_batch_avx512(specs, out) };
        }
        if avx2_cpu() {
            // SAFETY: the CPU has AVX2 and popcnt.
            return unsafe { count_batch_avx2(specs, out) };
        }
    }
    for (s, o) in specs.iter().zip(out) {
        *o = if s.k < 3 {
            super::fast::count(s)
        } else {
            count_scalar(s)
        };
    }
}

/// The per-row constants of a spec: squares allowed by the fixed queens, and the shift of the
/// diagonals from each free row to the next.
fn rows_of(spec: &Spec) -> ([u64; 64], [u32; 64]) {
    let mut allow = [0u64; 64];
    let mut gap = [0u32; 64];
    for i in 0..spec.k {
        allow[i] = spec.full & !spec.forbid[i];
        gap[i] = spec.gap[i] as u32;
    }
    (allow, gap)
}

/// Counts the completions of `spec` (at least 3 free rows) with the scalar steps.
pub fn count_scalar(spec: &Spec) -> Counts {
    assert!(spec.k >= 3, "the wide kernel needs at least 3 free rows");
    dispatch!(scalar_body, spec)
}

#[inline(always)]
fn scalar_body(spec: &Spec) -> Counts {
    let k = spec.k;
    let (allow, gap) = rows_of(spec);
    let mut f = Front::<u64>::new(k);
    if allow[0] != 0 {
        f.push(0, [0, 0, 0, allow[0]]);
    }
    let mut found = Counts::default();
    while let Some(i) = f.pick() {
        let (n, s) = step_scalar(&mut f, i, i + 2 == k, allow[i + 1], gap[i]);
        found.nodes += n;
        found.solutions += s;
    }
    found
}

/// One step of a search in scalar code: as [`step512`], one node after the other. Every node
/// is written, and a pile's end advances only past the live ones: packing without branches.
#[inline(always)]
fn step_scalar(f: &mut Front<u64>, i: usize, leaf: bool, ok: u64, g: u32) -> (u64, u64) {
    let take = f.cnt[i].min(WIDTH);
    let base = f.cnt[i] - take;
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

impl<T: Copy> Pile<T> {
    /// The four arrays, in the order of a node: columns, both diagonals, untried squares.
    #[inline(always)]
    fn arrays(&mut self) -> [&mut [T; CAP]; 4] {
        [&mut self.cols, &mut self.d1, &mut self.d2, &mut self.avail]
    }
}

/// One search's piles and which of them hold nodes.
struct Front<T: Copy> {
    piles: Vec<Pile<T>>,
    cnt: [usize; 64],
    /// Bit i set: pile i holds at least [`WIDTH`] nodes.
    full: u64,
    /// Bit i set: pile i holds a node.
    some: u64,
}

impl<T: Copy + Default> Front<T> {
    fn new(k: usize) -> Front<T> {
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
    fn pick(&self) -> Option<usize> {
        if self.full != 0 {
            Some(63 - self.full.leading_zeros() as usize)
        } else if self.some != 0 {
            Some(self.some.trailing_zeros() as usize)
        } else {
            None
        }
    }

    #[inline(always)]
    fn refresh(&mut self, j: usize) {
        let c = self.cnt[j];
        self.full = (self.full & !(1 << j)) | (((c >= WIDTH) as u64) << j);
        self.some = (self.some & !(1 << j)) | (((c > 0) as u64) << j);
    }

    /// Books a step on pile `i` that took `take` nodes from `base` on: `kept` of them went
    /// back (from `base` on), `born` children went onto pile `i + 1` (unless `leaf`: then they
    /// are solutions, counted, not kept). Returns the nodes placed and the solutions found.
    #[inline(always)]
    fn settle(
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
    fn push(&mut self, i: usize, node: [T; 4]) {
        let (p, at) = (&mut self.piles[i], self.cnt[i]);
        [p.cols[at], p.d1[at], p.d2[at], p.avail[at]] = node;
        self.cnt[i] += 1;
        self.refresh(i);
    }

    fn pop(&mut self, i: usize) -> [T; 4] {
        self.cnt[i] -= 1;
        let (p, at) = (&self.piles[i], self.cnt[i]);
        let node = [p.cols[at], p.d1[at], p.d2[at], p.avail[at]];
        self.refresh(i);
        node
    }
}

/// The two-search loop shared by the vector builds: counts every spec of `$specs` into `$out`
/// with `$step` (a step function over `Front<u32>`, see [`step512`]). A macro, not a generic
/// function, so that each build's loop is compiled inside its own `#[target_feature]` function.
macro_rules! two_searches {
    ($specs:expr, $out:expr, $step:ident) => {{
        let (specs, out): (&[Spec], &mut [Counts]) = ($specs, $out);
        let k_max = specs.iter().map(|s| s.k).max().unwrap_or(0);
        // Made once per batch: a search leaves its piles empty when it is done.
        let mut a = Front::<u32>::new(k_max);
        let mut b = Front::<u32>::new(k_max);
        for (spec, o) in specs.iter().zip(out.iter_mut()) {
            if spec.k < 3 {
                *o = super::fast::count(spec);
                continue;
            }
            let k = spec.k;
            let (allow, gap) = rows_of(spec);
            let ok: [u32; 64] = std::array::from_fn(|i| allow[i] as u32);
            if ok[0] != 0 {
                a.push(0, [0, 0, 0, ok[0]]);
                share(&mut a, &mut b);
            }
            let (mut nodes, mut solutions) = (0u64, 0u64);
            loop {
                let (pa, pb) = match (a.pick(), b.pick()) {
                    (None, None) => break,
                    (None, Some(_)) => {
                        share(&mut b, &mut a);
                        (a.pick(), b.pick())
                    }
                    (Some(_), None) => {
                        share(&mut a, &mut b);
                        (a.pick(), b.pick())
                    }
                    both => both,
                };
                if let Some(i) = pa {
                    let (n, s) = $step(&mut a, i, i + 2 == k, ok[i + 1], gap[i]);
                    nodes += n;
                    solutions += s;
                }
                if let Some(i) = pb {
                    let (n, s) = $step(&mut b, i, i + 2 == k, ok[i + 1], gap[i]);
                    nodes += n;
                    solutions += s;
                }
            }
            *o = Counts { solutions, nodes };
        }
    }};
}

/// Gives the idle search `to` work from `from`: half the nodes of `from`'s shallowest pile,
/// or, if that pile holds one node, half of that node's untried squares. Returns false if
/// `from` has no work to share.
fn share(from: &mut Front<u32>, to: &mut Front<u32>) -> bool {
    let Some(i) = (from.some != 0).then(|| from.some.trailing_zeros() as usize) else {
        return false;
    };
    let n = from.cnt[i];
    if n >= 2 {
        for _ in 0..n / 2 {
            let node = from.pop(i);
            to.push(i, node);
        }
        return true;
    }
    let [c, x, y, a] = from.pop(i);
    // Every other square, or the lowest if that takes all or none.
    let mut half = a & 0x5555_5555;
    if half == 0 || half == a {
        half = a & a.wrapping_neg();
    }
    if half == a {
        from.push(i, [c, x, y, a]);
        return false;
    }
    to.push(i, [c, x, y, half]);
    from.push(i, [c, x, y, a ^ half]);
    true
}

/// One step of a search with AVX-512: expands up to [`WIDTH`] nodes of pile `i` (see the
/// module doc); `leaf`: row `i + 1` is the last free row, whose squares are counted. `ok`
/// holds row `i + 1`'s squares left by the fixed queens, `gap` the rows from `i` to `i + 1`.
/// Returns the nodes placed and the solutions found.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
#[inline]
fn step512(f: &mut Front<u32>, i: usize, leaf: bool, ok: u32, gap: u32) -> (u64, u64) {
    use std::arch::x86_64::*;
    let take = f.cnt[i].min(WIDTH);
    let base = f.cnt[i] - take;
    let at = f.cnt[i + 1];
    debug_assert!(i + 1 < f.piles.len() && base + WIDTH <= CAP && at + WIDTH <= CAP);
    let lm: __mmask16 = ((1u32 << take) - 1) as u16;
    // SAFETY: pile i + 1 exists (the caller never picks the last free row's pile, which no
    // node reaches), and `base + 16 <= CAP`, `at + 16 <= CAP` because piles hold fewer than
    // 3 * WIDTH = 48 nodes; lanes past `take` are loaded but masked off.
    unsafe {
        let p = f.piles.as_mut_ptr();
        let (cur, next) = (p.add(i), p.add(i + 1));
        let ld = |a: *const u32| _mm512_loadu_si512(a.add(base) as *const __m512i);
        let c = ld((*cur).cols.as_ptr());
        let x = ld((*cur).d1.as_ptr());
        let y = ld((*cur).d2.as_ptr());
        let a = ld((*cur).avail.as_ptr());
        let g = _mm512_set1_epi32(gap as i32);
        let ok = _mm512_set1_epi32(ok as i32);
        let bit = _mm512_and_si512(a, _mm512_sub_epi32(_mm512_setzero_si512(), a));
        let rest = _mm512_xor_si512(a, bit);
        let nc = _mm512_or_si512(c, bit);
        let nx = _mm512_sllv_epi32(_mm512_or_si512(x, bit), g);
        let ny = _mm512_srlv_epi32(_mm512_or_si512(y, bit), g);
        // ok & !(nc | nx | ny)
        let free = _mm512_ternarylogic_epi32::<0x10>(ok, _mm512_or_si512(nc, nx), ny);
        let kb = _mm512_mask_test_epi32_mask(lm, rest, rest);
        let kf = _mm512_mask_test_epi32_mask(lm, free, free);
        // Packs the chosen lanes of a node's four vectors onto a pile, from index `at` on.
        let put = |pile: *mut Pile<u32>, at: usize, m: __mmask16, node: [__m512i; 4]| {
            for (dst, v) in (*pile).arrays().into_iter().zip(node) {
                let packed = _mm512_maskz_compress_epi32(m, v);
                _mm512_storeu_si512(dst.as_mut_ptr().add(at) as *mut __m512i, packed);
            }
        };
        put(cur, base, kb, [c, x, y, rest]);
        if !leaf {
            put(next, at, kf, [nc, nx, ny, free]);
        }
        let (kept, born) = (kb.count_ones() as usize, kf.count_ones() as usize);
        f.settle(i, take, base, kept, born, leaf)
    }
}

/// Counts the completions of `spec` (at most 32 columns) with 16 AVX-512 lanes per step
/// (see [`count_batch_avx512`]).
///
/// # Safety
/// The CPU must have AVX-512F and popcnt (see [`super::avx512_cpu`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
pub unsafe fn count_avx512(spec: &Spec) -> Counts {
    let mut out = [Counts::default()];
    count_batch_avx512(std::slice::from_ref(spec), &mut out);
    out[0]
}

/// Counts the completions of every spec in `specs` (at most 32 columns) into `out` (same
/// length), with 16 AVX-512 lanes per step. Each task is counted as two searches whose steps
/// alternate: a step waits on the nodes the step before it packed (through memory), so two
/// independent searches keep the core busy while the other waits. The first row's squares
/// are split between them, and a search that runs dry takes half of the other's shallowest
/// work.
///
/// # Safety
/// The CPU must have AVX-512F and popcnt (see [`super::avx512_cpu`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
pub unsafe fn count_batch_avx512(specs: &[Spec], out: &mut [Counts]) {
    assert_eq!(specs.len(), out.len());
    assert!(
        specs.iter().all(|s| s.n <= 32),
        "the AVX-512 steps need 32 columns at most"
    );
    two_searches!(specs, out, step512)
}

/// Lanes of the AVX2 build: 8 `u32` in a 256-bit register.
const WIDTH2: usize = 8;

/// For each 8-bit mask, the lane indices of its set bits in order: `vpermd` with this packs the
/// chosen lanes to the front, as `vpcompressd` does in AVX-512.
static PACK: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut at) = (0, 0);
        while lane < 8 {
            if m >> lane & 1 == 1 {
                t[m][at] = lane as u32;
                at += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
};

/// One step of a search with AVX2: as [`step512`] with 8 lanes, packing with `vpermd` and a
/// table ([`PACK`]) instead of `vpcompressd`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn step256(f: &mut Front<u32>, i: usize, leaf: bool, ok: u32, gap: u32) -> (u64, u64) {
    use std::arch::x86_64::*;
    let take = f.cnt[i].min(WIDTH2);
    let base = f.cnt[i] - take;
    let at = f.cnt[i + 1];
    debug_assert!(i + 1 < f.piles.len() && base + WIDTH2 <= CAP && at + WIDTH2 <= CAP);
    let lm = (1u32 << take) - 1;
    // SAFETY: as in `step512`, with 8 lanes: every load and store stays inside the piles.
    unsafe {
        let p = f.piles.as_mut_ptr();
        let (cur, next) = (p.add(i), p.add(i + 1));
        let ld = |a: *const u32| _mm256_loadu_si256(a.add(base) as *const __m256i);
        let c = ld((*cur).cols.as_ptr());
        let x = ld((*cur).d1.as_ptr());
        let y = ld((*cur).d2.as_ptr());
        let a = ld((*cur).avail.as_ptr());
        let zero = _mm256_setzero_si256();
        let g = _mm256_set1_epi32(gap as i32);
        let ok = _mm256_set1_epi32(ok as i32);
        let bit = _mm256_and_si256(a, _mm256_sub_epi32(zero, a));
        let rest = _mm256_xor_si256(a, bit);
        let nc = _mm256_or_si256(c, bit);
        let nx = _mm256_sllv_epi32(_mm256_or_si256(x, bit), g);
        let ny = _mm256_srlv_epi32(_mm256_or_si256(y, bit), g);
        let free = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(nc, nx), ny), ok);
        let nonzero = |v: __m256i| {
            let z = _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero));
            !(_mm256_movemask_ps(z) as u32) & lm
        };
        let (kb, kf) = (nonzero(rest), nonzero(free));
        // Packs the chosen lanes (`perm`: their order, from PACK) onto a pile from `at` on.
        let put = |pile: *mut Pile<u32>, at: usize, perm: __m256i, node: [__m256i; 4]| {
            for (dst, v) in (*pile).arrays().into_iter().zip(node) {
                let packed = _mm256_permutevar8x32_epi32(v, perm);
                _mm256_storeu_si256(dst.as_mut_ptr().add(at) as *mut __m256i, packed);
            }
        };
        let order = |m: u32| _mm256_loadu_si256(PACK[m as usize].as_ptr() as *const __m256i);
        put(cur, base, order(kb), [c, x, y, rest]);
        if !leaf {
            put(next, at, order(kf), [nc, nx, ny, free]);
        }
        let (kept, born) = (kb.count_ones() as usize, kf.count_ones() as usize);
        f.settle(i, take, base, kept, born, leaf)
    }
}

/// Counts the completions of every spec in `specs` (at most 32 columns) into `out` (same
/// length) with 8 AVX2 lanes per step, two searches alternating (see
/// [`count_batch_avx512`]).
///
/// # Safety
/// The CPU must have AVX2 and popcnt (see [`super::avx2_cpu`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
pub unsafe fn count_batch_avx2(specs: &[Spec], out: &mut [Counts]) {
    assert_eq!(specs.len(), out.len());
    assert!(
        specs.iter().all(|s| s.n <= 32),
        "the AVX2 steps need 32 columns at most"
    );
    two_searches!(specs, out, step256)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::simple;

    #[test]
    fn scalar_and_vector_steps_match_simple() {
        for fixed in [&[][..], &[(0, 1)], &[(0, 1), (3, 0)], &[(2, 2), (7, 5)]] {
            let s = Spec::new(8, fixed);
            assert_eq!(count_scalar(&s), simple::count(&s), "{fixed:?}");
            #[cfg(target_arch = "x86_64")]
            if avx512_cpu() {
                // SAFETY: checked just above.
                assert_eq!(unsafe { count_avx512(&s) }, simple::count(&s), "{fixed:?}");
            }
            #[cfg(target_arch = "x86_64")]
            if avx2_cpu() {
                let mut got = [Counts::default()];
                // SAFETY: checked just above.
                unsafe { count_batch_avx2(std::slice::from_ref(&s), &mut got) };
                assert_eq!(got[0], simple::count(&s), "{fixed:?}");
            }
        }
        let s = Spec::new(10, &[]);
        assert_eq!(count_scalar(&s).solutions, 724);
    }

    #[test]
    fn pack_table_lists_each_masks_lanes_in_order() {
        assert_eq!(PACK[0b1010_0110][..4], [1, 2, 5, 7]);
        for (m, row) in PACK.iter().enumerate() {
            let lanes: Vec<u32> = (0..8).filter(|l| m >> l & 1 == 1).collect();
            assert_eq!(row[..lanes.len()], lanes[..], "mask {m:08b}");
        }
    }
}
