//! The bitboard state: the occupied columns and the two diagonal sets as `u64` masks.
//!
//! Bit `c` stands for column `c` (0-based, column 0 on the left). After each row the
//! diagonal masks move one place: `d1` (the "down-left to up-right" attacks seen from the
//! next row) shifts left, `d2` shifts right, and both are cut back to the board's N bits.

use crate::error::{Error, Result};

/// The largest board the `u64` masks can hold.
pub const MAX_N: u32 = 64;

/// Checks that `n` is a board size the masks can hold (1..=64).
pub fn check_n(n: i64) -> Result<u32> {
    if (1..=MAX_N as i64).contains(&n) {
        Ok(n as u32)
    } else {
        Err(Error::BoardSize(n))
    }
}

/// The mask with the low `n` bits set: every column of an `n`-wide board.
///
/// `n` must be in `1..=64`.
#[inline]
pub const fn full_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The attack state of a partly filled board, as seen from the next empty row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Masks {
    /// Columns already holding a queen.
    pub cols: u64,
    /// Squares of the next row attacked along one diagonal (shifts left each row).
    pub d1: u64,
    /// Squares of the next row attacked along the other diagonal (shifts right each row).
    pub d2: u64,
}

impl Masks {
    /// The empty board.
    pub const EMPTY: Masks = Masks {
        cols: 0,
        d1: 0,
        d2: 0,
    };

    /// The free squares of the next row (as a column mask) on a board whose full mask is `full`.
    #[inline(always)]
    pub fn free(self, full: u64) -> u64 {
        !(self.cols | self.d1 | self.d2) & full
    }

    /// The state after a queen is placed in the next row at the single-bit column mask `bit`.
    #[inline(always)]
    pub fn place(self, bit: u64, full: u64) -> Masks {
        Masks {
            cols: self.cols | bit,
            d1: ((self.d1 | bit) << 1) & full,
            d2: (self.d2 | bit) >> 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mask_edges() {
        assert_eq!(full_mask(1), 1);
        assert_eq!(full_mask(8), 0xff);
        assert_eq!(full_mask(63), u64::MAX >> 1);
        assert_eq!(full_mask(64), u64::MAX);
    }

    #[test]
    fn check_n_bounds() {
        assert_eq!(check_n(1), Ok(1));
        assert_eq!(check_n(64), Ok(64));
        assert!(matches!(check_n(0), Err(Error::BoardSize(0))));
        assert!(matches!(check_n(65), Err(Error::BoardSize(65))));
        assert!(matches!(check_n(-1), Err(Error::BoardSize(-1))));
    }

    #[test]
    fn place_attacks_column_and_both_diagonals() {
        let full = full_mask(8);
        let m = Masks::EMPTY.place(1 << 3, full);
        // Next row: column 3 taken, 2 and 4 attacked diagonally.
        assert_eq!(m.free(full), full & !(1 << 2 | 1 << 3 | 1 << 4));
        // Edge bits fall off the board instead of wrapping.
        let edge = Masks::EMPTY.place(1 << 7, full).place(1 << 0, full);
        assert_eq!(edge.d1 & !full, 0);
        let wide = Masks::EMPTY.place(1 << 63, u64::MAX);
        assert_eq!(wide.d1, 0);
        assert_eq!(wide.d2, 1 << 62);
    }
}
