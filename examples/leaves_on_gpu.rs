//! The quadrant method's leaves matched by the GPU room's leaves kernel (docs/guide/gpu.md):
//! one task of N's plan counted on one thread with the probe on, the largest sieve it met (a
//! real row set's east half-boards and the west ones matched against them) laid out as the
//! GPU would take it, and matched there. Where no GPU can count (a build without the `gpu`
//! feature, or no GPU) it says why and stops after the CPU's figures (the kernel's logic is
//! checked without a GPU by the tests, on its CPU build). It also prints the pattern tests per
//! solution and the leaves per query of the whole task: what the performance log's counts of
//! the join come from.
//!
//!   cargo run --release --features probe --example leaves_on_gpu -- N TASK
//!   cargo run --release --features probe,gpu --example leaves_on_gpu -- 22 100
//!
//! Prints the sieve's sizes, the bytes that would cross PCIe, the CPU's sieve count and its
//! seconds on this core, and the kernel's count (which must be the CPU's: exit 3 if not) and
//! its seconds, each as pattern tests per second.

use nqueens_count::engine::{self, Counter};
use nqueens_count::gpu;
use nqueens_count::quadrants::leaves::LeafWork;
use nqueens_count::quadrants::probe::{self, Probe, ProbeTotals, Probed};
use nqueens_count::quadrants::Quadrants;
use nqueens_count::quadrants::Settings;
use nqueens_count::tally::Tally;

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
    let (
        tally,
        seconds,
        Probe {
            largest,
            totals: all,
        },
    ) = probed_count(&q, task as u32);
    report_task(n, task, &tally, seconds, &all);
    let Some(t) = largest else {
        println!("no sieve of an even board's east half-boards in this task");
        return;
    };
    report_sieve(&t);
    let (found, what) = match on_device(&t.work) {
        Ok(done) => done,
        Err(why) => {
            eprintln!("no GPU: {why}");
            std::process::exit(1);
        }
    };
    if found != t.found {
        eprintln!(
            "the leaves kernel ({what}) found {found} pairs, the CPU {}",
            t.found
        );
        std::process::exit(3);
    }
    println!("{what}: {found} pairs, the same as the CPU's");
}

/// Task `task` counted once as a count counts it (its time: the task's), then again with the
/// probe on, on a pool of one thread so that every sieve of the task is counted on this one.
fn probed_count(q: &Quadrants, task: u32) -> (Tally, f64, Probe) {
    let pool = engine::pool(1).expect("a pool");
    pool.install(|| {
        let start = std::time::Instant::now();
        q.count(&[task]).expect("a count on the CPU");
        let seconds = start.elapsed().as_secs_f64();
        probe::probe(true);
        let tally = q.count(&[task]).expect("a count on the CPU")[0];
        let probed = probe::probed().expect("the probe is on");
        probe::probe(false);
        (tally, seconds, probed)
    })
}

/// The whole task's sieves: their pattern tests, time and bytes, per solution and per query.
fn report_task(n: u64, task: u64, tally: &Tally, seconds: f64, all: &ProbeTotals) {
    let mib = |bytes: u128| bytes as f64 / (1 << 20) as f64;
    println!(
        "N = {n}, task {task}: {} solutions in {seconds:.3} s; {} sieves of east half-boards: \
         {:.3e} pattern tests, {:.3} s of their counts ({:.0}% of the task), {:.1} MiB of leaf \
         work ({:.1} MiB as their patterns and queries, once each)",
        tally.total,
        all.sieves,
        all.pattern_tests as f64,
        all.cpu_seconds,
        100.0 * all.cpu_seconds / seconds,
        mib(all.bytes),
        mib(8 * all.stored_and_queries)
    );
    if tally.total > 0 && all.queries > 0 {
        println!(
            "their pattern tests per solution of the task: {:.1}; leaves entered per query: {:.2}",
            all.pattern_tests as f64 / tally.total as f64,
            all.leaf_queries as f64 / all.queries as f64
        );
    }
}

/// The largest sieve: its sizes, what would cross to the GPU, and the CPU's rate on it.
fn report_sieve(t: &Probed) {
    let w = &t.work;
    let tests = w.pattern_tests() as f64;
    println!(
        "largest sieve: {} stored, {} queries; {} leaves reached, {} leaf queries, {:.3e} \
         pattern tests",
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
        "CPU sieve, one core: {} pairs in {:.4} s, {:.3e} pattern tests per second",
        t.found,
        t.cpu_seconds,
        tests / t.cpu_seconds
    );
}

/// The pairs of `w` matched on the GPU, and a line on how long it took; or why no GPU can
/// count here (the kernel's logic is checked without one by the tests, on its CPU build).
fn on_device(w: &LeafWork) -> Result<(u64, String), nqueens::Error> {
    let tests = w.pattern_tests() as f64;
    let g = gpu::count_leaves(w)?;
    let line = format!(
        "GPU {}: kernel {:.4} s, {:.3e} pattern tests per second; copies {:.4} s there, \
         {:.4} s back",
        g.device,
        g.kernel,
        tests / g.kernel,
        g.to_gpu,
        g.back
    );
    Ok((g.found, line))
}
