//! Checkpoints: the finished tasks of a count, saved so an interrupted count can resume.
//!
//! A checkpoint is one JSON object (format `"nqueens-checkpoint"`, version 3):
//!
//! ```json
//! {"format":"nqueens-checkpoint","version":2,"n":14,"algorithm":"symmetric","split_depth":2,
//!  "placed":[],"fingerprint":"…","shard":null,"tasks":7608,
//!  "done":[{"id":0,"counts":{"total":8,"classes":[0,1,0,0,0],"nodes":123}}, …],
//!  "counted_by":[{"build":"avx2","cpu":"…","host":"…","tasks":37}],"checksum":"…"}
//! ```
//!
//! `fingerprint` is the plan's ([`nqueens_count::backtracking::plan::Plan::fingerprint`]), `shard` the `--shard` (or null),
//! `tasks` the number of tasks in scope, `done` the finished ones with their counts,
//! `counted_by` which build, CPU and host counted how many of them ([`CountedBy`]), and
//! `checksum` the FNV-1a 64 of the same object serialised compactly with `checksum` empty: an
//! edited or truncated file is refused, never silently restarted.
//!
//! Files are replaced atomically and safely by [`crate::files::disk::replace`]: a crash at any
//! instant leaves the previous good file. A checksum catches accidents (a truncated or edited
//! file), not forgery: anyone can recompute it. `nqueens audit` recounts recorded tasks.

use crate::distributed::shard::Shard;
use crate::files::disk;
use crate::files::provenance::CountedBy;
use crate::files::reading;
pub use crate::files::record::Done;
use crate::files::seal;
use crate::files::stream::{self, Collect, Records, Source};
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use nqueens_count::plan_id::PlanId;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The checkpoint format's name.
pub const FORMAT: &str = "nqueens-checkpoint";
/// The checkpoint format's version (3: `counted_by`).
pub const VERSION: u32 = 3;

/// The oldest version read: this one (version 2, without `counted_by`, is no longer read:
/// no published file needs it).
pub const OLDEST_VERSION: u32 = 3;

/// A checkpoint file's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The plan (its fields sit at the top level of the JSON).
    #[serde(flatten)]
    pub plan: PlanId,
    /// The shard counted, if any.
    pub shard: Option<Shard>,
    /// Tasks in scope (the plan's, or the shard's).
    pub tasks: usize,
    /// The finished tasks, by id.
    pub done: Vec<Done>,
    /// Which build, CPU and host counted how many of them.
    #[serde(default)]
    pub counted_by: Vec<CountedBy>,
    /// The wall seconds the runs that saved this checkpoint spent counting, added up (none
    /// in files saved before it was kept): a resumed shard's result adds its own to them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seconds: f64,
    /// FNV-1a 64 of the compact JSON of this object with `checksum` empty.
    pub checksum: String,
}

/// Whether a count is zero: a field that is left out of a file then.
fn is_zero<T: Default + PartialEq>(x: &T) -> bool {
    *x == T::default()
}

impl Checkpoint {
    /// An empty checkpoint for the plan `plan` (and `shard`) with `tasks` tasks in scope.
    pub fn new(plan: &PlanId, shard: Option<Shard>, tasks: usize) -> Checkpoint {
        Checkpoint {
            format: FORMAT.into(),
            version: VERSION,
            plan: plan.clone(),
            shard,
            tasks,
            done: Vec::new(),
            counted_by: Vec::new(),
            seconds: 0.0,
            checksum: String::new(),
        }
    }

    fn seal(&self) -> String {
        let mut copy = self.clone();
        copy.checksum.clear();
        seal::seal(&copy)
    }

    fn describe(&self) -> String {
        let shard = self
            .shard
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default();
        format!("{}{shard}", self.plan.describe())
    }

    /// Writes the checkpoint to `path` atomically (see the module docs).
    pub fn save(&mut self, path: &Path) -> Result<()> {
        self.version = VERSION;
        self.done.sort_by_key(|d| d.id);
        self.checksum = self.seal();
        let text = serde_json::to_string(self).unwrap_or_default() + "\n";
        disk::replace(path, text.as_bytes(), "checkpoint")
    }

