//! The GPU room's door: whether a GPU can count here, and what the rest of the crate asks of
//! it. Each function goes to the backend this build has (the `gpu` feature's, or the one that
//! refuses in one sentence); nothing falls back to anything else.

use super::counter::{Device, GpuCounter};
use super::launch::GpuSearch;
use super::leaves::LeavesOnGpu;
use crate::backtracking::backtrack::Backtrack;
use crate::backtracking::kernel::found::Found;
use crate::quadrants::leaves::LeafWork;
use nqueens_board::error::Result;
use nqueens_board::spec::Spec;

#[cfg(not(feature = "gpu"))]
use super::disabled as backend;
#[cfg(feature = "gpu")]
use super::enabled as backend;

/// Whether counts on the GPU can run here: the GPU's name (`NVIDIA H100 80GB HBM3, sm_90`),
/// or why not, in one sentence (`Error::Usage`): this nqueens was built without the `gpu`
/// feature, or no GPU or driver was found.
pub fn available() -> Result<String> {
    backend::name()
}

/// The counter of `plan`'s tasks on the first GPU, or why none can count here (as
/// [`available`] says).
pub fn counter(plan: Backtrack) -> Result<GpuCounter> {
    available()?;
    Ok(GpuCounter::new(plan, Box::new(FirstGpu)))
}

/// The first GPU, as the backend opens it.
struct FirstGpu;

impl Device for FirstGpu {
    fn count(&self, specs: &[Spec], depth: usize, search: GpuSearch) -> Result<Vec<Found>> {
        backend::count(specs, depth, search)
    }
}

/// The completions of `specs` on the GPU by `search`, each expanded to `depth` rows on the
/// host (the measurements of `examples/gpu_searches.rs`). Refused where no GPU can count.
pub fn count_with(specs: &[Spec], depth: usize, search: GpuSearch) -> Result<Vec<Found>> {
    backend::count(specs, depth, search)
}

/// Matches a sieve's leaf work on the GPU, each step timed. Refused where no GPU can count.
pub fn count_leaves(work: &LeafWork) -> Result<LeavesOnGpu> {
    backend::count_leaves(work)
}

/// Every kernel (`kernel.cu`, `leaves.cu`) compiled for the GPU architecture `arch` (`sm_80`,
/// `sm_90`) by NVRTC, with the options a GPU of that architecture gets: each file's name and
/// its PTX, for `ptxas` to report on (`examples/kernels_compile.rs`). Needs the runtime
/// compiler only, no GPU or driver; refused in a build without the `gpu` feature.
pub fn compile_for(arch: &str) -> Result<Vec<(&'static str, String)>> {
    backend::compile_for(arch)
}
