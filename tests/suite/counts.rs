//! The counter against the textbook reference and the OEIS tables (run optimised: `--profile
//! quick` or `--release`).

use nqueens::oeis::Sequence;
use nqueens::solve::reference;
use nqueens::{Algorithm, Kernel, Options, Totals};
use nqueens_count::backtracking::backtrack::Backtrack;
use nqueens_count::backtracking::kernel::Found;
use nqueens_count::backtracking::plan::{Plan, MAX_SPLIT_DEPTH};
use nqueens_count::backtracking::task::TaskKind;
use nqueens_count::tally::Tally;

const ALGORITHMS: [Algorithm; 3] = Algorithm::BACKTRACKING;

/// What a count found (its totals less the timing).
#[derive(Debug, PartialEq)]
struct Found4 {
    total: u128,
    unique: Option<u128>,
    symmetric: (Option<u128>, Option<u128>),
    nodes: u128,
}

fn found(t: Totals) -> Found4 {
    Found4 {
        total: t.total,
        unique: t.unique,
        symmetric: (t.sym90, t.sym180),
        nodes: t.nodes,
    }
}

fn total(n: u32, alg: Algorithm, depth: u32, threads: usize) -> Found4 {
    tally_with(n, alg, depth, threads, Kernel::Fast)
}

fn tally_with(n: u32, alg: Algorithm, depth: u32, threads: usize, kernel: Kernel) -> Found4 {
    let opts = Options::default()
        .with_algorithm(alg)
        .with_split_depth(depth)
        .with_threads(threads)
        .with_kernel(kernel);
    found(nqueens::count(n, &opts).unwrap())
}

#[test]
fn every_algorithm_equals_the_textbook_backtracker_up_to_12() {
    for n in 1..=12u32 {
        let expect = reference::count(n as usize) as u128;
        for alg in ALGORITHMS {
            assert_eq!(total(n, alg, 2, 2).total, expect, "n={n} {alg:?}");
        }
    }
}

#[test]
fn default_counter_equals_a000170_up_to_15() {
    for n in 1..=15u32 {
        let opts = Options::default()
            .with_algorithm(Algorithm::Mirror)
            .with_threads(2);
        let out = nqueens::count_unchecked(n, &opts).unwrap();
        assert_eq!(Some(out.total), Sequence::A000170.known(n), "n={n}");
    }
}

#[test]
fn symmetric_gives_a000170_and_a002562_up_to_16() {
    for n in 1..=16u32 {
        let t = total(n, Algorithm::Symmetric, 3, 2);
        assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
        assert_eq!(t.unique, Sequence::A002562.known(n), "unique n={n}");
    }
}

#[test]
fn algorithms_agree_up_to_13() {
    for n in 1..=13u32 {
        let t: Vec<u128> = ALGORITHMS
            .iter()
            .map(|&a| total(n, a, 2, 2).total)
            .collect();
        assert!(t.iter().all(|&x| x == t[0]), "n={n}: {t:?}");
    }
}

#[test]
fn threads_and_split_depths_do_not_change_totals_or_nodes() {
    for alg in ALGORITHMS {
        for n in [1u32, 2, 3, 4, 5, 8, 11] {
            let base = total(n, alg, 1, 1);
            for depth in 1..=MAX_SPLIT_DEPTH {
                for threads in [1usize, 2, 4] {
                    let t = total(n, alg, depth, threads);
                    assert_eq!(t, base, "n={n} {alg:?} depth={depth} threads={threads}");
                }
            }
        }
    }
}

#[test]
fn symmetric_visits_fewer_nodes_than_mirror_than_plain() {
    let nodes = |a| total(12, a, 2, 2).nodes;
    let (p, m, s) = (
        nodes(Algorithm::Plain),
        nodes(Algorithm::Mirror),
        nodes(Algorithm::Symmetric),
    );
    assert!(s < m && m < p, "plain {p}, mirror {m}, symmetric {s}");
}

