//! The result of a count as printed: text and JSON; and a shard's result, whose one form is
//! the JSON file `merge` reads.

use crate::cli::output::text::key_values;
use crate::cli::output::{json_line, Report};
use nqueens::longrun::files::result::ShardResult;
use nqueens::oeis::Sequence;
use nqueens::{Algorithm, Backend, Totals};
use serde::Serialize;

/// The result of `count`, as printed (`--json` serialises exactly these fields).
///
/// Counts are exact JSON integers (Rust `u128`): tools that read JSON numbers as doubles lose
/// digits past 2^53.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountReport {
    /// Board size.
    pub n: u32,
    /// Queens placed before the search (`--place`), as 1-based `[row, col]`; empty for a full
    /// count. With placed queens `total` counts their completions, and no known value applies.
    pub placed: Vec<[usize; 2]>,
    /// The counting method: `backtracking` or `quadrants`.
    pub method: &'static str,
    /// The algorithm used (`plain`, `mirror`, `symmetric` backtracking, or `quadrants`).
    pub algorithm: Algorithm,
    /// The backtracking kernel used; null for the quadrant method, which has none.
    pub kernel: Option<Backend>,
    /// All solutions: A000170(n).
    pub total: u128,
    /// A000170(n) from the table, or null when not known.
    pub known: Option<u128>,
    /// Whether `total` equals `known` (null when not known).
    pub matches_known: Option<bool>,
    /// Solutions up to rotation and reflection, A002562(n) (null unless `symmetric`).
    pub unique: Option<u128>,
    /// A002562(n) from the table, or null.
    pub known_unique: Option<u128>,
    /// Whether `unique` equals `known_unique` (null when either is missing).
    pub matches_known_unique: Option<bool>,
    /// Solutions unchanged by a quarter turn (null unless `symmetric`).
    pub solutions_sym90: Option<u128>,
    /// Solutions unchanged by a half turn, the quarter-turn ones included (null unless `symmetric`).
    pub solutions_sym180: Option<u128>,
    /// Worker threads.
    pub threads: usize,
    /// Rows expanded into tasks.
    pub split_depth: u32,
    /// Tasks in the plan.
    pub tasks: usize,
    /// Tasks taken from a checkpoint instead of being counted by this run.
    pub resumed_tasks: usize,
    /// The work done: for backtracking, queens placed in the whole search; for the quadrant
    /// method, half-boards joined from quarter-boards.
    pub nodes: u128,
    /// The memory the plan was estimated to need before it ran, in bytes (quadrant method;
    /// null for backtracking, which needs almost none).
    pub memory_estimate_bytes: Option<u64>,
    /// The peak resident memory of the process, in bytes (null where the system does not say).
    pub peak_memory_bytes: Option<u64>,
    /// Wall time of the search in seconds.
    pub seconds: f64,
    /// `nodes / seconds`, counting only the nodes this run visited (not resumed tasks');
    /// null when this run counted nothing (every task came from the checkpoint).
    pub nodes_per_second: Option<f64>,
}

impl CountReport {
    /// The report of a finished count, with the known values it is compared with; its placed
    /// queens 0-based where `zero_based`, else 1-based.
    pub fn new(t: &Totals, zero_based: bool) -> CountReport {
        let base = usize::from(!zero_based);
        let n = t.n;
        let full = t.placed.is_empty();
        let known = Sequence::A000170.known(n).filter(|_| full);
        let known_unique = Sequence::A002562.known(n).filter(|_| full);
        CountReport {
            n,
            placed: t
                .placed
                .iter()
                .map(|&(r, c)| [r + base, c + base])
                .collect(),
            method: if t.algorithm == Algorithm::Quadrants {
                "quadrants"
            } else {
                "backtracking"
            },
            algorithm: t.algorithm,
            kernel: (t.algorithm != Algorithm::Quadrants).then_some(t.kernel),
            total: t.total,
            known,
            matches_known: known.map(|k| k == t.total),
            unique: t.unique,
            known_unique,
            matches_known_unique: t.unique.and_then(|u| known_unique.map(|k| k == u)),
            solutions_sym90: t.sym90,
            solutions_sym180: t.sym180,
            threads: t.threads,
            split_depth: t.split_depth,
            tasks: t.tasks,
            resumed_tasks: t.resumed_tasks,
            nodes: t.nodes,
            memory_estimate_bytes: t.memory_estimate,
            peak_memory_bytes: t.peak_memory,
            seconds: t.elapsed.as_secs_f64(),
            nodes_per_second: (t.resumed_tasks < t.tasks).then(|| t.nodes_per_second()),
        }
    }

