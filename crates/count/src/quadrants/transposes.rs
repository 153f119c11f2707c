//! The transposes on an even board: what the row sets' symmetries leave to count twice.
//!
//! A solution has a set `E` of rows whose queen is east (its row set) and a set `C` of columns
//! whose queen is north. The up-down and left-right mirrors map `E` to its mirror image and to
//! its complement, and `C` the same way; a transpose maps `(E, C)` to `(C', E')` with `C'` an
//! image of `C` and `E'` of `E` under those mirrors. Give every set of rows or columns a
//! [`key`] that its mirror images and complement share: the keys of its two halves (each the
//! smaller of the half and its complement, the far half read from the board's edge), the
//! smaller first. A row set's solutions whose long-diagonal queens leave a transpose free
//! (none, or one: [`west_weights`]'s first two groups) pair with their transposes'
//! solutions, counted in the row sets of key `key(C)`. Each pair is counted once, on the side
//! of the smaller key, twice over: a solution whose `key(C)` is above its row set's key
//! `(p1, p2)` weighs 2 times its weight, one whose keys are equal (a *tie*) 1, and the
//! others 0.
//!
//! `key(C)` is `(min(x, y), max(x, y))` for `x` the key of a west half-board's north columns
//! and `y` an east one's. So a row set builds no west half-board with `x < p1` (it weighs 0),
//! matches those with `y < p1` only against the two-queen west half-boards, and tells the
//! matcher which of the rest weigh 0 by two *marks*, bits past the match key: an east
//! half-board with `y = p1` carries mark `V`, one with `p1 < y <= p2` mark `B`; a west one
//! with `x <= p2` carries `V`, and with `x = p1 < p2` `B` too (only `y > p2` is above the key
//! then). The ties, `{x, y} = {p1, p2}`, are few: they are kept apart, unmarked, and matched
//! once. Every other pair that the marks let through weighs 2, so the row set's main sieve
//! holds all its east half-boards with `y >= p1`, and a west one meets it once.
//!
//! The half-boards of a row set go to slots ([`Halves`]): east `0` the main ones (every one
//! where the transposes are not used), `1` those below `p1`, `2` the ties' `y = p1`, `3` the
//! ties' `y = p2 > p1`; west `k` (`0..3`) by their queens on the long diagonals (every one of an
//! odd board in `0`), `3 + k` the ties' `x = p2` (matched with east slot 2), `5 + k` the ties'
//! `x = p1 < p2` (with slot 3). [`weights`] says what a pair of slots' solutions weigh.

/// How many lists a row set's half-boards are kept in ([`Halves`]).
pub(super) const SLOTS: usize = 7;

/// How many of them hold east half-boards.
pub(super) const EAST_SLOTS: usize = 4;

/// A row set's half-boards of one side, by slot (see the module's docs).
pub(super) type Halves = [Vec<u64>; SLOTS];

/// What a solution of an east slot's and a west slot's half-boards weighs: `[east][west]`.
pub(super) type Weights = [[u128; SLOTS]; EAST_SLOTS];

/// The first slot of copies on each side (east, west): the slots before it hold the
/// half-boards joined, each once.
const COPIES: [usize; 2] = [2, 3];

/// How many half-boards of a side (`east` or west) were joined: its copies left out.
pub(super) fn joined(b: &Halves, east: bool) -> usize {
    b[..COPIES[usize::from(!east)]].iter().map(Vec::len).sum()
}

/// How many bits past the match key the marks take.
pub(super) const MARKS: u32 = 2;

/// A slot of [`Halves`] and the marks the half-boards carry there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Marked {
    pub slot: usize,
    pub marks: u64,
}

/// Where a side's half-boards of one class go: a slot with their marks (`None`: not built),
/// and the slot of an unmarked copy among the ties, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SlotTarget {
    pub to: Option<Marked>,
    pub copy: Option<usize>,
}

impl SlotTarget {
    /// Not built.
    pub const NONE: SlotTarget = SlotTarget {
        to: None,
        copy: None,
    };

    /// To `slot` with `marks`, not copied.
    fn at(slot: usize, marks: u64) -> SlotTarget {
        SlotTarget {
            to: Some(Marked { slot, marks }),
            copy: None,
        }
    }

    /// This, and an unmarked copy in slot `copy`.
    fn copied_to(self, copy: usize) -> SlotTarget {
        SlotTarget {
            copy: Some(copy),
            ..self
        }
    }
}

/// Where a side's half-boards go by their queens on a long diagonal `k` ([`slots`]).
pub(super) type Targets = [SlotTarget; 3];

/// The key of one half's set of lines (`h` bits): the smaller of it and its complement.
fn half_key(h: u32, x: u32) -> u32 {
    let full = (1u32 << h) - 1;
    x.min(!x & full)
}

/// The `h` bits of `x` in reverse order: a half's lines counted from the board's edge.
fn reversed(h: u32, x: u32) -> u32 {
    x.reverse_bits() >> (32 - h)
}

/// The key of a set of rows (or columns) of an even board of `2h` lines: its two halves'
/// keys, the smaller first, the far half read from the board's edge. The mirror image (the
/// halves swapped and reversed) and the complement have the same key.
pub(super) fn key(h: u32, set: u32) -> [u32; 2] {
    let near = half_key(h, set & ((1u32 << h) - 1));
    let far = half_key(h, reversed(h, set >> h));
    [near.min(far), near.max(far)]
}

/// The key of the north columns of a half-board whose north quarter takes the side's local
/// columns `cols` (the east side's counted from the middle).
fn north_key(h: u32, east: bool, cols: u32) -> u32 {
    half_key(h, if east { reversed(h, cols) } else { cols })
}

