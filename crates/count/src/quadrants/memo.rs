//! The quarters a worker keeps filtered for one middle configuration ([`Memo`]), so that the
//! row sets of that configuration join them without filtering them again.

use super::join::{fit_into, Diagonal, DiagonalClass, Projection};
use crate::arch::Candidates;

/// The quarters filtered for one middle configuration, kept while a worker counts its row
/// sets: a quarter list is read by many row sets of one configuration (34 times on average at
/// N = 17), and filtering it again each time cost more than joining. Odd boards use it, and
/// even boards whose whole filtered table fits under its cap (one configuration: the lists,
/// split by their queens on a long diagonal on the west side).
#[derive(Debug, Default)]
pub struct Memo {
    /// The configuration the entries are for.
    owner: Option<Owner>,
    /// Per slot (quadrant and quarter list): where its kept quarters start in the arena
    /// (`u32::MAX`: not filtered yet) and how many there are of each class (those without a
    /// queen on the split diagonal, then those with one; all in the first without a split).
    slots: Vec<[u32; 3]>,
    meets: Vec<u64>,
    keys: Vec<u64>,
    len: usize,
    /// The most quarters the arena holds: past it, it is emptied and filled again.
    cap: usize,
}

/// Whose entries a memo holds: a plan's unique id and a middle configuration of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub plan: u64,
    pub middle: u32,
}

/// Where a filtered list of quarters lies in the memo's arena: from `at`, `len` of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub at: usize,
    pub len: usize,
}

impl Memo {
    /// Bytes a memo of `slots` slots and `cap` quarters holds at most.
    pub fn bytes_for(slots: usize, cap: usize) -> usize {
        slots * 12 + (cap + 8) * 16
    }

    /// Keeps the entries if they are `owner`'s, else empties the memo for `owner`.
    pub fn begin(&mut self, owner: Owner, slots: usize, cap: usize) {
        if self.owner != Some(owner) || self.slots.len() != slots {
            self.owner = Some(owner);
            self.cap = cap;
            self.empty(slots);
        }
    }

    fn empty(&mut self, slots: usize) {
        self.slots.clear();
        self.slots.resize(slots, [u32::MAX, 0, 0]);
        self.len = 0;
    }

    /// Makes room for `n` more quarters filtered in `passes` passes (a split list is filtered
    /// once per class, each pass writing from where the last ended and needing room for the
    /// whole list): empties the memo first if the quarters kept would pass its cap. The
    /// ranges [`Memo::fit`] returned before are then stale: call it before taking any.
    pub fn room(&mut self, n: usize, passes: usize) {
        if self.len + n > self.cap {
            self.empty(self.slots.len());
        }
        let need = self.len + passes * n + 4;
        if self.meets.len() < need {
            let grow = need.max(self.meets.len() * 2).min(self.cap + 8).max(need);
            self.meets.resize(grow, 0);
            self.keys.resize(grow, 0);
        }
    }

    /// The ranges of the quarters of `slot` that fit, by class (see [`super::join::keep_fitting`]'s
    /// `split`), filtering `quarters` through `l` on first use (room for them made by
    /// [`Memo::room`]).
    #[inline(always)]
    pub fn fit(
        &mut self,
        slot: usize,
        quarters: &[[u32; 2]],
        l: Projection,
        split: Option<Diagonal>,
    ) -> [Stored; 2] {
        let [start, k0, k1] = self.slots[slot];
        let (at, k0, k1) = if start != u32::MAX {
            (start as usize, k0 as usize, k1 as usize)
        } else {
            // Without a split one pass keeps every fitting quarter; with one, a pass per class
            // (without a queen on the split diagonal, then with), each written after the last.
            let passes: &[Option<bool>] = if split.is_some() {
                &[Some(false), Some(true)]
            } else {
                &[None]
            };
            let at = self.len;
            let mut kept = [0usize; 2];
            for (k, &on) in kept.iter_mut().zip(passes) {
                let class = on
                    .zip(split)
                    .map(|(on, diagonal)| DiagonalClass { diagonal, on });
                let from = self.len;
                *k = fit_into(
                    quarters,
                    l,
                    class,
                    &mut self.meets[from..],
                    &mut self.keys[from..],
                );
                self.len += *k;
            }
            self.slots[slot] = [at as u32, kept[0] as u32, kept[1] as u32];
            (at, kept[0], kept[1])
        };
        [
            Stored { at, len: k0 },
            Stored {
                at: at + k0,
                len: k1,
            },
        ]
    }

    /// The quarters of a range [`Memo::fit`] returned, as candidates for a join (padded to a
    /// multiple of four as [`super::join::QuarterList::candidates`]).
    #[inline(always)]
    pub fn get(&self, Stored { at, len }: Stored) -> Candidates<'_> {
        // The arena had room for the whole list and 4 more when the range was filtered.
        let end = at + len.next_multiple_of(4);
        Candidates {
            meets: &self.meets[at..end],
            keys: &self.keys[at..end],
            len,
        }
    }
}
