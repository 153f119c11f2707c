//! `nqueens merge FILES...`.

use super::print;
use super::report::{text, CountReport};
use nqueens::longrun::merge::{merge, read, Merged};
use nqueens::longrun::provenance::CountedBy;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `merge`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks that the files are all K shards of one plan, each exactly once \
    (same N, algorithm, split depth and plan fingerprint), each against its plan (its tasks \
    exactly its shard's, its sums its tasks'), sums them, compares the sums with the known \
    OEIS values (exit 3 on a mismatch) and prints the result as count does, with the shards' \
    sums of `threads` and `seconds`.\n\n\
    It also prints the run's digest: the SHA-256 of its task records in a canonical text \
    (`nqueens-run-digest v1`, a line `plan N ALGORITHM SPLIT_DEPTH [PLACED] FINGERPRINT`, then \
    `ID TOTAL CLASSES NODES` for each task in id order, CLASSES as c1,c8,quarters,sym90,sym180 \
    or -), the same whatever order the files come in: anyone can merge the published files \
    again and compare; and which builds, CPUs and hosts counted how many tasks.\n\n\
    Example:\n  for i in 0 1 2; do nqueens count 16 --shard $i/3 > s$i.json; done\n  \
    nqueens merge s0.json s1.json s2.json"
)]
pub struct MergeArgs {
    /// The shard results (the JSON printed by `count --shard I/K`).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object (the fields of `count --json`, and the digest and who counted)
    /// instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What `merge` prints: the count's report, its digest and who counted it.
#[derive(Debug, Serialize)]
struct MergeReport {
    #[serde(flatten)]
    count: CountReport,
    /// The shard files merged.
    shards: usize,
    /// The SHA-256 digest of the canonical task records.
    run_digest: String,
    /// Which builds, CPUs and hosts counted how many tasks.
    counted_by: Vec<CountedBy>,
    /// Tasks no file says who counted.
    counted_by_unrecorded: usize,
}

impl MergeReport {
    fn to_text(&self) -> String {
        let mut lines: Vec<(&str, String)> = self
            .count
            .lines()
            .into_iter()
            .filter(|(k, _)| !matches!(*k, "memory" | "nodes/s"))
            .map(|(k, v)| match k {
                "threads" | "seconds" => (k, format!("{v}  (the {} shards' sum)", self.shards)),
                _ => (k, v),
            })
            .collect();
        lines.push(("digest", format!("sha256 {}", self.run_digest)));
        for (i, c) in self.counted_by.iter().enumerate() {
            let who = format!(
                "{} tasks: {} build, {}, host {}",
                c.tasks, c.build, c.cpu, c.host
            );
            lines.push((if i == 0 { "counted by" } else { "" }, who));
        }
        if self.counted_by_unrecorded > 0 {
            let key = if self.counted_by.is_empty() {
                "counted by"
            } else {
                ""
            };
            let n = self.counted_by_unrecorded;
            lines.push((key, format!("{n} tasks: not recorded (older files)")));
        }
        text(&lines)
    }
}

pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    let parts = a
        .files
        .iter()
        .map(|f| Ok((f.display().to_string(), read(f)?)))
        .collect::<nqueens::Result<Vec<_>>>()?;
    let Merged {
        totals,
        digest,
        counted_by,
        unrecorded,
    } = merge(&parts, &super::options()?)?;
    let report = MergeReport {
        count: CountReport::new(&totals),
        shards: parts.len(),
        run_digest: digest,
        counted_by,
        counted_by_unrecorded: unrecorded,
    };
    if a.json {
        print(&(serde_json::to_string(&report)? + "\n"))?;
    } else {
        print(&report.to_text())?;
    }
    Ok(totals.cross_check()?)
}
