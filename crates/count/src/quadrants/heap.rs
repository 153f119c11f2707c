//! The C library's heap kept from handing freed memory back at once.
//!
//! A row set builds its half-boards, sieves and query lists (tens of MiB at N = 24–28) and
//! frees them; the next row set builds as much again. glibc gives the top of a heap back to
//! the kernel whenever 128 KiB there are free, so each row set faulted its memory in afresh:
//! 2 s of system time in a 35 s task at N = 26.
//! [`keep_freed_memory`] raises that threshold to 2 GiB, as `MALLOC_TRIM_THRESHOLD_` would,
//! and keeps blocks under 1 MiB in the heaps. A worker thread's heap is made of 64 MiB
//! pieces that glibc unmaps as soon as one is wholly free, whatever the threshold: at N = 28
//! a row set's sieve tables (hundreds of MiB) were faulted in again by every task;
//! [`keep_heap_pieces`] keeps those pieces too, for large boards only (it raised the peak of
//! small counts by a quarter to a third).
//! The command line calls it unless the user tunes glibc's allocator themselves; a library
//! user may call it before counting. Memory freed at the end of a count is held by the
//! process until it exits or frees 2 GiB more; a count's peak is what it is either way.

/// Keeps freed memory in the process's heaps up to 2 GiB at their top (see the module):
/// glibc's `mallopt(M_TRIM_THRESHOLD, 2 GiB - 1)`, and `mallopt(M_MMAP_THRESHOLD, 1 MiB)`
/// (setting the first would fix the size from which a block is mapped on its own at 128
/// KiB; at 1 MiB the system time falls as far as at 32 MiB, where the peak of `count 18` on 2
/// threads rose by a third, and the peak stays). Nothing where the C library is not glibc.
/// Process-wide; calling it again changes nothing.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a parameter of glibc's allocator; it checks the value (and
    // returns 0 for one it refuses) and may be called at any time, from any thread.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// The smallest board whose count should keep its worker threads' free heap pieces
/// ([`keep_heap_pieces`]): where a row set frees hundreds of MiB at once. The command line and
/// `examples/task_cost` both go by it.
pub const HEAP_PIECES_FROM: u32 = 26;

/// Keeps a worker thread's heap pieces (64 MiB each) mapped once they are free, for counts
/// whose row sets free hundreds of MiB at once (N = 26 and up; see the module): glibc's
/// `mallopt(M_TOP_PAD, 64 MiB)` (glibc unmaps a free piece only while the room it would
/// leave behind is over the pad). On `count 18` with 2 threads it raised the peak from 138
/// to 174–182 MB, which is why it is apart from [`keep_freed_memory`]. Nothing where the C
/// library is not glibc. Process-wide; calling it again changes nothing.
pub fn keep_heap_pieces() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: as in `keep_freed_memory`: `mallopt` only sets a parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}
