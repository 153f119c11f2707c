//! `nqueens audit FILES...`.

use super::args::common::{named, options};
use super::args::parse::{bounded, parse_seed, parse_threads, seed_or_clock};
use super::count::cost::RecountGuard;
use super::output::{self, json_line, ReportFormat};
use nqueens::longrun::audit::{
    slices_of_plan, AuditReport, Auditor, FewerSlices, PlanSlices, QuadrantRecount, Recorded,
    Recount, Sample, SliceCheck,
};
use nqueens::longrun::distributed::status::{files, list_paths};
use nqueens::{Backend, Error};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `audit`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads shard results (`count --shard` output) and checkpoints and checks \
    each as merge does (its seal, its plan, its sums against its tasks, its task ids against \
    its shard), then recounts a random sample of their recorded tasks on this machine and \
    compares each task with its record.\n\n\
    The backtrackers' tasks (5% of each file by default) are recounted with another kernel \
    than the one that counted them (wide with fast, the others with wide). The quadrant \
    method's (one task of each file by default) are recounted by the method in another build \
    than the one the file records (portable or AVX2 for an AVX-512 result: a fault of one \
    build or CPU shows), and --slices small exact parts of each task (the solutions of one \
    of its row sets with one north-west quarter) are counted twice: by backtracking, which \
    shares nothing with the method, and by the method through the code that counts the task \
    (a fault of the method where a slice falls shows). --same-method recounts in the file's \
    own build without slices; --backtracking recounts whole tasks by backtracking (for small \
    boards: about 1,600 times the method's time at N = 20, 3.4 times more each N).\n\n\
    The checksum of a file catches accidents (a truncated or edited file); anyone can \
    recompute it. The audit catches a forged count with the probability that its task is in \
    the sample (--sample 1 recounts every task, as long as counting them did), and a fault of \
    the method with the probability that a slice falls where it shows.\n\n\
    Files may be given as arguments, as directories (searched 8 levels deep for shard \
    results and checkpoints) or in a list file (--list, one path per line): they are read, \
    checked and recounted one at a time, and each plan and recounting build is set up once \
    for all its files, not once per file.\n\n\
    Exit codes: 0 every recount agrees; 3 a task or a slice differs (each one named); 2 a \
    file that cannot be read, is damaged, or fails a check.\n\n\
    With --plan N and no files, slices of --tasks random tasks of the quadrant method's plan \
    of N are counted both ways: how long a slice takes, and whether the method agrees, at \
    any N from 4 to 28.\n\n\
    Examples:\n  nqueens audit shard-*.json                 (the default sample)\n  \
    nqueens audit shard-*.json --sample 1      (everything)\n  \
    nqueens audit n20.ckpt --tasks 10 --seed 42\n  \
    nqueens audit --plan 28 --tasks 2 --slices 3 --seed 1"
)]
pub struct AuditArgs {
    /// Shard results and checkpoints to audit, or directories that hold them.
    #[arg(value_name = "FILES|DIRS", required_unless_present_any = ["plan", "list"])]
    pub files: Vec<PathBuf>,
    /// A file that lists the files (or directories) to audit, one path per line (`-`: standard
    /// input).
    #[arg(long, value_name = "FILE", conflicts_with = "plan")]
    pub list: Vec<PathBuf>,
    /// No files: count slices of random tasks of the quadrant method's plan of this N (4 to
    /// 28) both ways.
    #[arg(long, value_name = "N", value_parser = parse_plan, conflicts_with_all = ["files", "sample", "same_method", "backtracking"])]
    pub plan: Option<u32>,
    /// The share of each file's tasks to recount, above 0 and at most 1 (at least one task
    /// per file). Default: one task of a quadrant method's file, 5% of a backtracking file's.
    #[arg(long, value_name = "FRACTION", value_parser = parse_share, conflicts_with = "tasks")]
    pub sample: Option<f64>,
    /// Recount this many tasks of each file instead (all of them if it has fewer).
    #[arg(long, value_name = "K", value_parser = parse_tasks)]
    pub tasks: Option<usize>,
    /// The seed of the random sample and slices (default: from the clock; the report gives
    /// it, so an audit can be repeated exactly).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Recount backtracking files with this kernel instead of another than the file's.
    #[arg(long, short = 'k', value_parser = named::<Backend>(Backend::NAMES))]
    pub kernel: Option<Backend>,
    /// Recount the quadrant method's tasks with the method in the build the file records, and
    /// draw no slices (faster; catches forged files and bad hardware, not a mistake of the
    /// method).
    #[arg(long, conflicts_with = "backtracking")]
    pub same_method: bool,
    /// Recount the quadrant method's whole tasks by backtracking (independent of the method,
    /// but slow past N = 20).
    #[arg(long)]
    pub backtracking: bool,
    /// Slices of each recounted task of a quadrant method's file to count both by
    /// backtracking and by the method, 0 to 1000.
    #[arg(long, value_name = "S", default_value = "4", value_parser = parse_slices)]
    pub slices: usize,
    /// Worker threads (default: the number of logical CPUs).
    #[arg(long, short = 't', value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Recount even a task that a rough scale says cannot finish in a lifetime (refused
    /// without it, before any task is recounted).
    #[arg(long)]
    pub force: bool,
}

fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') => Ok(f),
        _ => Err(format!(
            "'{s}' is not a share of the tasks: give a number above 0 and at most 1, e.g. 0.05 \
             or 1"
        )),
    }
}

fn parse_tasks(s: &str) -> Result<usize, String> {
    bounded(s, "a task count", 1, u32::MAX as u64).map(|k| k as usize)
}

fn parse_plan(s: &str) -> Result<u32, String> {
    let (lo, hi) = (
        nqueens_count::quadrants::MIN_N,
        nqueens_count::quadrants::MAX_N,
    );
    bounded(
        s,
        "a board the quadrant method counts",
        lo.into(),
        hi.into(),
    )
    .map(|n| n as u32)
}

fn parse_slices(s: &str) -> Result<usize, String> {
    bounded(s, "a number of slices", 0, 1000).map(|k| k as usize)
}

pub fn run(a: AuditArgs) -> anyhow::Result<()> {
    if let Some(n) = a.plan {
        return plan(n, &a);
    }
    // The lists are read a line at a time as their files are audited.
    let mut lists = Vec::with_capacity(a.list.len());
    for l in &a.list {
        lists.push(list_paths(l)?);
    }
    let given = a
        .files
        .iter()
        .cloned()
        .map(Ok)
        .chain(lists.into_iter().flatten());
    let sample = match (a.tasks, a.sample) {
        (Some(k), _) => Sample::Tasks(k),
        (None, Some(f)) => Sample::Share(f),
        (None, None) => Sample::Default,
    };
    let seed = seed_or_clock(a.seed);
    let mut opts = options()?;
    opts.threads = a.threads;
    let how = Recount {
        kernel: a.kernel,
        quadrants: match (a.same_method, a.backtracking) {
            (true, _) => QuadrantRecount::SameMethod,
            (_, true) => QuadrantRecount::Backtracking,
            _ => QuadrantRecount::OtherBuild,
        },
        slices: a.slices,
    };
    let guard = RecountGuard {
        threads: opts.resolved_threads(),
        force: a.force,
    };
    let report = audit_all(given, Auditor::new(sample, seed, how, &opts), guard)?;
    let out = AuditOutput {
        report: &report,
        slices: a.slices,
    };
    output::print(&out, ReportFormat::json_if(a.json))?;
    if !report.agrees() {
        return Err(differs(&report).into());
    }
    Ok(())
}

