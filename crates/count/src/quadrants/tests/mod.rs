//! Tests of the quadrant method as a whole: counts against the known values and against the
//! solutions themselves, every path (table, slices, parts, pieces) against the others, the
//! backtracking recount against the method, and the memory budget. `slices.rs` tests the
//! audit's slices; `faults.rs` puts faults into the method for them.

pub(crate) mod faults;
mod slices;

use super::audit::recount::RecountInputs;
use super::counter::{Quadrants, Settings};
use super::plan::{Part, RowSet, MAX_N, MIN_N};
use super::scratch::{Pieces, Scratch, REBUILT};
use super::transposes::key;
use crate::engine::Counter;
use crate::oeis::Sequence;
use crate::tally::Tally;
use nqueens_board::error::Error;
use std::sync::atomic::Ordering;

/// The plan of an `n` board as `settings` make it, its quarter table built (the tests' way
/// in: counts go through [`Quadrants::within`], which checks memory first).
fn plan(n: u32, settings: Settings) -> Quadrants {
    Quadrants::with_table(n, &settings, super::counter::QuarterTable::Whole).unwrap()
}

/// The plan of an `n` board with a whole table where it keeps one.
fn tabled(n: u32) -> Quadrants {
    plan(n, Settings::default())
}

/// The plan of an `n` board counted from quarter slices (the path past the table).
fn sliced(n: u32) -> Quadrants {
    plan(
        n,
        Settings {
            slices: true,
            ..Settings::default()
        },
    )
}

/// The striped plan of an `n` board in `parts` parts per combination (the path of the
/// largest boards).
fn striped(n: u32, parts: u32) -> Quadrants {
    plan(
        n,
        Settings {
            parts: Some(parts),
            ..Settings::default()
        },
    )
}

/// Every task of `q`, counted in order and summed.
fn whole(q: &Quadrants) -> Tally {
    let all: Vec<u32> = (0..q.tasks() as u32).collect();
    q.count(&all).unwrap().into_iter().sum()
}

#[test]
fn counts_every_board_it_accepts_up_to_13() {
    for n in MIN_N..=13u32 {
        let t = whole(&tabled(n));
        assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
        assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
    }
    let settings = Settings::default();
    assert!(Quadrants::unfilled(MIN_N - 1, &settings).is_err());
    assert!(Quadrants::unfilled(MAX_N + 1, &settings).is_err());
    for parts in [0, super::MOST_PARTS + 1] {
        let s = Settings {
            parts: Some(parts),
            ..settings
        };
        assert!(matches!(Quadrants::unfilled(10, &s), Err(Error::Usage(_))));
    }
}

/// Row sets counted in pieces (as a worker does when its half-boards would not fit its
/// share of the memory limit), down to a piece per column set, and with a room that makes
/// stored pieces be built again smaller (none: down to one column set) and learn their
/// size: the same totals, unique counts and half-boards built, on both paths.
#[test]
fn pieces_count_what_one_piece_counts() {
    for n in MIN_N..=12u32 {
        for mut q in [tabled(n), sliced(n)] {
            let one = whole(&q);
            for (halves, room) in [(1, None), (5, None), (60, None), (60, Some(0))]
                .into_iter()
                .chain([(60, Some(20_000)), (500, Some(60_000))])
            {
                q.set_pieces(Pieces {
                    halves: Some(halves),
                    room,
                });
                let rebuilt = REBUILT.load(Ordering::Relaxed);
                let t = whole(&q);
                if room == Some(0) && n == 12 {
                    assert!(REBUILT.load(Ordering::Relaxed) > rebuilt, "n={n}");
                }
                assert_eq!(
                    (t.total, t.unique(), t.nodes),
                    (one.total, one.unique(), one.nodes),
                    "n={n} slices={} halves={halves} room={room:?}",
                    q.uses_slices()
                );
            }
            assert_eq!(Some(one.total), Sequence::A000170.known(n), "n={n}");
        }
    }
}

