//! The counter against the textbook reference and the OEIS tables (run with --release).

use nqueens::engine;
use nqueens::kernel::{count_task, Kernel, Tally};
use nqueens::oeis::Sequence;
use nqueens::plan::{Algorithm, Plan, MAX_SPLIT_DEPTH};
use nqueens::reference;

const ALGORITHMS: [Algorithm; 3] = [Algorithm::Plain, Algorithm::Mirror, Algorithm::Symmetric];

fn total(n: u32, alg: Algorithm, depth: u32, threads: usize) -> Tally {
    tally_with(n, alg, depth, threads, Kernel::Fast)
}

fn tally_with(n: u32, alg: Algorithm, depth: u32, threads: usize, kernel: Kernel) -> Tally {
    engine::run(&Plan::new(n, alg, depth).unwrap(), threads, kernel)
        .unwrap()
        .tally
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
        let out = engine::count(n, Algorithm::Mirror, 2).unwrap();
        assert_eq!(Some(out.tally.total), Sequence::A000170.known(n), "n={n}");
    }
}

#[test]
fn symmetric_gives_a000170_and_a002562_up_to_16() {
    for n in 1..=16u32 {
        let t = total(n, Algorithm::Symmetric, 3, 2);
        assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
        assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
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
            let simple: Vec<Tally> = plan
                .tasks
                .iter()
                .map(|t| count_task(n, t, Kernel::Simple))
                .collect();
            for (t, want) in plan.tasks.iter().zip(&simple) {
                for k in [Kernel::Fast, Kernel::Lanes, Kernel::Wide] {
                    assert_eq!(*want, count_task(n, t, k), "n={n} {alg:?} {k:?} {t:?}");
                }
            }
            // The lanes and wide kernels in batches (lanes mix tasks; wide reuses its piles),
            // of several sizes.
            for k in [Kernel::Lanes, Kernel::Wide] {
                for size in [1, 3, 16] {
                    let batched: Vec<Tally> = plan
                        .tasks
                        .chunks(size)
                        .flat_map(|c| plan.count_tasks(c, k))
                        .collect();
                    assert_eq!(batched, simple, "n={n} {alg:?} {k:?} batches of {size}");
                }
            }
        }
    }
}

#[test]
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

/// The wide kernel's builds (AVX-512 and AVX2 when this CPU has them, scalar everywhere) each
/// against the simple kernel on the same specs: every task of N = 4..=13, and a 40-board
/// (beyond the AVX-512 build's 32 columns) with most queens fixed.
#[test]
fn wide_kernel_paths_agree_with_simple() {
    use nqueens::kernel::{simple, wide};
    for alg in ALGORITHMS {
        for n in 4..=13u32 {
            let plan = Plan::new(n, alg, 1).unwrap();
            for t in &plan.tasks {
                let spec = plan.spec(t);
                if spec.k < 3 || t.kind == nqueens::plan::TaskKind::Rotational {
                    continue;
                }
                let want = simple::count(&spec);
                assert_eq!(
                    wide::count_scalar(&spec),
                    want,
                    "scalar n={n} {alg:?} {t:?}"
                );
                #[cfg(target_arch = "x86_64")]
                if nqueens::kernel::avx512_cpu() {
                    // SAFETY: checked just above.
                    let got = unsafe { wide::count_avx512(&spec) };
                    assert_eq!(got, want, "avx512 n={n} {alg:?} {t:?}");
                }
                #[cfg(target_arch = "x86_64")]
                if nqueens::kernel::avx2_cpu() {
                    let mut got = [Default::default()];
                    // SAFETY: checked just above.
                    unsafe { wide::count_batch_avx2(std::slice::from_ref(&spec), &mut got) };
                    assert_eq!(got[0], want, "avx2 n={n} {alg:?} {t:?}");
                }
            }
        }
    }
    // A 40-board solution (the classical construction), its first 28 rows kept.
    let sol = nqueens::solutions::construct(40).unwrap();
    let fixed: Vec<(u8, u8)> = sol
        .iter()
        .take(28)
        .enumerate()
        .map(|(r, &c)| (r as u8, c as u8))
        .collect();
    let spec = nqueens::kernel::Spec::new(40, &fixed);
    let want = simple::count(&spec);
    assert!(
        want.solutions >= 1,
        "the construction's own completion is among them"
    );
    assert_eq!(wide::count_scalar(&spec), want);
    assert_eq!(wide::count(&spec), want);
}
