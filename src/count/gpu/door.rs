//! The GPU room's door: whether a GPU can count here, and the counts the rest of the crate asks
//! of it. Each function goes to the backend this build has (the `gpu` feature's, or the one
//! that refuses), or to the kernels' CPU builds where the tests count without a GPU.

use super::cpu;
use super::launch::Search;
use super::leaves::OnGpu;
use crate::board::spec::Spec;
use crate::count::backtracking::kernel::found::Found;
use crate::count::quadrants::leaves::LeafWork;
use crate::error::Result;

#[cfg(not(feature = "gpu"))]
use super::disabled as backend;
#[cfg(feature = "gpu")]
use super::enabled as backend;

/// How many free rows of a task the host places before its subtrees go to the GPU.
pub const HOST_ROWS: usize = 4;

/// Whether counts on the GPU can run here: the GPU's name (`NVIDIA H100 80GB HBM3, sm_90`),
/// or why not, in one sentence (`Error::Usage`): this nqueens was built without the `gpu`
/// feature, or no GPU or driver was found.
pub fn available() -> Result<String> {
    backend::name()
}

/// Counts `specs` into `out` on the GPU, by its first search. Where no GPU was opened (a
/// build without the `gpu` feature, a machine without a GPU: [`available`] refuses those
/// counts before they start), the kernel compiled for this CPU counts them, as the tests do.
///
/// A GPU that fails in the middle of a count ends it with `Error::Device` (the checkpoint
/// keeps what was finished): its counts are not replaced by anything else.
pub fn count_batch(specs: &[Spec], out: &mut [Found]) -> Result<()> {
    #[cfg(test)]
    if faults::FAIL.with(|f| f.get()) {
        return Err(crate::error::Error::Device(
            "a fault the test injected".into(),
        ));
    }
    match backend::count(specs, HOST_ROWS, Search::Local) {
        Some(counted) => out.copy_from_slice(&counted?),
        None => out.copy_from_slice(&cpu::count(specs, HOST_ROWS)),
    }
    Ok(())
}

/// The completions of `specs` on the GPU by `search`, each expanded to `depth` rows on the
/// host (the measurements of `examples/gpu_searches.rs`). Refused where no GPU can count.
pub fn count_with(specs: &[Spec], depth: usize, search: Search) -> Result<Vec<Found>> {
    let name = available()?;
    backend::count(specs, depth, search).unwrap_or_else(|| {
        Err(crate::error::Error::Device(format!(
            "{name} was found but could not be opened"
        )))
    })
}

/// Matches a sieve's leaf work on the GPU, each step timed. Refused where no GPU can count.
pub fn count_leaves(work: &LeafWork) -> Result<OnGpu> {
    backend::count_leaves(work)
}

/// Every kernel (`kernel.cu`, `leaves.cu`) compiled for the GPU architecture `arch` (`sm_80`,
/// `sm_90`) by NVRTC, with the options a GPU of that architecture gets: each file's name and
/// its PTX, for `ptxas` to report on (`examples/kernels_compile.rs`). Needs the runtime
/// compiler only, no GPU or driver; refused in a build without the `gpu` feature.
pub fn compile_for(arch: &str) -> Result<Vec<(&'static str, String)>> {
    backend::compile_for(arch)
}

/// A GPU's failure, injected by the tests into the counts of their thread.
#[cfg(test)]
pub(crate) mod faults {
    thread_local! {
        /// Whether this thread's next batches fail as a GPU's would.
        pub static FAIL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
}
