//! The audit's draws: how many tasks of a file ([`Sample`]) and which ([`SplitMix`], seeded).

/// How many recorded tasks of each file to recount.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Sample {
    /// One task of a quadrant method's file (whose tasks are long, and get slices too); 5% of
    /// a backtracking file's.
    #[default]
    Default,
    /// This share of each file's tasks (0 < f <= 1), at least one task.
    Share(f64),
    /// This many tasks of each file (all of them if it has fewer).
    Tasks(usize),
}

impl Sample {
    pub(super) fn size(self, recorded: usize, quadrants: bool) -> usize {
        match self {
            Sample::Default if quadrants => 1,
            Sample::Default => Sample::Share(0.05).size(recorded, false),
            Sample::Share(f) => ((recorded as f64 * f).ceil() as usize).clamp(1, recorded.max(1)),
            Sample::Tasks(k) => k,
        }
        .min(recorded)
    }
}

/// A small seeded generator (SplitMix64) for the sample and the slices.
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `k` distinct indexes of `0..len`, in increasing order: the first `k` of a
    /// Fisher-Yates shuffle, with only the moved places held (memory of `k`, not `len`).
    pub(super) fn choose(&mut self, len: usize, k: usize) -> Vec<usize> {
        let mut moved = std::collections::HashMap::with_capacity(2 * k);
        let mut out = Vec::with_capacity(k);
        for i in 0..k {
            let j = i + (self.next() % (len - i) as u64) as usize;
            let at_j = moved.get(&j).copied().unwrap_or(j);
            let at_i = moved.get(&i).copied().unwrap_or(i);
            moved.insert(j, at_i);
            out.push(at_j);
        }
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Sample, SplitMix};

    /// The draw that holds only the moved places picks what a whole shuffled list picks, for
    /// any length, size and seed (so an audit's sample with a seed is the one it always was).
    #[test]
    fn a_sparse_draw_is_the_whole_shuffle() {
        for (len, k, seed) in [(1, 1, 0), (10, 3, 7), (1000, 20, 42), (5, 5, 9), (64, 0, 1)] {
            let mut whole: Vec<usize> = (0..len).collect();
            let mut rng = SplitMix(seed);
            for i in 0..k {
                let j = i + (rng.next() % (len - i) as u64) as usize;
                whole.swap(i, j);
            }
            let mut want = whole[..k].to_vec();
            want.sort_unstable();
            assert_eq!(SplitMix(seed).choose(len, k), want, "{len} {k} {seed}");
        }
    }

    #[test]
    fn samples_are_distinct_sorted_and_seeded() {
        let a = SplitMix(7).choose(100, 10);
        assert_eq!(a, SplitMix(7).choose(100, 10));
        assert_ne!(a, SplitMix(8).choose(100, 10));
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a.len() == 10);
        assert_eq!(SplitMix(1).choose(5, 5), vec![0, 1, 2, 3, 4]);
        assert_eq!(Sample::Share(0.01).size(10, false), 1);
        assert_eq!(Sample::Share(1.0).size(10, false), 10);
        assert_eq!(Sample::Tasks(50).size(10, true), 10);
        assert_eq!(Sample::Share(0.5).size(0, false), 0);
        assert_eq!(Sample::Default.size(114, true), 1);
        assert_eq!(Sample::Default.size(100, false), 5);
    }
}
