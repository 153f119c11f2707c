//! Compiles the GPU kernels' sources for this CPU, so that the tests run their logic on every
//! machine: the backtracking kernel (src/count/gpu/kernel.cu, run by
//! gpu/cpu.rs) and the quadrant method's leaves prototype
//! (src/count/gpu/leaves.cu, run by matcher/leaves.rs). The GPU backend compiles
//! the same sources for the GPU at run time.

fn main() {
    println!("cargo:rerun-if-changed=src/count/gpu/kernel.cu");
    println!("cargo:rerun-if-changed=src/count/gpu/cpu.c");
    println!("cargo:rerun-if-changed=src/count/gpu/leaves.cu");
    println!("cargo:rerun-if-changed=src/count/gpu/leaves_cpu.c");
    cc::Build::new()
        .file("src/count/gpu/cpu.c")
        .file("src/count/gpu/leaves_cpu.c")
        .opt_level(2)
        .warnings(true)
        .compile("nqueens_gpu_cpu");
}