/// Where the half-boards whose north quarter takes the local columns `cols` go, by their
/// queens on the long diagonals `k` (an even board's west side; every one in `k = 0`
/// elsewhere): the slot each goes to with the marks it carries (`None`: not built), and the
/// slot of its unmarked copy among the ties, if any. `turn`: the row set's key where the
/// transposes are used (else the east ones go to slot 0, the west ones to slot `k`); `key_bits`:
/// the match key's width (the marks lie past it).
pub(super) fn slots(
    h: u32,
    key_bits: u32,
    east: bool,
    split: bool,
    cols: u32,
    turn: Option<[u32; 2]>,
) -> Targets {
    let [v, b] = [1u64 << key_bits, 1u64 << (key_bits + 1)];
    let Some([p1, p2]) = turn else {
        return [0, 1, 2].map(|k| SlotTarget::at(k, 0));
    };
    let x = north_key(h, east, cols);
    if east {
        let target = match x {
            x if x < p1 => SlotTarget::at(1, 0),
            x if x == p1 => SlotTarget::at(0, v).copied_to(2),
            x if x < p2 => SlotTarget::at(0, b),
            x if x == p2 => SlotTarget::at(0, b).copied_to(3),
            _ => SlotTarget::at(0, 0),
        };
        return [target, SlotTarget::NONE, SlotTarget::NONE];
    }
    let two = SlotTarget::at(2, 0);
    let fewer = |k: usize| match x {
        x if x < p1 => SlotTarget::NONE,
        x if x == p1 && x < p2 => SlotTarget::at(k, v | b).copied_to(5 + k),
        x if x == p2 => SlotTarget::at(k, v).copied_to(3 + k),
        x if x < p2 => SlotTarget::at(k, v),
        _ => SlotTarget::at(k, 0),
    };
    if split {
        [fewer(0), fewer(1), two]
    } else {
        [fewer(0), SlotTarget::NONE, SlotTarget::NONE]
    }
}

/// The weights of a row set's solutions by their west half-board's queens on the long
/// diagonals: 0, 1 and 2 of them. On an even board the east half keeps no queen on either
/// long diagonal (the main one crosses the north-west and south-east quarters, the
/// anti-diagonal the north-east and south-west); each west queen on one stands for 2
/// solutions (the half turn and the transposes map it to the barred squares), and a solution
/// with none weighs the row set's `open`. An odd board's solutions all weigh 1.
pub(super) fn west_weights(even: bool, open: u32) -> [u128; 3] {
    if even {
        [open as u128, 2, 4]
    } else {
        [1, 0, 0]
    }
}

/// What the solutions of each pair of slots weigh, the row set's own weight left out: an odd
/// board's all 1 (in slot 0 of both sides); an even board's by the west half-board's queens
/// on the long diagonals (none: the row set's `open`, one: 2, two: 4), and where the
/// transposes are used (`turned`), those with fewer than two twice that in the main slots
/// (the marks leave out those that weigh 0) and once among the ties.
pub(super) fn weights(even: bool, open: u32, turned: bool) -> Weights {
    let mut w = [[0u128; SLOTS]; EAST_SLOTS];
    let by_k = west_weights(even, open);
    if !even || !turned {
        w[0][..3].copy_from_slice(&by_k);
    } else {
        w[0][..3].copy_from_slice(&[2 * by_k[0], 2 * by_k[1], by_k[2]]);
        w[1][2] = by_k[2];
        w[2][3..5].copy_from_slice(&by_k[..2]);
        w[3][5..7].copy_from_slice(&by_k[..2]);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set's mirror image and complement share its key.
    #[test]
    fn keys_are_kept_by_the_mirrors_and_the_complement() {
        let h = 5;
        let n = 2 * h;
        let full = (1u32 << n) - 1;
        for set in (0..=full).filter(|s| s.count_ones() == h) {
            let mirror = set.reverse_bits() >> (32 - n);
            let k = key(h, set);
            assert_eq!(key(h, mirror), k, "{set:b}");
            assert_eq!(key(h, !set & full), k, "{set:b}");
            assert!(k[0] <= k[1] && k[1] < 1 << h);
        }
    }

    /// For every set of north columns and every row set's key, the two half-boards' slots and
    /// marks weigh a solution as its key says: 2 above, 1 at a tie, 0 below (one queen on a
    /// long diagonal, weight 2 each; none, `open` each).
    #[test]
    fn slots_and_marks_weigh_as_the_key_says() {
        let (h, key_bits) = (4, 14);
        for open in [0, 1, 2] {
            let w = weights(true, open, true);
            for set in 0..1u32 << (2 * h) {
                let (west, east) = (set & 0xf, set >> h);
                for turn in (0..1 << h).flat_map(|a| (a..1 << h).map(move |b| [a, b])) {
                    let ws = slots(h, key_bits, false, true, west, Some(turn));
                    let es = slots(h, key_bits, true, false, east, Some(turn));
                    for k in 0..2 {
                        let mut got = 0;
                        if let (Some(e), Some(q)) = (es[0].to, ws[k].to) {
                            got += if e.marks & q.marks == 0 {
                                w[e.slot][q.slot]
                            } else {
                                0
                            };
                        }
                        if let (Some(e), Some(q)) = (es[0].copy, ws[k].copy) {
                            got += w[e][q];
                        }
                        let weight = [u128::from(open), 2][k];
                        let keyed = key(h, west | east << h);
                        let want = weight * (1 + keyed.cmp(&turn) as i8) as u128;
                        assert_eq!(got, want, "{set:b} k {k} against {turn:?}");
                    }
                    // The two-queen half-boards meet every east one once, with weight 4.
                    let e = es[0].to.unwrap();
                    assert_eq!((ws[2].to.unwrap().marks & e.marks, w[e.slot][2]), (0, 4));
                }
            }
        }
    }
}
