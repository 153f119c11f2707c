//! Compiles the GPU kernels' sources for this CPU: the backtracking kernel (`kernel.cu`, through
//! `cpu.c`) and the quadrant method's leaves prototype (`leaves.cu`, through `leaves_cpu.c`),
//! all in the GPU room of `nqueens-count`. The GPU backend compiles the same sources for the
//! GPU at run time.

/// The GPU room's folder, from this crate's.
const ROOM: &str = "../count/src/gpu";

fn main() {
    for f in ["kernel.cu", "cpu.c", "leaves.cu", "leaves_cpu.c"] {
        println!("cargo:rerun-if-changed={ROOM}/{f}");
    }
    cc::Build::new()
        .file(format!("{ROOM}/cpu.c"))
        .file(format!("{ROOM}/leaves_cpu.c"))
        .opt_level(2)
        .warnings(true)
        .compile("nqueens_gpu_port");
}
