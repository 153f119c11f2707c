//! Limits the library enforces that more than one module states: each is defined here once
//! and every message and check derives from it.

/// The most worker threads a count starts: far more than any machine has cores, few enough
/// that a mistyped number cannot bring a machine down.
pub const MAX_THREADS: usize = 1024;
