//! The environment variables the command line reads. The library reads none: each sets one of
//! its options, which a library user sets directly.
//!
//! | variable | what it does | the library's option |
//! | --- | --- | --- |
//! | `NQUEENS_QUARTER_PARTS=P` | the quadrant method's striped plan (one combination a task, in `P` parts, 1 to 64) at any N: a plan of its own, with its own fingerprint; every command that reads its files needs the same value | `quadrants::Settings::parts` |
//! | `NQUEENS_QUARTER_SLICES=1` (or `0`) | the quadrant method counts from quarter slices built per row set at any N, as past N = 23 (the same plan and counts) | `quadrants::Settings::slices` |
//! | `NQUEENS_QUADRANT_BUILD=B` | caps the quadrant method's vector build at `portable`, `avx2` or `avx512` (the richest this CPU runs up to it), to measure a poorer build on a richer CPU | `quadrants::Settings::build` |
//!
//! An empty value is unset; any other value that is not one of those allowed (digits only
//! for numbers: `+3` is refused) is refused (exit 2).
//!
//! glibc's own `MALLOC_TRIM_THRESHOLD_`, `MALLOC_TOP_PAD_` and `GLIBC_TUNABLES` are read too,
//! only to leave the allocator alone where the user tunes it ([`tune_heap`]).

use nqueens::Error;
use nqueens_count::quadrants::{BuildCap, Settings, HEAP_PIECES_FROM, MOST_PARTS};

/// `NQUEENS_QUARTER_PARTS`: see the module.
pub const PARTS: &str = "NQUEENS_QUARTER_PARTS";
/// `NQUEENS_QUARTER_SLICES`: see the module.
pub const SLICES: &str = "NQUEENS_QUARTER_SLICES";
/// `NQUEENS_QUADRANT_BUILD`: see the module.
pub const BUILD: &str = "NQUEENS_QUADRANT_BUILD";

/// Keeps freed memory in the process's heaps between the quadrant method's row sets
/// ([`nqueens_count::quadrants::keep_freed_memory`]), and, for a count of a board of
/// `n` from [`HEAP_PIECES_FROM`] on, its threads' free heap pieces too, unless the user tunes
/// glibc's allocator with `MALLOC_TRIM_THRESHOLD_`, `MALLOC_TOP_PAD_` or `GLIBC_TUNABLES`
/// (then theirs stands).
pub fn tune_heap(n: Option<u32>) {
    if [
        "MALLOC_TRIM_THRESHOLD_",
        "MALLOC_TOP_PAD_",
        "GLIBC_TUNABLES",
    ]
    .iter()
    .all(|v| var(v).is_none())
    {
        nqueens_count::quadrants::keep_freed_memory();
        if n.is_some_and(|n| n >= HEAP_PIECES_FROM) {
            nqueens_count::quadrants::keep_heap_pieces();
        }
    }
}

/// The value of `name`, if it is set and not empty (scripts pass unset values through as
/// `NAME=${X:-}`).
fn var(name: &str) -> Option<String> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(|v| v.to_string_lossy().into_owned())
}

/// The quadrant method's settings the environment asks for (see the module).
pub fn quadrant_settings() -> Result<Settings, Error> {
    let mut s = Settings::default();
    if let Some(v) = var(PARTS) {
        let digits = v.bytes().all(|b| b.is_ascii_digit());
        s.parts = match v.parse::<u32>() {
            Ok(p) if digits && (1..=MOST_PARTS).contains(&p) => Some(p),
            _ => {
                return Err(Error::Usage(format!(
                    "{PARTS}={v}: give a number of parts from 1 to {MOST_PARTS}"
                )))
            }
        };
    }
    s.slices = match var(SLICES).as_deref() {
        None | Some("0") => false,
        Some("1") => true,
        Some(v) => {
            return Err(Error::Usage(format!(
                "{SLICES}={v}: give 1 (count from quarter slices) or 0 (as usual)"
            )))
        }
    };
    if let Some(v) = var(BUILD) {
        s.build = Some(v.parse::<BuildCap>().map_err(|_| {
            Error::Usage(format!(
                "{BUILD}={v}: name a build of the quadrant method (portable, avx2 or avx512)"
            ))
        })?);
    }
    Ok(s)
}
