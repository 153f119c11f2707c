//! The quarter table: every placement of non-attacking queens on an `h`×`h` board with at most
//! one queen per row and column, indexed by the rows and columns it uses.
//!
//! Local coordinates: row `r` and column `c` in `0..h`; a queen occupies the diagonals
//! `r + c` (bit of `d1`) and `r - c + h - 1` (bit of `d2`), each in `0..2h-1`. Each quadrant of
//! the whole board is a translated copy of this square, so one table serves all four.

/// The largest quarter the table is built for (a 22×22 or 23×23 board): 4^11 index entries
/// and 66.8 million placements, about 550 MB.
pub const MAX_H: u32 = 11;

/// The largest board counted with a whole quarter table (`MAX_H` wide); larger boards build
/// the slices of the table each row set reads (`QuarterSlice`).
pub const TABLE_MAX_N: u32 = 2 * MAX_H + 1;

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
    /// Builds the table of an `h`×`h` quarter (1..=[`MAX_H`]), index and placements in one
    /// walk: each rows mask's placements are collected in walk order, then put in place by
    /// their columns (the index is [`Quarter::index`]'s, which walks to count alone). Holds
    /// one rows mask's placements (12 bytes each) besides the table while it builds (an
    /// N = 22 shard's peak was 584 MB before and after, the performance log).
    pub fn new(h: u32) -> Quarter {
        assert!((1..=MAX_H).contains(&h), "quarters are 1 to {MAX_H} wide");
        let mut start = Vec::with_capacity((1usize << (2 * h)) + 1);
        start.push(0u32);
        let mut diags = Vec::with_capacity(placements(h));
        let mut found = Vec::new();
        let mut next = vec![0u32; 1 << h];
        for rows in 0..1u32 << h {
            found.clear();
            walk_rows(h, rows, &mut |cols, d1, d2| found.push((cols, [d1, d2])));
            // Counted by columns, then each column set's first place, then put in place.
            next.fill(0);
            for &(cols, _) in &found {
                next[cols as usize] += 1;
            }
            let mut at = diags.len() as u32;
            for n in next.iter_mut() {
                (*n, at) = (at, at + *n);
                start.push(at);
            }
            diags.resize(at as usize, [0, 0]);
            for &(cols, d) in &found {
                let to = &mut next[cols as usize];
                diags[*to as usize] = d;
                *to += 1;
            }
        }
        Quarter { h, start, diags }
    }

    /// The table's index alone (how many placements each rows-and-columns key has: enough
    /// for [`Quarter::len_of`] and the memory estimate), its placements not stored (a plan
    /// that only estimates, or that counts from slices).
    pub fn index(h: u32) -> Quarter {
        assert!((1..=MAX_H).contains(&h), "quarters are 1 to {MAX_H} wide");
        let keys = 1usize << (2 * h);
        let mut count = vec![0u32; keys + 1];
        walk(h, &mut |key, _, _| count[key + 1] += 1);
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        Quarter {
            h,
            start: count,
            diags: Vec::new(),
        }
    }

    /// The placements using exactly the rows `rows` and the columns `cols` (bit masks of
    /// `0..h`): their diagonals `[d1, d2]`.
    #[inline]
    pub fn get(&self, rows: u32, cols: u32) -> &[[u32; 2]] {
        let key = ((rows << self.h) | cols) as usize;
        &self.diags[self.start[key] as usize..self.start[key + 1] as usize]
    }

    /// How many placements use exactly `rows` and `cols` (the index alone answers).
    #[inline]
    pub fn len_of(&self, rows: u32, cols: u32) -> usize {
        let key = ((rows << self.h) | cols) as usize;
        (self.start[key + 1] - self.start[key]) as usize
    }

    /// How many placements the table holds (or, an index alone, would hold).
    pub fn len(&self) -> usize {
        self.start.last().map_or(0, |&l| l as usize)
    }

    /// Memory the index alone holds, in bytes.
    pub fn index_bytes(&self) -> usize {
        self.start.len() * 4
    }

    /// Memory the whole table holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.start.len() * 4 + self.len() * 8
    }
}

/// The bytes `Quarter::new` holds for an `h`×`h` quarter (up to [`MAX_H`]).
pub fn bytes_needed(h: u32) -> usize {
    let h = h.min(MAX_H);
    (1usize << (2 * h)) * 4 + 4 + placements(h) * 8
}

/// The placements of an `h`×`h` quarter (up to [`MAX_H`]): 0 to `h` non-attacking queens, at
/// most one per row and a column (counted once; the tests check them against built tables).
fn placements(h: u32) -> usize {
    const PLACEMENTS: [usize; 12] = [
        1, 2, 5, 18, 87, 462, 2_635, 16_870, 118_969, 915_442, 7_535_369, 66_807_234,
    ];
    PLACEMENTS[h as usize]
}

