//! An explicit solution for boards of any size.

/// An explicit solution for any `n >= 4` (and `n = 1`), in O(n) time and memory, by the
/// classical construction (Hoffman, Loessi and Moore, 1969; as popularised by Bernhardsson,
/// 1991): even columns first, then odd ones, with fixed repairs when `n mod 6` is 2 or 3.
/// Returns `None` for n = 0, 2, 3 (no solution).
pub fn construct(n: usize) -> Option<Vec<usize>> {
    match n {
        1 => return Some(vec![0]),
        0 | 2 | 3 => return None,
        _ => {}
    }
    // 1-based columns, as the construction is usually stated.
    let evens = (2..=n).step_by(2);
    let odds = (1..=n).step_by(2);
    let cols: Vec<usize> = match n % 6 {
        2 => {
            // Evens; then the odds with 1 and 3 swapped and 5 moved to the end.
            let mut v: Vec<usize> = evens.collect();
            v.extend([3, 1]);
            v.extend(odds.filter(|&c| c > 5));
            v.push(5);
            v
        }
        3 => {
            // Evens with 2 moved to the end; then the odds with 1 and 3 moved to the end.
            let mut v: Vec<usize> = evens.filter(|&c| c != 2).collect();
            v.push(2);
            v.extend(odds.filter(|&c| c > 3));
            v.extend([1, 3]);
            v
        }
        _ => evens.chain(odds).collect(),
    };
    Some(cols.into_iter().map(|c| c - 1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_board::check::is_solution;

    #[test]
    fn construction_is_valid_from_4_to_2000() {
        for n in 4..=2000 {
            let s = construct(n).unwrap();
            assert_eq!(s.len(), n);
            assert!(is_solution(&s), "n={n}");
        }
        assert!(is_solution(&construct(1).unwrap()));
        assert_eq!(construct(0), None);
        assert_eq!(construct(2), None);
        assert_eq!(construct(3), None);
    }
}
