//! A library user's first steps (the example of docs/guide/reference.md, with what it prints).

use nqueens::{Algorithm, Options};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The example (its `main`), returning what it prints.
fn library_example() -> Result<Vec<String>, nqueens::Error> {
    let mut out = Vec::new();
    // --- example starts ---
    let totals = nqueens::count(10, &Options::default())?;
    assert_eq!(totals.total, 724);
    out.push(format!(
        "{} solutions, {:?} unique",
        totals.total, totals.unique
    ));

    let opts = Options::default()
        .with_threads(2)
        .with_algorithm(Algorithm::Plain)
        .with_placed(&[(0, 1)]); // a queen on row 0, column 1 (0-based)
    out.push(format!("completions: {}", nqueens::count(10, &opts)?.total));

    let (first, _nodes) = nqueens::first_solution(8)?;
    out.push(format!("first solution of 8: {first:?}"));
    let all: Vec<Vec<usize>> = nqueens::Solutions::new(6)?.collect();
    out.push(format!("6×6: {all:?}"));
    // --- example ends ---
    Ok(out)
}

#[test]
fn the_library_example_prints_what_the_guide_says() {
    let lines = library_example().unwrap();
    assert_eq!(
        lines,
        [
            "724 solutions, Some(92) unique",
            "completions: 48",
            "first solution of 8: Some([0, 4, 7, 5, 2, 6, 1, 3])",
            "6×6: [[1, 3, 5, 0, 2, 4], [2, 5, 1, 4, 0, 3], [3, 0, 4, 1, 5, 2], [4, 2, 0, 5, 3, 1]]",
        ]
    );
}

#[test]
fn progress_and_cancel_reach_the_library_user() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    let opts = Options::default().with_threads(2).with_progress(move |p| {
        assert!(p.done <= p.total);
        seen.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(nqueens::count(12, &opts).unwrap().total, 14_200);
    assert!(
        calls.load(Ordering::SeqCst) >= 1,
        "called at least at the end"
    );
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let e = nqueens::count(14, &Options::default().with_cancel(flag)).unwrap_err();
    assert!(matches!(e, nqueens::Error::Cancelled { .. }), "{e}");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let bad = |o: Options, n: u32| nqueens::count(n, &o).unwrap_err().to_string();
    assert!(bad(Options::default(), 65).contains("between 1 and 64"));
    assert!(bad(Options::default(), 0).contains("between 1 and 64"));
    // 0 threads is every logical CPU, as in rayon; past the most, an error.
    let all = nqueens::count(8, &Options::default().with_threads(0)).unwrap();
    assert_eq!((all.total, all.threads), (92, num_cpus::get()));
    assert!(bad(Options::default().with_threads(100_000), 8).contains("threads"));
    assert!(bad(Options::default().with_split_depth(7), 8).contains("1, 2 or 3"));
    assert!(bad(Options::default().with_placed(&[(0, 0), (1, 1)]), 8).contains("diagonal"));
    assert!(bad(Options::default().with_placed(&[(9, 0)]), 8).contains("off the 8×8 board"));
    let sym = Options::default()
        .with_algorithm(Algorithm::Symmetric)
        .with_placed(&[(0, 0)]);
    assert!(bad(sym, 8).contains("cannot count with placed queens"));
    assert!(nqueens::Solutions::new(65).is_err());
    assert!(nqueens::first_solution(0).is_err());
    assert!(nqueens::complete(8, &[(0, 0), (0, 1)]).is_err());
    assert_eq!(nqueens::construct(0), None);
    let q = Options::default()
        .with_algorithm(Algorithm::Quadrants)
        .with_split_depth(2);
    assert!(bad(q, 16).contains("split depth applies to the backtracking"));
    let auto = Options::default().with_split_depth(2).with_threads(2);
    assert_eq!(
        nqueens::count(16, &auto).unwrap().algorithm,
        Algorithm::Symmetric
    );
    assert!("quadrant".parse::<Algorithm>().is_err());
    assert_eq!("quadrants".parse::<Algorithm>(), Ok(Algorithm::Quadrants));
    assert_eq!("mirror".parse::<Algorithm>(), Ok(Algorithm::Mirror));
}

#[test]
fn memory_limits_refuse_or_make_auto_backtrack() {
    // N = 16: the quarter table (1.2 MiB) fits in 3 MiB, the whole estimate (~11 MiB) does not.
    let tight = Options::default().with_threads(2).with_max_memory(3 << 20);
    let e = nqueens::count(16, &tight.clone().with_algorithm(Algorithm::Quadrants)).unwrap_err();
    assert!(matches!(e, nqueens::Error::Memory(_)), "{e}");
    // The library names its own option; the command line names the flag (tests/cli.rs).
    assert!(e.to_string().contains("raise `max_memory`"), "{e}");
    let auto = nqueens::count(16, &tight).unwrap();
    assert_eq!(
        (auto.algorithm, auto.total),
        (Algorithm::Symmetric, 14_772_512)
    );
    let roomy = nqueens::count(16, &Options::default().with_threads(2)).unwrap();
    assert_eq!(roomy.algorithm, Algorithm::Quadrants);
    assert!(roomy.memory_estimate.is_some_and(|m| m > 1 << 20));
}
