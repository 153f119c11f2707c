//! The shard result file: what `count --shard I/K` writes ([`ShardResult`]), and how one file
//! is read and checked on its own (its format and version, its seal, its shard index, its
//! sums against its tasks and their class counts, the fields that are not counts). What a file
//! must agree with beyond itself (its plan, its assignment, the other shards) is
//! [`crate::files::check`]'s and [`crate::distributed::merge`]'s.

use crate::distributed::shard::{Shard, MAX_SHARDS};
use crate::files::checkpoint::counted_by_invalid;
use crate::files::disk;
use crate::files::provenance::CountedBy;
use crate::files::reading;
use crate::files::record::Done;
use crate::files::seal;
use crate::files::stream::{self, Collect, Records, Source};
use nqueens_board::error::{Error, Result};
use nqueens_board::limits::MAX_THREADS;
use nqueens_board::shown::Show;
use nqueens_count::algorithm::Algorithm;
use nqueens_count::plan_id::PlanId;
use nqueens_count::tally::Tally;
use nqueens_count::Backend;
use serde::{Deserialize, Serialize};

/// What a shard run prints: enough to check and merge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// Always `"nqueens-shard"`.
    pub format: String,
    /// Format version ([`SHARD_VERSION`]).
    pub version: u32,
    /// The plan (its fields sit at the top level of the JSON).
    #[serde(flatten)]
    pub plan: PlanId,
    /// Which shard this is.
    pub shard: Shard,
    /// Tasks in this shard.
    pub tasks: usize,
    /// Tasks in the whole plan.
    pub plan_tasks: usize,
    /// This shard's counts (planner nodes included in shard 0 only).
    pub counts: Tally,
    /// The backtracking kernel that counted; none for the quadrant method, which has no
    /// kernels (version 3 files name one anyway).
    pub kernel: Option<String>,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of this shard's search, in seconds: every run of it added up, where it was
    /// resumed from a checkpoint.
    pub seconds: f64,
    /// Tasks of the shard taken from a checkpoint, counted by earlier runs (left out of the
    /// file when there are none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub resumed_tasks: usize,
    /// The shard's tasks with their counts, by id: what `audit` recounts and `merge` adds
    /// up. Every task in versions 3 and 4; from version 5 only the tasks that found something
    /// (a task not listed found nothing: all its counts are 0), in the compact form
    /// ([`compact`](crate::files::record::compact)).
    #[serde(with = "crate::files::record::compact")]
    pub done: Vec<Done>,
    /// Which build, CPU and host counted how many of its tasks (none in a version 3 file).
    #[serde(default)]
    pub counted_by: Vec<CountedBy>,
    /// The seal: [`seal::seal`] of this object with `checksum` empty.
    pub checksum: String,
}

impl ShardResult {
    /// This result with its tasks in id order and its checksum set (after the last change).
    pub fn sealed(mut self) -> ShardResult {
        self.done.sort_by_key(|d| d.id);
        if self.sparse() {
            self.done.retain(|d| !d.counts.is_zero());
        }
        self.checksum = self.seal();
        self
    }

    /// Whether the file leaves out the tasks that found nothing (version 5 on).
    pub fn sparse(&self) -> bool {
        self.version >= SPARSE_VERSION
    }

    fn seal(&self) -> String {
        let mut copy = self.clone();
        copy.checksum.clear();
        seal::seal(&copy)
    }
}

/// The current shard file format.
pub const SHARD_FORMAT: &str = "nqueens-shard";

/// The shard file format's version (2: classes as `[c1, c8, quarters, sym90, sym180]`; 3:
/// the counts of every task and a checksum; 4: `counted_by`, and no kernel for the quadrant
/// method; 5: only the tasks that found something, each as an array of numbers).
pub const SHARD_VERSION: u32 = 5;

/// The first version that leaves out the tasks that found nothing.
pub const SPARSE_VERSION: u32 = 5;

/// The oldest shard file version read.
pub const OLDEST_SHARD_VERSION: u32 = 3;

/// Whether a count is zero: a field that is left out of a file then.
fn is_zero(x: &usize) -> bool {
    *x == 0
}

/// Reads a shard result, naming the file when it cannot, and checks what one file can show:
/// its format, its seal, its shard index, and that every task's counts and the sums agree
/// with their class counts and with each other's ids. Its records are held: a reader of
/// large files streams them ([`read_each`]).
pub fn read(path: &std::path::Path) -> Result<ShardResult> {
    let name = path.shown().to_string();
    let Some(f) = reading::open_regular(path, "shard")? else {
        return Err(Error::Input(format!(
            "cannot read shard {name}: no such file"
        )));
    };
    let size = f.metadata().ok().map(|m| m.len());
    collect(Source::new(f, size), &name)
}

/// Parses and checks the text of shard file `name` (see [`read`]).
pub fn parse(text: &str, name: &str) -> Result<ShardResult> {
    let text = text.trim();
    collect(Source::text(text), name)
}

