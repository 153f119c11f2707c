//! Criterion benchmarks of the counting kernels (`simple`, `fast`, `lanes`, `wide`) on whole boards
//! (all tasks of a plan, one thread, no pool), so the numbers are the kernels' own.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::kernel::Kernel;
use nqueens::plan::{Algorithm, Plan};
use std::hint::black_box;

fn whole_board(c: &mut Criterion) {
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    let mut pairs = Vec::new();
    for alg in [Algorithm::Mirror, Algorithm::Symmetric] {
        for kernel in [Kernel::Simple, Kernel::Fast, Kernel::Lanes, Kernel::Wide] {
            pairs.push((alg, kernel));
        }
    }
    for (alg, kernel) in pairs {
        for n in 10..=13u32 {
            let plan = Plan::new(n, alg, 2).expect("valid plan");
            let id = format!("{}-{}", alg.name(), kernel.name());
            g.bench_with_input(BenchmarkId::new(id, n), &plan, |b, plan| {
                b.iter(|| {
                    // Batches of 16 tasks, as the engine hands them to a worker.
                    let total: u128 = plan
                        .tasks
                        .chunks(16)
                        .flat_map(|c| plan.count_tasks(black_box(c), kernel))
                        .map(|t| t.total)
                        .sum();
                    assert_eq!(Some(total), nqueens::oeis::Sequence::A000170.known(plan.n));
                    total
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, whole_board);
criterion_main!(benches);
