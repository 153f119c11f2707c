//! The command line's value parsers: every number, square, duration and shard a user types.
//!
//! Numbers are strict: ASCII digits only (no sign, no spaces, no `_`), so `' 8'`, `+8` and
//! `1 : 1` are refused with a message rather than read as something else; a number too large
//! for its option says what the largest is instead of the standard library's overflow text.

use nqueens::longrun::distributed::shard::Shard;
use nqueens::Error;
use nqueens_count::backtracking::plan::MAX_SPLIT_DEPTH;
use nqueens_count::engine::MAX_THREADS;
use std::time::Duration;

/// Why a typed number was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberRefusal {
    /// Not digits (empty, spaces, signs, letters, a fraction).
    Malformed,
    /// A minus sign and digits.
    Negative,
    /// Digits, but more than `u64` holds.
    TooLarge,
}

/// Reads a whole number written with ASCII digits only (a leading `-` is recognised, to say
/// the number is negative rather than not a number).
pub fn whole(s: &str) -> Result<u64, NumberRefusal> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = s.strip_prefix('-') {
        return Err(if digits(rest) {
            NumberRefusal::Negative
        } else {
            NumberRefusal::Malformed
        });
    }
    if !digits(s) {
        return Err(NumberRefusal::Malformed);
    }
    s.parse::<u64>().map_err(|_| NumberRefusal::TooLarge)
}

/// A whole number in `lo..=hi`; `what` names it ("a run count"), for the message.
pub fn bounded(s: &str, what: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match whole(s) {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) | Err(NumberRefusal::TooLarge) | Err(NumberRefusal::Negative) => Err(format!(
            "'{s}' is out of range for {what}: give a whole number from {lo} to {hi}"
        )),
        Err(NumberRefusal::Malformed) => Err(format!(
            "'{s}' is not {what}: give a whole number from {lo} to {hi} (digits only)"
        )),
    }
}

/// A board size: a whole number in 1..=64.
pub fn parse_n(s: &str) -> Result<u32, String> {
    match whole(s) {
        Ok(v) => {
            nqueens::board::masks::check_n(v.min(i64::MAX as u64) as i64).map_err(|e| e.to_string())
        }
        Err(NumberRefusal::Negative) | Err(NumberRefusal::TooLarge) => {
            Err(Error::BoardSize(s.parse().unwrap_or(i64::MAX)).to_string())
        }
        Err(NumberRefusal::Malformed) => Err(format!(
            "'{s}' is not a board size: N must be a whole number between 1 and 64 (digits only)"
        )),
    }
}

/// A thread count, 1..=[`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match whole(s) {
        Ok(t) if (1..=MAX_THREADS as u64).contains(&t) => Ok(t as usize),
        Ok(t) => Err(Error::Threads(t.min(usize::MAX as u64) as usize).to_string()),
        Err(NumberRefusal::TooLarge) => Err(Error::Threads(usize::MAX).to_string()),
        Err(_) => Err(format!(
            "'{s}' is not a thread count: give a whole number from 1 to {MAX_THREADS}"
        )),
    }
}

/// A split depth, 1..=[`MAX_SPLIT_DEPTH`].
pub fn parse_split_depth(s: &str) -> Result<u32, String> {
    match whole(s) {
        Ok(d) if (1..=MAX_SPLIT_DEPTH as u64).contains(&d) => Ok(d as u32),
        Ok(d) => Err(Error::SplitDepth(d.min(u32::MAX as u64) as u32).to_string()),
        Err(_) => Err(format!(
            "'{s}' is not a split depth: give 1, 2 or {MAX_SPLIT_DEPTH}"
        )),
    }
}

/// One `ROW:COL` square as typed (1-based, or 0-based with `--zero-based`); the conversion
/// and the range check against the board are done later, when N is known.
pub fn parse_square(s: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!("'{s}' is not a square: write ROW:COL with whole numbers and no spaces, e.g. 1:5")
    };
    let (r, c) = s.split_once(':').ok_or_else(bad)?;
    let r = whole(r).map_err(|_| bad())?;
    let c = whole(c).map_err(|_| bad())?;
    Ok((
        r.min(usize::MAX as u64) as usize,
        c.min(usize::MAX as u64) as usize,
    ))
}