/// [`read_each`] with every record kept in `done`.
fn collect(source: Source<impl std::io::Read>, name: &str) -> Result<ShardResult> {
    let mut all = Collect::default();
    let mut r = read_each(source, name, &mut all)?;
    r.done = all.0;
    Ok(r)
}

/// Reads shard file `name` from `source` one record at a time ([`crate::files::stream`]): its fields
/// go to `sink` when its records begin, and each record, checked by itself (its sums against
/// its classes, its id above the last, none that found nothing in a version 5 file), as it is
/// read. The result has no records (`done` is empty) and is returned once the whole file
/// passed the checks of [`read`]; the sink's first error is returned after them.
pub fn read_each(
    source: Source<impl std::io::Read>,
    name: &str,
    sink: &mut dyn Records<ShardResult>,
) -> Result<ShardResult> {
    let mut fields = ShardFields {
        name,
        sink,
        sparse: false,
        last: None,
    };
    let s = stream::stream(source, disk::MAX_FILE_BYTES, &mut fields);
    if let Some(e) = s.too_large(name, "shard") {
        return Err(e);
    }
    if s.not_text {
        return Err(Error::Input(format!(
            "shard {name} is not text (invalid UTF-8): it is damaged or not a shard"
        )));
    }
    let r = match (&s.json, s.has_records) {
        (Some(e), _) => Err(not_a_shard(&s, name, e.to_string())),
        (None, false) => Err(not_a_shard(&s, name, "missing field `done`".into())),
        (None, true) => s
            .fields
            .typed::<ShardResult>()
            .map_err(|e| not_a_shard(&s, name, stream::first_words(&e))),
    }?;
    check_fields(&r, name)?;
    if s.seal.as_ref() != Some(&r.checksum) {
        return Err(Error::Input(format!(
            "shard {name} fails its checksum: it was edited or damaged; count that shard again"
        )));
    }
    if let Some(e) = s.failed {
        return Err(e);
    }
    let forged = |what: String| {
        Error::Input(format!(
            "shard {name}: {what}: the file was forged or damaged; count that shard again"
        ))
    };
    if !r.counts.consistent() {
        return Err(forged(format!(
            "the total {} does not agree with the class counts",
            r.counts.total
        )));
    }
    let listed_ok = if r.sparse() {
        s.listed <= r.tasks
    } else {
        s.listed == r.tasks
    };
    if !listed_ok {
        return Err(forged(format!(
            "it lists {} task results for {} tasks",
            s.listed, r.tasks
        )));
    }
    if let Some(why) = metadata_invalid(&r) {
        return Err(forged(why));
    }
    Ok(r)
}

/// The checks of a shard's fields that come before its seal's: its format and version, its
/// shard index, its time.
fn check_fields(r: &ShardResult, name: &str) -> Result<()> {
    if r.format != SHARD_FORMAT || !(OLDEST_SHARD_VERSION..=SHARD_VERSION).contains(&r.version) {
        return Err(Error::Input(format!(
            "{name} has format {:?} version {}; this nqueens reads {SHARD_FORMAT:?} versions \
             {OLDEST_SHARD_VERSION} to {SHARD_VERSION}",
            r.format, r.version
        )));
    }
    r.shard.check().map_err(|_| {
        Error::Input(format!(
            "{name} claims shard {}, which is out of range (0 <= I < K <= {MAX_SHARDS})",
            r.shard
        ))
    })?;
    if !(r.seconds >= 0.0 && r.seconds < 1e12) {
        return Err(Error::Input(format!(
            "shard {name} says it took {} seconds: expected a time of at least 0 (and less than \
             30,000 years)",
            r.seconds
        )));
    }
    Ok(())
}

/// A shard file's fields and records on their way to a sink, each record checked by itself.
struct ShardFields<'a> {
    name: &'a str,
    sink: &'a mut dyn Records<ShardResult>,
    sparse: bool,
    last: Option<u32>,
}

impl stream::Fields for ShardFields<'_> {
    fn head(&mut self, fields: &stream::RawFields) -> Result<()> {
        let name = self.name;
        // A file whose records come before its fields is not one count wrote (it would fail
        // its seal, or be forged): its records are not given to the sink.
        let r: ShardResult = fields.typed().map_err(|e| {
            Error::Input(format!(
                "shard {name} lists its records before its fields, or lacks one ({}): count \
                 writes them first; the file was forged or damaged; count that shard again",
                stream::first_words(&e)
            ))
        })?;
        check_fields(&r, name)?;
        self.sparse = r.sparse();
        self.sink.head(&r)
    }

    fn record(&mut self, d: Done) -> Result<()> {
        let forged = |what: String| {
            Error::Input(format!(
                "shard {}: {what}: the file was forged or damaged; count that shard again",
                self.name
            ))
        };
        if !d.counts.consistent() {
            return Err(forged(format!(
                "task {}'s total {} does not agree with its class counts",
                d.id, d.counts.total
            )));
        }
        if self.last.is_some_and(|l| l >= d.id) {
            return Err(forged(format!(
                "it lists task {} after task {}: a task twice, or out of order",
                d.id,
                self.last.unwrap_or_default()
            )));
        }
        self.last = Some(d.id);
        if self.sparse && d.counts.is_zero() {
            return Err(forged(format!(
                "it lists task {}, which found nothing (version {SPARSE_VERSION} files and later \
                 leave such tasks out)",
                d.id
            )));
        }
        self.sink.record(&d)
    }
}

