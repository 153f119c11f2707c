//! What a published benchmark needs to say of itself beside its figures: when it ran, which
//! build of nqueens ran it (its version and commit), and which vector build the counting code
//! ran in.

use nqueens::{Algorithm, Kernel};
use nqueens_count::quadrants::builds;
use serde::Serialize;

/// The build of nqueens that ran a benchmark.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct BuildInfo {
    /// The crate's version.
    pub version: String,
    /// The commit it was built from, abbreviated (`abc1234`), or `unknown` where it was built
    /// outside a git checkout.
    pub commit: String,
    /// Whether the tree it was built from differed from the commit: `clean`, `modified` (its
    /// figures are not the commit's: publish figures from a clean build) or `unknown`.
    #[serde(default = "unknown")]
    pub tree: String,
    /// The compiler's version.
    #[serde(default = "unknown")]
    pub rustc: String,
}

fn unknown() -> String {
    "unknown".into()
}

impl BuildInfo {
    /// This binary's build.
    pub fn this() -> BuildInfo {
        BuildInfo {
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("NQUEENS_COMMIT").to_string(),
            tree: env!("NQUEENS_MODIFIED").to_string(),
            rustc: env!("NQUEENS_RUSTC").to_string(),
        }
    }
}

/// The vector build the workload's counting code runs in on this CPU: the backtracking
/// kernel's (`portable`, `bmi`, `avx2`, `avx512f`) or the quadrant method's (`portable`,
/// `avx2`, `avx512`).
pub fn vector_build(algorithm: Algorithm, kernel: Kernel) -> &'static str {
    if algorithm == Algorithm::Quadrants {
        builds().last().map_or("portable", |b| b.name())
    } else {
        kernel.build().name()
    }
}

/// The CPU's model name (`unknown` where the system does not say).
pub fn cpu_model() -> String {
    nqueens_count::arch::cpu::model().unwrap_or_else(|| "unknown".into())
}

/// Now, as a UTC date and time in the form RFC 3339 gives (`2026-11-28T16:20:05Z`).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// `secs` since the Unix epoch as a UTC date and time (RFC 3339).
fn utc(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days to a civil date (Howard Hinnant's algorithm), from 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_in_rfc_3339() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_795_882_805), "2026-11-28T16:20:05Z");
        assert_eq!(utc(4_102_444_799), "2099-12-31T23:59:59Z");
    }
}
