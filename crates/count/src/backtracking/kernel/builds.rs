//! The one macro that gives a kernel its portable and popcnt/bmi builds from one body.

/// Defines a kernel's portable build and (on x86-64) its popcnt/bmi build from one
/// `#[inline(always)]` body `fn(&[Spec], &mut [Found])`, compiled once for each.
macro_rules! portable_and_bmi {
    ($body:path) => {
        /// The portable build.
        pub fn portable(specs: &[Spec], out: &mut [Found]) {
            $body(specs, out)
        }

        /// The build with popcnt, bmi1 and bmi2 (the token proves the CPU has them).
        #[cfg(target_arch = "x86_64")]
        pub fn bmi(_: $crate::arch::Bmi, specs: &[Spec], out: &mut [Found]) {
            /// # Safety
            /// The CPU must have popcnt, bmi1 and bmi2.
            #[target_feature(enable = "popcnt,bmi1,bmi2")]
            unsafe fn body(specs: &[Spec], out: &mut [Found]) {
                $body(specs, out)
            }
            // SAFETY: the token exists, so the CPU has what `body` is compiled for.
            unsafe { body(specs, out) }
        }
    };
}

pub(crate) use portable_and_bmi;
