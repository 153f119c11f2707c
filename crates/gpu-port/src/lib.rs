//! The GPU kernels of `nqueens-count` compiled for this CPU by the C compiler: each runs a
//! launch's grid, every block and thread of it in turn, as a GPU would run them side by side.
//! They are what the tests run to check the kernels' logic on machines without a GPU, and not
//! a way to count (the CPU's own kernels are much faster): only tests and measuring examples
//! depend on this crate.
//!
//! The pointers are to the structures the kernels declare (`struct nq_board`, `struct
//! nq_start`, `struct nq_leaf`), which `nqueens-count`'s GPU room mirrors in `repr(C)` types
//! (`LaunchBoard`, `Start`, `Leaf`); its tests pass those.

use std::ffi::c_void;

extern "C" {
    /// The first search (`nq_count`) over `count` starts: `blocks` blocks of `threads`
    /// threads, each start's solutions and nodes written at its index.
    ///
    /// # Safety
    /// `boards` holds every board a start names, `starts` holds `count` starts, and
    /// `solutions` and `nodes` have room for `count` values each.
    pub fn nq_count_cpu(
        blocks: u32,
        threads: u32,
        boards: *const c_void,
        starts: *const c_void,
        count: u32,
        solutions: *mut u64,
        nodes: *mut u64,
    );

    /// The second search (`nq_count32`, boards of at most 32 columns) over `count` starts,
    /// each block's threads keeping their levels in `stack`.
    ///
    /// # Safety
    /// As for [`nq_count_cpu`]; `stack` holds `threads × 4 × levels` words, where `levels`
    /// is the deepest start's free rows.
    pub fn nq_count32_cpu(
        blocks: u32,
        threads: u32,
        stack: *mut u32,
        boards: *const c_void,
        starts: *const c_void,
        count: u32,
        solutions: *mut u64,
        nodes: *mut u64,
    );

    /// The leaves' matching kernel: for each of `count` queries, the patterns of its leaf
    /// (`leaf_of`) that share no bit with it, counted into `found`.
    ///
    /// # Safety
    /// `leaves` holds every leaf `leaf_of` names, each leaf's blocks lie within `sliced`,
    /// `queries` and `leaf_of` hold `count` values and `found` has room for `count`.
    pub fn nq_match_leaves_cpu(
        sliced: *const u64,
        leaves: *const c_void,
        queries: *const u64,
        leaf_of: *const u32,
        count: u32,
        found: *mut u64,
    );
}
