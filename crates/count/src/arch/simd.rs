//! What the generic code asks of a build: the [`Simd`] primitives and the [`PerBuild`] work
//! compiled in it, and what the primitives read.

/// Bits of a key that pick a table entry in one lookup ([`Simd::entry`]): the matcher's tables
/// combine this many bit positions per chunk.
pub const CHUNK: usize = 6;

/// Entries per chunk's table: one per combination of its bits.
pub const COMBOS: usize = 1 << CHUNK;

/// Candidates for a join: their meets and keys, padded to a multiple of four (the padding is
/// read, never kept), and how many of them are real.
#[derive(Debug, Clone, Copy)]
pub struct Candidates<'a> {
    /// What each can meet: a candidate joins only a partner whose meet shares no bit with its own.
    pub meets: &'a [u64],
    /// Each one's key, ORed onto its partner's.
    pub keys: &'a [u64],
    /// How many of them are real (the rest is padding).
    pub len: usize,
}

/// A north quarter's side of a join: the diagonals its placement takes where a south one
/// could meet them, and its bits of the half-board's match key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Top {
    /// The diagonals a south quarter must not share.
    pub meet: u64,
    /// The north quarter's bits of the match key.
    pub key: u64,
}

/// The vector primitives the generic code calls, one implementation per build.
pub trait Simd: Copy {
    /// Whether this is the portable build (plain Rust, for any CPU).
    const PORTABLE: bool = false;

    /// Appends to `out` the key `top_key | keys[i]` of every candidate `i` whose meet has no
    /// bit in common with `top_meet` (the half-boards one north quarter makes with the south
    /// ones), in order.
    fn join(self, top: Top, south: Candidates, out: &mut Vec<u64>);

    /// The bits of `x` at the positions set in `mask`, packed into the low bits in order (a
    /// parallel bit extract). Only builds that [`crate::arch::SimdBuild::extracts`] are
    /// asked for anything but `mask == u64::MAX` (where it is `x`).
    fn extract(self, x: u64, mask: u64) -> u64;

    /// Sets `out` to the `queries` that have none of the bits `m`, in order.
    fn keep_lacking(self, queries: &[u64], m: u64, out: &mut Vec<u64>);

    /// A table entry of chunk `c` for the key `key`:
    /// `table[c * COMBOS + (key >> (c * CHUNK)) % COMBOS]`. Panics if the table has no chunk
    /// `c`.
    fn entry<L>(self, table: &[L], c: usize, key: u64) -> &L;
}

/// A piece of work compiled once per build: [`crate::arch::SimdBuild::run`] calls
/// [`PerBuild::run`] inside a function compiled for the build's features, so everything it
/// inlines (marked `#[inline(always)]`) is compiled for them too.
pub trait PerBuild {
    /// What the work returns.
    type Out;
    /// Does the work with the build `simd`.
    fn run<S: Simd>(self, simd: S) -> Self::Out;
}