/// Striped plans whose row sets are counted in parts (the path of the largest boards),
/// forced at small sizes: the same totals, unique counts and half-boards built as the
/// plain slice path, whatever order the tasks come in (a worker's stored east side is
/// then rebuilt), with and without the memory pieces (a row set's east side kept for its
/// parts where both sides fit one piece, else counted in pieces); the stripes are a
/// combination's parts.
#[test]
fn parts_of_row_sets_count_every_board_up_to_13() {
    for n in MIN_N..=13u32 {
        let want = whole(&sliced(n));
        for parts in [1u32, 2, 3, 7] {
            let mut q = striped(n, parts);
            assert_eq!(q.stripe(), Some(u64::from(parts)));
            assert_eq!(q.warms(), parts > 1);
            let forward = whole(&q);
            let mut ids: Vec<u32> = (0..q.tasks() as u32).collect();
            ids.reverse();
            let backward: Tally = ids.iter().map(|&i| q.count(&[i]).unwrap()[0]).sum();
            // Pieces of 3 half-boards: no row set fits one. Of 60: some do, and keep their
            // east side for their parts; the others are counted in pieces.
            let mut in_pieces = |halves| {
                q.set_pieces(Pieces {
                    halves: Some(halves),
                    room: None,
                });
                q.count(&ids).unwrap().into_iter().sum::<Tally>()
            };
            let (small, mixed) = (in_pieces(3), in_pieces(60));
            for (how, t) in [
                ("forward", forward),
                ("backward", backward),
                ("pieces of 3", small),
                ("pieces of 60", mixed),
            ] {
                assert_eq!(
                    (t.total, t.unique(), t.nodes),
                    (want.total, want.unique(), want.nodes),
                    "n={n} parts={parts} {how}"
                );
            }
        }
    }
}

/// The path of the boards past the table (quarter slices built per row set, no memo),
/// forced at small sizes: the same totals and unique counts, and the same work estimates
/// (so the same tasks in every shard, whichever path).
#[test]
fn the_slice_path_counts_every_board_up_to_13() {
    for n in MIN_N..=13u32 {
        let q = sliced(n);
        assert!(q.uses_slices() && !q.sizes().memo_used());
        assert_eq!(q.estimates(), tabled(n).estimates(), "n={n}");
        let t = whole(&q);
        assert_eq!(Some(t.total), Sequence::A000170.known(n), "total n={n}");
        assert_eq!(t.unique(), Sequence::A002562.known(n), "unique n={n}");
    }
}

/// The weight of a solution of an even board in a row set's count, by its queens on the long
/// diagonals (main: `r = c`, anti: `r + c = n - 1`): 0 with one barred from the east half,
/// `u32::MAX` (the row set's `open` weight) with none, else 2 for each west one.
fn long_diagonal_weight(s: &[u32], h: u32) -> u32 {
    let m = s.len() as u32 - 1;
    let (mut nw, mut sw, mut barred) = (false, false, false);
    for r in 0..=m {
        let (main, anti) = (s[r as usize] == r, s[r as usize] + r == m);
        nw |= main && r < h;
        barred |= (main && r >= h) || (anti && r < h);
        sw |= anti && r >= h;
    }
    match (barred, nw, sw) {
        (true, _, _) => 0,
        (false, false, false) => u32::MAX,
        (false, a, b) => (1 + a as u32) * (1 + b as u32),
    }
}

/// Each task's count against the solutions themselves (enumerated by backtracking): a
/// row set counts, times its weight, the solutions with its middle queens and its east rows
/// (on an even board, weighted by their long-diagonal queens, [`super::transposes::west_weights`],
/// and those with fewer than two by their north columns' key against the row set's:
/// [`super::transposes`]).
#[test]
fn every_row_set_counts_what_the_solutions_say() {
    for n in 6..=11u32 {
        let q = tabled(n);
        let g = q.layout().geometry;
        let (h, far) = (g.h, g.far);
        let mut want = std::collections::HashMap::new();
        for s in nqueens_solve::enumerate::Solutions::new(n).unwrap() {
            let s: Vec<u32> = s.iter().map(|&c| c as u32).collect();
            let east = (0..n)
                .filter(|&r| s[r as usize] >= far && !(n % 2 == 1 && r == h))
                .fold(0u32, |a, r| a | 1 << r);
            let queens: Vec<(u32, u32)> = if n % 2 == 0 {
                Vec::new()
            } else if s[h as usize] == h {
                vec![(h, h)]
            } else {
                let rm = (0..n).find(|&r| s[r as usize] == h).unwrap();
                vec![(h, s[h as usize]), (rm, h)]
            };
            let weight = if n % 2 == 1 {
                1
            } else {
                long_diagonal_weight(&s, h)
            };
            let north = (0..h).fold(0u32, |a, r| a | 1 << s[r as usize]);
            let north = (weight == u32::MAX || weight == 2).then(|| key(h, north));
            *want.entry((queens, east, weight, north)).or_insert(0u128) += 1;
        }
        let mut sum = 0;
        for t in &q.layout().all_rowsets() {
            let RowSet {
                middle,
                east,
                weight,
                open,
                turn,
            } = *t;
            assert_eq!(turn.is_some(), n % 2 == 0, "{t:?}");
            // Twice, once or not at all, by the solution's north key against the row set's.
            let paired = |north: Option<[u32; 2]>| match (north, turn) {
                (Some(k), Some(t)) => (1 + k.cmp(&t) as i8) as u128,
                _ => 1,
            };
            let queens = q.layout().middles[middle as usize].queens().to_vec();
            let expected: u128 = want
                .iter()
                .filter(|((qs, e, _, _), _)| *qs == queens && *e == east)
                .map(|((_, _, w, k), c)| {
                    c * paired(*k) * if *w == u32::MAX { open } else { *w } as u128
                })
                .sum::<u128>()
                * weight as u128;
            let (got, _) = q.rowsets().count(t, Part::WHOLE, &mut Scratch::default());
            assert_eq!(got, expected, "n={n} {t:?}");
            sum += got;
        }
        assert_eq!(Some(sum), Sequence::A000170.known(n), "n={n}");
    }
}