    /// Reads the checkpoint at `path` if there is one, and checks that it belongs to this
    /// count (`expected`, from [`Checkpoint::new`]). A missing file is `Ok(None)`; a corrupt,
    /// edited or foreign one is an error saying so.
    pub fn load(path: &Path, expected: &Checkpoint) -> Result<Option<Checkpoint>> {
        let Some(c) = Checkpoint::read(path)? else {
            return Ok(None);
        };
        if c.plan != expected.plan || c.shard != expected.shard || c.tasks != expected.tasks {
            let mut differ = vec![c.plan.differences(&expected.plan)];
            if c.shard != expected.shard {
                let s = |s: Option<Shard>| s.map_or("none".into(), |s| s.to_string());
                differ.push(format!("shard {}, not {}", s(c.shard), s(expected.shard)));
            }
            if c.tasks != expected.tasks {
                differ.push(format!("{} tasks, not {}", c.tasks, expected.tasks));
            }
            differ.retain(|d| !d.is_empty());
            let parts = if c.plan.algorithm == nqueens_count::Algorithm::Quadrants
                && c.plan.fingerprint != expected.plan.fingerprint
            {
                " (a plan made with other `quadrants.parts` has a fingerprint of its own)"
            } else {
                ""
            };
            return Err(Error::Input(format!(
                "checkpoint {} belongs to another count ({}): it has {}{parts}; use another \
                 `checkpoint` file, or run that count to resume it",
                path.shown(),
                c.describe(),
                differ.join(", "),
            )));
        }
        Ok(Some(c))
    }

    /// Reads the checkpoint at `path` if there is one and checks what the file alone can
    /// show: its format, its checksum, no task twice, every task's counts consistent. Its
    /// records are held: a reader of large files streams them ([`Checkpoint::read_each`]).
    pub fn read(path: &Path) -> Result<Option<Checkpoint>> {
        let Some(f) = reading::open_regular(path, "checkpoint")? else {
            return Ok(None);
        };
        let size = f.metadata().ok().map(|m| m.len());
        Checkpoint::collect(Source::new(f, size), &path.shown().to_string()).map(Some)
    }

    /// Parses and checks the text of checkpoint file `name` (see [`Checkpoint::read`]).
    pub fn parse(text: &str, name: &str) -> Result<Checkpoint> {
        let text = text.trim();
        Checkpoint::collect(Source::text(text), name)
    }

    /// [`Checkpoint::read_each`] with every record kept in `done`.
    fn collect(source: Source<impl std::io::Read>, name: &str) -> Result<Checkpoint> {
        let mut all = Collect::default();
        let mut c = Checkpoint::read_each(source, name, &mut all)?;
        c.done = all.0;
        Ok(c)
    }

    /// Reads checkpoint file `name` from `source` one record at a time
    /// ([`crate::files::stream`]): its fields go to `sink` when its records begin, and each record,
    /// its counts checked, as it is read. The checkpoint has no records (`done` is empty) and
    /// is returned once the whole file passed the checks of [`Checkpoint::read`]; the sink's
    /// first error is returned after them.
    pub fn read_each(
        source: Source<impl std::io::Read>,
        name: &str,
        sink: &mut dyn Records<Checkpoint>,
    ) -> Result<Checkpoint> {
        let keep = "move it away (or delete it) to start this count from the beginning";
        let mut fields = CheckpointFields {
            name,
            sink,
            ids: Vec::new(),
        };
        let s = stream::stream(source, disk::MAX_FILE_BYTES, &mut fields);
        let corrupt = |e: String| {
            Error::Input(format!(
                "checkpoint {name} is corrupt or truncated ({e}); refusing to start over \
                 silently: {keep}"
            ))
        };
        if let Some(e) = s.too_large(name, "checkpoint") {
            return Err(e);
        }
        if s.not_text {
            return Err(Error::Input(format!(
                "checkpoint {name} is not text (invalid UTF-8): it is damaged or not a \
                 checkpoint"
            )));
        }
        let c: Checkpoint = match (&s.json, s.has_records) {
            (Some(e), _) => Err(corrupt(e.to_string())),
            (None, false) => Err(corrupt("missing field `done`".into())),
            (None, true) => s
                .fields
                .typed()
                .map_err(|e| corrupt(stream::first_words(&e))),
        }?;
        check_fields(&c, name)?;
        if s.seal.as_ref() != Some(&c.checksum) {
            return Err(Error::Input(format!(
                "checkpoint {name} fails its checksum: it was edited or damaged; refusing to \
                 use it: {keep}"
            )));
        }
        if let Some(e) = s.failed {
            return Err(e);
        }
        // Files are saved in id order; one that is not is still read, its ids checked here.
        let mut ids = fields.ids;
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Input(format!(
                "checkpoint {name} lists task {} twice: {keep}",
                w[0]
            )));
        }
        if let Some(why) = counted_by_invalid(&c.counted_by, s.listed) {
            return Err(Error::Input(format!(
                "checkpoint {name}: {why}: it was forged or damaged: {keep}"
            )));
        }
        Ok(c)
    }
}

