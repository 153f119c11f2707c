//! The vector builds of the `wide` kernel (x86-64): AVX-512 with 16 lanes, AVX2 with 8, each
//! task counted as two searches whose steps alternate.

use super::piles::{rows_of, scalar_batch, Front, Pile, CAP, WIDTH};
use crate::arch::{Avx2, Avx512F};
use crate::backtracking::kernel::fast;
use crate::backtracking::kernel::found::Found;
use nqueens_board::spec::Spec;

impl<T: Copy> Pile<T> {
    /// The four arrays, in the order of a node: columns, both diagonals, untried squares.
    #[inline(always)]
    fn arrays(&mut self) -> [&mut [T; CAP]; 4] {
        [&mut self.cols, &mut self.d1, &mut self.d2, &mut self.avail]
    }
}

impl<T: Copy + Default> Front<T> {
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
        let (specs, out): (&[Spec], &mut [Found]) = ($specs, $out);
        let k_max = specs.iter().map(|s| s.k).max().unwrap_or(0);
        // Made once per batch: a search leaves its piles empty when it is done.
        let mut a = Front::<u32>::new(k_max);
        let mut b = Front::<u32>::new(k_max);
        for (spec, o) in specs.iter().zip(out.iter_mut()) {
            if spec.k < 3 {
                *o = fast::count(spec);
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
            *o = Found { solutions, nodes };
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
#[target_feature(enable = "avx512f,avx2,popcnt,bmi1,bmi2")]
#[inline]
fn step512(f: &mut Front<u32>, i: usize, leaf: bool, ok: u32, gap: u32) -> (u64, u64) {
    use std::arch::x86_64::*;
    let (take, base, at) = f.frame(i, WIDTH);
    let lm: __mmask16 = ((1u32 << take) - 1) as u16;
    // SAFETY: `frame` asserted that pile i + 1 exists and that 16 lanes from `base` and from
    // `at` stay inside the piles; lanes past `take` are loaded but masked off.
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

/// The AVX-512 build: 16 lanes per step for boards up to 32 columns, each task counted as
/// two searches whose steps alternate (a step waits on the nodes the step before it packed,
/// through memory, so a second independent search keeps the core busy meanwhile; the first
/// row's squares are split between them, and a search that runs dry takes half of the other's
/// shallowest work). Wider boards take the scalar steps.
///
/// (The token proves the CPU has AVX-512F, AVX2, popcnt, bmi1 and bmi2.)
pub fn avx512(_: Avx512F, specs: &[Spec], out: &mut [Found]) {
    /// # Safety
    /// The CPU must have AVX-512F, AVX2, popcnt, bmi1 and bmi2.
    #[target_feature(enable = "avx512f,avx2,popcnt,bmi1,bmi2")]
    unsafe fn body(specs: &[Spec], out: &mut [Found]) {
        if specs.iter().all(|s| s.n <= 32) {
            two_searches!(specs, out, step512)
        } else {
            scalar_batch(specs, out)
        }
    }
    // SAFETY: the token exists, so the CPU has what `body` is compiled for.
    unsafe { body(specs, out) }
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
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
#[inline]
fn step256(f: &mut Front<u32>, i: usize, leaf: bool, ok: u32, gap: u32) -> (u64, u64) {
    use std::arch::x86_64::*;
    let (take, base, at) = f.frame(i, WIDTH2);
    let lm = (1u32 << take) - 1;
    // SAFETY: `frame` asserted that pile i + 1 exists and that 8 lanes from `base` and from
    // `at` stay inside the piles.
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

/// The AVX2 build: as [`avx512`] with 8 lanes per step.
///
/// (The token proves the CPU has AVX2, popcnt, bmi1 and bmi2.)
pub fn avx2(_: Avx2, specs: &[Spec], out: &mut [Found]) {
    /// # Safety
    /// The CPU must have AVX2, popcnt, bmi1 and bmi2.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn body(specs: &[Spec], out: &mut [Found]) {
        if specs.iter().all(|s| s.n <= 32) {
            two_searches!(specs, out, step256)
        } else {
            scalar_batch(specs, out)
        }
    }
    // SAFETY: the token exists, so the CPU has what `body` is compiled for.
    unsafe { body(specs, out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_table_lists_each_masks_lanes_in_order() {
        assert_eq!(PACK[0b1010_0110][..4], [1, 2, 5, 7]);
        for (m, row) in PACK.iter().enumerate() {
            let lanes: Vec<u32> = (0..8).filter(|l| m >> l & 1 == 1).collect();
            assert_eq!(row[..lanes.len()], lanes[..], "mask {m:08b}");
        }
    }
}