/// The files under `given` (directories searched, what is not a run's file there passed
/// over), each read, audited and dropped in turn.
fn audit_all(
    given: impl Iterator<Item = nqueens::Result<PathBuf>>,
    mut auditor: Auditor,
    guard: RecountGuard,
) -> anyhow::Result<AuditReport> {
    for g in given {
        let g = g?;
        let from_dir = g.is_dir();
        for path in files(std::slice::from_ref(&g))? {
            let f = match Recorded::find(&path)? {
                Some(f) => f,
                None if from_dir => continue,
                None => Recorded::read(&path)?,
            };
            guard.check(&f)?;
            auditor.add(&f)?;
        }
    }
    let report = auditor.finish()?;
    if report.files == 0 {
        return Err(Error::Usage(
            "audit found no shard result or checkpoint in what it was given".into(),
        )
        .into());
    }
    Ok(report)
}

/// The error of an audit where something differs, naming the first.
fn differs(report: &AuditReport) -> Error {
    {
        let slices = report.slices.iter().filter(|s| !s.agrees).count();
        let first = match (
            report.differences.first(),
            report.slices.iter().find(|s| !s.agrees),
        ) {
            (Some(d), _) => format!("{} task {}", d.file, d.task),
            (None, Some(s)) => format!("{} task {}, a slice", s.file, s.slice.task),
            (None, None) => unreachable!("something differs"),
        };
        let of_slices = if report.slices.is_empty() {
            String::new()
        } else {
            format!(" and {slices} of {} slices", report.slices.len())
        };
        Error::Differs(format!(
            "{} of {} recounted tasks{of_slices} differ (first: {first}): those results are \
             wrong or forged{}; count them again",
            report.differences.len(),
            report.recounted,
            if slices > 0 {
                ", or the method is wrong where a slice falls"
            } else {
                ""
            },
        ))
    }
}

/// `audit --plan N`: slices of random tasks of the plan, counted both ways.
fn plan(n: u32, a: &AuditArgs) -> anyhow::Result<()> {
    let seed = seed_or_clock(a.seed);
    let mut opts = options()?;
    opts.threads = a.threads;
    let tasks = a.tasks.unwrap_or(1);
    let drawn = slices_of_plan(n, tasks, a.slices, seed, &opts)?;
    let out = PlanOutput {
        n,
        seed,
        drawn: &drawn,
        asked: a.slices,
    };
    output::print(&out, ReportFormat::json_if(a.json))?;
    let checks = drawn.slices;
    if let Some(c) = checks.iter().find(|c| !c.agrees) {
        return Err(Error::Differs(format!(
            "a slice of task {} counts {} by the method and {} by backtracking: the method \
             is wrong where it falls",
            c.slice.task, c.method, c.backtracking
        ))
        .into());
    }
    Ok(())
}

/// One slice's line of a report.
fn slice_line(c: &SliceCheck) -> String {
    let instead = match c.drawn_for {
        Some(t) => format!(" (drawn for task {t}, whose slices hold no solution)"),
        None => String::new(),
    };
    format!(
        "{}  {} task {} slice {}: method {} ({:.2} s), backtracking {} ({:.2} s){instead}",
        if c.agrees { "agrees " } else { "DIFFERS" },
        c.file,
        c.slice.task,
        slice_name(&c.slice),
        c.method,
        c.method_seconds,
        c.backtracking,
        c.backtracking_seconds
    )
}

/// "; the slices hold T solutions (Z of them none)": how much the slices checked (nothing
/// where there are none).
fn slices_held(slices: &[SliceCheck]) -> String {
    if slices.is_empty() {
        return String::new();
    }
    let held: u128 = slices.iter().map(|c| c.backtracking).sum();
    let none = match slices.iter().filter(|c| c.backtracking == 0).count() {
        0 => String::new(),
        z => format!(" ({z} of them none)"),
    };
    format!(
        "; the slice{} hold{} {held} solution{}{none}",
        if slices.len() == 1 { "" } else { "s" },
        if slices.len() == 1 { "s" } else { "" },
        if held == 1 { "" } else { "s" }
    )
}

/// A line for each task with fewer distinct slices than asked for.
fn fewer_lines(s: &mut String, fewer: &[FewerSlices], asked: usize) {
    for f in fewer {
        let _ = writeln!(
            s,
            "{} task {} has only {} distinct slice{} the draws found ({asked} asked for): all \
             were counted",
            f.file,
            f.task,
            f.slices,
            if f.slices == 1 { "" } else { "s" }
        );
    }
}