/// The placements of one rows mask of an `h`×`h` quarter, by columns: what one quadrant of a
/// row set reads, built on its own when no whole table is kept (boards past
/// [`MAX_H`]` × 2 + 1`). Its buffers are kept and refilled for the next mask.
#[derive(Debug, Clone, Default)]
pub struct QuarterSlice {
    h: u32,
    rows: u32,
    /// `start[cols]..start[cols + 1]`: the placements using exactly the columns `cols`.
    start: Vec<u32>,
    diags: Vec<[u32; 2]>,
}

impl QuarterSlice {
    /// Refills the slice with the placements using exactly the rows `rows` of an `h`×`h`
    /// quarter (`h` up to 16).
    pub fn build(&mut self, h: u32, rows: u32) {
        assert!(h <= 16, "slices are at most 16 wide");
        self.h = h;
        self.rows = rows;
        self.start.clear();
        self.start.resize((1usize << h) + 1, 0);
        walk_rows(h, rows, &mut |cols, _, _| {
            self.start[cols as usize + 1] += 1
        });
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        let mut next = self.start.clone();
        self.diags.clear();
        self.diags.resize(self.start[1usize << h] as usize, [0, 0]);
        walk_rows(h, rows, &mut |cols, d1, d2| {
            let at = &mut next[cols as usize];
            self.diags[*at as usize] = [d1, d2];
            *at += 1;
        });
    }

    /// The rows mask it holds.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Memory it holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.start.len() * 4 + self.diags.len() * 8
    }
}

/// The placements of one rows mask, by columns: a view of the whole table, or a slice.
#[derive(Debug, Clone, Copy)]
pub enum Rows<'a> {
    /// The table's placements on rows `.1`.
    Table(&'a Quarter, u32),
    /// A slice built for its rows.
    QuarterSlice(&'a QuarterSlice),
}

impl<'a> Rows<'a> {
    /// The placements using exactly the columns `cols`: their diagonals `[d1, d2]`.
    #[inline]
    pub fn get(self, cols: u32) -> &'a [[u32; 2]] {
        match self {
            Rows::Table(q, rows) => q.get(rows, cols),
            Rows::QuarterSlice(s) => {
                let c = cols as usize;
                &s.diags[s.start[c] as usize..s.start[c + 1] as usize]
            }
        }
    }

    /// How many placements use exactly the columns `cols` (a table's index alone answers,
    /// before its placements are stored).
    #[inline]
    pub fn len_of(self, cols: u32) -> usize {
        match self {
            Rows::Table(q, rows) => q.len_of(rows, cols),
            Rows::QuarterSlice(_) => self.get(cols).len(),
        }
    }
}

/// The placements of the rows `mask` of a plan: the whole `table`'s when the plan keeps one,
/// else the worker's slice of them (prepared in `slices`).
#[inline]
pub fn rows<'a>(table: Option<&'a Quarter>, slices: &'a QuarterSlices, mask: u32) -> Rows<'a> {
    match table {
        Some(t) => Rows::Table(t, mask),
        None => Rows::QuarterSlice(slices.get(mask)),
    }
}

/// The quarter slices per worker holds: those of the row set it counts (its four quadrants'
/// rows masks), a slice kept while the next row set reads the same rows (the south masks
/// change slowly in the row sets' order).
#[derive(Debug, Default)]
pub struct QuarterSlices {
    /// The quarters' width the slices are for (a worker may count several boards).
    h: u32,
    slices: Vec<QuarterSlice>,
}

impl QuarterSlices {
    /// Makes sure the slices of every mask in `masks` are held, rebuilding others' buffers.
    pub fn prepare(&mut self, h: u32, masks: [u32; 4]) {
        if self.h != h {
            self.h = h;
            self.slices.clear();
        }
        if self.slices.len() < 4 {
            self.slices.resize_with(4, QuarterSlice::default);
            for (s, &m) in self.slices.iter_mut().zip(&masks) {
                s.build(h, m);
            }
            return;
        }
        let mut keep = [false; 4];
        let mut missing = Vec::new();
        for &m in &masks {
            match self.slices.iter().position(|s| s.rows() == m) {
                Some(i) => keep[i] = true,
                None if !missing.contains(&m) => missing.push(m),
                None => {}
            }
        }
        for m in missing {
            let Some(i) = keep.iter().position(|&k| !k) else {
                break;
            };
            keep[i] = true;
            self.slices[i].build(h, m);
        }
    }

    /// The slice of `rows` (prepared).
    pub fn get(&self, rows: u32) -> &QuarterSlice {
        self.slices
            .iter()
            .find(|s| s.rows() == rows)
            .expect("the row set's slices were prepared")
    }

    /// Memory the slices hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.slices.iter().map(QuarterSlice::bytes).sum()
    }
}

