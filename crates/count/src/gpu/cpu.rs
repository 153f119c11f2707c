//! The GPU kernel compiled for this CPU (`cpu.c`, by the `nqueens-gpu-port` crate): a
//! launch's grid run block by block, thread by thread. What the tests run to check the
//! kernel's logic on machines without a GPU, as a [`Device`]; not a way to count (the CPU
//! kernels are much faster), and in no build but the tests'.

use super::counter::Device;
use super::launch::{GpuSearch, Launch, THREADS, THREADS32};
use crate::backtracking::kernel::found::Found;
use nqueens_board::error::Result;
use nqueens_board::spec::Spec;
use nqueens_gpu_port::{nq_count32_cpu, nq_count_cpu};

/// Runs launch `l` through the kernel compiled for this CPU: each start's solutions and
/// nodes.
pub fn run(l: &Launch) -> (Vec<u64>, Vec<u64>) {
    let count = u32::try_from(l.starts.len()).expect("fewer than 2^32 starts a launch");
    let mut solutions = vec![0u64; l.starts.len()];
    let mut nodes = vec![0u64; l.starts.len()];
    let blocks = count.div_ceil(THREADS);
    // SAFETY: the kernel reads `count` starts and the boards they name (every start's board
    // index is below `l.boards.len()`, by `Launch::of`), and writes `count` solutions and
    // nodes; `LaunchBoard` and `Start` are `repr(C)` as `kernel.cu` declares them.
    unsafe {
        nq_count_cpu(
            blocks,
            THREADS,
            l.boards.as_ptr().cast(),
            l.starts.as_ptr().cast(),
            count,
            solutions.as_mut_ptr(),
            nodes.as_mut_ptr(),
        );
    }
    (solutions, nodes)
}

/// Runs launch `l` through the second search (`nq_count32`) compiled for this CPU: each
/// start's solutions and nodes. Its boards must fit 32 bits ([`Launch::fits32`]).
pub fn run32(l: &Launch) -> (Vec<u64>, Vec<u64>) {
    assert!(l.fits32(), "boards past 32 columns");
    let count = u32::try_from(l.starts.len()).expect("fewer than 2^32 starts a launch");
    let mut solutions = vec![0u64; l.starts.len()];
    let mut nodes = vec![0u64; l.starts.len()];
    let mut stack = vec![0u32; (THREADS32 * 4 * l.stack_levels()) as usize];
    // SAFETY: as in `run`; the stack holds a block's threads' levels, `THREADS32` words
    // apart, as deep as the deepest start's rows (`stack_levels`).
    unsafe {
        nq_count32_cpu(
            count.div_ceil(THREADS32),
            THREADS32,
            stack.as_mut_ptr(),
            l.boards.as_ptr().cast(),
            l.starts.as_ptr().cast(),
            count,
            solutions.as_mut_ptr(),
            nodes.as_mut_ptr(),
        );
    }
    (solutions, nodes)
}

/// The completions of `specs`, each expanded to `depth` rows on the host and its subtrees
/// counted by the kernel compiled for this CPU.
pub fn count(specs: &[Spec], depth: usize) -> Vec<Found> {
    count_by(specs, depth, run)
}

/// [`count`] through the second search (boards of N <= 32).
pub fn count32(specs: &[Spec], depth: usize) -> Vec<Found> {
    count_by(specs, depth, run32)
}

/// The kernel compiled for this CPU, as a device: it counts what a GPU would.
pub struct PortedKernel;

impl Device for PortedKernel {
    fn count(&self, specs: &[Spec], depth: usize, search: GpuSearch) -> Result<Vec<Found>> {
        Ok(match search {
            GpuSearch::Local => count(specs, depth),
            GpuSearch::Shared => count32(specs, depth),
        })
    }
}

