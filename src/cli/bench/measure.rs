//! The runs of a benchmark: the workload counted at one thread count, warm-up runs first,
//! every run checked against OEIS, stopped between runs (or in the middle of one) by a signal.

use super::args::BenchArgs;
use super::compare::{Compared, Other};
use super::results::{GpuRuns, Row, Workload};
use indicatif::{ProgressBar, ProgressStyle};
use nqueens::Backend;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

/// One run of the workload on `t` threads: its seconds, and the other binary's where there is
/// one; `first` gets the workload's figures from the first in-process count. A fast wrong
/// answer is a failure: `count` checks every run, and the other binary's is checked too.
/// Beside another binary this one runs as a process too, so that both pay the same start.
fn one_run(
    a: &BenchArgs,
    opts: &nqueens::Options,
    t: usize,
    other: Option<&(Other, Other)>,
    first: &mut Option<nqueens::Totals>,
) -> anyhow::Result<(f64, Option<f64>)> {
    let Some((me, o)) = other else {
        let out = nqueens::count(a.n, opts)?;
        let secs = out.elapsed.as_secs_f64();
        first.get_or_insert(out);
        return Ok((secs, None));
    };
    if first.is_none() {
        *first = Some(nqueens::count(a.n, opts)?);
    }
    let stop = opts.cancel.clone().unwrap_or_default();
    let mine = me.count(a.n, t, a.algorithm, a.kernel, &stop)?;
    Ok((mine, Some(o.count(a.n, t, a.algorithm, a.kernel, &stop)?)))
}

/// Runs the workload `warmup + runs` times on `t` threads (every run checked by `count`);
/// returns the row of the measured runs and the workload as the first run found it; `None`
/// where `stop` was raised before a measured run finished.
pub fn measure(
    a: &BenchArgs,
    t: usize,
    backend: Backend,
    other: Option<&(Other, Other)>,
    bar: Option<&ProgressBar>,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<(Row, Workload)>> {
    let opts = crate::cli::args::common::options()?
        .with_threads(t)
        .with_algorithm(a.algorithm)
        .with_backend(backend)
        .with_cancel(stop.clone());
    let mut times = Vec::with_capacity(a.runs);
    let mut theirs = Vec::with_capacity(a.runs);
    let mut first = None;
    for i in 0..a.warmup + a.runs {
        if let Some(b) = bar {
            b.set_message(if backend == Backend::Gpu {
                format!("the GPU, fed by {t} thread(s)")
            } else {
                format!("{t} thread(s)")
            });
        }
        let (secs, other_secs) = match one_run(a, &opts, t, other, &mut first) {
            Ok(run) => run,
            // Stopped by a signal in the middle of a run: that run is not kept.
            Err(_) if stop.load(Ordering::Relaxed) => break,
            Err(e) => return Err(e),
        };
        if let Some(x) = other_secs.filter(|_| i >= a.warmup) {
            theirs.push(x);
        }
        if i >= a.warmup {
            times.push(secs);
        }
        if let Some(b) = bar {
            b.inc(1);
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let (Some(out), false) = (first, times.is_empty()) else {
        return Ok(None);
    };
    let med = median(&times);
    let (min_s, max_s) = range(&times);
    let row = Row {
        threads: t,
        split_depth: out.split_depth,
        median_s: med,
        min_s,
        max_s,
        times_s: times,
        speedup: None,
        efficiency: None,
        nodes_per_second: out.nodes as f64 / med,
        solutions_per_second: out.total as f64 / med,
        compare: other.map(|_| compared(theirs, med)),
    };
    Ok(Some((row, workload(a, &out))))
}

/// The least and the greatest of `times`.
fn range(times: &[f64]) -> (f64, f64) {
    let min = times.iter().cloned().fold(f64::INFINITY, f64::min);
    (min, times.iter().cloned().fold(0.0, f64::max))
}

/// The other binary's runs `theirs`, against this one's median `mine`.
fn compared(theirs: Vec<f64>, mine: f64) -> Compared {
    let median_s = median(&theirs);
    let (min_s, max_s) = range(&theirs);
    Compared {
        median_s,
        min_s,
        max_s,
        ratio: median_s / mine,
        times_s: theirs,
    }
}

/// The workload of `a`, with the counts its first run `out` found.
fn workload(a: &BenchArgs, out: &nqueens::Totals) -> Workload {
    Workload {
        n: a.n,
        algorithm: a.algorithm,
        kernel: a.kernel,
        total: out.total,
        unique: out.unique,
        nodes: out.nodes,
        runs: a.runs,
        warmup: a.warmup,
    }
}

pub fn progress_bar(runs: usize) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(runs as u64);
        b.set_style(
            ProgressStyle::with_template("bench [{bar:30}] {pos}/{len} runs, {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b
    })
}

/// The workload's runs on the GPU, fed by the largest of `threads`, beside the best of the
/// CPU's `rows`.
pub fn on_gpu(
    a: &BenchArgs,
    threads: &[usize],
    rows: &[Row],
    bar: Option<&ProgressBar>,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<GpuRuns>> {
    let device = nqueens_count::gpu::available()?;
    let feeding = threads.iter().copied().max().unwrap_or(1);
    let Some((mut runs, _)) = measure(a, feeding, Backend::Gpu, None, bar, stop)? else {
        return Ok(None);
    };
    let best = rows
        .iter()
        .map(|r| r.solutions_per_second)
        .fold(0.0, f64::max);
    // Against one thread of the CPU, as the CPU's rows are, where it was measured.
    if let Some(one) = rows.iter().find(|r| r.threads == 1) {
        let speedup = one.median_s / runs.median_s;
        runs.speedup = Some(speedup);
        runs.efficiency = Some(speedup / feeding as f64);
    }
    Ok(Some(GpuRuns {
        device,
        against_cpu: runs.solutions_per_second / best,
        runs,
    }))
}
