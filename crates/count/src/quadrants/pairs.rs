//! Matching a row set's two sides: the (east, west) pairs of half-boards with no square in
//! common (their keys disjoint) are its solutions. One side is stored in a [`Sieve`] and the
//! other's half-boards are its queries; which side is stored, the sieve's cost model decides.
//! Each side's half-boards come in slots ([`Halves`]), and a pair of slots' solutions weigh
//! what [`Weights`] says (an even board's by their queens on the long diagonals and, where
//! the transposes are used, by their north columns: [`super::transposes`]).

#[cfg(feature = "probe")]
use super::matcher::probe;
use super::matcher::sieve::{cost, count_disjoint, Shaped, Sieve};
use super::transposes::{Halves, Weights, EAST_SLOTS, SLOTS};
use crate::arch::SimdBuild;

/// The west slots in the order their half-boards are preferred as a sieve's sample: an even
/// board's with one queen on a long diagonal first (the most common), and among the ties'.
const SAMPLE_ORDER: [usize; SLOTS] = [1, 0, 2, 4, 3, 6, 5];

/// The queries that shape the sieve of east slot `e`: the first west slot in
/// [`SAMPLE_ORDER`] that weighs with it and holds half-boards (empty if none does).
fn sample<'a>(west: &'a Halves, weights: &Weights, e: usize) -> &'a [u64] {
    SAMPLE_ORDER
        .iter()
        .find(|&&w| weights[e][w] != 0 && !west[w].is_empty())
        .map_or(&[], |&w| &west[w])
}

/// How many of `west`'s half-boards weigh with east slot `e`.
fn queries_of(west: &Halves, weights: &Weights, e: usize) -> usize {
    (0..SLOTS)
        .filter(|&w| weights[e][w] != 0)
        .map(|w| west[w].len())
        .sum()
}

/// A row set's east half-boards stored for matching: one sieve per east slot that holds
/// half-boards and weighs with some west slot.
#[derive(Debug)]
pub(super) struct Sieves([Option<Sieve>; EAST_SLOTS]);

/// A row set's two sides: its east and its west half-boards, by slot.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sides<'a> {
    pub east: &'a Halves,
    pub west: &'a Halves,
}

/// [`Sieves`] shaped, their tables not yet built ([`Shaped::table_bytes`]).
pub(super) struct Shapes([Option<Shaped>; EAST_SLOTS]);

impl Shapes {
    /// The east half-boards `east` shaped for matching, each slot on its sample of `west`
    /// ([`sample`]) for `of` times the queries of `west` that weigh with it.
    pub fn new(build: SimdBuild, bits: u32, sides: Sides, weights: &Weights, of: usize) -> Shapes {
        let Sides { east, west } = sides;
        Shapes(std::array::from_fn(|e| {
            let weighs = weights[e].iter().any(|&w| w != 0);
            (weighs && !east[e].is_empty()).then(|| {
                let expected = queries_of(west, weights, e) * of;
                Sieve::shape(build, &east[e], sample(west, weights, e), expected, bits)
            })
        }))
    }

    /// The bytes their tables will hold.
    pub fn table_bytes(&self) -> usize {
        self.0.iter().flatten().map(Shaped::table_bytes).sum()
    }

    /// Their tables built.
    pub fn build(self) -> Sieves {
        Sieves(self.0.map(|s| s.map(Shaped::build)))
    }
}

impl Sieves {
    /// The west half-boards `west` matched against these, weighed by `weights`.
    pub fn weighed(&self, west: &Halves, weights: &Weights) -> u128 {
        let mut found = 0;
        for (e, sieve) in self.0.iter().enumerate() {
            let Some(sieve) = sieve else { continue };
            for (w, queries) in west.iter().enumerate() {
                if weights[e][w] != 0 && !queries.is_empty() {
                    found += weights[e][w] * u128::from(sieve.count(queries));
                }
            }
        }
        found
    }
}

/// An odd board's (east, west) pairs that make solutions, keys of `bits` bits, matched in
/// `build`.
pub(super) fn match_odd(build: SimdBuild, bits: u32, east: &[u64], west: &[u64]) -> u128 {
    // Store the side the sieve's cost model prefers (the larger, once both are large).
    let (stored, queries) = if cost(west.len(), east.len()) < cost(east.len(), west.len()) {
        (west, east)
    } else {
        (east, west)
    };
    count_disjoint(build, stored, queries, bits) as u128
}

