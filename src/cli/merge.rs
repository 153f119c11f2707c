//! `nqueens merge FILES...`.

use super::args::common::options;
use super::count::report::CountReport;
use super::output::text::key_values;
use super::output::{self, json_line, Report, ReportFormat};
use nqueens::board::shown::Show;
use nqueens::longrun::distributed::merge::{Adding, Merged, Merger};
use nqueens::longrun::distributed::status::{files, list_paths};
use nqueens::longrun::files::provenance::CountedBy;
use nqueens::longrun::files::record::Done;
use nqueens::longrun::files::stream::Records;
use nqueens::longrun::RunFile;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Arguments of `merge`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Checks that the files are all K shards of one plan, each exactly once \
    (same N, algorithm, split depth and plan fingerprint), each against its plan (its tasks \
    exactly its shard's, its sums its tasks'), sums them, compares the sums with the known \
    OEIS values (exit 3 on a mismatch) and prints the result as count does, with the shards' \
    sums of `threads` and `seconds`.\n\n\
    Files may be given as arguments, as directories (searched for shard results, *.json, 8 \
    levels deep; checkpoints and other files there are skipped) or in a list file (--list, one \
    path a line): a run of a million shards overflows any shell's arguments. Files are read \
    one at a time and dropped: the memory a merge needs does not grow with the number of \
    files or records.\n\n\
    It also prints the run's digest (v2): SHA-256 of the plan, the number of records that found \
    something, and the lane-wise sum (an LtHash of 1024 lanes of 16 bits) of each such \
    record's BLAKE3 expansion: the same whatever order the files come in and whatever K, and \
    made without holding the records; see docs/guide/trust.md. `--digest v1` gives the digest \
    runs merged before v2 published (SHA-256 of every record in id order; it holds them all); \
    and which builds, CPUs and hosts counted how many tasks.\n\n\
    Example:\n  for i in 0 1 2; do nqueens count 16 --shard $i/3 > s$i.json; done\n  \
    nqueens merge s0.json s1.json s2.json"
)]
pub struct MergeArgs {
    /// The shard results (what `count --shard I/K` writes), or directories that hold them.
    #[arg(value_name = "FILES|DIRS", required_unless_present = "list")]
    pub files: Vec<PathBuf>,
    /// A file that lists the shard results (or directories), one path per line (`-`: standard
    /// input).
    #[arg(long, value_name = "FILE")]
    pub list: Vec<PathBuf>,
    /// Which digest to give: v2 (streamed), or v1, the digest of runs merged before v2 (it
    /// holds every record: for runs of up to a few million tasks).
    #[arg(long, value_name = "VERSION", default_value = "v2", value_parser = ["v1", "v2"])]
    pub digest: String,
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
    /// The run's digest ([`MergeReport::digest_version`]).
    run_digest: String,
    /// Which digest: 1 or 2.
    digest_version: u32,
    /// Which builds, CPUs and hosts counted how many tasks.
    counted_by: Vec<CountedBy>,
    /// Tasks no file says who counted.
    counted_by_unrecorded: usize,
}

impl Report for MergeReport {
    fn json(&self) -> serde_json::Result<String> {
        json_line(self)
    }

    fn text(&self) -> String {
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
        lines.push((
            "digest",
            format!("sha256 {} (v{})", self.run_digest, self.digest_version),
        ));
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
        key_values(&lines)
    }
}

/// Adds the shard result in `path`, given as an argument (`explicit`) or found in a
/// directory, to the merge, one record at a time (the first shard makes the merge): a file
/// found that is not a shard result (a checkpoint, a log, a report) is passed over (`false`);
/// one given that is not is an error that says what it is.
fn add_shard(
    path: &Path,
    explicit: bool,
    merger: &mut Option<Merger>,
    opts: &nqueens::Options,
    v1: bool,
) -> nqueens::Result<bool> {
    let name = path.shown().to_string();
    let mut file = MergeFile {
        merger,
        opts,
        v1,
        name: name.clone(),
        adding: None,
    };
    let read = RunFile::read_each(path, &mut file)?;
    let adding = file.adding;
    match read {
        Some(RunFile::Shard(r)) => {
            let m = merger.as_mut().expect("made by the shard's fields");
            m.commit(&r, adding.expect("begun by the shard's fields"))?;
            Ok(true)
        }
        _ if !explicit => Ok(false),
        Some(RunFile::Checkpoint(_)) => Err(nqueens::Error::Input(format!(
            "{name} is a checkpoint, not a shard result: run its count again (the same \
             command) to finish it and write its result, then merge the result"
        ))),
        None => Err(nqueens::Error::Input(format!(
            "{name} is not a shard result (the JSON a sharded count writes)"
        ))),
    }
}

/// A shard result being added to a merge as it is read.
struct MergeFile<'a> {
    merger: &'a mut Option<Merger>,
    opts: &'a nqueens::Options,
    v1: bool,
    name: String,
    adding: Option<Adding>,
}

impl Records<RunFile> for MergeFile<'_> {
    fn head(&mut self, file: &RunFile) -> nqueens::Result<()> {
        let RunFile::Shard(r) = file else {
            return Ok(());
        };
        let m = match &mut self.merger {
            Some(m) => m,
            None => {
                let m = Merger::new(&self.name, r, self.opts)?;
                self.merger
                    .insert(if self.v1 { m.with_v1_digest() } else { m })
            }
        };
        self.adding = Some(m.begin(&self.name, r)?);
        Ok(())
    }

    fn record(&mut self, d: &Done) -> nqueens::Result<()> {
        match &mut self.adding {
            Some(a) => a.record(d),
            None => Ok(()),
        }
    }
}

pub fn run(a: MergeArgs) -> anyhow::Result<()> {
    // The lists are read a line at a time as their files are merged: a file given twice is
    // refused as soon as it is met, and a list's length costs no memory.
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
    let opts = options()?;
    let mut merger: Option<Merger> = None;
    let mut shards = 0usize;
    for g in given {
        let g = g?;
        let explicit = !g.is_dir();
        for path in files(std::slice::from_ref(&g))? {
            if !explicit && path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            if add_shard(&path, explicit, &mut merger, &opts, a.digest == "v1")? {
                shards += 1;
            }
        }
    }
    let Some(merger) = merger else {
        return Err(nqueens::Error::Usage(
            "merge found no shard result in what it was given: give the files `count --shard \
             I/K` wrote, the directories that hold them, or a --list of them"
                .into(),
        )
        .into());
    };
    let Merged {
        totals,
        digest,
        digest_version,
        counted_by,
        unrecorded,
    } = merger.finish()?;
    let report = MergeReport {
        count: CountReport::new(&totals, false),
        shards,
        run_digest: digest,
        digest_version,
        counted_by,
        counted_by_unrecorded: unrecorded,
    };
    output::print(&report, ReportFormat::json_if(a.json))?;
    Ok(totals.cross_check()?)
}