/// [`count`] with the launch run by `search` ([`run`] or [`run32`]).
fn count_by(
    specs: &[Spec],
    depth: usize,
    search: fn(&Launch) -> (Vec<u64>, Vec<u64>),
) -> Vec<Found> {
    let l = Launch::of(specs, depth);
    let (solutions, nodes) = search(&l);
    l.finish(&solutions, &nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::backtracking::kernel::Kernel;
    use crate::backtracking::plan::Plan;
    use crate::gpu::launch::{LaunchBoard, Start};

    /// The kernel's layout is the host's: `struct nq_board` is 592 bytes, `nq_start` 40.
    #[test]
    fn the_structures_are_the_kernels() {
        assert_eq!(std::mem::size_of::<LaunchBoard>(), 592);
        assert_eq!(std::mem::align_of::<LaunchBoard>(), 8);
        assert_eq!(std::mem::size_of::<Start>(), 40);
    }

    /// Every task of every backtracking plan of N = 1 to 14 (the symmetric plan's corner,
    /// edge and late-bound edge tasks with their barred squares, the mirror and plain plans,
    /// placed queens), expanded to 0 to 4 rows on the host: the kernel counts exactly what
    /// the CPU's `fast` kernel counts, solutions and nodes, task by task.
    #[test]
    fn the_kernel_counts_every_task_as_the_cpu_does() {
        let mut tasks = 0;
        for n in 1..=14u32 {
            for algorithm in [Algorithm::Symmetric, Algorithm::Mirror, Algorithm::Plain] {
                for depth in [1u32, 2, 3] {
                    let plan = if algorithm == Algorithm::Plain && n >= 6 {
                        Plan::with_placed(n, depth, &[(1, 2)])
                    } else {
                        Plan::new(n, algorithm, depth)
                    };
                    let Ok(plan) = plan else { continue };
                    let specs: Vec<Spec> = plan
                        .tasks()
                        .iter()
                        .filter(|t| !t.kind().is_whole())
                        .map(|t| t.spec(n, plan.placed()))
                        .collect();
                    let want: Vec<Found> = specs.iter().map(|s| Kernel::Fast.count(s)).collect();
                    for host_rows in 0..=4 {
                        let at = format!("N = {n}, {algorithm}, split depth {depth}, {host_rows} rows on the host");
                        assert_eq!(count(&specs, host_rows), want, "{at}");
                        assert_eq!(count32(&specs, host_rows), want, "second search: {at}");
                    }
                    tasks += specs.len();
                }
            }
        }
        assert!(tasks > 10_000, "{tasks} tasks");
        // A whole board as one task, and the known totals through the kernel.
        for (n, known) in [(1u32, 1u64), (2, 0), (3, 0), (4, 2), (8, 92), (12, 14_200)] {
            let found = count(&[Spec::new(n, &[])], 3);
            assert_eq!(found[0].solutions, known, "N = {n}");
            assert_eq!(found[0], Kernel::Fast.count(&Spec::new(n, &[])));
        }
    }

    /// Wide boards (N = 24 to 32 and past, where the second search's 32-bit masks drop the
    /// diagonals' bits shifted off the board and the first's keep them): a known solution's
    /// queens fixed on all rows but 6 to 8 (the even rows first, some odd ones too, so that
    /// the free rows are apart and the diagonals move by gaps of 2), counted by both searches
    /// as `fast` counts them; past 32 columns the second refuses the launch.
    #[test]
    fn both_searches_count_wide_boards_as_the_cpu_does() {
        for n in [24u32, 29, 31, 32] {
            let sol = nqueens_solve::construct::construct(n as usize).unwrap();
            for free in [6usize, 8] {
                let fixed: Vec<(u8, u8)> = (0..n as usize)
                    .filter(|&r| !(r % 2 == 1 && r < 2 * free))
                    .map(|r| (r as u8, sol[r] as u8))
                    .collect();
                let spec = Spec::new(n, &fixed);
                let want = Kernel::Fast.count(&spec);
                assert!(want.solutions >= 1, "N = {n}: the known solution");
                for host_rows in [0, 2, 4] {
                    let at = format!("N = {n}, {free} free rows, {host_rows} on the host");
                    assert_eq!(
                        count(std::slice::from_ref(&spec), host_rows)[0],
                        want,
                        "{at}"
                    );
                    assert_eq!(
                        count32(std::slice::from_ref(&spec), host_rows)[0],
                        want,
                        "{at}"
                    );
                }
            }
        }
        let l = Launch::of(&[Spec::new(33, &[])], 4);
        assert!(!l.fits32());
    }

    /// A plan's tasks counted through the GPU's counter (with the kernel compiled for this CPU
    /// as its device): the same tallies, task by task, as the `wide` kernel's, weights and
    /// classes included, and the known totals; and in the large batches a launch wants.
    #[test]
    fn the_gpu_counter_counts_a_plan_as_the_cpu_does() {
        use crate::backtracking::backtrack::Backtrack;
        use crate::engine::Counter;
        use crate::gpu::{GpuCounter, GPU_BATCH};
        for (n, known) in [(10u32, 724u128), (12, 14_200)] {
            let plan = Plan::new(n, Algorithm::Symmetric, 2).unwrap();
            let ids: Vec<u32> = (0..plan.tasks().len() as u32).collect();
            let gpu = GpuCounter::new(
                Backtrack::new(plan.clone(), Kernel::Wide),
                Box::new(PortedKernel),
            );
            assert_eq!(gpu.batch(), Some(GPU_BATCH));
            let on_gpu = gpu.count(&ids).unwrap();
            let on_cpu = Backtrack::new(plan, Kernel::Wide).count(&ids).unwrap();
            assert_eq!(on_gpu, on_cpu, "N = {n}");
            let total: u128 = on_gpu.iter().map(|t| t.total).sum();
            assert_eq!(total, known);
        }
    }

    /// A GPU that fails in the middle of a count (here a device that always fails) ends the
    /// batch with [`Error::Device`], which ends the run with it, no panic; the CPU kernels
    /// go on as before.
    #[test]
    fn a_failing_gpu_ends_the_count_with_its_error() {
        use crate::backtracking::backtrack::Backtrack;
        use crate::engine::Counter;
        use crate::gpu::GpuCounter;
        use nqueens_board::error::Error;
        struct Failing;
        impl Device for Failing {
            fn count(&self, _: &[Spec], _: usize, _: GpuSearch) -> Result<Vec<Found>> {
                Err(Error::Device("a fault the test injected".into()))
            }
        }
        let plan = Plan::new(10, Algorithm::Symmetric, 2).unwrap();
        let ids: Vec<u32> = (0..plan.tasks().len() as u32).collect();
        let gpu = GpuCounter::new(
            Backtrack::new(plan.clone(), Kernel::Wide),
            Box::new(Failing),
        );
        let on_gpu = gpu.count(&ids);
        let on_cpu = Backtrack::new(plan, Kernel::Wide).count(&ids);
        let e = on_gpu.unwrap_err();
        assert!(matches!(e, Error::Device(_)), "{e}");
        assert_eq!(
            e.to_string(),
            "the GPU failed in the middle of the count: a fault the test injected"
        );
        assert_eq!(e.exit_code(), 1);
        assert_eq!(on_cpu.unwrap().iter().map(|t| t.total).sum::<u128>(), 724);
    }
}
