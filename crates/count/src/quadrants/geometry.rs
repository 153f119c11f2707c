//! The board as the quadrant method sees it, read-only: its size and quadrants
//! ([`Geometry`]), the queens of an odd board's middle cross ([`Middle`]), and the column sets
//! a side's north quarter may take ([`ColumnSets`]).
//!
//! Coordinates: global diagonals `D1 = r + c` and `D2 = r - c + N - 1`. The quarters are
//! `h = N / 2` wide; the south quadrants start at row `far = N - h`, the east ones at column
//! `far` (an odd board's middle row and column lie between them).

/// An `n` board's quadrants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Geometry {
    /// The board's size.
    pub n: u32,
    /// The quarters' width: `n / 2`.
    pub h: u32,
    /// First row of the south quadrants and first column of the east ones: `n - h`.
    pub far: u32,
}

impl Geometry {
    /// The quadrants of an `n` board.
    pub fn new(n: u32) -> Geometry {
        let h = n / 2;
        Geometry { n, h, far: n - h }
    }

    /// Whether the board is even (no middle row or column; two long diagonals that the
    /// method's symmetry treats apart).
    pub fn even(&self) -> bool {
        self.n.is_multiple_of(2)
    }

    /// The local rows (masks of `0..h`) of the north and the south quadrant of a side on
    /// the global rows `rows`.
    pub fn quarter_rows(&self, rows: u32) -> [u32; 2] {
        let full = (1u32 << self.h) - 1;
        [rows & full, rows >> self.far & full]
    }

    /// The bits of a match key: `2h - 1` diagonals of each family.
    pub fn key_bits(&self) -> u32 {
        2 * (2 * self.h - 1)
    }

    /// The middle configuration of the fixed `queens` (`(row, col)`, at most two), its free
    /// rows not yet set ([`Middle::rows`]).
    pub fn middle(&self, queens: &[(u32, u32)]) -> Middle {
        let (n, h, far) = (self.n, self.h, self.far);
        let full = (1u32 << h) - 1;
        let mut m = Middle {
            queens: [(0, 0); 2],
            len: queens.len() as u8,
            d1: 0,
            d2: 0,
            rows: 0,
            west: full,
            east: full,
        };
        for (i, &(r, c)) in queens.iter().enumerate() {
            m.queens[i] = (r, c);
            m.d1 |= 1 << (r + c);
            m.d2 |= 1 << (r + n - 1 - c);
            if c < h {
                m.west &= !(1 << c);
            } else if c >= far {
                m.east &= !(1 << (c - far));
            }
        }
        m
    }
}

/// The queens of the middle row and the middle column of an odd board, placed before the
/// quadrants are joined (an even board has no middle: one empty `Middle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Middle {
    /// The fixed queens `(row, col)`: none, the centre, or one on the middle row and one on
    /// the middle column.
    pub queens: [(u32, u32); 2],
    /// How many of `queens` there are.
    pub len: u8,
    /// Their diagonals, global (`r + c` and `r - c + N - 1`).
    pub d1: u64,
    /// See `d1`.
    pub d2: u64,
    /// Global rows left for the quadrants.
    pub rows: u32,
    /// Local columns (`0..h`) left in the west half.
    pub west: u32,
    /// Local columns (`0..h`) left in the east half.
    pub east: u32,
}

impl Middle {
    /// The fixed queens.
    pub fn queens(&self) -> &[(u32, u32)] {
        &self.queens[..self.len as usize]
    }
}

/// The sets of `k` columns of a half's free columns, by which column (if any) the middle row's
/// queen takes from it: a side's north quarter takes one of them, its south quarter the rest.
#[derive(Debug, Clone)]
pub(super) struct ColumnSets {
    h: u32,
    /// `sets[v][k]`: the sets of `k` columns of the free columns of variant `v` (all but
    /// column `v`, or all `h` for `v = h`).
    sets: Vec<Vec<Vec<u32>>>,
}

impl ColumnSets {
    /// The column sets of an `h`-wide half.
    pub fn new(h: u32) -> ColumnSets {
        let full = (1u32 << h) - 1;
        let sets = (0..=h)
            .map(|v| {
                let free = full & !(1u32.checked_shl(v).unwrap_or(0) & full);
                let mut by_k = vec![Vec::new(); h as usize + 1];
                for c in 0..1u32 << h {
                    if c & !free == 0 {
                        by_k[c.count_ones() as usize].push(c);
                    }
                }
                by_k
            })
            .collect();
        ColumnSets { h, sets }
    }

    /// The sets of `k` columns within `free` (the half's free columns: all `h`, or all but
    /// the middle row's queen's).
    pub fn get(&self, free: u32, k: u32) -> &[u32] {
        let full = (1u32 << self.h) - 1;
        let variant = if free == full {
            self.h as usize
        } else {
            (full & !free).trailing_zeros() as usize
        };
        &self.sets[variant][k as usize]
    }
}
