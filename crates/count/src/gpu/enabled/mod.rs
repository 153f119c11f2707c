//! The GPU backend of a build with the `gpu` feature: the kernels compiled by NVRTC for the
//! GPU found and launched through the CUDA driver API, both libraries loaded at run time
//! (`cudarc`), so that one binary serves every GPU architecture and builds without CUDA.

mod device;
mod leaves;

use super::launch::GpuSearch;
use super::leaves::LeavesOnGpu;
use crate::backtracking::kernel::found::Found;
use crate::quadrants::leaves::LeafWork;
use nqueens_board::error::Result;
use nqueens_board::spec::Spec;

/// The first GPU's name (`NVIDIA H100 80GB HBM3, sm_90`), or why none can count here.
pub fn name() -> Result<String> {
    device::Gpu::open().map(|g| g.name.clone())
}

/// The completions of `specs` counted on the GPU by `search`, each expanded to `depth` rows on
/// the host; or why no GPU could be opened.
pub fn count(specs: &[Spec], depth: usize, search: GpuSearch) -> Result<Vec<Found>> {
    device::Gpu::open()?.count_with(specs, depth, search)
}

/// Matches `work` on the first GPU, each step timed.
pub fn count_leaves(work: &LeafWork) -> Result<LeavesOnGpu> {
    leaves::count_on_gpu(work)
}

/// Every kernel's PTX for the architecture `arch`, compiled as the device path compiles it.
pub fn compile_for(arch: &str) -> Result<Vec<(&'static str, String)>> {
    device::compile_for(arch)
}