/// The backtracking recount of every row set equals the quadrant method's count, for
/// every board up to 14, part by part in striped plans; and whole tasks' tallies agree on
/// everything but the work.
#[test]
fn backtracking_recounts_every_row_set_as_the_method_counts_it() {
    fn recount(q: &Quadrants) -> RecountInputs<'_> {
        RecountInputs {
            layout: q.layout(),
            column_sets: q.column_sets(),
        }
    }
    for n in MIN_N..=14u32 {
        let q = tabled(n);
        let mut scratch = Scratch::default();
        let mut sum = 0u128;
        for r in &q.layout().all_rowsets() {
            let (counted, _) = q.rowsets().count(r, Part::WHOLE, &mut scratch);
            let recounted = recount(&q).rowset(r, Part::WHOLE) * r.weight as u128;
            assert_eq!(recounted, counted, "n={n} {r:?}");
            sum += recounted;
        }
        assert_eq!(Some(sum), Sequence::A000170.known(n), "n={n}");
        let striped = striped(n.min(12), 3);
        for id in 0..striped.tasks() as u32 {
            let (counted, recounted) =
                (striped.count(&[id]).unwrap()[0], recount(&striped).task(id));
            assert_eq!(counted.total, recounted.total, "n={n} parts, task {id}");
        }
        for id in 0..q.tasks() as u32 {
            let (counted, recounted) = (q.count(&[id]).unwrap()[0], recount(&q).task(id));
            assert_eq!(
                (counted.total, counted.classes),
                (recounted.total, recounted.classes),
                "n={n} task {id}"
            );
        }
    }
}

/// A limit below what one piece of a row set needs is met by smaller pieces, not refused
/// (N = 24, whose half-boards run to hundreds of MiB per worker); only a limit the slices
/// and minimal pieces cannot meet is refused.
#[test]
fn a_tight_limit_is_met_by_pieces() {
    let settings = Settings::default();
    let roomy = Quadrants::within(24, 2, 1 << 40, &settings).unwrap();
    let limit = 160 << 20;
    assert!(
        roomy.memory_estimate() > limit,
        "{}",
        roomy.memory_estimate()
    );
    let tight = Quadrants::within(24, 2, limit, &settings).unwrap();
    assert!(
        tight.memory_estimate() <= limit,
        "{}",
        tight.memory_estimate()
    );
    assert!(tight.memory_estimate() < roomy.memory_estimate());
    let (piece, roomy_piece) = (
        tight.pieces().halves.unwrap(),
        roomy.pieces().halves.unwrap(),
    );
    assert!(piece < roomy_piece);
    assert!(piece as u64 * tight.sizes().bytes_per_key() >= 16 << 20);
    let refused = Quadrants::within(24, 2, 30 << 20, &settings).unwrap_err();
    assert!(matches!(refused, Error::Memory(_)), "{refused}");
}

/// A striped plan's set-up holds nothing per task (N = 28's previous plan: 521 million
/// tasks, whose estimates and shards would be 6 GiB): one worker of N = 28 fits in 1 GiB, in
/// the record plan (about 5 million tasks of whole row sets, counted in pieces) and in the
/// previous one.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_striped_plan_needs_nothing_per_task() {
    let q = Quadrants::within(28, 1, 1 << 30, &Settings::default()).unwrap();
    assert!(q.stripe().is_some());
    assert!(
        (4_000_000..=10_000_000).contains(&q.tasks()),
        "{}",
        q.tasks()
    );
    assert!(q.memory_estimate() <= 1 << 30, "{}", q.memory_estimate());
    let previous = Settings {
        previous: true,
        ..Settings::default()
    };
    let q = Quadrants::within(28, 1, 1 << 30, &previous).unwrap();
    assert!(q.tasks() > 500_000_000, "{}", q.tasks());
    assert!(q.memory_estimate() <= 1 << 30, "{}", q.memory_estimate());
    // Files of the previous plan are still read: readers find it from its fingerprint.
    let id = q.id();
    assert!(Settings::default().for_plan(28, &id.fingerprint).previous);
    assert!(
        !Settings::default()
            .for_plan(28, "0123456789abcdef")
            .previous
    );
}

