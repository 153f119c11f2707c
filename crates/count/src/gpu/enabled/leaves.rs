//! The leaves prototype on the GPU (the `gpu` feature): a [`LeafWork`] copied to the GPU,
//! matched by `leaves.cu` compiled there, and its counts copied back, each step timed.

use super::device::Gpu;
use crate::gpu::launch::THREADS;
use crate::gpu::leaves::LeavesOnGpu;
use crate::quadrants::leaves::{Leaf, LeafWork};
use cudarc::driver::{DeviceRepr, LaunchConfig, PushKernelArg};
use nqueens_board::error::{Error, Result};
use std::time::Instant;

// SAFETY: `repr(C)` plain data, laid out as `leaves.cu`'s `struct nq_leaf` (8 bytes, checked
// by `leaves::tests`).
unsafe impl DeviceRepr for Leaf {}

/// Matches `work` on the first GPU.
pub fn count_on_gpu(work: &LeafWork) -> Result<LeavesOnGpu> {
    let gpu = Gpu::open()?;
    let function = gpu.load(include_str!("../leaves.cu"), "nq_match_leaves")?;
    let fail = |e: cudarc::driver::DriverError| Error::Device(format!("{e:?}"));
    let s = gpu.stream();
    let count = u32::try_from(work.queries.len())
        .map_err(|_| Error::Usage("more than 2^32 queries in one leaf work".into()))?;
    let t0 = Instant::now();
    let sliced = s.clone_htod(&work.sliced).map_err(fail)?;
    let leaves = s.clone_htod(&work.leaves).map_err(fail)?;
    let queries = s.clone_htod(&work.queries).map_err(fail)?;
    let leaf_of = s.clone_htod(&work.leaf_of).map_err(fail)?;
    let mut found = s
        .alloc_zeros::<u64>(work.queries.len().max(1))
        .map_err(fail)?;
    s.synchronize().map_err(fail)?;
    let t1 = Instant::now();
    let cfg = LaunchConfig {
        grid_dim: (count.div_ceil(THREADS).max(1), 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    let mut launch = s.launch_builder(&function);
    launch
        .arg(&sliced)
        .arg(&leaves)
        .arg(&queries)
        .arg(&leaf_of)
        .arg(&count)
        .arg(&mut found);
    // SAFETY: `nq_match_leaves`'s parameters are these, in this order (`leaves.cu`); it reads
    // `count` queries and leaf indices, each leaf's blocks within `sliced`
    // (`Shaped::leaf_work`), and writes `count` counts.
    unsafe { launch.launch(cfg) }.map_err(fail)?;
    s.synchronize().map_err(fail)?;
    let t2 = Instant::now();
    let counts = s.clone_dtoh(&found).map_err(fail)?;
    let total = counts.iter().take(work.queries.len()).sum();
    let t3 = Instant::now();
    Ok(LeavesOnGpu {
        device: gpu.name.clone(),
        found: total,
        to_gpu: (t1 - t0).as_secs_f64(),
        kernel: (t2 - t1).as_secs_f64(),
        back: (t3 - t2).as_secs_f64(),
    })
}
