//! Which backend counts a batch for the `gpu` kernel: the GPU where one was opened, the
//! kernel compiled for this CPU elsewhere (the tests); and whether a GPU can count here.

use super::cpu;
#[cfg(feature = "gpu")]
use super::device;
use crate::board::spec::Spec;
use crate::count::backtracking::kernel::found::Found;
use crate::error::Result;

/// How many free rows of a task the host places before its subtrees go to the GPU.
pub const HOST_ROWS: usize = 4;

/// Whether counts on the GPU can run here: the GPU's name (`NVIDIA H100 80GB HBM3, sm_90`),
/// or why not, in one sentence (`Error::Usage`): this nqueens was built without the `gpu`
/// feature, or no GPU or driver was found.
pub fn available() -> Result<String> {
    #[cfg(feature = "gpu")]
    {
        device::Gpu::open().map(|g| g.name.clone())
    }
    #[cfg(not(feature = "gpu"))]
    {
        Err(crate::error::Error::Usage(
            "this nqueens was built without the GPU backend: build it with `cargo build \
             --release --features gpu` (NVIDIA GPUs; no CUDA toolkit needed to build) to count \
             on a GPU"
                .into(),
        ))
    }
}

/// Counts `specs` into `out` on the GPU ([`Kernel::Gpu`]): where none was opened (a build
/// without the `gpu` feature, a machine without a GPU: [`available`] refuses those counts
/// before they start), the kernel compiled for this CPU counts them, as the tests do.
///
/// A GPU that fails in the middle of a count ends it with [`Error::Device`] (the checkpoint
/// keeps what was finished): its counts are not replaced by anything else.
///
/// [`Kernel::Gpu`]: crate::count::backtracking::kernel::Kernel::Gpu
pub fn count_batch(specs: &[Spec], out: &mut [Found]) -> Result<()> {
    #[cfg(test)]
    if faults::FAIL.with(|f| f.get()) {
        return Err(crate::error::Error::Device(
            "a fault the test injected".into(),
        ));
    }
    #[cfg(feature = "gpu")]
    if let Ok(gpu) = device::Gpu::open() {
        out.copy_from_slice(&gpu.count(specs, HOST_ROWS)?);
        return Ok(());
    }
    out.copy_from_slice(&cpu::count(specs, HOST_ROWS));
    Ok(())
}

/// A GPU's failure, injected by the tests into the counts of their thread.
#[cfg(test)]
pub(crate) mod faults {
    thread_local! {
        /// Whether this thread's next batches fail as a GPU's would.
        pub static FAIL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
}
