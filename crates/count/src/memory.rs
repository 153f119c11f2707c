//! Memory: what this machine has available, the limit a count may use, and the peak a run
//! actually used (Linux; elsewhere unknown).

/// Memory available for new work, from `/proc/meminfo` (`MemAvailable`), if readable.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// The limit when none is given: half of the available memory, or 4 GiB when unknown.
pub fn default_limit() -> u64 {
    available().map_or(4 << 30, |a| a / 2)
}

/// The peak resident memory of this process so far (`VmHWM` in `/proc/self/status`), if
/// readable.
pub fn peak() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&text, "VmHWM:")
}

fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// A byte count as a reader likes it: `512 B`, `3.4 MiB`, `1.20 GiB`.
pub fn show(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    match u {
        0 => format!("{bytes} B"),
        _ => format!("{v:.1} {}", UNITS[u]),
    }
}

/// Parses a size: bytes, or a number with `K`, `M`, `G` or `T` (powers of 1024; `KiB`,
/// `MB` and the like are read the same).
pub fn parse(s: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "'{s}' is not a size: give bytes or a number with K, M, G or T (and iB or B if you \
             like), digits only, e.g. 8G, 512M or 1.5GiB"
        )
    };
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let parts: Vec<&str> = num.split('.').collect();
    let digits = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if parts.len() > 2 || !parts.iter().all(digits) {
        return Err(bad());
    }
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(bad()),
    };
    let too_large = || format!("'{s}' is too large: give at most 16777215T");
    let bytes = match num.parse::<u128>() {
        // Whole numbers exactly, however many digits.
        Ok(whole) => whole.checked_shl(shift).filter(|&b| b >> shift == whole),
        Err(_) => {
            let v: f64 = num.parse().map_err(|_| bad())?;
            let b = v * (1u64 << shift) as f64;
            (b < u128::MAX as f64).then_some(b as u128)
        }
    };
    match bytes {
        None => Err(too_large()),
        Some(0) => Err(format!(
            "'{s}' is less than a byte: give a size of at least 1"
        )),
        Some(b) if b >= u128::from(u64::MAX) => Err(too_large()),
        Some(b) => Ok(b as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_show() {
        assert_eq!(parse("8G"), Ok(8 << 30));
        assert_eq!(parse("512M"), Ok(512 << 20));
        assert_eq!(parse("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse("2k"), Ok(2048));
        for loose in [" 8G", "+8G", "8 G", "1.5 GiB", "8G ", "1..5G", ".5G", "8X"] {
            assert!(
                parse(loose).unwrap_err().contains("is not a size"),
                "{loose}"
            );
        }
        for huge in [
            "18446744073709551615",
            "16777216T",
            "99999999999999999999999999T",
        ] {
            assert!(parse(huge).unwrap_err().contains("too large"), "{huge}");
        }
        assert_eq!(parse("4096"), Ok(4096));
        assert!(parse("0").is_err());
        assert!(parse("-1G").is_err());
        assert!(parse("1e300T").is_err());
        assert!(parse("lots").is_err());
        assert_eq!(show(512), "512 B");
        assert_eq!(show(3 << 29), "1.5 GiB");
        assert!(default_limit() > 0);
    }
}
