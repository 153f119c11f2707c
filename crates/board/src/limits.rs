//! Limits the library enforces that more than one module states: each is defined here once
//! and every message and check derives from it.

/// The most worker threads per count starts: far more than any machine has cores, few enough
/// that a mistyped number cannot bring a machine down.
pub const MAX_THREADS: usize = 1024;

/// What "cannot finish" means: a count or a sample that would take longer than this, in wall
/// seconds on the threads given (a hundred years), is refused before anything is built, unless
/// asked for anyway.
pub const LIFETIME_SECONDS: f64 = 100.0 * 365.25 * 86_400.0;
