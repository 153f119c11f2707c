//! Which method counts per board: the one place where the choice is made.
//!
//! `auto` (or no algorithm named) picks by the board alone: the quadrant method for even
//! N >= 16 and odd N >= 17 up to its largest board ([`quadrants::MAX_N`]), where it was
//! measured faster (docs/performance/log.md), and `symmetric` backtracking elsewhere; `plain` with
//! placed queens (the only algorithm that takes them). A split depth asks for backtracking.
//! A count made here and now ([`choose`] with `pinned` false) may then give way to
//! backtracking when the quadrant method does not fit in memory; a long run's plan must be
//! the same on every machine, so its choice never looks at this machine's memory.

use super::algorithm::Algorithm;
use super::backend::Backend;
use super::options::Options;
use super::quadrants;
use nqueens_board::error::{Error, Result};

/// The method chosen for a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Method {
    /// The algorithm that counts.
    pub algorithm: Algorithm,
    /// `auto` chose the quadrant method for a count made here: where it does not fit in the
    /// memory allowed, [`FALLBACK`] counts instead (backtracking needs almost none).
    pub may_backtrack: bool,
}

/// What counts when `auto`'s quadrant method does not fit in memory.
pub const FALLBACK: Algorithm = Algorithm::Symmetric;

impl Algorithm {
    /// The algorithm `auto` picks for an `n` board, with queens placed or not (see the
    /// module).
    pub fn auto(n: u32, placed: bool) -> Algorithm {
        let quadrants = if n.is_multiple_of(2) {
            n >= 16
        } else {
            n >= 17
        };
        match () {
            _ if placed => Algorithm::Plain,
            _ if quadrants && n <= quadrants::MAX_N => Algorithm::Quadrants,
            _ => Algorithm::Symmetric,
        }
    }
}

impl Options {
    /// The algorithm used on an `n` board: the one asked for, or the one `auto` picks (also
    /// when none is asked for).
    pub fn resolved_algorithm(&self, n: u32) -> Algorithm {
        match self.algorithm {
            Some(Algorithm::Auto) | None => Algorithm::auto(n, !self.placed.is_empty()),
            Some(a) => a,
        }
    }
}

/// The method that counts an `n` board as `opts` ask. `pinned`: the plan must be the same on
/// every machine (a run that checkpoints or shards), so `auto`'s choice may not give way to
/// backtracking for lack of memory here. Refuses a split depth with the quadrant method named,
/// and placed queens with any algorithm but `plain`.
pub fn choose(n: u32, opts: &Options, pinned: bool) -> Result<Method> {
    let chose = opts.algorithm.is_none_or(|a| a == Algorithm::Auto);
    let mut algorithm = opts.resolved_algorithm(n);
    if opts.backend == Backend::Gpu && algorithm == Algorithm::Quadrants {
        if !chose {
            return Err(Error::Usage(
                "the GPU counts the backtracking plans' tasks (algorithm symmetric, mirror or \
                 plain), not the quadrant method's: leave the algorithm out, or count without \
                 the GPU"
                    .into(),
            ));
        }
        // Auto on the GPU: its kernel is a backtracker.
        algorithm = FALLBACK;
    }
    if algorithm == Algorithm::Quadrants && opts.split_depth.is_some() {
        if !chose {
            return Err(Error::Usage(
                "the split depth applies to the backtracking algorithms: the quadrant \
                 method splits by rows instead; leave the split depth out"
                    .into(),
            ));
        }
        // Auto with a split depth: only backtracking has one.
        algorithm = FALLBACK;
    }
    if !opts.placed.is_empty() && algorithm != Algorithm::Plain {
        return Err(Error::Usage(format!(
            "algorithm {algorithm} cannot count with placed queens: the placements break \
             the board's symmetry; leave the algorithm out (or use plain)"
        )));
    }
    Ok(Method {
        algorithm,
        may_backtrack: chose && !pinned && algorithm == Algorithm::Quadrants,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `auto`'s rule, a split depth asking for backtracking, placed queens for `plain`, and
    /// a pinned choice that never falls back.
    #[test]
    fn auto_picks_by_the_board_and_only_a_count_made_here_may_fall_back() {
        assert_eq!(Algorithm::auto(15, false), Algorithm::Symmetric);
        assert_eq!(Algorithm::auto(16, false), Algorithm::Quadrants);
        assert_eq!(Algorithm::auto(17, false), Algorithm::Quadrants);
        assert_eq!(Algorithm::auto(29, false), Algorithm::Symmetric);
        assert_eq!(Algorithm::auto(20, true), Algorithm::Plain);
        let auto = Options::default();
        let here = choose(20, &auto, false).unwrap();
        assert_eq!(
            (here.algorithm, here.may_backtrack),
            (Algorithm::Quadrants, true)
        );
        assert!(!choose(20, &auto, true).unwrap().may_backtrack);
        let named = Options::default().with_algorithm(Algorithm::Quadrants);
        assert!(!choose(20, &named, false).unwrap().may_backtrack);
        let deep = Options::default().with_split_depth(2);
        assert_eq!(choose(20, &deep, false).unwrap().algorithm, FALLBACK);
        assert!(choose(20, &named.with_split_depth(2), false).is_err());
        let placed = Options::default()
            .with_algorithm(Algorithm::Mirror)
            .with_placed(&[(0, 0)]);
        assert!(choose(8, &placed, false).is_err());
    }
}
