//! Criterion benchmarks of the counting kernels (`simple`, `fast`, `lanes`, `wide`) on whole boards
//! (all tasks of a plan, one thread, no pool), so the numbers are the kernels' own.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nqueens::oeis::Sequence;
use nqueens::{Algorithm, Kernel};
use nqueens_count::backtracking::backtrack::Backtrack;
use nqueens_count::backtracking::kernel::Found;
use nqueens_count::backtracking::plan::Plan;
use nqueens_count::backtracking::task::{Task, TaskKind};
use std::hint::black_box;

fn whole_board(c: &mut Criterion) {
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    for alg in [Algorithm::Mirror, Algorithm::Symmetric] {
        for kernel in Kernel::ALL {
            for n in 10..=13u32 {
                let counter = Backtrack::new(Plan::new(n, alg, 2).expect("valid plan"), kernel);
                let id = format!("{}-{}", alg.name(), kernel.name());
                g.bench_with_input(BenchmarkId::new(id, n), &counter, |b, counter| {
                    b.iter(|| {
                        // Batches of 16 tasks, as the engine hands them to a worker.
                        let total: u128 = counter
                            .plan()
                            .tasks()
                            .chunks(16)
                            .flat_map(|c| counter.count_tasks(black_box(c)))
                            .map(|t| t.total)
                            .sum();
                        assert_eq!(Some(total), Sequence::A000170.known(n));
                        total
                    })
                });
            }
        }
    }
    g.finish();
}

/// The `wide` kernel's other builds on the same boards: portable and popcnt/bmi scalar steps
/// (what CPUs without AVX2, and boards over 32, get), and AVX2 where this CPU has AVX-512 too.
/// Every task's spec is counted by that build in batches of 16 (the symmetric plan's
/// rotational task as in the engine).
fn wide_builds(c: &mut Criterion) {
    let all = Kernel::Wide.builds();
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    // The richest build is the one `wide` runs: benched above.
    for &build in &all[..all.len() - 1] {
        let name = match build.name() {
            "bmi" => "scalar",
            name => name,
        };
        for alg in [Algorithm::Mirror, Algorithm::Symmetric] {
            for n in 10..=13u32 {
                let counter =
                    Backtrack::new(Plan::new(n, alg, 2).expect("valid plan"), Kernel::Wide);
                let plan = counter.plan().clone();
                let (rot, tasks): (Vec<Task>, Vec<Task>) = plan
                    .tasks()
                    .iter()
                    .partition(|t| t.kind() == TaskKind::Rotational);
                let specs: Vec<_> = tasks.iter().map(|t| t.spec(n, plan.placed())).collect();
                let id = format!("{}-wide-{name}", alg.name());
                g.bench_with_input(BenchmarkId::new(id, n), &specs, |b, specs| {
                    b.iter(|| {
                        let mut found = vec![Found::default(); specs.len()];
                        for (s, f) in specs.chunks(16).zip(found.chunks_mut(16)) {
                            Kernel::Wide.count_batch_in(build, black_box(s), f);
                        }
                        let weighed = tasks.iter().zip(found).map(|(t, f)| t.weigh(f).total);
                        let whole = counter.count_tasks(&rot).into_iter().map(|t| t.total);
                        let total: u128 = weighed.chain(whole).sum();
                        assert_eq!(Some(total), Sequence::A000170.known(n));
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
            b.iter(|| nqueens_count::backtracking::rotational::count_rotational(black_box(n)))
        });
    }
    g.finish();
}

criterion_group!(benches, whole_board, wide_builds, rotational);
criterion_main!(benches);
