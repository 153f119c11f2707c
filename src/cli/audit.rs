//! `nqueens audit FILES...`.

use super::args::{bounded, parse_seed, parse_threads, seed_or_clock};
use super::{named, print};
use nqueens::longrun::audit::{audit, Recorded, Recount, Report, Sample};
use nqueens::{Error, Kernel};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `audit`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads shard results (`count --shard` output) and checkpoints, checks \
    their seals, then recounts a random sample of their recorded tasks on this machine and \
    compares each task with its record. The backtrackers' tasks are recounted with another \
    kernel than the one that counted them (wide with fast, the others with wide). The quadrant \
    method's tasks are recounted by backtracking: each row set searched row by row, its \
    queens barred from the other half, which shares nothing with the method's own counting \
    (slower than the method: --same-method recounts with it instead).\n\n\
    The checksum of a file catches accidents (a truncated or edited file); anyone can \
    recompute it. The audit catches a forged count with the probability that its task is in \
    the sample: --sample 1 recounts every task (as long as counting them did).\n\n\
    Exit codes: 0 every recounted task agrees; 3 a task differs (each one named); 2 a file \
    that cannot be read, is damaged, or was forged in a way its seal or sums show.\n\n\
    Examples:\n  nqueens audit shard-*.json                 (5% of the tasks)\n  \
    nqueens audit shard-*.json --sample 1      (everything)\n  \
    nqueens audit n20.ckpt --tasks 10 --seed 42"
)]
pub struct AuditArgs {
    /// Shard results and checkpoints to audit.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// The share of each file's tasks to recount, above 0 and at most 1 (at least one task
    /// per file).
    #[arg(long, value_name = "FRACTION", default_value = "0.05", value_parser = parse_share, conflicts_with = "tasks")]
    pub sample: f64,
    /// Recount this many tasks of each file instead (all of them if it has fewer).
    #[arg(long, value_name = "K", value_parser = parse_tasks)]
    pub tasks: Option<usize>,
    /// The seed of the random sample (default: from the clock; the report gives it, so an
    /// audit can be repeated exactly).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Recount with this kernel instead of another than the file's.
    #[arg(long, short = 'k', value_parser = named::<Kernel>(Kernel::NAMES))]
    pub kernel: Option<Kernel>,
    /// Recount the quadrant method's tasks with the quadrant method itself rather than by
    /// backtracking (faster; catches forged files and bad hardware, not a mistake of the
    /// method).
    #[arg(long)]
    pub same_method: bool,
    /// Worker threads (default: the number of logical CPUs).
    #[arg(long, short = 't', value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
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

pub fn run(a: AuditArgs) -> anyhow::Result<()> {
    let files = a
        .files
        .iter()
        .map(|f| Recorded::read(f))
        .collect::<nqueens::Result<Vec<_>>>()?;
    let sample = a.tasks.map_or(Sample::Share(a.sample), Sample::Tasks);
    let seed = seed_or_clock(a.seed);
    let mut opts = super::options()?;
    opts.threads = a.threads;
    let how = Recount {
        kernel: a.kernel,
        same_method: a.same_method,
    };
    let report = audit(&files, sample, seed, how, &opts)?;
    if a.json {
        print(&(serde_json::to_string(&report)? + "\n"))?;
    } else {
        print(&text(&report))?;
    }
    if let Some(d) = report.differences.first() {
        return Err(Error::Differs(format!(
            "{} of {} recounted tasks differ from their records (first: {} task {}): those \
             results are wrong or forged; count them again",
            report.differences.len(),
            report.recounted,
            d.file,
            d.task
        ))
        .into());
    }
    Ok(())
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    let kernels: Vec<String> = r
        .kernels
        .iter()
        .zip(&r.methods)
        .map(|(k, &m)| match (k, m) {
            (Some(k), _) => k.clone(),
            (None, "quadrants") => "the quadrant method again".to_string(),
            (None, _) => "backtracking by row set".to_string(),
        })
        .collect();
    let mut uniq = kernels.clone();
    uniq.sort_unstable();
    uniq.dedup();
    let _ = writeln!(
        s,
        "audited {} file{}: {} of {} recorded tasks recounted (seed {}, with {})",
        r.files,
        if r.files == 1 { "" } else { "s" },
        r.recounted,
        r.recorded,
        r.seed,
        uniq.join(", ")
    );
    for d in &r.differences {
        let _ = writeln!(
            s,
            "DIFFERS  {} task {}: recorded total {} (nodes {}), recounted total {} (nodes {})",
            d.file,
            d.task,
            d.recorded.total,
            d.recorded.nodes,
            d.recounted.total,
            d.recounted.nodes
        );
    }
    if r.differences.is_empty() {
        let _ = writeln!(s, "every recounted task agrees with its record");
    }
    s
}
