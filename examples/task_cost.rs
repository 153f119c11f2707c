//! What chosen tasks of the quadrant method's plan cost: each counted alone on one thread,
//! with the thread's user CPU seconds and its solutions. `scripts/measure/record-plan-cost.sh` uses it
//! to weigh one combination of east rows of N = 28 counted whole (the record plan's way)
//! against the same combination in 13 parts (the plan before it), and tasks of N = 26.
//!
//!   cargo run --release --example task_cost -- N PARTS ID...
//!
//! PARTS 0 is the board's own plan; P > 0 the striped plan of one combination a task in P
//! parts (`NQUEENS_QUARTER_PARTS`), where combination C is tasks C*P .. C*P + P - 1.
//! Prints `ID SOLUTIONS CPU_SECONDS` for each task.

use nqueens_count::engine::Counter;
use nqueens_count::quadrants::Quadrants;
use nqueens_count::quadrants::Settings;

/// This thread's CPU time, in seconds.
fn thread_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for clock_gettime to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: N PARTS ID..."))
        .collect();
    let [n, parts, ids @ ..] = &args[..] else {
        eprintln!("usage: task_cost N PARTS ID...");
        std::process::exit(2);
    };
    // As the command line does: freed memory kept between row sets, and from N = 26 the
    // threads' free heap pieces too.
    nqueens_count::quadrants::keep_freed_memory();
    if *n >= u64::from(nqueens_count::quadrants::HEAP_PIECES_FROM) {
        nqueens_count::quadrants::keep_heap_pieces();
    }
    let mut settings = Settings::default();
    settings.parts = (*parts > 0).then_some(*parts as u32);
    let limit = nqueens::memory::default_limit();
    let q = Quadrants::within(*n as u32, 1, limit, &settings).expect("the plan");
    for &id in ids {
        let start = thread_seconds();
        let t = q.count(&[id as u32]).expect("a count on the CPU")[0];
        println!("{id} {} {:.3}", t.total, thread_seconds() - start);
    }
}