/// Files counted before the transposes are still read: an even board's plan without them
/// ([`Settings::untransposed`]) has the same tasks and a fingerprint of its own, which readers
/// find from a file ([`Settings::for_plan`]), and counts each task as the method counted it
/// then (as the recount by backtracking without the transposes says); both plans sum to
/// a(N), and the transposes move counts between an even board's tasks. An odd board's plan
/// has no transposes: one plan, one fingerprint.
#[test]
fn plans_before_the_transposes_are_still_read() {
    let untransposed = Settings {
        untransposed: true,
        ..Settings::default()
    };
    for n in [10u32, 11, 12] {
        let (now, before) = (tabled(n), plan(n, untransposed));
        let even = n % 2 == 0;
        assert_eq!(now.tasks(), before.tasks());
        let [fp_now, fp_before] = [&now, &before].map(|q| q.id().fingerprint);
        assert_eq!(fp_now != fp_before, even, "n={n}");
        let found = Settings::default().for_plan(n, &fp_before);
        assert_eq!(found.untransposed, even, "n={n}");
        assert_eq!(
            Settings::default().for_plan(n, &fp_now),
            Settings::default()
        );
        let all: Vec<u32> = (0..now.tasks() as u32).collect();
        let [counted_now, counted_before] = [&now, &before].map(|q| q.count(&all).unwrap());
        let recount = RecountInputs {
            layout: before.layout(),
            column_sets: before.column_sets(),
        };
        for (&id, t) in all.iter().zip(&counted_before) {
            assert_eq!(recount.task(id).total, t.total, "n={n} task {id}");
        }
        let sums = [&counted_now, &counted_before].map(|v| v.iter().map(|t| t.total).sum::<u128>());
        assert_eq!(sums, [Sequence::A000170.known(n).unwrap(); 2], "n={n}");
        let moved = counted_now
            .iter()
            .zip(&counted_before)
            .any(|(a, b)| a.total != b.total);
        assert_eq!(moved, even, "n={n}");
    }
}

/// Every core on one task: each task of every path (the table, whose row sets are counted
/// at once; slices, parts and pieces, whose sieves are shaped, built and walked by several
/// threads) counted on a pool of four threads gives exactly the record one thread gives, its
/// half-boards built included, so files counted either way merge with one digest; and the
/// shared walk was taken.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_task_spread_over_a_pool_gives_the_record_one_thread_gives() {
    use crate::quadrants::matcher::sieve::SHARED;
    crate::quadrants::matcher::share_small_sieves();
    let pool = |t| crate::engine::pool(t).unwrap();
    let (one, four) = (pool(1), pool(4));
    let before = SHARED.load(Ordering::Relaxed);
    let mut pieces = sliced(15);
    pieces.set_pieces(Pieces {
        halves: Some(700),
        room: None,
    });
    for q in [tabled(16), sliced(16), striped(16, 3), pieces] {
        let n = q.layout().geometry.n;
        let all: Vec<u32> = (0..q.tasks() as u32).collect();
        let alone = one.install(|| q.count(&all).unwrap());
        let shared = four.install(|| q.count(&all).unwrap());
        assert!(alone == shared, "n={n}: a task's record differs");
        let sum: Tally = alone.into_iter().sum();
        assert_eq!(Some(sum.total), Sequence::A000170.known(n), "n={n}");
    }
    // Row sets whose sieves split (up to N = 17 they are one leaf each): tasks through the
    // plan of N = 20.
    let q = sliced(20);
    let some: Vec<u32> = (0..q.tasks() as u32).step_by(q.tasks() / 24).collect();
    let alone = one.install(|| q.count(&some).unwrap());
    assert!(alone.iter().any(|t| t.total > 0));
    assert!(alone == four.install(|| q.count(&some).unwrap()), "n=20");
    assert!(
        SHARED.load(Ordering::Relaxed) > before,
        "no walk was shared"
    );
}
