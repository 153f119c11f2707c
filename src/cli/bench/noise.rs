//! What `bench` says of the machine it ran on, as hyperfine does: a busy machine at the start
//! (the load average), other processes' share of the CPUs while it ran (from `/proc/stat`,
//! less this process's and its children's CPU time), runs that spread widely, and a parallel
//! efficiency above 105% (the base runs slowed by something else). Each is a sentence in the
//! report's `warnings`; nothing stops the benchmark.

use super::results::Row;
use std::time::Instant;

/// A load average above this share of the logical CPUs is a busy machine.
const BUSY_LOAD: f64 = 0.5;

/// Other processes using more than this share of the CPUs' time is worth a warning.
const OTHERS_SHARE: f64 = 0.1;

/// Runs whose range is more than this share of their median spread widely.
const WIDE_SPREAD: f64 = 0.25;

/// A parallel efficiency above this is not believable.
const TOO_EFFICIENT: f64 = 1.05;

/// CPU time as `/proc` counts it (clock ticks): the whole machine's busy and total time, and
/// this process's with its waited-for children's.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ticks {
    busy: u64,
    total: u64,
    own: u64,
}

impl Ticks {
    fn now() -> Option<Ticks> {
        let (busy, total) = machine_ticks(&std::fs::read_to_string("/proc/stat").ok()?)?;
        let own = own_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)?;
        Some(Ticks { busy, total, own })
    }
}

/// The busy and total clock ticks of all CPUs, from `/proc/stat`'s first line (`cpu user
/// nice system idle iowait irq softirq steal ...`): busy is all but idle and iowait.
fn machine_ticks(stat: &str) -> Option<(u64, u64)> {
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let v: Vec<u64> = line
        .split_whitespace()
        .take(8)
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let total: u64 = v.iter().sum();
    let idle = v.get(3)? + v.get(4).copied().unwrap_or(0);
    Some((total - idle, total))
}

/// This process's user and system ticks and its waited-for children's (`/proc/self/stat`
/// fields 14 to 17, counted after the command name's closing parenthesis).
fn own_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After ")": state is field 3, so field k is f[k - 3].
    (14..=17).map(|k| f.get(k - 3)?.parse::<u64>().ok()).sum()
}

/// The 1-minute load average, from `/proc/loadavg`.
fn load_average(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// What the machine was doing from the benchmark's start.
pub struct Watch {
    start: Option<Ticks>,
    load: Option<f64>,
    began: Instant,
}

impl Watch {
    /// Notes the load average and the CPU counters as the benchmark begins.
    pub fn start() -> Watch {
        Watch {
            start: Ticks::now(),
            load: std::fs::read_to_string("/proc/loadavg")
                .ok()
                .and_then(|t| load_average(&t)),
            began: Instant::now(),
        }
    }

    /// The warnings of the machine's state over the benchmark, on `cpus` logical CPUs.
    pub fn warnings(&self, cpus: usize) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(load) = self.load.filter(|&l| l > BUSY_LOAD * cpus as f64) {
            v.push(format!(
                "the machine was busy as the benchmark began (load average {load:.2} on {cpus} \
                 logical CPUs): other work slows the runs unevenly; rerun on a quiet machine"
            ));
        }
        let end = Ticks::now();
        if let (Some(a), Some(b)) = (self.start, end) {
            if let Some(share) = others_share(a, b) {
                if share > OTHERS_SHARE && self.began.elapsed().as_secs_f64() > 0.5 {
                    v.push(format!(
                        "other processes used {:.0}% of the CPUs' time while the benchmark ran: \
                         its times are slowed where they ran; rerun on a quiet machine",
                        100.0 * share
                    ));
                }
            }
        }
        v
    }
}

/// The share of all CPUs' time that other processes used between `a` and `b`.
fn others_share(a: Ticks, b: Ticks) -> Option<f64> {
    let total = b.total.checked_sub(a.total).filter(|&t| t > 0)?;
    let busy = b.busy.saturating_sub(a.busy);
    let own = b.own.saturating_sub(a.own);
    Some(busy.saturating_sub(own) as f64 / total as f64)
}

