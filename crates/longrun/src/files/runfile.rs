//! A file of a long run, found among others: a shard result or a checkpoint, told apart by
//! its `format`, read whole ([`RunFile::read`]) or one record at a time
//! ([`RunFile::read_each`]).

use crate::files::checkpoint::{self, Checkpoint};
use crate::files::disk;
use crate::files::reading;
use crate::files::record::Done;
use crate::files::result::{self, ShardResult, SHARD_FORMAT};
use crate::files::stream::{Collect, Records, Source};
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use std::io::Read;
use std::path::Path;

/// A file a long run writes: a shard result or a checkpoint, told apart by its `format`.
#[derive(Debug, Clone)]
pub enum RunFile {
    /// What `count --shard` printed.
    Shard(ShardResult),
    /// A checkpoint.
    Checkpoint(Checkpoint),
}

/// How many bytes of a file are looked at to tell its kind from its first field.
const PEEK: usize = 64;

impl RunFile {
    /// Reads `path` and checks it ([`result::read`], [`Checkpoint::read`]), its records held.
    /// A file of ours that is damaged (one that begins as our files do,
    /// `{"format":"nqueens-…`, or a `.ckpt` that is not JSON) is an error naming it; any other
    /// file (JSON of another kind, notes that mention our formats, an audit's report) is
    /// `Ok(None)`: not a file of a run.
    pub fn read(path: &Path) -> Result<Option<RunFile>> {
        let mut all = Collect::default();
        Ok(match RunFile::read_each(path, &mut all)? {
            Some(RunFile::Shard(r)) => Some(RunFile::Shard(ShardResult { done: all.0, ..r })),
            Some(RunFile::Checkpoint(c)) => {
                Some(RunFile::Checkpoint(Checkpoint { done: all.0, ..c }))
            }
            None => None,
        })
    }

    /// [`RunFile::read`], one record at a time: the file's fields go to `sink` when its
    /// records begin, then each record as it is read ([`result::read_each`],
    /// [`Checkpoint::read_each`]); the file is returned without its records. What is held
    /// is the file's fields, a buffer and what `sink` keeps, whatever the file's size.
    pub fn read_each(path: &Path, sink: &mut dyn Records<RunFile>) -> Result<Option<RunFile>> {
        let name = path.shown().to_string();
        let open = || {
            reading::open_regular(path, "file")?.ok_or_else(|| {
                Error::Input(match reading::link_target(path) {
                    Some(to) => format!(
                        "cannot read {name}: it is a symbolic link to {}, which does not exist",
                        to.shown()
                    ),
                    None => format!("cannot read {name}: no such file"),
                })
            })
        };
        let mut f = std::io::BufReader::with_capacity(64 << 10, open()?);
        let size = f.get_ref().metadata().ok().map(|m| m.len());
        let mut peek = Vec::with_capacity(PEEK);
        (&mut f)
            .take(PEEK as u64)
            .read_to_end(&mut peek)
            .map_err(|e| Error::io(format!("cannot read result {name}"), e))?;
        if peek.starts_with("\u{feff}".as_bytes()) {
            return Err(Error::Input(format!(
                "{name} begins with a byte-order mark (an editor added it): remove it (e.g. \
                 sed -i '1s/^\\xEF\\xBB\\xBF//' {name}) or count that shard again"
            )));
        }
        let text = String::from_utf8_lossy(&peek);
        let begins = |f: &str| {
            text.trim_start()
                .starts_with(&format!("{{\"format\":\"{f}\""))
        };
        let kind = if begins(SHARD_FORMAT) {
            Some(SHARD_FORMAT)
        } else if begins(checkpoint::FORMAT) {
            Some(checkpoint::FORMAT)
        } else {
            kind_from_head(peek.as_slice().chain(&mut f), &name)
        };
        let Some(kind) = kind else { return Ok(None) };
        // From the start: the peek, then the rest (or the file again, where telling its kind
        // took more than a peek).
        let whole: Box<dyn Read> = if peek.len() < PEEK || begins(kind) {
            Box::new(peek.as_slice().chain(f))
        } else {
            Box::new(open()?)
        };
        Ok(Some(if kind == SHARD_FORMAT {
            RunFile::Shard(result::read_each(
                Source::new(whole, size),
                &name,
                &mut AsRunFile(sink),
            )?)
        } else {
            let source = Source::new(whole, size);
            let c = Checkpoint::read_each(source, &name, &mut AsRunFile(sink))?;
            RunFile::Checkpoint(c)
        }))
    }
}

/// The kind of a file whose first field is not its format: its `format` wherever it is in
/// the object, read from `text` (the file from its start). Only the format is looked at, and
/// only where it is a short string: the rest is skipped as it is read, not built (a generic
/// value of a large file would take many times its size). A `.ckpt` that is not JSON is a
/// damaged checkpoint.
fn kind_from_head(text: impl Read, name: &str) -> Option<&'static str> {
    #[derive(serde::Deserialize)]
    struct Head {
        format: Option<FormatName>,
    }
    let head = serde_json::from_reader::<_, Head>(text.take(disk::MAX_FILE_BYTES)).ok();
    match head.as_ref().and_then(|h| h.format.as_ref()?.0.as_deref()) {
        Some(SHARD_FORMAT) => Some(SHARD_FORMAT),
        Some(checkpoint::FORMAT) => Some(checkpoint::FORMAT),
        Some(_) => None,
        None if head.is_none() && name.ends_with(".ckpt") => Some(checkpoint::FORMAT),
        None => None,
    }
}

/// A file's `format` where it is a short string (`None` for any other value, skipped as it
/// is read, not built).
struct FormatName(Option<String>);

impl<'de> serde::Deserialize<'de> for FormatName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Name;
        impl<'de> serde::de::Visitor<'de> for Name {
            type Value = FormatName;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a format name")
            }
            fn visit_str<E>(self, s: &str) -> std::result::Result<FormatName, E> {
                Ok(FormatName((s.len() <= 64).then(|| s.to_string())))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<FormatName, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(FormatName(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<FormatName, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(FormatName(None))
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<FormatName, E> {
                Ok(FormatName(None))
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<FormatName, E> {
                Ok(FormatName(None))
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<FormatName, E> {
                Ok(FormatName(None))
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<FormatName, E> {
                Ok(FormatName(None))
            }
            fn visit_unit<E>(self) -> std::result::Result<FormatName, E> {
                Ok(FormatName(None))
            }
        }
        d.deserialize_any(Name)
    }
}

/// A sink of run files, given a shard result's or a checkpoint's records.
struct AsRunFile<'a>(&'a mut dyn Records<RunFile>);

impl<H: Clone + Into<RunFile>> Records<H> for AsRunFile<'_> {
    fn head(&mut self, head: &H) -> Result<()> {
        self.0.head(&head.clone().into())
    }
    fn record(&mut self, d: &Done) -> Result<()> {
        self.0.record(d)
    }
}

impl From<ShardResult> for RunFile {
    fn from(r: ShardResult) -> RunFile {
        RunFile::Shard(r)
    }
}

impl From<Checkpoint> for RunFile {
    fn from(c: Checkpoint) -> RunFile {
        RunFile::Checkpoint(c)
    }
}
