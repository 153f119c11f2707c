//! The CPU's features, asked once: the one place where they are asked for.

use std::sync::OnceLock;

/// The features the builds are compiled for, as this CPU has them (each set includes the ones
/// before it: a CPU without popcnt, bmi1 and bmi2 is taken to have none of the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// popcnt, bmi1 and bmi2.
    pub bmi: bool,
    /// And AVX2.
    pub avx2: bool,
    /// And AVX-512F.
    pub avx512f: bool,
    /// And AVX-512VL and VPOPCNTDQ (the 256-bit forms and the 64-bit lane popcount).
    pub avx512: bool,
}

/// This CPU's features, detected once.
pub fn features() -> Features {
    static FEATURES: OnceLock<Features> = OnceLock::new();
    *FEATURES.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Features {
    use std::arch::is_x86_feature_detected as has;
    let bmi = has!("popcnt") && has!("bmi1") && has!("bmi2");
    let avx2 = bmi && has!("avx2");
    let avx512f = avx2 && has!("avx512f");
    let avx512 = avx512f && has!("avx512vl") && has!("avx512vpopcntdq");
    Features {
        bmi,
        avx2,
        avx512f,
        avx512,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Features {
    Features::default()
}

/// The CPU's model name as the operating system gives it (`/proc/cpuinfo` on Linux), or
/// `None` where it does not say.
pub fn model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .filter(|m| !m.is_empty())
}
