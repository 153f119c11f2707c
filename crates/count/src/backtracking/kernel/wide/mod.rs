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

mod piles;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(target_arch = "x86_64")]
pub use self::piles::bmi;
pub use self::piles::{portable, WIDTH};
#[cfg(target_arch = "x86_64")]
pub use self::x86::{avx2, avx512};

#[cfg(test)]
mod tests {
    use crate::backtracking::kernel::found::Found;
    use nqueens_board::spec::Spec;

    #[test]
    fn boards_over_32_columns_take_the_scalar_steps() {
        // 40 columns, 28 queens fixed (a solution's top rows): the completions of the rest.
        let sol = nqueens_solve::construct::construct(40).unwrap();
        let fixed: Vec<(u8, u8)> = (0..28).map(|r| (r as u8, sol[r] as u8)).collect();
        let s = Spec::new(40, &fixed);
        let mut want = [Found::default()];
        crate::backtracking::kernel::simple::portable(std::slice::from_ref(&s), &mut want);
        assert!(want[0].solutions >= 1);
        let wide = super::super::Kernel::Wide;
        let got = crate::arch::testing::each_build("wide", &wide.builds(), |b| {
            let mut got = [Found::default()];
            wide.count_batch_in(b, std::slice::from_ref(&s), &mut got);
            got
        });
        assert_eq!(got, want);
    }
}