#[test]
fn kernels_agree_on_every_task_up_to_13() {
    for alg in ALGORITHMS {
        for n in 4..=13u32 {
            let plan = Plan::new(n, alg, 2).unwrap();
            let count = |k, tasks: &[_]| Backtrack::new(plan.clone(), k).count_tasks(tasks);
            let simple: Vec<Tally> = count(Kernel::Simple, plan.tasks());
            for (t, want) in plan.tasks().iter().zip(&simple) {
                for k in [Kernel::Fast, Kernel::Lanes, Kernel::Wide] {
                    let one = count(k, std::slice::from_ref(t));
                    assert_eq!(*want, one[0], "n={n} {alg:?} {k:?} {t:?}");
                }
            }
            // The lanes and wide kernels in batches (lanes mix tasks; wide reuses its piles),
            // of several sizes.
            for k in [Kernel::Lanes, Kernel::Wide] {
                for size in [1, 3, 16] {
                    let batched: Vec<Tally> = plan
                        .tasks()
                        .chunks(size)
                        .flat_map(|c| count(k, c))
                        .collect();
                    assert_eq!(batched, simple, "n={n} {alg:?} {k:?} batches of {size}");
                }
            }
        }
    }
}

#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn kernels_agree_on_totals_for_14_and_15() {
    for n in [14u32, 15] {
        for alg in [Algorithm::Mirror, Algorithm::Symmetric] {
            let s = tally_with(n, alg, 2, 2, Kernel::Simple);
            for k in [Kernel::Fast, Kernel::Lanes, Kernel::Wide] {
                let f = tally_with(n, alg, 2, 2, k);
                assert_eq!(s, f, "n={n} {alg:?} {k:?}");
            }
            assert_eq!(Some(s.total), Sequence::A000170.known(n));
        }
    }
}

/// Every build of every kernel (portable, and with popcnt/bmi, AVX2, AVX-512 where this CPU
/// has them) against the portable simple kernel on the same specs: every task of N = 4..=13,
/// one at a time and as one batch.
#[test]
fn every_kernel_build_agrees_with_simple_on_every_task() {
    let simple = |specs: &[_], out: &mut [Found]| {
        Kernel::Simple.count_batch_in(Kernel::Simple.builds()[0], specs, out)
    };
    for alg in ALGORITHMS {
        for n in 4..=13u32 {
            let plan = Plan::new(n, alg, 1).unwrap();
            let specs: Vec<_> = plan
                .tasks()
                .iter()
                .filter(|t| t.kind() != TaskKind::Rotational)
                .map(|t| t.spec(n, plan.placed()))
                .collect();
            let mut want = vec![Found::default(); specs.len()];
            simple(&specs, &mut want);
            for k in Kernel::ALL {
                for build in k.builds() {
                    let name = build.name();
                    let mut got = vec![Found::default(); specs.len()];
                    k.count_batch_in(build, &specs, &mut got);
                    assert_eq!(got, want, "batch n={n} {alg:?} {k:?} {name}");
                    for (s, w) in specs.iter().zip(&want) {
                        let mut one = [Found::default()];
                        k.count_batch_in(build, std::slice::from_ref(s), &mut one);
                        assert_eq!(one[0], *w, "n={n} {alg:?} {k:?} {name}");
                    }
                }
            }
        }
    }
}

/// The quadrant method, through the library's count: A000170 and A002562 for every N it
/// takes from 4 to 17 (N = 16 and 17 take about a second under --release).
#[test]
fn quadrants_give_a000170_and_a002562_up_to_17() {
    for n in 4..=17u32 {
        let opts = Options::default()
            .with_algorithm(Algorithm::Quadrants)
            .with_threads(2);
        let t = nqueens::count(n, &opts).unwrap();
        assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
        assert_eq!(t.unique, Sequence::A002562.known(n), "unique n={n}");
    }
    let auto = nqueens::count(16, &Options::default().with_threads(2)).unwrap();
    assert_eq!(auto.algorithm, Algorithm::Quadrants);
    let small = nqueens::count(12, &Options::default().with_threads(2)).unwrap();
    assert_eq!(small.algorithm, Algorithm::Symmetric);
    // The crossover measured in the performance log (docs/performance/log.md) (15a): odd N from 17, even from 16; up
    // to N = 28 (quarter slices past 23).
    let auto = |n| Options::default().resolved_algorithm(n);
    assert_eq!(
        [15, 16, 17, 23, 24, 28, 29].map(auto),
        [
            Algorithm::Symmetric,
            Algorithm::Quadrants,
            Algorithm::Quadrants,
            Algorithm::Quadrants,
            Algorithm::Quadrants,
            Algorithm::Quadrants,
            Algorithm::Symmetric
        ]
    );
    let placed = Options::default().with_placed(&[(0, 1)]).with_threads(2);
    assert_eq!(
        nqueens::count(16, &placed).unwrap().algorithm,
        Algorithm::Plain
    );
}
