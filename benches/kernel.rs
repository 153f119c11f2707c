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

/// A build of the `wide` kernel: counts one spec.
type Build = dyn Fn(&nqueens::kernel::Spec) -> nqueens::kernel::Counts;

/// The `wide` kernel's other builds on the same boards: scalar (what CPUs without AVX2, and
/// boards over 32, get) and AVX2 (CPUs without AVX-512; benched when this CPU has AVX2). Every
/// task's spec is counted by that build (the symmetric plan's rotational task as in the
/// engine).
fn wide_builds(c: &mut Criterion) {
    use nqueens::kernel::{count_spec, fast, wide, Counts, Spec, Tally};
    use nqueens::plan::TaskKind;
    let scalar = |s: &Spec| {
        if s.k < 3 {
            fast::count(s)
        } else {
            wide::count_scalar(s)
        }
    };
    #[cfg(target_arch = "x86_64")]
    let avx2 = |s: &Spec| {
        let mut out = [Counts::default()];
        // SAFETY: only benched when the CPU has AVX2 (below).
        unsafe { wide::count_batch_avx2(std::slice::from_ref(s), &mut out) };
        out[0]
    };
    let mut builds: Vec<(&str, &Build)> = vec![("scalar", &scalar)];
    #[cfg(target_arch = "x86_64")]
    if nqueens::kernel::avx2_cpu() {
        builds.push(("avx2", &avx2));
    }
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    for (name, build) in builds {
        for alg in [Algorithm::Mirror, Algorithm::Symmetric] {
            for n in 10..=13u32 {
                let plan = Plan::new(n, alg, 2).expect("valid plan");
                let id = format!("{}-wide-{name}", alg.name());
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
                                nqueens::kernel::weigh(t, build(&spec))
                            })
                            .map(|t: Tally| t.total)
                            .sum();
                        assert_eq!(Some(total), nqueens::oeis::Sequence::A000170.known(plan.n));
                        total
                    })
                });
            }
        }
    }
    g.finish();
}

/// The symmetric plan's rotational task alone (half-turn and quarter-turn symmetric
/// solutions, half a board searched), at sizes where it grows.
fn rotational(c: &mut Criterion) {
    let mut g = c.benchmark_group("rotational");
    g.sample_size(10);
    for n in [16u32, 18, 20] {
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| nqueens::symmetry::count_rotational(black_box(n)))
        });
    }
    g.finish();
}

criterion_group!(benches, whole_board, wide_builds, rotational);
criterion_main!(benches);
