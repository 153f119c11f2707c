//! The plain recursive bitboard counter: the yardstick.

use super::{Counts, Spec};

/// Counts the completions of `spec` by plain recursion over its free rows.
pub fn count(spec: &Spec) -> Counts {
    #[cfg(target_arch = "x86_64")]
    if super::tuned_cpu() {
        let mut c = Counts::default();
        // SAFETY: the CPU has the features `rec_tuned` was compiled for.
        unsafe { start(spec, &mut c, |s, c| rec_tuned(s, 0, 0, 0, 0, c)) };
        return c;
    }
    let mut c = Counts::default();
    start(spec, &mut c, |s, c| rec(s, 0, 0, 0, 0, c));
    c
}

#[inline(always)]
fn start(spec: &Spec, c: &mut Counts, go: impl FnOnce(&Spec, &mut Counts)) {
    if spec.k == 0 {
        c.solutions = 1;
    } else {
        go(spec, c);
    }
}

/// The recursion, written once and compiled twice (portable, and with popcnt/bmi on x86-64):
/// a recursive function cannot be inlined into a tuned caller, so each build recurses into
/// itself.
macro_rules! recursion {
    ($name:ident $(, #[$attr:meta])?) => {
        $(#[$attr])?
        fn $name(s: &Spec, i: usize, cols: u64, d1: u64, d2: u64, c: &mut Counts) {
            let mut free = s.full & !(cols | d1 | d2 | s.forbid[i]);
            c.nodes += free.count_ones() as u64;
            if i + 1 == s.k {
                c.solutions += free.count_ones() as u64;
                return;
            }
            let g = s.gap[i];
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                $name(s, i + 1, cols | bit, (d1 | bit) << g, (d2 | bit) >> g, c);
            }
        }
    };
}

recursion!(rec);
#[cfg(target_arch = "x86_64")]
recursion!(rec_tuned, #[target_feature(enable = "popcnt,bmi1,bmi2")]);
