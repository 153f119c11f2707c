//! The plain recursive bitboard counter: the yardstick.

use super::found::Found;
use nqueens_board::spec::Spec;

/// The portable build: plain recursion over each spec's free rows.
pub fn portable(specs: &[Spec], out: &mut [Found]) {
    for (s, o) in specs.iter().zip(out) {
        *o = start(s, |s, c| rec(s, 0, 0, 0, 0, c));
    }
}

/// The build with popcnt, bmi1 and bmi2 (the token proves the CPU has them).
#[cfg(target_arch = "x86_64")]
pub fn bmi(_: crate::arch::Bmi, specs: &[Spec], out: &mut [Found]) {
    for (s, o) in specs.iter().zip(out) {
        // SAFETY: the token exists, so the CPU has what `rec_bmi` is compiled for.
        *o = start(s, |s, c| unsafe { rec_bmi(s, 0, 0, 0, 0, c) });
    }
}

#[inline(always)]
fn start(spec: &Spec, go: impl FnOnce(&Spec, &mut Found)) -> Found {
    let mut c = Found::default();
    if spec.k == 0 {
        c.solutions = 1;
    } else {
        go(spec, &mut c);
    }
    c
}

/// The recursion, written once and compiled twice (portable, and with popcnt/bmi on x86-64):
/// a recursive function cannot be inlined into a tuned caller, so each build recurses into
/// itself.
macro_rules! recursion {
    ($name:ident $(, #[$attr:meta])?) => {
        $(#[$attr])?
        fn $name(s: &Spec, i: usize, cols: u64, d1: u64, d2: u64, c: &mut Found) {
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
recursion!(rec_bmi, #[target_feature(enable = "popcnt,bmi1,bmi2")]);
