//! Counting with the library: every solution of a board and the unique ones, checked against
//! the OEIS, with a placed queen, and with progress reported as the count goes.
//!
//!   cargo run --release --example count -- 12

use nqueens::{count, Algorithm, Options};

fn main() -> Result<(), nqueens::Error> {
    let n: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("a board size"))
        .unwrap_or(10);

    // Every solution, and the unique ones (the default algorithm counts both), checked
    // against A000170 and A002562: a count that disagrees is an error, never a result.
    let totals = count(n, &Options::default())?;
    println!(
        "{n}×{n}: {} solutions, {:?} unique",
        totals.total, totals.unique
    );

    // The completions of a queen placed on row 0, column 1 (0-based), on two threads.
    let placed = Options::default()
        .with_algorithm(Algorithm::Plain)
        .with_placed(&[(0, 1)])
        .with_threads(2);
    let completions = count(n, &placed)?;
    println!(
        "with a queen on the top row's second square: {}",
        completions.total
    );

    // Progress as the count goes (called from the counting thread; keep it short).
    let watched = Options::default().with_progress(|p| {
        eprintln!("{} of {} tasks done", p.done, p.total);
    });
    count(n, &watched)?;
    Ok(())
}