/// Calls `f(cols, d1, d2)` for every placement of the `h`×`h` quarter with a queen on each
/// row of `rows` and none on the others, rows taken from the lowest, columns in increasing
/// order. Each row's open columns are one mask (the columns and both diagonals shifted to the
/// row), so only squares that take a queen are visited; the second diagonals are kept
/// reflected on the way (`r - c` read as `c - r`) and reflected back for `f`.
fn walk_rows(h: u32, rows: u32, f: &mut impl FnMut(u32, u32, u32)) {
    /// `up`: diagonals `r + c`; `down`: diagonals `c - r + h - 1` (the reflection of `d2`).
    /// `left` is not empty; its last row calls `f` in this loop, not one call deeper.
    fn rec(h: u32, left: u32, cols: u32, up: u32, down: u32, f: &mut impl FnMut(u32, u32, u32)) {
        let r = left.trailing_zeros();
        let rest = left & (left - 1);
        let all = (1u32 << h) - 1;
        let mut open = all & !cols & !(up >> r) & !(down >> (h - 1 - r));
        while open != 0 {
            let c = open.trailing_zeros();
            open &= open - 1;
            let (b1, b2) = (1 << (r + c), 1 << (c + h - 1 - r));
            if rest == 0 {
                f(cols | 1 << c, up | b1, reflect(h, down | b2));
            } else {
                rec(h, rest, cols | 1 << c, up | b1, down | b2, f);
            }
        }
    }
    if rows == 0 {
        f(0, 0, 0);
    } else {
        rec(h, rows, 0, 0, 0, f);
    }
}

/// `c - r + h - 1` to `r - c + h - 1`: the `2h - 1` diagonals in reverse order.
#[inline(always)]
fn reflect(h: u32, down: u32) -> u32 {
    down.reverse_bits() >> (33 - 2 * h)
}

/// Calls `f(rows << h | cols, d1, d2)` for every placement of the `h`×`h` quarter, one rows
/// mask after another ([`walk_rows`]): a mask's placements' keys are one range of the table,
/// so what `f` writes stays in cache (a walk of all masks at once wrote all over the table:
/// an N = 22 shard's set-up took about 0.5 s longer).
fn walk(h: u32, f: &mut impl FnMut(usize, u32, u32)) {
    for rows in 0..1u32 << h {
        let base = (rows as usize) << h;
        walk_rows(h, rows, &mut |cols, d1, d2| f(base | cols as usize, d1, d2));
    }
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
            .map(|(r, c)| q.get(1 << r, 1 << c).len())
            .sum();
        assert_eq!(singles, 9);
        assert_eq!(q.get(0, 0), &[[0, 0]]);
    }

    /// The table built in one walk holds, under each (rows, columns) key, the walk's
    /// placements of those rows and columns in the walk's order, and its index is the one
    /// [`Quarter::index`] counts.
    #[test]
    fn the_table_is_the_walk_by_columns() {
        for h in 1..=7 {
            let q = Quarter::new(h);
            assert_eq!(q.start, Quarter::index(h).start, "h={h}");
            for rows in 0..1u32 << h {
                let mut by_cols = vec![Vec::new(); 1 << h];
                walk_rows(h, rows, &mut |cols, d1, d2| {
                    by_cols[cols as usize].push([d1, d2])
                });
                for (cols, want) in by_cols.iter().enumerate() {
                    assert_eq!(
                        q.get(rows, cols as u32),
                        &want[..],
                        "h={h} {rows:b} {cols:b}"
                    );
                }
            }
            assert_eq!(q.bytes(), bytes_needed(h), "h={h}");
        }
    }

    /// The walk gives, in the same order, what trying every column of every row and keeping
    /// the squares whose column and diagonals are free gives (the diagonals as the module's
    /// docs define them).
    #[test]
    fn the_walk_is_the_plain_enumeration() {
        fn plain(h: u32, left: u32, at: (u32, u32, u32), out: &mut Vec<(u32, u32, u32)>) {
            let (cols, d1, d2) = at;
            if left == 0 {
                out.push(at);
                return;
            }
            let r = left.trailing_zeros();
            for c in 0..h {
                let (b1, b2) = (1 << (r + c), 1 << (r + h - 1 - c));
                if cols & 1 << c == 0 && d1 & b1 == 0 && d2 & b2 == 0 {
                    plain(h, left & (left - 1), (cols | 1 << c, d1 | b1, d2 | b2), out);
                }
            }
        }
        for h in [1u32, 2, 5, 7, 16] {
            let masks: Vec<u32> = if h < 16 {
                (0..1 << h).collect()
            } else {
                vec![0, 1, 0x8001, 0x8421, 0x0107]
            };
            for rows in masks {
                let (mut want, mut got) = (Vec::new(), Vec::new());
                plain(h, rows, (0, 0, 0), &mut want);
                walk_rows(h, rows, &mut |c, d1, d2| got.push((c, d1, d2)));
                assert_eq!(got, want, "h={h} rows={rows:b}");
            }
        }
    }

    /// A slice holds exactly the table's placements of its rows, column set by column set.
    #[test]
    fn slices_hold_what_the_table_holds() {
        for h in 1..=6u32 {
            let q = Quarter::new(h);
            let mut s = QuarterSlice::default();
            for rows in 0..1u32 << h {
                s.build(h, rows);
                assert_eq!(s.rows(), rows);
                for cols in 0..1u32 << h {
                    let mut a = Rows::Table(&q, rows).get(cols).to_vec();
                    let mut b = Rows::QuarterSlice(&s).get(cols).to_vec();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "h={h} rows={rows:b} cols={cols:b}");
                }
            }
        }
    }
}
