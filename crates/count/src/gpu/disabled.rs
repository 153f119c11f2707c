//! The GPU backend of a build without the `gpu` feature: the same functions as the enabled
//! one, each refusing in one sentence.

use super::launch::GpuSearch;
use super::leaves::LeavesOnGpu;
use crate::backtracking::kernel::found::Found;
use crate::quadrants::leaves::LeafWork;
use nqueens_board::error::{Error, Result};
use nqueens_board::spec::Spec;

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

/// Refuses: there is no GPU backend.
pub fn count(_: &[Spec], _: usize, _: GpuSearch) -> Result<Vec<Found>> {
    Err(refusal())
}

/// Refuses: there is no GPU backend.
pub fn count_leaves(_: &LeafWork) -> Result<LeavesOnGpu> {
    Err(refusal())
}

/// Refuses: there is no GPU backend, so no runtime compiler either.
pub fn compile_for(_: &str) -> Result<Vec<(&'static str, String)>> {
    Err(refusal())
}