/// The error for a file that does not parse as a shard: an older or newer format version
/// where its fields say so, else what the JSON parser found.
fn not_a_shard(s: &stream::Streamed, name: &str, e: String) -> Error {
    let old = s
        .fields
        .version()
        .filter(|&v| !(OLDEST_SHARD_VERSION as u64..=SHARD_VERSION as u64).contains(&v));
    match old {
        Some(v) => Error::Input(format!(
            "{name} is a shard result of format version {v}; this nqueens reads versions \
             {OLDEST_SHARD_VERSION} to {SHARD_VERSION}: count that shard again with this nqueens"
        )),
        None => Error::Input(format!(
            "{name} is not a shard result (the JSON a sharded count writes): {e}"
        )),
    }
}

/// Why the fields of `r` that are not counts cannot be what a run wrote, if they cannot: its
/// threads out of range, a kernel that is not one (or one named by a quadrant shard of
/// version 4), more tasks than its plan has, or a `counted_by` that names no build or more
/// tasks than it holds.
fn metadata_invalid(r: &ShardResult) -> Option<String> {
    if !(1..=MAX_THREADS).contains(&r.threads) {
        return Some(format!(
            "it says it ran on {} threads (1 to {MAX_THREADS} run)",
            r.threads
        ));
    }
    let quadrants = r.plan.algorithm == Algorithm::Quadrants;
    match &r.kernel {
        Some(k) if k.parse::<Backend>().is_err() => {
            return Some(format!("it names the kernel {k:?}, which is not one"))
        }
        Some(_) if quadrants && r.version >= 4 => {
            return Some("it names a kernel, which the quadrant method does not have".into())
        }
        None if !quadrants => return Some("it names no kernel".into()),
        _ => {}
    }
    if r.tasks > r.plan_tasks {
        return Some(format!(
            "it holds {} tasks of a plan of {}",
            r.tasks, r.plan_tasks
        ));
    }
    if r.resumed_tasks > r.tasks {
        return Some(format!(
            "it says it resumed {} tasks of the {} it holds",
            r.resumed_tasks, r.tasks
        ));
    }
    counted_by_invalid(&r.counted_by, r.tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with its seal set as count sets it.
    fn sealed(text: &str) -> String {
        let blank = blanked(text);
        let seal = seal::text_seal(&blank).unwrap();
        blank.replacen("\"checksum\":\"\"", &format!("\"checksum\":\"{seal}\""), 1)
    }

    /// `text` with its checksum's value emptied.
    fn blanked(text: &str) -> String {
        let key = "\"checksum\":\"";
        let at = text.rfind(key).unwrap() + key.len();
        let end = at + text[at..].find('"').unwrap();
        format!("{}{}", &text[..at], &text[end..])
    }

    /// A file read a record at a time is refused as a whole one was: its records before its
    /// fields (resealed), a field missing, fields past their budget; and a genuine one reads
    /// back with every record.
    #[test]
    fn streamed_shards_are_refused_as_whole_ones_were() {
        let genuine = include_str!("../../../../docs/examples/n12/s0.json").trim();
        let r = parse(genuine, "s0").unwrap();
        assert_eq!((r.done.len(), r.tasks), (897, 897));
        let v: serde_json::Value = serde_json::from_str(genuine).unwrap();
        let obj = v.as_object().unwrap();
        let mut first = serde_json::Map::new();
        first.insert("done".into(), obj["done"].clone());
        for (k, x) in obj.iter().filter(|(k, _)| *k != "done") {
            first.insert(k.clone(), x.clone());
        }
        let reordered = sealed(&serde_json::Value::Object(first).to_string());
        let e = parse(&reordered, "r").unwrap_err().to_string();
        assert!(e.contains("lists its records before its fields"), "{e}");
        let missing = genuine.replace("\"plan_tasks\":2711,", "");
        let e = parse(&sealed(&missing), "m").unwrap_err().to_string();
        assert!(e.ends_with("missing field `plan_tasks`"), "{e}");
        let big = genuine.replace(
            "\"kernel\":\"wide\"",
            &format!("\"kernel\":\"wide\",\"junk\":[{}0]", "0,".repeat(1 << 20)),
        );
        let e = parse(&big, "b").unwrap_err().to_string();
        assert!(
            e.contains("its fields other than its records take more than"),
            "{e}"
        );
    }
}
