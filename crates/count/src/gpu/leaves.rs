//! The quadrant method's leaves prototype: the leaves kernel (`leaves.cu`: one GPU thread per
//! query, over its leaf's bit-sliced blocks of 256 patterns), which counts the pairs of a
//! sieve's leaf work that have no bit in common. The CPU keeps what it does well, the sieve's
//! splits; the leaves' matching is what would go to the GPU (docs/guide/gpu.md). The kernel's
//! source is compiled for the GPU at run time by the `gpu` feature's backend, and for this CPU
//! by the `nqueens-gpu-port` crate, which the tests run against the CPU matcher.

/// What the GPU made of a [`LeafWork`](crate::quadrants::leaves::LeafWork): its count and how long each step took.
#[derive(Debug, Clone)]
pub struct LeavesOnGpu {
    /// The GPU's name.
    pub device: String,
    /// The pairs with no bit in common.
    pub found: u64,
    /// Seconds to copy the work to the GPU.
    pub to_gpu: f64,
    /// Seconds of the kernel (launched, then waited for).
    pub kernel: f64,
    /// Seconds to copy the counts back and add them up.
    pub back: f64,
}

#[cfg(test)]
mod tests {
    use crate::quadrants::leaves::{Leaf, LeafWork};
    use crate::quadrants::matcher::sieve::Sieve;
    use crate::quadrants::matcher::testing::{plain, Sparse};

    /// The pairs of `work` with no bit in common, counted by the leaves kernel compiled for
    /// this CPU (slow: one query at a time; it checks the kernel's logic).
    fn count_cpu(work: &LeafWork) -> u64 {
        let count = u32::try_from(work.queries.len()).expect("fewer than 2^32 queries");
        let mut found = vec![0u64; work.queries.len()];
        // SAFETY: the kernel reads `count` queries and leaf indices, every index below
        // `leaves.len()` and every leaf's blocks within `sliced` (by `Shaped::leaf_work`),
        // and writes `count` counts; `Leaf` is `repr(C)` as `leaves.cu` declares it.
        unsafe {
            nqueens_gpu_port::nq_match_leaves_cpu(
                work.sliced.as_ptr(),
                work.leaves.as_ptr().cast(),
                work.queries.as_ptr(),
                work.leaf_of.as_ptr(),
                count,
                found.as_mut_ptr(),
            );
        }
        found.iter().sum()
    }

    /// The leaves kernel, compiled for this CPU, counts what the CPU's sieve and a plain count
    /// do, on sieves of one leaf and of many (split and packed), in every build, and makes
    /// the pattern tests its layout says.
    #[test]
    fn the_leaves_kernel_counts_as_the_cpu_matcher_does() {
        for build in crate::quadrants::builds() {
            let mut next = Sparse::new();
            for (len, bits) in [
                (0usize, 42u32),
                (1, 42),
                (300, 42),
                (40_000, 42),
                (20_000, 56),
            ] {
                let p: Vec<u64> = (0..len).map(|_| next.bits(bits)).collect();
                let q: Vec<u64> = (0..3000).map(|_| next.bits(bits)).collect();
                let shaped = Sieve::shape(build, &p, &q[..500], q.len(), bits);
                let work = shaped.leaf_work(&q);
                let want = plain(&p, &q);
                assert_eq!(count_cpu(&work), want, "{}: {len} of {bits}", build.name());
                assert_eq!(shaped.build().count(&q), want);
                let tests: u128 = work
                    .leaf_of
                    .iter()
                    .map(|&l| 256 * u128::from(work.leaves[l as usize].blocks))
                    .sum();
                assert_eq!(work.pattern_tests(), tests);
                if len >= 40_000 {
                    assert!(work.leaves.len() > 8, "{}: not split", build.name());
                    // The splits keep most pairs out: fewer tests than every pair.
                    assert!(work.pattern_tests() < (len * q.len()) as u128);
                }
            }
        }
    }

    /// `struct nq_leaf` is 8 bytes, as `Leaf`.
    #[test]
    fn the_leaf_layout_is_the_kernels() {
        assert_eq!(std::mem::size_of::<Leaf>(), 8);
        assert_eq!(std::mem::align_of::<Leaf>(), 4);
    }
}
