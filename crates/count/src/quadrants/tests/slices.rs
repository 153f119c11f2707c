//! The audit's slices: exact parts of a task, counted the same by the method and by
//! backtracking, drawn from their task, and able to show a fault of the method that a recount
//! by the same method cannot.

use super::faults::{self, Fault};
use super::{striped, tabled};
use crate::engine::Counter;
use crate::oeis::Sequence;
use crate::quadrants::audit::slice;
use crate::quadrants::plan::MIN_N;

/// Every slice of every task up to N = 14 (and of striped plans in parts up to 11) counts the
/// same by the method and by backtracking, and a task's slices add up to the task: a slice is
/// an exact part of its task, and the method counts it through the task's own code.
#[test]
fn every_slice_counts_the_same_both_ways_and_slices_add_up_to_their_task() {
    let plans = (MIN_N..=14u32)
        .map(tabled)
        .chain((MIN_N..=11).map(|n| striped(n, 3)));
    for q in plans {
        let n = q.layout().geometry.n;
        for task in 0..q.tasks() as u32 {
            let mut sum = 0;
            for s in slice::every(&q, task) {
                let (method, backtracking) = (
                    slice::by_method(&q, &s).unwrap(),
                    slice::by_backtracking(&q, &s).unwrap(),
                );
                assert_eq!(method, backtracking, "n={n} {s:?}");
                sum += method;
            }
            if slice::every(&q, task).is_empty() {
                continue;
            }
            assert_eq!(sum, q.count(&[task]).unwrap()[0].total, "n={n} task {task}");
        }
    }
}

/// Slices drawn at random belong to their task and count the same both ways; the same seed
/// draws the same slices.
#[test]
fn drawn_slices_are_slices_of_their_task() {
    for n in [13u32, 16] {
        let q = tabled(n);
        let mut x = 42u64;
        let mut next = || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            x >> 11
        };
        for task in (0..q.tasks() as u32).step_by(97) {
            let Some(s) = slice::draw(&q, task, &mut next) else {
                continue;
            };
            assert_eq!(
                slice::by_method(&q, &s).unwrap(),
                slice::by_backtracking(&q, &s).unwrap(),
                "n={n} {s:?}"
            );
            assert!(slice::every(&q, task).contains(&s), "n={n} {s:?}");
        }
    }
}

/// A method broken on purpose (a half-board dropped in the join, one block miscounted in the
/// matcher) counts its tasks wrong; recounting them by the same method agrees with the wrong
/// counts, and only the slices, counted both ways, show the fault.
#[test]
fn a_fault_of_the_method_shows_in_slices_and_not_in_a_recount_by_the_method() {
    for fault in [Fault::DropHalfBoard, Fault::MiscountBlock] {
        let q = tabled(12);
        let ids: Vec<u32> = (0..q.tasks() as u32).collect();
        faults::set(fault);
        let recorded = q.count(&ids).unwrap();
        let same_method = q.count(&ids).unwrap();
        let slices_differ = ids.iter().any(|&t| {
            slice::every(&q, t)
                .iter()
                .any(|s| slice::by_method(&q, s).unwrap() != slice::by_backtracking(&q, s).unwrap())
        });
        faults::set(Fault::None);
        let total: u128 = recorded.iter().map(|t| t.total).sum();
        assert_ne!(
            Some(total),
            Sequence::A000170.known(12),
            "{fault:?} changed nothing"
        );
        assert_eq!(recorded, same_method, "{fault:?}");
        assert!(slices_differ, "{fault:?} not caught by the slices");
    }
}
