//! The quadrant method's leaves matched on a GPU (issue 59's prototype, docs/guide/gpu.md):
//! one task of N's plan counted on one thread with the tap on, the largest sieve it met (a
//! real row set's east half-boards and the west ones matched against them) laid out as the
//! GPU would take it, and matched there; or, without the `gpu` feature, by the leaves kernel
//! compiled for this CPU (slow: for checking at small N).
//!
//!   cargo run --release --example leaves_on_gpu -- N TASK
//!   cargo run --release --features gpu --example leaves_on_gpu -- 22 100
//!
//! Prints the sieve's sizes, the bytes that would cross PCIe, the CPU's sieve count and its
//! seconds on this core, and the kernel's count (which must be the CPU's: exit 3 if not) and
//! its seconds, each as pattern tests a second.

use nqueens::internals::quadrants::{leaves, Settings};
use nqueens::internals::{engine, Counter, Quadrants};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: N TASK"))
        .collect();
    let [n, task] = args[..] else {
        eprintln!("usage: leaves_on_gpu N TASK");
        std::process::exit(2);
    };
    let limit = nqueens::memory::default_limit();
    let q = Quadrants::within(n as u32, 1, limit, &Settings::default()).expect("the plan");
    if task >= q.tasks() as u64 {
        eprintln!(
            "task {task} is not in N = {n}'s plan: it has {} tasks",
            q.tasks()
        );
        std::process::exit(2);
    }
    // On a pool of one thread, so that every sieve of the task is counted on this one.
    let pool = engine::pool(1).expect("a pool");
    let (tally, seconds, tapped) = pool.install(|| {
        // Counted once as a count counts it (its time: the task's), then with the tap on.
        let start = std::time::Instant::now();
        q.count(&[task as u32]).expect("a count on the CPU");
        let seconds = start.elapsed().as_secs_f64();
        leaves::tap(true);
        let tally = q.count(&[task as u32]).expect("a count on the CPU")[0];
        let tapped = leaves::tapped().expect("the tap is on");
        leaves::tap(false);
        (tally, seconds, tapped)
    });
    let (largest, all) = tapped;
    println!(
        "N = {n}, task {task}: {} solutions in {seconds:.3} s; {} sieves of east half-boards: \
         {:.3e} pattern tests, {:.3} s of their counts ({:.0}% of the task), {:.1} MiB of leaf work \
         ({:.1} MiB as their patterns and queries, once each)",
        tally.total,
        all.sieves,
        all.pattern_tests as f64,
        all.cpu_seconds,
        100.0 * all.cpu_seconds / seconds,
        all.bytes as f64 / (1 << 20) as f64,
        (8 * all.stored_and_queries) as f64 / (1 << 20) as f64
    );
    if tally.total > 0 && all.queries > 0 {
        println!(
            "their pattern tests a solution of the task: {:.1}; leaves a query entered: {:.2}",
            all.pattern_tests as f64 / tally.total as f64,
            all.leaf_queries as f64 / all.queries as f64
        );
    }
    let Some(t) = largest else {
        println!("no sieve of an even board's east half-boards in this task");
        return;
    };
    let w = &t.work;
    let tests = w.pattern_tests() as f64;
    println!(
        "largest sieve: {} stored, {} queries; {} leaves reached, {} leaf queries, {:.3e} pattern tests",
        t.stored,
        t.queries,
        w.leaves.len(),
        w.queries.len(),
        tests
    );
    println!(
        "to the GPU: {:.1} MiB ({:.1} MiB of sliced leaves)",
        w.bytes() as f64 / (1 << 20) as f64,
        (8 * w.sliced.len()) as f64 / (1 << 20) as f64
    );
    println!(
        "CPU sieve, one core: {} pairs in {:.4} s, {:.3e} pattern tests a second",
        t.found,
        t.cpu_seconds,
        tests / t.cpu_seconds
    );
    let (found, what) = on_device(w);
    if found != t.found {
        eprintln!(
            "the leaves kernel ({what}) found {found} pairs, the CPU {}",
            t.found
        );
        std::process::exit(3);
    }
    println!("{what}: {found} pairs, the same as the CPU's");
}

/// The pairs of `w` matched on the GPU, and a line on how long it took.
#[cfg(feature = "gpu")]
fn on_device(w: &leaves::LeafWork) -> (u64, String) {
    let g = nqueens::internals::quadrants::leaves_device::count_on_gpu(w).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let tests = w.pattern_tests() as f64;
    let line = format!(
        "GPU {}: kernel {:.4} s, {:.3e} pattern tests a second; copies {:.4} s there, {:.4} s back",
        g.device,
        g.kernel,
        tests / g.kernel,
        g.to_gpu,
        g.back
    );
    (g.found, line)
}

/// The pairs of `w` matched by the leaves kernel compiled for this CPU.
#[cfg(not(feature = "gpu"))]
fn on_device(w: &leaves::LeafWork) -> (u64, String) {
    let start = std::time::Instant::now();
    let found = w.count_cpu();
    let line = format!(
        "the leaves kernel compiled for this CPU (no `gpu` feature): {:.4} s, {:.3e} pattern tests a second",
        start.elapsed().as_secs_f64(),
        w.pattern_tests() as f64 / start.elapsed().as_secs_f64()
    );
    (found, line)
}