/// An even board's solutions from its east and west half-boards by slot, weighed by
/// `weights`: for each east slot, its half-boards stored and the west slots that weigh with
/// it matched against them, or, when the sieve's cost model says so (large west slots), each
/// such west slot stored and the east slot's half-boards matched against it.
pub(super) fn match_even(build: SimdBuild, bits: u32, sides: Sides, weights: &Weights) -> u128 {
    let Sides { east, west } = sides;
    (0..EAST_SLOTS)
        .map(|e| {
            let slots = (0..SLOTS).filter(|&w| weights[e][w] != 0 && !west[w].is_empty());
            let west_stored: f64 = slots.map(|w| cost(west[w].len(), east[e].len())).sum();
            let store_west = west_stored < cost(east[e].len(), queries_of(west, weights, e));
            match_slot(build, bits, sides, weights, e, store_west)
        })
        .sum()
}

/// [`match_even`]'s east slot `e`, with the west slots stored (`store_west`) or the east one.
fn match_slot(
    build: SimdBuild,
    bits: u32,
    sides: Sides,
    weights: &Weights,
    e: usize,
    store_west: bool,
) -> u128 {
    let Sides { east, west } = sides;
    if east[e].is_empty() {
        return 0;
    }
    let slots = (0..SLOTS).filter(|&w| weights[e][w] != 0 && !west[w].is_empty());
    if store_west {
        return slots
            .map(|w| weights[e][w] * count_disjoint(build, &west[w], &east[e], bits) as u128)
            .sum();
    }
    let expected = queries_of(west, weights, e);
    let shaped = Sieve::shape(build, &east[e], sample(west, weights, e), expected, bits);
    #[cfg(feature = "probe")]
    if probe::probing() {
        let slots = slots.map(|w| (weights[e][w], &west[w]));
        return probe::count_offering(shaped, east[e].len(), slots);
    }
    let sieve = shaped.build();
    slots
        .map(|w| weights[e][w] * u128::from(sieve.count(&west[w])))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::transposes::weights;
    use super::*;
    use crate::quadrants::geometry::Geometry;

    /// Every way of matching an even board's sides (each east slot stored, or the west slots
    /// that weigh with it; the east slots' sieves shaped together, as the parts of a row set
    /// keep them) gives the weighted count of disjoint pairs, on sides large enough to be
    /// split by the sieve, in every build, with and without the transposes.
    #[test]
    fn either_side_stored_counts_the_same() {
        let bits = Geometry::new(16).key_bits();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & (x >> 1) & ((1 << bits) - 1)
        };
        let mut draw =
            |sizes: [usize; SLOTS]| -> Halves { sizes.map(|n| (0..n).map(|_| next()).collect()) };
        let east = draw([9000, 500, 2000, 300, 0, 0, 0]);
        let west = draw([3000, 12_000, 700, 400, 800, 200, 100]);
        let plain: Weights = std::array::from_fn(|e| {
            std::array::from_fn(|w| {
                west[w]
                    .iter()
                    .map(|q| east[e].iter().filter(|&&p| p & q == 0).count() as u128)
                    .sum()
            })
        });
        for build in SimdBuild::all() {
            for (open, turned) in [0, 1, 2].into_iter().flat_map(|o| [(o, false), (o, true)]) {
                let w = weights(true, open, turned);
                let slot = |e: usize| (0..SLOTS).map(|k| w[e][k] * plain[e][k]).sum::<u128>();
                let sides = Sides {
                    east: &east,
                    west: &west,
                };
                for e in 0..EAST_SLOTS {
                    for store_west in [false, true] {
                        let got = match_slot(build, bits, sides, &w, e, store_west);
                        let name = build.name();
                        assert_eq!(got, slot(e), "{name}: {open} {turned} {e} {store_west}");
                    }
                }
                let want: u128 = (0..EAST_SLOTS).map(slot).sum();
                assert_eq!(match_even(build, bits, sides, &w), want);
                let sieves = Shapes::new(build, bits, sides, &w, 2).build();
                assert_eq!(sieves.weighed(&west, &w), want);
            }
        }
    }
}