/// A `--first-queen` column as typed (1-based, or 0-based with `--zero-based`).
pub fn parse_column(s: &str) -> Result<usize, String> {
    whole(s)
        .map(|c| c.min(usize::MAX as u64) as usize)
        .map_err(|_| {
            format!(
                "'{s}' is not a column: give a whole number, counted from 1 (the leftmost \
                 column) or from 0 with --zero-based"
            )
        })
}

/// A number of seconds in `lo..=hi` (fractions allowed), as a [`Duration`].
pub fn seconds(s: &str, lo: f64, hi: f64) -> Result<Duration, String> {
    let plain = !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && s.bytes().filter(|&b| b == b'.').count() <= 1;
    match s.parse::<f64>() {
        Ok(v) if plain && (lo..=hi).contains(&v) => Ok(Duration::from_secs_f64(v)),
        Ok(_) if plain => Err(format!(
            "'{s}' seconds is out of range: give a number of seconds from {lo} to {hi}"
        )),
        _ => Err(format!(
            "'{s}' is not a duration: give a number of seconds from {lo} to {hi}, e.g. 30 or 0.5"
        )),
    }
}

/// Seconds between checkpoint saves: 0.05 s to a week (each save is an fsync: more often
/// would only slow the count down).
pub fn parse_checkpoint_every(s: &str) -> Result<Duration, String> {
    seconds(s, 0.05, 604_800.0)
}

/// Seconds between `--progress` lines: 0.01 s to a day.
pub fn parse_progress_every(s: &str) -> Result<Duration, String> {
    seconds(s, 0.01, 86_400.0)
}

/// A shard `I/K` (0 <= I < K <= [`nqueens::longrun::distributed::shard::MAX_SHARDS`]).
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse::<Shard>().map_err(|e| e.to_string())
}

/// A seed for a random sample: any whole number.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    bounded(s, "a seed", 0, u64::MAX)
}

/// The seed given, or one from the clock (the reports print it, so a sample can be repeated).
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_digits_only() {
        assert_eq!(whole("8"), Ok(8));
        for bad in [" 8", "8 ", "+8", "", "8.0", "0x8", "1_0", "٨"] {
            assert_eq!(whole(bad), Err(NumberRefusal::Malformed), "{bad:?}");
        }
        assert_eq!(whole("-3"), Err(NumberRefusal::Negative));
        assert_eq!(
            whole("99999999999999999999999"),
            Err(NumberRefusal::TooLarge)
        );
        let e = bounded("99999999999999999999999", "a limit", 1, 9).unwrap_err();
        assert!(e.contains("from 1 to 9"), "{e}");
        assert!(parse_n(" 8").unwrap_err().contains("not a board size"));
        assert!(parse_n("+8").is_err());
        assert!(parse_n("-3").unwrap_err().contains("-3"));
        assert_eq!(parse_n("64"), Ok(64));
    }

    #[test]
    fn squares_and_durations() {
        assert_eq!(parse_square("1:5"), Ok((1, 5)));
        assert!(parse_square("1 : 1").is_err());
        assert!(parse_square("3").is_err());
        assert!(parse_square("a:b").is_err());
        assert_eq!(parse_column("7"), Ok(7));
        assert!(parse_column("x").is_err());
        assert_eq!(parse_checkpoint_every("30"), Ok(Duration::from_secs(30)));
        for bad in [
            "1e20", "1e300", "0", "1e-9", "0.01", "inf", "NaN", "-1", "99999999",
        ] {
            assert!(parse_checkpoint_every(bad).is_err(), "{bad}");
        }
        assert!(parse_progress_every("1e300").is_err());
        assert!(parse_progress_every("0.5").is_ok());
        assert!(parse_progress_every("0.001").is_err());
    }
}
