//! Compiles the GPU kernel's source (src/count/backtracking/kernel/gpu/kernel.cu) for this CPU, so that the tests
//! run its logic on every machine (src/count/backtracking/kernel/gpu/cpu.rs); the GPU backend compiles the same
//! source for the GPU at run time.

fn main() {
    println!("cargo:rerun-if-changed=src/count/backtracking/kernel/gpu/kernel.cu");
    println!("cargo:rerun-if-changed=src/count/backtracking/kernel/gpu/cpu.c");
    cc::Build::new()
        .file("src/count/backtracking/kernel/gpu/cpu.c")
        .opt_level(2)
        .warnings(true)
        .compile("nqueens_gpu_cpu");
}
