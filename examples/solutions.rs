//! Finding solutions with the library: the first in backtracking order, every solution in
//! lexicographic order, one per symmetry class, a board checked, and placed queens completed.
//!
//!   cargo run --release --example solutions -- 8

use nqueens::{complete, first_solution, is_solution, unique, Completion, Solutions};

fn main() -> Result<(), nqueens::Error> {
    let n: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("a board size"))
        .unwrap_or(8);

    // A solution is a permutation: `cols[row]`, 0-based.
    let (first, nodes) = first_solution(n)?;
    println!("first solution {first:?}, found after {nodes} queens placed");

    // Every solution, lazily, in lexicographic order.
    let all = Solutions::new(n)?.count();
    let classes = unique(n)?.count();
    println!("{all} solutions, {classes} up to rotation and reflection");

    // A board checked: no two queens attack each other.
    if let Some(cols) = &first {
        assert!(is_solution(cols));
    }

    // Queens placed by hand (0-based row, column), completed or proved impossible.
    match complete(n as usize, &[(0, 0), (1, 4)])? {
        Completion::Found(cols) => println!("completed: {cols:?}"),
        other => println!("no completion: {other:?}"),
    }
    Ok(())
}
