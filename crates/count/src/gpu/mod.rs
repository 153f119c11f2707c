//! Counting on an NVIDIA GPU: the one room for everything that runs on, or talks to, a GPU.
//! The rest of the crate reaches it through `door`'s functions, re-exported here.
//!
//! - The GPU is a counter of its own ([`GpuCounter`]): the backtracking plan's tasks, each
//!   expanded on the host to a few more rows ([`Launch::of`]); each placement of its first
//!   free rows is a subtree ([`Start`]), counted by one GPU thread exactly as the CPU's `fast`
//!   kernel counts it, and the task's solutions and nodes are the host's part plus its
//!   subtrees' ([`Launch::finish`]): the same records, to the node, as any CPU kernel's.
//! - The quadrant method's leaves prototype (`leaves.cu`): a sieve's leaves, each with the
//!   queries its splits let in, matched one query per GPU thread.
//!
//! Each kernel's source is compiled for the GPU at run time by NVRTC (the `gpu` feature: the
//! `enabled` backend, which loads the CUDA driver and NVRTC when it is first asked, so that the
//! build needs no CUDA toolkit). Without the feature, the `disabled` backend has the same
//! functions, each refusing in one sentence, so no caller carries a `cfg`. The tests run the
//! same sources compiled for this CPU by the C compiler (the `nqueens-gpu-port` crate, a
//! dev-dependency: the binary links none of it).

mod counter;
mod door;
pub mod launch;
pub mod leaves;

#[cfg(test)]
mod cpu;
#[cfg(not(feature = "gpu"))]
mod disabled;
#[cfg(feature = "gpu")]
mod enabled;

pub use self::counter::{Device, GpuCounter, GPU_BATCH, HOST_ROWS};
pub use self::door::{available, compile_for, count_leaves, count_with, counter};
pub use self::launch::{GpuSearch, Launch, LaunchBoard, Start, MAX_ROWS, THREADS};
pub use self::leaves::LeavesOnGpu;
