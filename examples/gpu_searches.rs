//! The GPU kernel's two searches (docs/guide/gpu.md, "What is left") timed side by side on
//! one GPU: for each N, the symmetric plan's tasks counted by `nq_count` (64-bit masks, the
//! stack in local memory, one thread per start) and by `nq_count32` (32-bit masks, the stack in
//! shared memory, threads taking starts from a counter), each total weighed and checked
//! against A000170 (exit 3 if not), in turn, `RUNS` times (default 3).
//!
//!   cargo run --release --features gpu --example gpu_searches -- 18 19 20 21
//!
//! Prints `N search host_rows seconds total`.

use nqueens::oeis::Sequence;
use nqueens::Algorithm;
use nqueens_count::backtracking::{plan::Plan, rotational, task::TaskKind};
use nqueens_count::gpu::{self, GpuSearch};
use std::time::Instant;

fn main() {
    let name = gpu::available().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let host_rows: usize = std::env::var("HOST_ROWS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(nqueens_count::gpu::HOST_ROWS);
    println!("# {name}; {runs} run(s) each, in turn");
    for n in std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().expect("board sizes"))
    {
        let depth = Plan::default_split_depth(n, Algorithm::Symmetric, 16);
        let plan = Plan::new(n, Algorithm::Symmetric, depth).expect("a plan");
        let (mut specs, mut kernel_tasks, mut whole) = (Vec::new(), Vec::new(), 0u128);
        for t in plan.tasks() {
            if t.kind() == TaskKind::Rotational {
                whole += rotational::tally(n).total;
            } else {
                specs.push(t.spec(n, plan.placed()));
                kernel_tasks.push(*t);
            }
        }
        let known = Sequence::A000170.known(n);
        for _ in 0..runs {
            for search in [GpuSearch::Local, GpuSearch::Shared] {
                let start = Instant::now();
                let found = gpu::count_with(&specs, host_rows, search).unwrap_or_else(|e| {
                    eprintln!("error: {e}");
                    std::process::exit(1)
                });
                let seconds = start.elapsed().as_secs_f64();
                let weighed = kernel_tasks
                    .iter()
                    .zip(found)
                    .map(|(t, f)| t.weigh(f).total);
                let total = whole + weighed.sum::<u128>();
                println!("{n} {search:?} {host_rows} {seconds:.3} {total}");
                if known.is_some_and(|k| k != total) {
                    eprintln!("N = {n}: {search:?} counted {total}, A000170 says {known:?}");
                    std::process::exit(3);
                }
            }
        }
    }
}
