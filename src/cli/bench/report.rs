//! How a benchmark's report is written: the text table (with the lines above and below it),
//! Markdown and CSV; JSON is the report serialized. Each format has its function, and
//! [`output::Report`] hands them to the one output path.

use super::results::{BenchReport, Row};
use crate::cli::output::text::plural;
use crate::cli::output::{self, json_line};
use std::fmt::Write as _;

/// A CSV field: quoted where it holds a comma or a quote (a CPU's model name may).
fn field(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row per thread count, each with the machine and the workload it belongs to, so that
/// the rows of several exports can be put in one table.
fn csv(r: &BenchReport) -> String {
    let mut s = String::from(
        "date,machine,logical_cores,vector_build,commit,n,algorithm,kernel,threads,split_depth,\
         median_s,min_s,max_s,speedup,efficiency,nodes_per_second,solutions_per_second\n",
    );
    let w = &r.workload;
    let context = format!(
        "{},{},{},{},{},{},{},{}",
        r.date,
        field(&r.machine.model),
        r.machine.logical_cores,
        r.vector_build,
        r.build.commit,
        w.n,
        w.algorithm.name(),
        w.kernel.name()
    );
    for x in &r.results {
        let _ = writeln!(
            s,
            "{context},{},{},{:.6},{:.6},{:.6},{},{},{:.0},{:.0}",
            x.threads,
            x.split_depth,
            x.median_s,
            x.min_s,
            x.max_s,
            x.speedup.map_or(String::new(), |v| format!("{v:.4}")),
            x.efficiency.map_or(String::new(), |v| format!("{v:.4}")),
            x.nodes_per_second,
            x.solutions_per_second
        );
    }
    s
}

/// The lines above the table: the workload and the machine.
pub(super) fn head(r: &BenchReport) -> String {
    let w = &r.workload;
    format!(
        "nqueens {} (commit {}{}) bench: {}, {} after {}, {}\n\
         CPU: {} ({} logical / {} physical cores, {}, {}; vector build {})\n\
         {}\n\
         workload: total {}{}, {} nodes; every run checked against OEIS\n",
        r.build.version,
        r.build.commit,
        match r.build.tree.as_str() {
            "modified" => ", modified",
            _ => "",
        },
        workload_named(w),
        plural(w.runs, "run"),
        plural(w.warmup, "warm-up run"),
        r.date,
        r.machine.model,
        r.machine.logical_cores,
        r.machine.physical_cores,
        r.machine.arch,
        r.machine.features,
        r.vector_build,
        identity(r),
        w.total,
        w.unique
            .map(|u| format!(", unique {u}"))
            .unwrap_or_default(),
        w.nodes
    )
}

/// The workload in words that keep the two kinds apart: the quadrant method (what `nqueens
/// count N` runs from N = 10 or so) or a backtracker with its kernel, and, for a backtracker
/// where count would not run it, which method count runs.
pub(super) fn workload_named(w: &super::results::Workload) -> String {
    let n = w.n;
    if w.algorithm == nqueens::Algorithm::Quadrants {
        return format!("count {n} by the quadrant method (quadrants algorithm)");
    }
    let counts = nqueens::Options::default().resolved_algorithm(n);
    let not_count = if counts == w.algorithm {
        String::new()
    } else {
        format!("; `count {n}` runs {counts}")
    };
    format!(
        "count {n} by backtracking ({} algorithm, {} kernel{not_count})",
        w.algorithm.name(),
        w.kernel.name()
    )
}

/// The lines that tell two machines of one model name apart: the CPU's numbers, clock and
/// whether it is virtual; its caches, the kernel, and the compiler that built nqueens.
fn identity(r: &BenchReport) -> String {
    let c = &r.machine.cpu;
    let num = |v: Option<u32>| v.map_or("?".to_string(), |v| v.to_string());
    let mut cpu = vec![format!(
        "{} family {} model {} stepping {}",
        c.vendor.as_deref().unwrap_or("unknown vendor"),
        num(c.family),
        num(c.model),
        num(c.stepping)
    )];
    cpu.extend(c.microcode.as_ref().map(|m| format!("microcode {m}")));
    cpu.extend(c.mhz.map(|m| format!("{m:.0} MHz")));
    if c.virtual_machine {
        cpu.push("a virtual machine".into());
    }
    let mut rest = Vec::new();
    if !c.caches.is_empty() {
        rest.push(format!("caches {}", c.caches.join(", ")));
    }
    rest.extend(r.machine.kernel.as_ref().map(|k| format!("kernel {k}")));
    rest.push(format!("built by {}", r.build.rustc));
    format!("CPU numbers: {}\n{}", cpu.join("; "), rest.join("; "))
}

fn markdown(r: &BenchReport) -> String {
    let mut s = String::new();
    for l in head(r).lines() {
        let _ = writeln!(s, "{l}  ");
    }
    s.push('\n');
    s.push_str(
        "| threads | median (s) | min (s) | max (s) | speedup | efficiency | nodes/s | \
         solutions/s |\n",
    );
    s.push_str("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for x in &r.results {
        let _ = writeln!(s, "| {} |", x.cells().join(" | "));
    }
    for l in tail(r).lines() {
        let _ = writeln!(s, "{l}  ");
    }
    s
}

/// The lines below the table: the other binary's times beside this one's, and the warnings.
fn tail(r: &BenchReport) -> String {
    let mut s = format!(
        "\nheadline: {:.4e} solutions per second, at {} (the figure to compare machines by, \
         on the same workload)\n",
        r.headline.solutions_per_second,
        plural(r.headline.threads, "thread")
    );
    if let Some([path, version]) = &r.compared_with {
        let _ = writeln!(
            s,
            "\ncompared with {path} ({version}), its runs in turn with these:"
        );
        for x in &r.results {
            if let Some(c) = &x.compare {
                let _ = writeln!(
                    s,
                    "{:>7} {}: median {} s (min {}, max {}), its median / this one's = {:.3}",
                    x.threads,
                    if x.threads == 1 { "thread" } else { "threads" },
                    secs(c.median_s),
                    secs(c.min_s),
                    secs(c.max_s),
                    c.ratio
                );
            }
        }
    }
    if let Some(g) = &r.gpu {
        let x = &g.runs;
        let _ = writeln!(
            s,
            "\non the GPU ({}), fed by {}: median {} s (min {}, max {}), {:.0} solutions/s, \
             {:.2}x the CPU's best",
            g.device,
            plural(x.threads, "CPU thread"),
            secs(x.median_s),
            secs(x.min_s),
            secs(x.max_s),
            x.solutions_per_second,
            g.against_cpu
        );
    }
    if !r.warnings.is_empty() {
        s.push('\n');
    }
    for w in &r.warnings {
        let _ = writeln!(s, "WARNING  {w}");
    }
    s
}

/// A time in seconds with four significant digits (at least three decimals), so that short
/// runs are not all `0.001`.
fn secs(x: f64) -> String {
    let decimals = if x > 0.0 {
        (3 - x.log10().floor() as i32).clamp(3, 9) as usize
    } else {
        3
    };
    format!("{x:.decimals$}")
}

/// The text table's column widths.
const TEXT_WIDTHS: [usize; 8] = [7, 10, 10, 10, 7, 10, 10, 11];

impl Row {
    /// The row's cells as a reader sees them (Markdown and text tables).
    fn cells(&self) -> [String; 8] {
        [
            self.threads.to_string(),
            secs(self.median_s),
            secs(self.min_s),
            secs(self.max_s),
            self.speedup.map_or("-".into(), |v| format!("{v:.2}")),
            self.efficiency
                .map_or("-".into(), |v| format!("{:.0}%", 100.0 * v)),
            format!("{:.3e}", self.nodes_per_second),
            format!("{:.3e}", self.solutions_per_second),
        ]
    }
}

fn text(r: &BenchReport) -> String {
    let mut s = head(r);
    s.push('\n');
    let _ = writeln!(
        s,
        "{:>7}  {:>10}  {:>10}  {:>10}  {:>7}  {:>10}  {:>10}  {:>11}",
        "threads", "median_s", "min_s", "max_s", "speedup", "efficiency", "nodes/s", "solutions/s"
    );
    for x in &r.results {
        let cells = x.cells();
        let v: Vec<String> = cells
            .iter()
            .zip(TEXT_WIDTHS)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        let _ = writeln!(s, "{}", v.join("  "));
    }
    s + &tail(r)
}

impl output::Report for BenchReport {
    fn text(&self) -> String {
        text(self)
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self)
    }

    fn markdown(&self) -> Option<String> {
        Some(markdown(self))
    }

    fn csv(&self) -> Option<String> {
        Some(csv(self))
    }
}
