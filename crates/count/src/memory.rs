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
        format!("'{s}' is not a size: give bytes or a number with K, M, G or T, e.g. 8G or 512M")
    };
    let t = s.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    let v: f64 = num.trim().parse().map_err(|_| bad())?;
    let bytes = v * (1u64 << shift) as f64;
    if !(bytes.is_finite() && bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(bad());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_show() {
        assert_eq!(parse("8G"), Ok(8 << 30));
        assert_eq!(parse("512M"), Ok(512 << 20));
        assert_eq!(parse("1.5 GiB"), Ok(3 << 29));
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
