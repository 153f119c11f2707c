//! The counting algorithms a user names: the backtrackers (by how they use the board's
//! symmetry), the quadrant method, and `auto`. Which one counts per board is decided in
//! [`super::method`], the one place that knows every method.

use nqueens_board::named_enum;

/// How a count is made: a backtracking algorithm (by how it uses the board's symmetry), the
/// quadrant method, or `auto`, which picks one by the board ([`crate::method`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Algorithm {
    /// Every placement of row 0 is searched; no symmetry: the simplest plan, kept as a
    /// cross-check of the others.
    Plain,
    /// Mirror halving: only the left half of row 0 is searched and counted twice (plus the
    /// middle column once for odd N).
    Mirror,
    /// All 8 symmetries: border queens placed first, one representative per class, each
    /// solution weighted by its orbit (2, 4 or 8); gives the unique count (A002562) too.
    #[default]
    Symmetric,
    /// Not backtracking: half-boards joined from quarter-boards and matched by their diagonals
    /// (the quadrant method); N from 4 to 28, no placed queens.
    Quadrants,
    /// Whichever is faster for the board: `quadrants` for even N >= 16 and odd N >= 17 (up to
    /// 28, without placed queens), else `symmetric` (`plain` with placed queens). The
    /// crossover was measured (docs/performance/log.md).
    Auto,
}

named_enum!(Algorithm, "algorithm", {
    Plain => "plain",
    Mirror => "mirror",
    Symmetric => "symmetric",
    Quadrants => "quadrants",
    Auto => "auto",
});

impl Algorithm {
    /// Whether the algorithm counts solutions by symmetry class (the unique count, A002562):
    /// the symmetric backtracker and the quadrant method; their task records carry class
    /// counts, the others' none.
    pub fn counts_classes(self) -> bool {
        matches!(self, Algorithm::Symmetric | Algorithm::Quadrants)
    }

    /// Roughly the CPU nanoseconds per solution costs with this algorithm on large boards, at
    /// one thread: the quadrant method about 1.8 at
    /// N = 28 by the AVX2 build on an AMD EPYC Zen 5, 1.2 by the AVX-512 build on an Intel
    /// Xeon; the backtrackers at N = 18 and 19 on the Xeon (their cost grows a few percent
    /// per N). A scale for notes before long counts, never a measurement; `Auto` as what it
    /// picks past the quadrant method.
    pub fn rough_ns_per_solution(self) -> f64 {
        match self {
            Algorithm::Quadrants => 2.0,
            Algorithm::Mirror => 34.0,
            Algorithm::Plain => 62.0,
            Algorithm::Symmetric | Algorithm::Auto => 13.0,
        }
    }

    /// Roughly the core-seconds a whole count of an `n` board costs with this algorithm: a(N)
    /// (known, or projected past the table) times [`Algorithm::rough_ns_per_solution`]. A
    /// scale for notes and for refusing what cannot finish, never a measurement.
    pub fn rough_core_seconds(self, n: u32) -> f64 {
        crate::oeis::a000170_estimate(n) * self.rough_ns_per_solution() * 1e-9
    }

    /// The backtracking algorithms (they use a kernel and a split depth).
    pub const BACKTRACKING: [Algorithm; 3] =
        [Algorithm::Plain, Algorithm::Mirror, Algorithm::Symmetric];
}
