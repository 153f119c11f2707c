//! `nqueens bench`: the runs at each thread count, and the report they make, stopped cleanly by a
//! signal.

use super::compare::Other;
use super::measure::{measure, on_gpu, progress_bar};
use super::noise;
use super::outputs::Outputs;
use super::provenance::{utc_now, vector_build, BuildInfo};
use super::results::{BenchReport, Headline, Machine, Row, Workload};
use crate::cli::exit::Interrupted;
use nqueens::board::shown::Show;

use super::args::BenchArgs;
use nqueens::oeis::Sequence;
use nqueens::{Algorithm, Error};
use nqueens_count::engine::default_threads;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Refuses a workload without a known count to check, and an export without a format.
fn check_args(a: &BenchArgs) -> anyhow::Result<()> {
    if Sequence::A000170.known(a.n).is_none() || a.n < 4 {
        return Err(Error::Usage(format!(
            "bench needs a board with a known count to check every run: N from 4 to {} (got {})",
            Sequence::A000170.known_values().last().map_or(0, |x| x.0),
            a.n
        ))
        .into());
    }
    if a.gpu {
        if a.algorithm == Algorithm::Quadrants {
            return Err(Error::Usage(
                "bench --gpu times the backtracking plan's tasks on the GPU: give -a symmetric \
                 (the default) or mirror, not quadrants (the quadrant method has no GPU kernel)"
                    .into(),
            )
            .into());
        }
        nqueens_count::gpu::available()?;
    }
    let without_one = a.threads.as_ref().is_some_and(|l| !l.0.contains(&1));
    if a.plot.is_some() && without_one {
        return Err(Error::Usage(
            "bench --plot draws speedup and efficiency against one thread: give --threads with \
             1 among its counts (e.g. 1,2,4), or no --threads"
                .into(),
        )
        .into());
    }
    Ok(())
}

pub fn run(a: BenchArgs) -> anyhow::Result<()> {
    check_args(&a)?;
    // Where the report and the chart go, checked before any run: not found out after them.
    let out = Outputs::of(&a)?;
    let threads = a
        .threads
        .clone()
        .map(|l| l.0)
        .unwrap_or_else(|| (1..=default_threads()).collect());
    let (stop, signal) = stop_on_signals()?;
    // This binary beside the other, both run as processes (resolved once).
    let other = match a.compare.as_deref() {
        Some(path) => Some((Other::this()?, Other::new(path, &stop)?)),
        None => None,
    };
    let date = utc_now();
    let watch = noise::Watch::start();
    let measured = threads.len() + usize::from(a.gpu);
    let bar = progress_bar(measured * (a.runs + a.warmup));
    let (mut rows, workload) = measure_each(&a, &threads, other.as_ref(), bar.as_ref(), &stop)?;
    let gpu = match a.gpu && !stop.load(Ordering::Relaxed) {
        true => on_gpu(&a, &threads, &rows, bar.as_ref(), &stop)?,
        false => None,
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let stopped = stop
        .load(Ordering::Relaxed)
        .then(|| signal.load(Ordering::Relaxed) as u8);
    let Some(workload) = workload else {
        return Err(stopped_by(
            stopped.unwrap_or(2),
            "before any run finished: nothing to report",
        )
        .into());
    };
    finish_rows(&mut rows);
    let warnings = warnings(&watch, &threads, &rows, stopped.is_some());
    let report = BenchReport {
        tool: "nqueens",
        version: env!("CARGO_PKG_VERSION"),
        date,
        build: BuildInfo::this(),
        vector_build: vector_build(a.algorithm, a.kernel),
        headline: headline(&rows),
        machine: Machine::here(),
        workload,
        results: rows,
        compared_with: other.map(|(_, o)| [o.path().shown().to_string(), o.version.clone()]),
        gpu,
        warnings,
    };
    out.write(&report)?;
    match stopped {
        Some(signal) => {
            Err(stopped_by(signal, "the runs that finished before it are reported").into())
        }
        None => Ok(()),
    }
}

/// What makes the figures of `rows` doubtful: the machine as `watch` saw it, the thread
/// counts asked for, the runs' spread, and a stop before every thread count was measured.
fn warnings(watch: &noise::Watch, threads: &[usize], rows: &[Row], stopped: bool) -> Vec<String> {
    let mut warnings = watch.warnings(num_cpus::get());
    warnings.extend(noise::oversubscribed(threads, num_cpus::get()));
    warnings.extend(noise::run_warnings(rows));
    if stopped {
        warnings.push(format!(
            "stopped by a signal after {} of the {} thread counts: the rows are the runs that \
             finished before it",
            rows.len(),
            threads.len()
        ));
    }
    warnings
}

/// Each thread count's row, measured in turn until `stop` is raised, and the workload (none
/// when no thread count finished its runs).
fn measure_each(
    a: &BenchArgs,
    threads: &[usize],
    other: Option<&(Other, Other)>,
    bar: Option<&indicatif::ProgressBar>,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<(Vec<Row>, Option<Workload>)> {
    let mut rows = Vec::new();
    let mut workload = None;
    for &t in threads {
        if let Some((row, w)) = measure(a, t, a.kernel.into(), other, bar, stop)? {
            rows.push(row);
            workload.get_or_insert(w);
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    Ok((rows, workload))
}

/// Speedup and efficiency of each row, against one thread; none where one thread was not
/// measured.
fn finish_rows(rows: &mut [Row]) {
    let Some(one) = rows.iter().find(|r| r.threads == 1).map(|r| r.median_s) else {
        return;
    };
    for r in rows {
        let speedup = one / r.median_s;
        r.speedup = Some(speedup);
        r.efficiency = Some(speedup / r.threads as f64);
    }
}

/// The row that counted the workload fastest: its solutions per second and threads.
fn headline(rows: &[Row]) -> Headline {
    let best = rows
        .iter()
        .max_by(|a, b| a.solutions_per_second.total_cmp(&b.solutions_per_second))
        .expect("at least one row");
    Headline {
        solutions_per_second: best.solutions_per_second,
        threads: best.threads,
    }
}

/// Ctrl-C (SIGINT) and SIGTERM stop a benchmark instead of killing it: the flag is raised
/// (the run in flight is cancelled) and the signal's number kept, so that the runs already
/// done are reported before the process exits with 128 + that number.
fn stop_on_signals() -> anyhow::Result<(Arc<AtomicBool>, Arc<AtomicUsize>)> {
    let stop = Arc::new(AtomicBool::new(false));
    let which = Arc::new(AtomicUsize::new(0));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_usize(sig, which.clone(), sig as usize)?;
        signal_hook::flag::register(sig, stop.clone())?;
    }
    Ok((stop, which))
}

/// A benchmark stopped by `signal`, saying what became of its runs.
fn stopped_by(signal: u8, what: &str) -> Interrupted {
    let name = if signal == 15 { "SIGTERM" } else { "SIGINT" };
    Interrupted {
        signal,
        message: format!("bench stopped by {name} {what}"),
    }
}