/// The report as text; `asked`: the slices asked for of each task.
fn text(r: &AuditReport, asked: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "audited {} file{}: {} of {} recorded tasks recounted, {} slices counted both ways \
         (seed {}){}",
        r.files,
        if r.files == 1 { "" } else { "s" },
        r.recounted,
        r.recorded,
        r.slices.len(),
        r.seed,
        slices_held(&r.slices)
    );
    for f in &r.audits {
        let counted = if f.counted_in.is_empty() {
            "the file does not say in which build".to_string()
        } else {
            format!("counted in {}", f.counted_in.join(", "))
        };
        let nodes = if f.nodes_compared {
            ""
        } else {
            ", nodes not compared (the two methods' work differs)"
        };
        let _ = writeln!(
            s,
            "{}: task{} {} recounted by {} ({counted}{nodes})",
            f.file,
            if f.tasks.len() == 1 { "" } else { "s" },
            list(&f.tasks),
            f.recounted_by
        );
    }
    for c in &r.slices {
        let _ = writeln!(s, "{}", slice_line(c));
    }
    fewer_lines(&mut s, &r.fewer, asked);
    for d in &r.differences {
        let _ = writeln!(
            s,
            "DIFFERS  {} task {}: recorded total {} (nodes {}), recounted total {} (nodes {}): \
             its {} differ",
            d.file,
            d.task,
            d.recorded.total,
            d.recorded.nodes,
            d.recounted.total,
            d.recounted.nodes,
            d.recorded.differing(&d.recounted)
        );
    }
    if r.agrees() {
        let _ = writeln!(s, "every recount agrees");
    }
    s
}

/// Task ids as a short list (the first ten, then how many more).
fn list(ids: &[u32]) -> String {
    let mut v: Vec<String> = ids.iter().take(10).map(u32::to_string).collect();
    if ids.len() > 10 {
        v.push(format!("and {} more", ids.len() - 10));
    }
    v.join(", ")
}

/// A slice as the report names it: its row set's east rows and its north-west queens,
/// 1-based `row:col` as the command line writes squares.
fn slice_name(s: &nqueens_count::slices::Slice) -> String {
    let east: Vec<String> = (0..32)
        .filter(|r| s.east_rows >> r & 1 == 1)
        .map(|r| (r + 1).to_string())
        .collect();
    let queens: Vec<String> = s
        .north_west
        .iter()
        .map(|&[r, c]| format!("{}:{}", r + 1, c + 1))
        .collect();
    format!(
        "(east rows {}; north-west queens {})",
        east.join(","),
        if queens.is_empty() {
            "none".to_string()
        } else {
            queens.join(" ")
        }
    )
}

/// What `audit FILES` prints: the report, and how many slices per task was asked for.
struct AuditOutput<'a> {
    report: &'a AuditReport,
    slices: usize,
}

impl output::Report for AuditOutput<'_> {
    fn text(&self) -> String {
        text(self.report, self.slices)
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(self.report)
    }
}

/// What `audit --plan N` prints: the slices drawn of the plan, counted both ways.
struct PlanOutput<'a> {
    n: u32,
    seed: u64,
    drawn: &'a PlanSlices,
    /// Slices asked for per task.
    asked: usize,
}

impl output::Report for PlanOutput<'_> {
    fn text(&self) -> String {
        let drawn = self.drawn;
        let mut s = format!(
            "{} slices of the plan of N = {} counted both ways (seed {}){}\n",
            drawn.slices.len(),
            self.n,
            self.seed,
            slices_held(&drawn.slices)
        );
        for c in &drawn.slices {
            let _ = writeln!(s, "{}", slice_line(c));
        }
        fewer_lines(&mut s, &drawn.fewer, self.asked);
        s
    }

    fn json(&self) -> serde_json::Result<String> {
        json_line(&serde_json::json!({
            "n": self.n, "seed": self.seed, "slices": self.drawn.slices, "fewer": self.drawn.fewer
        }))
    }
}
