//! Criterion benchmarks of the counting kernels on whole boards (all tasks of a plan, one
//! thread, no pool), so the numbers are the kernels' own.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::kernel::{count_task, Kernel};
use nqueens::plan::{Algorithm, Plan};
use std::hint::black_box;

fn whole_board(c: &mut Criterion) {
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    let pairs = [
        (Algorithm::Mirror, Kernel::Simple),
        (Algorithm::Mirror, Kernel::Fast),
        (Algorithm::Symmetric, Kernel::Simple),
        (Algorithm::Symmetric, Kernel::Fast),
    ];
    for (alg, kernel) in pairs {
        for n in 10..=13u32 {
            let plan = Plan::new(n, alg, 2).expect("valid plan");
            let id = format!("{}-{}", alg.name(), kernel.name());
            g.bench_with_input(BenchmarkId::new(id, n), &plan, |b, plan| {
                b.iter(|| {
                    let total: u128 = plan
                        .tasks
                        .iter()
                        .map(|t| count_task(plan.n, black_box(t), kernel).total)
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
