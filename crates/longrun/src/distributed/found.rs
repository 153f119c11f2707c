//! One file of a run found by [`crate::distributed::walk::files`], read a record at a time by `status`
//! ([`read_found`]): a file of the run, another file, one gone since it was found, or one
//! damaged; and what a checkpoint's records add up to ([`DoneSoFar`]).

use crate::files::record::Done;
use crate::files::runfile::RunFile;
use crate::files::stream::Records;
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use nqueens_count::engine::Work;
use std::path::Path;

/// A sink that notes whether it failed: its error is then the run's (a check against the
/// plan), not the file's own (its JSON, its seal).
pub(super) struct FailureNoted<S> {
    pub(super) sink: S,
    pub(super) failed: bool,
}

impl<S> FailureNoted<S> {
    pub(super) fn new(sink: S) -> FailureNoted<S> {
        FailureNoted {
            sink,
            failed: false,
        }
    }
}

impl<S: Records<RunFile>> Records<RunFile> for FailureNoted<S> {
    fn head(&mut self, file: &RunFile) -> Result<()> {
        let r = self.sink.head(file);
        self.failed |= r.is_err();
        r
    }
    fn record(&mut self, d: &Done) -> Result<()> {
        let r = self.sink.record(d);
        self.failed |= r.is_err();
        r
    }
}

/// What a checkpoint's records add up to: how many, their expected work, their solutions.
#[derive(Debug, Default)]
pub(super) struct DoneSoFar {
    pub(super) done: usize,
    pub(super) work: f64,
    pub(super) solutions: u128,
}

impl DoneSoFar {
    /// Adds record `d` of file `name`, its expected work by `work`.
    pub(super) fn add(&mut self, name: &str, d: &Done, work: &Work) -> Result<()> {
        self.done += 1;
        self.work += work.get(d.id).unwrap_or(0) as f64;
        self.solutions = self.solutions.checked_add(d.counts.total).ok_or_else(|| {
            Error::Input(format!(
                "{name}: its tasks' counts add up past 2^128: it was forged or damaged"
            ))
        })?;
        Ok(())
    }
}

/// What reading one of the files found gave.
pub(super) enum FoundFile {
    /// A file of a run (its fields; boxed: it is large beside the others).
    Run(String, Box<RunFile>),
    /// Another file (JSON of another kind).
    Other,
    /// Gone since it was found (a finished shard's checkpoint removed meanwhile).
    Vanished(String),
    /// A file of ours that cannot be read or is damaged (or, where its reader says so, that
    /// fails a check of the run): why, and the error.
    Damaged(String, Error),
}

/// Reads `f`, its records given to `sink` ([`RunFile::read_each`]), telling a file that
/// vanished since it was found, and one that is damaged, from the others: neither ends the
/// report.
pub(super) fn read_found(f: &Path, sink: &mut dyn Records<RunFile>) -> FoundFile {
    let gone = || std::fs::symlink_metadata(f).is_err();
    // A file that cannot be read is a file of the run that fails (exit 2), never "not yet"
    // (exit 1): a script waiting for 0 would wait for ever.
    let read = RunFile::read_each(f, sink).map_err(|e| match e {
        Error::Io { .. } => Error::Input(e.to_string()),
        e => e,
    });
    match read {
        Ok(Some(file)) => FoundFile::Run(f.shown().to_string(), Box::new(file)),
        Ok(None) if gone() => FoundFile::Vanished(f.shown().to_string()),
        Ok(None) => FoundFile::Other,
        Err(_) if gone() => FoundFile::Vanished(f.shown().to_string()),
        Err(e) => FoundFile::Damaged(e.to_string(), e),
    }
}

/// The files `status` found that it did not read as the run's: gone, or damaged.
#[derive(Default)]
pub(super) struct Skipped {
    pub(super) vanished: Vec<String>,
    pub(super) damaged: Vec<String>,
}

impl Skipped {
    /// Notes what reading a file found, if it vanished or is damaged.
    pub(super) fn note(&mut self, found: FoundFile) {
        match found {
            FoundFile::Run(..) | FoundFile::Other => {}
            FoundFile::Vanished(name) => self.vanished.push(name),
            FoundFile::Damaged(why, _) => self.damaged.push(why),
        }
    }
}
