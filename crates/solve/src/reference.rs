//! An independent reference: the textbook array backtracker.
//!
//! It keeps `board[row] = column` and checks each new queen against every earlier one, exactly
//! as in the classic lecture notes. It shares no code with the bitboard kernels, so the tests use
//! it to check them.

/// Counts the solutions of the `n`-queens problem the textbook way (slow; fine up to about 12).
pub fn count(n: usize) -> u64 {
    let mut board = vec![0usize; n];
    place(&mut board, 0)
}

/// True if a queen at (`row`, `col`) is attacked by one of the queens in rows `0..row`.
fn attacked(board: &[usize], row: usize, col: usize) -> bool {
    (0..row).any(|r| {
        let c = board[r];
        c == col || row - r == c.abs_diff(col)
    })
}

fn place(board: &mut [usize], row: usize) -> u64 {
    let n = board.len();
    if row == n {
        return 1;
    }
    let mut found = 0;
    for col in 0..n {
        if !attacked(board, row, col) {
            board[row] = col;
            found += place(board, row + 1);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    #[test]
    fn textbook_values() {
        assert_eq!(super::count(4), 2);
        assert_eq!(super::count(8), 92);
    }
}
