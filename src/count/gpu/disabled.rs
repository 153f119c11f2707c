//! The GPU backend of a build without the `gpu` feature: the same functions as the enabled
//! one, each refusing in one sentence (or, for a count, leaving it to the kernel's CPU build).

use super::launch::Search;
use super::leaves::OnGpu;
use crate::board::spec::Spec;
use crate::count::backtracking::kernel::found::Found;
use crate::count::quadrants::leaves::LeafWork;
use crate::error::{Error, Result};

/// Why this build cannot count on a GPU.
fn refusal() -> Error {
    Error::Usage(
        "this nqueens was built without the GPU backend: build it with `cargo build --release \
         --features gpu` (NVIDIA GPUs; no CUDA toolkit needed to build) to count on a GPU"
            .into(),
    )
}

/// Refuses: there is no GPU backend.
pub fn name() -> Result<String> {
    Err(refusal())
}

/// No GPU counts here: `None`, so that the kernel's CPU build counts (the tests').
pub fn count(_: &[Spec], _: usize, _: Search) -> Option<Result<Vec<Found>>> {
    None
}

/// Refuses: there is no GPU backend.
pub fn count_leaves(_: &LeafWork) -> Result<OnGpu> {
    Err(refusal())
}

/// Refuses: there is no GPU backend, so no runtime compiler either.
pub fn compile_for(_: &str) -> Result<Vec<(&'static str, String)>> {
    Err(refusal())
}
