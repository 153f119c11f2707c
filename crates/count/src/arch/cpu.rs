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
    first_cpu_field(
        &std::fs::read_to_string("/proc/cpuinfo").ok()?,
        "model name",
    )
}

/// Field `name` of the first CPU that `/proc/cpuinfo`'s text `info` describes (its first
/// block of `key : value` lines), where it is given and not empty.
fn first_cpu_field(info: &str, name: &str) -> Option<String> {
    info.lines()
        .take_while(|l| !l.trim().is_empty())
        .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// What identifies this CPU beside its model name, as Linux gives it (`/proc/cpuinfo`, and the
/// caches and clock under `/sys/devices/system/cpu/cpu0`): what a published benchmark names so
/// that a reader can tell two machines of one model name apart. A field the system does not
/// give is `None` (or empty).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct CpuIdentity {
    /// `GenuineIntel`, `AuthenticAMD`, ...
    pub vendor: Option<String>,
    /// The CPU family number (6 for Intel's cores, 25 for AMD's Zen 3 and 4, 26 for Zen 5).
    pub family: Option<u32>,
    /// The model number within the family.
    pub model: Option<u32>,
    /// The stepping: the revision of that model.
    pub stepping: Option<u32>,
    /// The microcode revision (`0x2b000603`).
    pub microcode: Option<String>,
    /// The highest clock the system allows, in MHz (the frequency driver's), or else the
    /// clock it reports now.
    pub mhz: Option<f64>,
    /// Whether the system says it runs under a hypervisor (a virtual machine).
    pub virtual_machine: bool,
    /// Each cache of the first CPU: its level, `d` for data or `i` for instructions, and its
    /// size (`L1d 48K`, `L2 2048K`).
    pub caches: Vec<String>,
}

/// A file of the first CPU's under `/sys/devices/system/cpu/cpu0`, trimmed.
fn sys(path: &str) -> Option<String> {
    std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu0/{path}"))
        .ok()
        .map(|s| s.trim().to_string())
}

/// One cache of the first CPU, in sysfs's words: its level ("2"), type ("Data",
/// "Instruction", "Unified") and size ("2048K").
struct SysCache {
    level: String,
    kind: String,
    size: String,
}

/// The first CPU's caches as sysfs lists them (`cache/index0` on), to the first it lacks.
fn sys_caches() -> impl Iterator<Item = SysCache> {
    (0..8).map_while(|i| {
        let at = |f: &str| sys(&format!("cache/index{i}/{f}"));
        Some(SysCache {
            level: at("level")?,
            kind: at("type")?,
            size: at("size")?,
        })
    })
}

/// The bytes of the level-2 cache of the first CPU (its data or unified one), as Linux gives
/// it; `None` where the system does not say.
pub fn l2_bytes() -> Option<usize> {
    sys_caches()
        .find(|c| c.level == "2" && c.kind != "Instruction")
        .and_then(|c| crate::memory::parse(&c.size).ok())
        .and_then(|b| usize::try_from(b).ok())
}

/// This CPU's identity (see [`CpuIdentity`]).
pub fn identity() -> CpuIdentity {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| first_cpu_field(&info, name);
    let number = |name: &str| field(name).and_then(|v| v.parse::<u32>().ok());
    let max_khz: Option<f64> = sys("cpufreq/cpuinfo_max_freq").and_then(|k| k.parse().ok());
    let caches = sys_caches()
        .map(|c| {
            let kind = match c.kind.as_str() {
                "Data" => "d",
                "Instruction" => "i",
                _ => "",
            };
            format!("L{}{kind} {}", c.level, c.size)
        })
        .collect();
    CpuIdentity {
        vendor: field("vendor_id"),
        family: number("cpu family"),
        model: number("model"),
        stepping: number("stepping"),
        microcode: field("microcode"),
        mhz: max_khz
            .map(|k| k / 1000.0)
            .or_else(|| field("cpu MHz").and_then(|v| v.parse().ok())),
        virtual_machine: field("flags").is_some_and(|f| f.split(' ').any(|x| x == "hypervisor")),
        caches,
    }
}

#[cfg(test)]
mod tests {
    /// Where Linux gives the caches (as on every machine this ran on), the level-2 cache is
    /// read in bytes, not in the kibibytes sysfs writes it in.
    #[test]
    fn the_level_2_cache_is_read_in_bytes() {
        if let Some(bytes) = super::l2_bytes() {
            assert!(bytes >= 64 << 10, "{bytes}");
        }
    }
}
