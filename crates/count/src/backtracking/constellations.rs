//! The seeds of the symmetric plan: one task per start constellation (border queens placed
//! first, one representative per symmetry class), as described in [`super::plan`].

use super::task::{tie_squares, Task, TaskKind};
use nqueens_board::check::peaceful;

/// Whether the edge family with row-0 queen at `b` is planned with late bounds (see
/// [`TaskKind::Edge`]). Measured at N=16 and 17 (docs/performance/log.md): for b <= 2 the bounds
/// barely prune, so fixing all four border queens only multiplies the re-searched upper rows;
/// from b = 3 on, fixed border queens prune more than they cost.
fn late_edges(b: u32) -> bool {
    b <= 2
}

/// The quarter turns of an edge solution's occupied corner-distance squares (see the module
/// docs): `occupied` has bit `i` set when Q`i` holds a queen (bit 0 always). Returns how many
/// turns leave the set as it is (1, 2 or 4) if this set is the smallest (as a number) of its
/// turns that still occupy Q0, or `None`: then another task finds its images.
pub fn border_turns(occupied: u8) -> Option<u8> {
    let turned = |j: u32| (occupied >> j | occupied << (4 - j)) & 0xf;
    let images = (0..4).filter(|&j| occupied >> j & 1 == 1).map(turned);
    if images.clone().any(|o| o < occupied) {
        return None;
    }
    Some(images.filter(|&o| o == occupied).count() as u8)
}

/// The start constellations of an `n >= 4` board, corners first (see the module docs).
pub fn constellations(n: u32) -> Vec<Task> {
    let mut out = Vec::new();
    for b in 2..n - 1 {
        out.push(Task::new(TaskKind::Corner, &[(0, 0), (1, b)]));
    }
    let m = n - 1;
    for b in (1..n).take_while(|&b| b < m - b) {
        let [q3, q1, q2] = tie_squares(n, b);
        if late_edges(b) {
            // The top queen, and each tie square either fixed or (in the kernel) barred.
            for pick in 0..8u8 {
                let picked = [(pick & 1, q3), (pick >> 1 & 1, q1), (pick >> 2 & 1, q2)];
                let mut qs = vec![(0, b)];
                qs.extend(picked.iter().filter(|p| p.0 == 1).map(|p| p.1));
                let occupied = 1 | (pick >> 1 & 1) << 1 | (pick >> 2 & 1) << 2 | (pick & 1) << 3;
                if let (true, Some(turns)) = (peaceful(&qs), border_turns(occupied)) {
                    let kind = TaskKind::Edge {
                        bound1: b,
                        turns,
                        late: true,
                    };
                    out.push(Task::new(kind, &qs));
                }
            }
            continue;
        }
        let span = b..=m - b;
        for rl in span.clone() {
            for rr in span.clone() {
                for cb in span.clone() {
                    let qs = [(0, b), (rl, 0), (rr, m), (m, cb)];
                    let on = |q: (u32, u32)| qs.contains(&q) as u8;
                    let occupied = 1 | on(q1) << 1 | on(q2) << 2 | on(q3) << 3;
                    if let (true, Some(turns)) = (peaceful(&qs), border_turns(occupied)) {
                        let kind = TaskKind::Edge {
                            bound1: b,
                            turns,
                            late: false,
                        };
                        out.push(Task::new(kind, &qs));
                    }
                }
            }
        }
    }
    out.push(Task::new(TaskKind::Rotational, &[]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn border_turns_keep_one_image_per_turned_set() {
        // Q0 alone; Q0+Q2 (half-turn symmetric); all four (quarter-turn symmetric).
        assert_eq!(border_turns(0b0001), Some(1));
        assert_eq!(border_turns(0b0101), Some(2));
        assert_eq!(border_turns(0b1111), Some(4));
        // {Q0,Q1} and {Q0,Q3} are turns of each other: only the smaller is planned.
        assert_eq!(border_turns(0b0011), Some(1));
        assert_eq!(border_turns(0b1001), None);
        assert_eq!(border_turns(0b0111), Some(1));
        assert_eq!(border_turns(0b1011), None);
        assert_eq!(border_turns(0b1101), None);
    }
}
