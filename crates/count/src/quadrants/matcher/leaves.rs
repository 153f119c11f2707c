//! A sieve's leaves and the queries that reach each, laid out as plain data
//! (`Shaped::leaf_work`): the walk of the sieve's splits done, each leaf's matching left to
//! whoever takes the work. The GPU room's leaves prototype matches it (docs/guide/gpu.md),
//! and the measurements of pattern tests per solution count it.

use super::BLOCK;
// The walk that lays a sieve's leaves out is for measurements and the tests only.
#[cfg(any(test, feature = "probe"))]
use super::{
    shape::{Shape, Shaped},
    slices,
};

/// The words per block of `BLOCK` patterns takes in [`LeafWork::sliced`]: for each of the 64
/// bit positions, four words (one bit per pattern: it lacks the bit), then the block's
/// valid-pattern words.
pub const BLOCK_WORDS: usize = 65 * 4;

/// A leaf in [`LeafWork::sliced`]: its blocks, from block `first` on. Laid out as `leaves.cu`'s
/// `struct nq_leaf`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Leaf {
    /// Its first block.
    pub first: u32,
    /// Its blocks.
    pub blocks: u32,
}

/// A sieve's leaves and the queries that reach each, laid out for the leaves kernel: what
/// would cross to the GPU for one sieve and one list of queries.
#[derive(Debug, Default, Clone)]
pub struct LeafWork {
    /// Every leaf's patterns, bit-sliced, [`BLOCK_WORDS`] words per block.
    pub sliced: Vec<u64>,
    /// The leaves that some query reaches.
    pub leaves: Vec<Leaf>,
    /// The queries, each as many times as it reaches a leaf, masked to the bits that can
    /// still conflict there; a leaf's are next to each other.
    pub queries: Vec<u64>,
    /// Each query's leaf (an index of `leaves`).
    pub leaf_of: Vec<u32>,
}

impl LeafWork {
    /// The (pattern, query) tests the kernel makes: each query against every pattern slot
    /// of its leaf's blocks (a last block's empty slots included, as the CPU matcher's).
    pub fn pattern_tests(&self) -> u128 {
        let leaf_tests = |&l: &u32| u128::from(self.leaves[l as usize].blocks) * BLOCK as u128;
        self.leaf_of.iter().map(leaf_tests).sum()
    }

    /// The bytes the work takes on the GPU (what crosses PCIe for it), the counts it sends
    /// back (8 bytes per query) included.
    pub fn bytes(&self) -> usize {
        8 * self.sliced.len() + 8 * self.leaves.len() + (8 + 4 + 8) * self.queries.len()
    }

    #[cfg(any(test, feature = "probe"))]
    /// Appends a leaf of `patterns` (at least one) and returns its index.
    fn push_leaf(&mut self, patterns: &[u64]) -> u32 {
        let first = (self.sliced.len() / BLOCK_WORDS) as u32;
        for block in patterns.chunks(BLOCK) {
            let (slice, valid) = slices(block);
            for s in &slice[..64] {
                self.sliced.extend_from_slice(&s.0);
            }
            self.sliced.extend_from_slice(&valid.0);
        }
        let blocks = patterns.len().div_ceil(BLOCK) as u32;
        self.leaves.push(Leaf { first, blocks });
        (self.leaves.len() - 1) as u32
    }
}

#[cfg(any(test, feature = "probe"))]
impl Shaped {
    /// The sieve's leaves that `queries` reach, each with the queries its splits let in
    /// (masked to its live bits), laid out for the leaves kernel: the sieve's walk, done on
    /// the CPU, with each leaf's matching left to the kernel.
    pub fn leaf_work(&self, queries: &[u64]) -> LeafWork {
        let mut work = LeafWork::default();
        let mut stack = vec![(0usize, queries.to_vec())];
        while let Some((at, qs)) = stack.pop() {
            if qs.is_empty() {
                continue;
            }
            match &self.shapes[at] {
                Shape::Empty => {}
                Shape::Split { bit, right } => {
                    let lacking = qs.iter().copied().filter(|q| q >> bit & 1 == 0).collect();
                    stack.push((*right, lacking));
                    stack.push((at + 1, qs));
                }
                Shape::Leaf { range, live } => {
                    let leaf = work.push_leaf(&self.patterns[range.clone()]);
                    work.queries.extend(qs.iter().map(|q| q & live));
                    work.leaf_of.extend(std::iter::repeat_n(leaf, qs.len()));
                }
            }
        }
        work
    }
}
