//! The GPU kernel compiled for this CPU (`cpu.c`, by `build.rs`): a launch's grid run block
//! by block, thread by thread. What the tests run to check the kernel's logic on machines
//! without a GPU; not a way to count (the CPU kernels are much faster).

use super::launch::{Board, Launch, Start, THREADS};
use crate::board::spec::Spec;
use crate::count::backtracking::kernel::found::Found;

extern "C" {
    fn nq_count_cpu(
        blocks: u32,
        threads: u32,
        boards: *const Board,
        starts: *const Start,
        count: u32,
        solutions: *mut u64,
        nodes: *mut u64,
    );
}

/// Runs launch `l` through the kernel compiled for this CPU: each start's solutions and
/// nodes.
pub fn run(l: &Launch) -> (Vec<u64>, Vec<u64>) {
    let count = u32::try_from(l.starts.len()).expect("fewer than 2^32 starts a launch");
    let mut solutions = vec![0u64; l.starts.len()];
    let mut nodes = vec![0u64; l.starts.len()];
    let blocks = count.div_ceil(THREADS);
    // SAFETY: the kernel reads `count` starts and the boards they name (every start's board
    // index is below `l.boards.len()`, by `Launch::of`), and writes `count` solutions and
    // nodes; `Board` and `Start` are `repr(C)` as `kernel.cu` declares them.
    unsafe {
        nq_count_cpu(
            blocks,
            THREADS,
            l.boards.as_ptr(),
            l.starts.as_ptr(),
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
    let l = Launch::of(specs, depth);
    let (solutions, nodes) = run(&l);
    l.finish(&solutions, &nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::algorithm::Algorithm;
    use crate::count::backtracking::kernel::Kernel;
    use crate::count::backtracking::plan::Plan;

    /// The kernel's layout is the host's: `struct nq_board` is 592 bytes, `nq_start` 40.
    #[test]
    fn the_structures_are_the_kernels() {
        assert_eq!(std::mem::size_of::<Board>(), 592);
        assert_eq!(std::mem::align_of::<Board>(), 8);
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
                        assert_eq!(
                            count(&specs, host_rows),
                            want,
                            "N = {n}, {algorithm}, split depth {depth}, {host_rows} rows on the host"
                        );
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

    /// A plan's tasks counted through the backtracking counter with the `gpu` kernel (its CPU
    /// build here): the same tallies, task by task, as the `wide` kernel's, weights and
    /// classes included, and the known totals.
    #[test]
    fn the_gpu_kernel_counts_a_plan_as_the_cpu_does() {
        use crate::count::backtracking::backtrack::Backtrack;
        use crate::count::engine::Counter;
        for (n, known) in [(10u32, 724u128), (12, 14_200)] {
            let plan = Plan::new(n, Algorithm::Symmetric, 2).unwrap();
            let ids: Vec<u32> = (0..plan.tasks().len() as u32).collect();
            let on_gpu = Backtrack::new(plan.clone(), Kernel::Gpu)
                .count(&ids)
                .unwrap();
            let on_cpu = Backtrack::new(plan, Kernel::Wide).count(&ids).unwrap();
            assert_eq!(on_gpu, on_cpu, "N = {n}");
            let total: u128 = on_gpu.iter().map(|t| t.total).sum();
            assert_eq!(total, known);
        }
    }

    /// A GPU that fails in the middle of a count (here a fault the test injects) ends the
    /// batch with [`Error::Device`], which ends the run with it, no panic; the CPU kernels
    /// go on as before.
    #[test]
    fn a_failing_gpu_ends_the_count_with_its_error() {
        use crate::count::backtracking::backtrack::Backtrack;
        use crate::count::backtracking::kernel::gpu::backend::faults::FAIL;
        use crate::count::engine::Counter;
        use crate::error::Error;
        let plan = Plan::new(10, Algorithm::Symmetric, 2).unwrap();
        let ids: Vec<u32> = (0..plan.tasks().len() as u32).collect();
        FAIL.with(|f| f.set(true));
        let on_gpu = Backtrack::new(plan.clone(), Kernel::Gpu).count(&ids);
        let on_cpu = Backtrack::new(plan, Kernel::Wide).count(&ids);
        FAIL.with(|f| f.set(false));
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