/// The checks of a checkpoint's fields that come before its seal's: its format and version,
/// its shard.
fn check_fields(c: &Checkpoint, name: &str) -> Result<()> {
    let keep = "move it away (or delete it) to start this count from the beginning";
    if c.format != FORMAT || !(OLDEST_VERSION..=VERSION).contains(&c.version) {
        return Err(Error::Input(format!(
            "{name} is not a checkpoint this nqueens reads (format {:?} version {}, expected \
             {FORMAT:?} version {OLDEST_VERSION} to {VERSION})",
            c.format, c.version
        )));
    }
    if let Some(Err(e)) = c.shard.map(|s| s.check()) {
        return Err(Error::Input(format!("checkpoint {name}: {e}: {keep}")));
    }
    Ok(())
}

/// A checkpoint's fields and records on their way to a sink, each record's counts checked
/// (and its id kept, 4 bytes, to find one listed twice at the end).
struct CheckpointFields<'a> {
    name: &'a str,
    sink: &'a mut dyn Records<Checkpoint>,
    ids: Vec<u32>,
}

impl stream::Fields for CheckpointFields<'_> {
    fn head(&mut self, fields: &stream::RawFields) -> Result<()> {
        let name = self.name;
        let c: Checkpoint = fields.typed().map_err(|e| {
            Error::Input(format!(
                "checkpoint {name} lists its records before its fields, or lacks one ({}): count \
                 writes them first; it was forged or damaged",
                stream::first_words(&e)
            ))
        })?;
        check_fields(&c, name)?;
        self.sink.head(&c)
    }

    fn record(&mut self, d: Done) -> Result<()> {
        if !d.counts.consistent() {
            return Err(Error::Input(format!(
                "checkpoint {}: task {}'s counts do not add up (total {} against its class \
                 counts): it was forged or damaged: move it away (or delete it) to start this \
                 count from the beginning",
                self.name, d.id, d.counts.total
            )));
        }
        self.ids.push(d.id);
        self.sink.record(&d)
    }
}

/// Why the `counted_by` of a file of `tasks` recorded tasks cannot be what runs wrote, if it
/// cannot: an entry that names no build or an unprintable CPU or host, or more tasks counted
/// than recorded.
pub fn counted_by_invalid(list: &[CountedBy], tasks: usize) -> Option<String> {
    if let Some(why) = list.iter().find_map(CountedBy::invalid) {
        return Some(format!("a `counted_by` entry: {why}"));
    }
    if list.iter().any(|c| c.tasks == 0) {
        return Some(
            "a `counted_by` entry counted no task (a run that counts none adds none)".into(),
        );
    }
    let mut places = std::collections::HashSet::with_capacity(list.len());
    for c in list {
        if !places.insert((&c.build, &c.cpu, &c.host)) {
            return Some(format!(
                "two `counted_by` entries name the same build, CPU and host ({}, {}, {}): a run \
                 adds its tasks to its entry",
                c.build, c.cpu, c.host
            ));
        }
    }
    let counted = list.iter().fold(0usize, |a, c| a.saturating_add(c.tasks));
    (counted > tasks).then(|| format!("`counted_by` says {counted} tasks of its {tasks}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_count::backtracking::plan::Plan;
    use nqueens_count::tally::Tally;
    use nqueens_count::Algorithm;

    #[test]
    fn save_load_and_refusals() {
        let dir = std::env::temp_dir().join(format!("nqueens-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.json");
        let plan = Plan::new(8, Algorithm::Symmetric, 1).unwrap();
        let mut c = Checkpoint::new(&plan.id(), None, plan.tasks().len());
        assert_eq!(Checkpoint::load(&path, &c), Ok(None));
        c.done.push(Done {
            id: 3,
            counts: Tally::default(),
        });
        c.save(&path).unwrap();
        let back = Checkpoint::load(&path, &c).unwrap().unwrap();
        assert_eq!(back.done, c.done);
        // Another board.
        let other = Plan::new(9, Algorithm::Symmetric, 1).unwrap();
        let e = Checkpoint::load(
            &path,
            &Checkpoint::new(&other.id(), None, other.tasks().len()),
        );
        assert!(e
            .unwrap_err()
            .to_string()
            .contains("belongs to another count (N=8"));
        // Edited.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("\"id\":3", "\"id\":4")).unwrap();
        let e = Checkpoint::load(&path, &c).unwrap_err().to_string();
        assert!(e.contains("fails its checksum"), "{e}");
        // Truncated.
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        let e = Checkpoint::load(&path, &c).unwrap_err().to_string();
        assert!(e.contains("corrupt or truncated"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
