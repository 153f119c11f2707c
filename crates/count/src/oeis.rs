//! The known values of OEIS A000170 (all solutions) and A002562 (solutions up to rotation and
//! reflection), and the cross-check of computed counts against them.
//!
//! The values are the b-files in the repository's `data/oeis/`, compiled into the binary.

use std::sync::OnceLock;

/// The OEIS sequences this crate reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sequence {
    /// A000170: the number of ways to place n non-attacking queens on an n×n board.
    A000170,
    /// A002562: the same, with boards equal under rotation and reflection counted once.
    A002562,
}

const B000170: &str = include_str!("../../../data/oeis/b000170.txt");
const B002562: &str = include_str!("../../../data/oeis/b002562.txt");

/// Parses a b-file (`n a(n)` per line, `#` comments) into `(n, a(n))` pairs.
///
/// Panics only on a malformed built-in file, which the unit tests rule out.
fn parse_bfile(text: &str) -> Vec<(u32, u128)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace();
            let n = it.next().and_then(|s| s.parse().ok());
            let a = it.next().and_then(|s| s.parse().ok());
            match (n, a) {
                (Some(n), Some(a)) => (n, a),
                _ => panic!("malformed built-in b-file line: {l:?}"),
            }
        })
        .collect()
}

impl Sequence {
    /// The OEIS identifier, e.g. `"A000170"`.
    pub fn id(self) -> &'static str {
        match self {
            Sequence::A000170 => "A000170",
            Sequence::A002562 => "A002562",
        }
    }

    /// Every known `(n, a(n))` of the sequence, in increasing n.
    pub fn known_values(self) -> &'static [(u32, u128)] {
        static A: OnceLock<Vec<(u32, u128)>> = OnceLock::new();
        static B: OnceLock<Vec<(u32, u128)>> = OnceLock::new();
        match self {
            Sequence::A000170 => A.get_or_init(|| parse_bfile(B000170)),
            Sequence::A002562 => B.get_or_init(|| parse_bfile(B002562)),
        }
    }

    /// The known value a(n), if the table has it.
    pub fn known(self, n: u32) -> Option<u128> {
        self.known_values()
            .iter()
            .find(|&&(k, _)| k == n)
            .map(|&(_, a)| a)
    }
}

/// A000170's a(n) where it is known, else projected from the last known value along the
/// asymptotic form `(0.143 n)^n` (Simkin, 2021): a rough scale for planning (a(28) comes out
/// at about 2·10^18), never a result.
pub fn a000170_estimate(n: u32) -> f64 {
    if let Some(a) = Sequence::A000170.known(n) {
        return a as f64;
    }
    let Some(&(last, a_last)) = Sequence::A000170.known_values().last() else {
        return 1.0;
    };
    let growth = |m: f64| m * (0.1431 * m).ln();
    (a_last as f64) * (growth(n as f64) - growth(last as f64)).exp()
}

/// The cross-check: `Err(Error::Mismatch)` (exit code 3) if the table knows a(n) and
/// `computed` differs, else `Ok`.
pub fn compare(seq: Sequence, n: u32, computed: u128) -> nqueens_board::error::Result<()> {
    match seq.known(n) {
        Some(known) if known != computed => Err(nqueens_board::error::Error::Mismatch {
            sequence: seq.id(),
            n,
            computed,
            known,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_complete_and_ordered() {
        let a = Sequence::A000170.known_values();
        assert_eq!(a.len(), 28);
        assert!(a.iter().enumerate().all(|(i, &(n, _))| n == i as u32));
        let b = Sequence::A002562.known_values();
        assert_eq!(b.len(), 27);
        assert!(b.iter().enumerate().all(|(i, &(n, _))| n == i as u32 + 1));
    }

    #[test]
    fn compare_is_an_error_only_for_a_known_value_that_differs() {
        assert!(compare(Sequence::A000170, 8, 92).is_ok());
        assert!(compare(Sequence::A000170, 40, 1).is_ok()); // not known: nothing to check
        let e = compare(Sequence::A002562, 8, 13).unwrap_err();
        assert!(matches!(
            e,
            nqueens_board::error::Error::Mismatch {
                computed: 13,
                known: 12,
                ..
            }
        ));
    }

    #[test]
    fn spot_values() {
        assert_eq!(Sequence::A000170.known(8), Some(92));
        assert_eq!(Sequence::A000170.known(27), Some(234_907_967_154_122_528));
        assert_eq!(Sequence::A002562.known(8), Some(12));
        assert_eq!(Sequence::A002562.known(16), Some(1_846_955));
        assert_eq!(Sequence::A000170.known(28), None);
    }
}
