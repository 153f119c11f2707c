//! The quarter table: every placement of non-attacking queens on an `h`×`h` board with at most
//! one queen per row and column, indexed by the rows and columns it uses.
//!
//! Local coordinates: row `r` and column `c` in `0..h`; a queen occupies the diagonals
//! `r + c` (bit of `d1`) and `r - c + h - 1` (bit of `d2`), each in `0..2h-1`. Each quadrant of
//! the whole board is a translated copy of this square, so one table serves all four.

/// The largest quarter the table is built for (a 22×22 or 23×23 board): 4^11 index entries
/// and 66.8 million placements, about 550 MB.
pub const MAX_H: u32 = 11;

/// The placements of an `h`×`h` quarter, grouped by (rows, columns).
#[derive(Debug, Clone)]
pub struct Quarter {
    h: u32,
    /// `start[key]..start[key + 1]` are the placements using rows and columns `key`
    /// (`rows << h | cols`).
    start: Vec<u32>,
    /// The placements' diagonals `[d1, d2]`.
    diags: Vec<[u32; 2]>,
}

impl Quarter {
    /// Builds the table of an `h`×`h` quarter (1..=[`MAX_H`]): its index, then its placements.
    #[cfg(test)]
    pub fn new(h: u32) -> Quarter {
        let mut q = Quarter::index(h);
        q.fill();
        q
    }

    /// The table's index alone (how many placements each rows-and-columns key has: enough
    /// for [`Quarter::len_of`] and the memory estimate), its placements not yet stored
    /// ([`Quarter::fill`]).
    pub fn index(h: u32) -> Quarter {
        assert!((1..=MAX_H).contains(&h), "quarters are 1 to {MAX_H} wide");
        let keys = 1usize << (2 * h);
        let mut count = vec![0u32; keys + 1];
        walk(h, &mut |key, _, _| count[key as usize + 1] += 1);
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        Quarter {
            h,
            start: count,
            diags: Vec::new(),
        }
    }

    /// Stores the placements of an index ([`Quarter::index`]); nothing if they are stored.
    pub fn fill(&mut self) {
        if !self.diags.is_empty() {
            return;
        }
        let mut next = self.start.clone();
        let mut diags = vec![[0u32; 2]; self.len()];
        walk(self.h, &mut |key, d1, d2| {
            let at = &mut next[key as usize];
            diags[*at as usize] = [d1, d2];
            *at += 1;
        });
        self.diags = diags;
    }

    /// The placements using exactly the rows `rows` and the columns `cols` (bit masks of
    /// `0..h`): their diagonals `[d1, d2]`.
    #[inline]
    pub fn get(&self, rows: u32, cols: u32) -> &[[u32; 2]] {
        let key = ((rows << self.h) | cols) as usize;
        &self.diags[self.start[key] as usize..self.start[key + 1] as usize]
    }

    /// How many placements use exactly `rows` and `cols`.
    #[inline]
    pub fn len_of(&self, rows: u32, cols: u32) -> usize {
        let key = ((rows << self.h) | cols) as usize;
        (self.start[key + 1] - self.start[key]) as usize
    }

    /// How many placements the table holds (or will hold, filled).
    pub fn len(&self) -> usize {
        self.start.last().map_or(0, |&l| l as usize)
    }

    /// Memory the table holds filled, in bytes.
    pub fn bytes(&self) -> usize {
        self.start.len() * 4 + self.len() * 8
    }
}

/// The bytes [`Quarter::new`] holds for an `h`×`h` quarter, from the number of placements
/// (counted once; the tests check the small ones against the built tables).
pub fn bytes_needed(h: u32) -> usize {
    // Placements of 0..h non-attacking queens, at most one per row and column, on h×h.
    const PLACEMENTS: [u64; 12] = [
        1, 2, 5, 18, 87, 462, 2_635, 16_870, 118_969, 915_442, 7_535_369, 66_807_234,
    ];
    let h = h.min(MAX_H) as usize;
    (1usize << (2 * h)) * 4 + 4 + PLACEMENTS[h] as usize * 8
}

/// Calls `f(rows << h | cols, d1, d2)` for every placement of the `h`×`h` quarter.
fn walk(h: u32, f: &mut impl FnMut(u32, u32, u32)) {
    fn rec(
        h: u32,
        r: u32,
        rows: u32,
        cols: u32,
        d1: u32,
        d2: u32,
        f: &mut impl FnMut(u32, u32, u32),
    ) {
        if r == h {
            f(rows << h | cols, d1, d2);
            return;
        }
        rec(h, r + 1, rows, cols, d1, d2, f);
        for c in 0..h {
            let (b1, b2) = (1 << (r + c), 1 << (r + h - 1 - c));
            if cols >> c & 1 == 0 && d1 & b1 == 0 && d2 & b2 == 0 {
                rec(h, r + 1, rows | 1 << r, cols | 1 << c, d1 | b1, d2 | b2, f);
            }
        }
    }
    rec(h, 0, 0, 0, 0, 0, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_quarters_are_the_solutions_and_sizes_match_the_estimate() {
        // A quarter with every row and column used is a solution of the h×h board.
        for (h, solutions) in [(4u32, 2usize), (5, 10), (6, 4), (8, 92)] {
            let q = Quarter::new(h);
            let all = (1 << h) - 1;
            assert_eq!(q.get(all, all).len(), solutions, "h={h}");
            assert_eq!(q.bytes(), bytes_needed(h), "h={h}");
        }
        let q = Quarter::new(3);
        // One queen: 9 squares, each its own (row, column) key.
        let singles: usize = (0..3)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .map(|(r, c)| q.len_of(1 << r, 1 << c))
            .sum();
        assert_eq!(singles, 9);
        assert_eq!(q.get(0, 0), &[[0, 0]]);
    }
}