    /// The `key value` lines of the report's text.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = self.count_lines();
        lines.extend(self.run_lines());
        lines
    }

    /// What was counted: the board, the totals and how they compare with the known values.
    fn count_lines(&self) -> Vec<(&'static str, String)> {
        let mark = |m: Option<bool>, seq: Sequence, known: Option<u128>| match (m, known) {
            (Some(true), _) => format!("matches {}({})", seq.id(), self.n),
            (Some(false), Some(k)) => format!("DIFFERS from {}({}) = {k}", seq.id(), self.n),
            _ => format!("no known value in {}", seq.id()),
        };
        let mut v = vec![("n", self.n.to_string())];
        if self.placed.is_empty() {
            let known = mark(self.matches_known, Sequence::A000170, self.known);
            v.push(("total", format!("{}  ({known})", self.total)));
        } else {
            v.push(("placed", nqueens::board::format::squares(&self.placed)));
            let what = "completions of the placed queens";
            v.push(("total", format!("{}  ({what})", self.total)));
        }
        if let Some(u) = self.unique {
            let known = mark(
                self.matches_known_unique,
                Sequence::A002562,
                self.known_unique,
            );
            v.push(("unique", format!("{u}  ({known})")));
        }
        if let (Some(q), Some(h)) = (self.solutions_sym90, self.solutions_sym180) {
            let turns = format!("{q} under a quarter turn, {h} under a half turn");
            v.push(("symmetric", turns));
        }
        v
    }

    /// How it was counted: the method, threads, tasks, work, memory and time.
    fn run_lines(&self) -> Vec<(&'static str, String)> {
        let quadrants = self.method == "quadrants";
        let mut v = Vec::new();
        v.push((
            "algorithm",
            if quadrants {
                "quadrants (half-boards matched by their diagonals)".to_string()
            } else {
                let kernel = self.kernel.map_or("none", Backend::name);
                format!("{} (kernel {kernel})", self.algorithm.name())
            },
        ));
        v.push(("threads", self.threads.to_string()));
        v.push((
            "tasks",
            if quadrants {
                self.tasks.to_string()
            } else {
                format!("{} (split depth {})", self.tasks, self.split_depth)
            },
        ));
        if self.resumed_tasks > 0 {
            v.push((
                "resumed",
                format!("{} tasks from the checkpoint", self.resumed_tasks),
            ));
        }
        let work = if quadrants {
            "  (half-boards joined)"
        } else {
            ""
        };
        v.push(("nodes", format!("{}{work}", self.nodes)));
        let show = nqueens::memory::show;
        match (self.memory_estimate_bytes, self.peak_memory_bytes) {
            (Some(e), Some(p)) => {
                v.push(("memory", format!("estimated {}, peak {}", show(e), show(p))))
            }
            (None, Some(p)) => v.push(("memory", format!("peak {}", show(p)))),
            _ => {}
        }
        let seconds = format!("{:.6}", self.seconds);
        match self.nodes_per_second {
            Some(r) => {
                v.push(("seconds", seconds));
                v.push(("nodes/s", format!("{r:.3e}")));
            }
            None => v.push((
                "seconds",
                format!("{seconds}  (nothing left to count: every task was in the checkpoint)"),
            )),
        }
        v
    }
}

impl Report for CountReport {
    /// One `key value` line per field.
    fn text(&self) -> String {
        key_values(&self.lines())
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self)
    }
}

/// A shard's result: its JSON is the file `merge` reads; its text, a line on what it holds.
pub struct ShardOutput<'a>(pub &'a ShardResult);

impl Report for ShardOutput<'_> {
    fn text(&self) -> String {
        let r = self.0;
        format!(
            "shard {} of {} for N = {}: {} tasks, {} solutions in {:.1} s\n",
            r.shard.index, r.shard.count, r.plan.n, r.tasks, r.counts.total, r.seconds
        )
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self.0)
    }
}
