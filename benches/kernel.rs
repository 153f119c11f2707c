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

/// The `wide` kernel's scalar build (what CPUs without AVX-512, and boards over 32, get), on
/// the same boards: every task's spec counted with `wide::count_scalar` (the rotational task
/// of the symmetric plan is counted as in the engine).
fn wide_scalar(c: &mut Criterion) {
    use nqueens::kernel::{count_spec, fast, wide, Tally};
    use nqueens::plan::TaskKind;
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    for alg in [Algorithm::Mirror, Algorithm::Symmetric] {
        for n in 10..=13u32 {
            let plan = Plan::new(n, alg, 2).expect("valid plan");
            let id = format!("{}-wide-scalar", alg.name());
            g.bench_with_input(BenchmarkId::new(id, n), &plan, |b, plan| {
                b.iter(|| {
                    let total: u128 = plan
                        .tasks
                        .iter()
                        .map(|t| {
                            let spec = plan.spec(black_box(t));
                            if t.kind == TaskKind::Rotational {
                                return count_spec(&spec, t, Kernel::Wide);
                            }
                            let counts = if spec.k < 3 {
                                fast::count(&spec)
                            } else {
                                wide::count_scalar(&spec)
                            };
                            nqueens::kernel::weigh(t, counts)
                        })
                        .map(|t: Tally| t.total)
                        .sum();
                    assert_eq!(Some(total), nqueens::oeis::Sequence::A000170.known(plan.n));
                    total
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, whole_board, wide_scalar);
criterion_main!(benches);