/// The warning for thread counts past the machine's `cpus` logical CPUs: their threads share
/// CPUs, so their speedup stops growing by design, not for the program's want of scaling.
pub(super) fn oversubscribed(threads: &[usize], cpus: usize) -> Option<String> {
    let over: Vec<String> = threads
        .iter()
        .filter(|&&t| t > cpus)
        .map(|t| t.to_string())
        .collect();
    (!over.is_empty()).then(|| {
        format!(
            "--threads {}: more than this machine's {cpus} logical CPUs; threads share CPUs \
             there, so speedup stops growing and efficiency falls by design",
            over.join(",")
        )
    })
}

/// A time with three significant digits, so that runs of milliseconds that differ by more
/// than a quarter do not all read `0.002`.
fn significant(x: f64) -> String {
    if x <= 0.0 {
        return "0".into();
    }
    let decimals = (2 - x.log10().floor() as i32).clamp(0, 9) as usize;
    format!("{x:.decimals$}")
}

/// The warnings of the runs themselves: a wide spread, an efficiency above 105%.
pub(super) fn run_warnings(rows: &[Row]) -> Vec<String> {
    let mut v = Vec::new();
    for r in rows {
        let (median, min, max) = (r.median_s, r.min_s, r.max_s);
        if r.times_s.len() >= 2 && median > 0.0 && (max - min) / median > WIDE_SPREAD {
            v.push(format!(
                "the runs at {} thread{} spread widely ({} s to {} s, median {} s): noise, or a \
                 clock that changed; more --runs on a quiet machine",
                r.threads,
                if r.threads == 1 { "" } else { "s" },
                significant(min),
                significant(max),
                significant(median)
            ));
        }
        if let Some(efficiency) = r.efficiency.filter(|&e| e > TOO_EFFICIENT) {
            v.push(format!(
                "an efficiency of {:.0}% at {} threads is more than the threads can give: the \
                 base runs were slowed by something else, so the speedups are not to be trusted",
                100.0 * efficiency,
                r.threads
            ));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times keep three significant digits, so that runs of a few milliseconds a quarter
    /// apart do not read alike.
    #[test]
    fn times_keep_three_significant_digits() {
        assert_eq!(significant(0.00213), "0.00213");
        assert_eq!(significant(0.00251), "0.00251");
        assert_eq!(significant(12.345), "12.3");
        assert_eq!(significant(1234.5), "1234");
        assert_eq!(significant(0.0), "0");
    }

    #[test]
    fn proc_files_are_read() {
        let stat = "cpu  100 5 50 800 40 1 2 3 0 0\ncpu0 1 2 3 4\n";
        assert_eq!(machine_ticks(stat), Some((161, 1001)));
        let own = "1234 (my prog) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
        // Fields 14-17 are utime 11, stime 12, cutime 13, cstime 14.
        assert_eq!(own_ticks(own), Some(11 + 12 + 13 + 14));
        assert_eq!(load_average("1.50 0.80 0.40 2/300 999\n"), Some(1.5));
        let (a, b) = (
            Ticks {
                busy: 100,
                total: 1000,
                own: 50,
            },
            Ticks {
                busy: 600,
                total: 2000,
                own: 250,
            },
        );
        // 500 busy ticks of 1000, 200 of them ours: others 30%.
        assert_eq!(others_share(a, b), Some(0.3));
    }

    #[test]
    fn wide_spreads_and_impossible_efficiencies_are_warned_of() {
        let row = |threads, min_s, max_s, efficiency| Row {
            threads,
            split_depth: 1,
            median_s: 1.0,
            min_s,
            max_s,
            times_s: vec![1.0; 5],
            speedup: Some(1.0),
            efficiency: Some(efficiency),
            nodes_per_second: 0.0,
            solutions_per_second: 0.0,
            compare: None,
        };
        assert!(run_warnings(&[row(1, 0.95, 1.05, 1.0)]).is_empty());
        let w = run_warnings(&[row(2, 0.7, 1.3, 1.47)]);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].contains("spread widely") && w[1].contains("147%"),
            "{w:?}"
        );
    }
}
