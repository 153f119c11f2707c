//! The files an audit reads, one record at a time: [`Recorded`] (a file's fields, how many
//! records it lists and which found solutions), and [`Sampling`], which reads it again,
//! checked against its plan, keeping only the drawn records. What is held does not grow
//! with a file's records beyond 4 bytes for each that found solutions.

use crate::distributed::shard::Shard;
use crate::files::check::{CheckpointCheck, PlanCheck, ShardCheck};
use crate::files::provenance::CountedBy;
use crate::files::record::Done;
use crate::files::runfile::RunFile;
use crate::files::stream::Records;
use nqueens_board::error::{Error, Result};
use nqueens_board::shown::Show;
use nqueens_count::plan_id::PlanId;
use nqueens_count::tally::Tally;
use nqueens_count::Backend;
use std::path::{Path, PathBuf};

/// A file of recorded task counts: a shard result or a checkpoint, read and checked by
/// itself, its records not held.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The file's name, as given.
    pub name: String,
    /// Where it is.
    pub path: PathBuf,
    /// The file's fields, checked by themselves when it was read (no records: `done` is
    /// empty).
    pub file: RunFile,
    /// How many records it lists.
    pub listed: usize,
    /// The ids of the tasks it records solutions for, in increasing order.
    pub with_solutions: Vec<u32>,
}

/// The sink of [`Recorded::find`]: counts the records, keeps the ids with solutions.
#[derive(Default)]
struct FoundSink(usize, Vec<u32>);

impl Records<RunFile> for FoundSink {
    fn head(&mut self, _: &RunFile) -> Result<()> {
        Ok(())
    }
    fn record(&mut self, d: &Done) -> Result<()> {
        self.0 += 1;
        if d.counts.total > 0 {
            self.1.push(d.id);
        }
        Ok(())
    }
}

impl Recorded {
    /// Reads a shard result or a checkpoint (told apart by its `format`), checking its seal;
    /// `None` for a file that is neither.
    pub fn find(path: &Path) -> Result<Option<Recorded>> {
        let mut count = FoundSink::default();
        let Some(file) = RunFile::read_each(path, &mut count)? else {
            return Ok(None);
        };
        let FoundSink(listed, mut with_solutions) = count;
        with_solutions.sort_unstable();
        Ok(Some(Recorded {
            name: path.shown().to_string(),
            path: path.to_path_buf(),
            file,
            listed,
            with_solutions,
        }))
    }

    /// [`Recorded::find`], where a file that is neither a shard result nor a checkpoint is an
    /// error saying so.
    pub fn read(path: &Path) -> Result<Recorded> {
        Recorded::find(path)?.ok_or_else(|| {
            Error::Input(format!(
                "{} is neither a shard result (what a sharded count writes) nor a checkpoint",
                path.shown()
            ))
        })
    }

    /// `"shard"` or `"checkpoint"`.
    pub fn kind(&self) -> &'static str {
        match self.file {
            RunFile::Shard(_) => "shard",
            RunFile::Checkpoint(_) => "checkpoint",
        }
    }

    /// The plan the tasks belong to.
    pub fn plan(&self) -> &PlanId {
        match &self.file {
            RunFile::Shard(r) => &r.plan,
            RunFile::Checkpoint(c) => &c.plan,
        }
    }

    /// The backtracking kernel that counted them, where the file says (shard results do).
    pub fn kernel(&self) -> Option<Backend> {
        match &self.file {
            RunFile::Shard(r) => r.kernel.as_ref().and_then(|k| k.parse().ok()),
            RunFile::Checkpoint(_) => None,
        }
    }

    /// Which builds, CPUs and hosts counted them, as far as the file says.
    pub fn counted_by(&self) -> &[CountedBy] {
        match &self.file {
            RunFile::Shard(r) => &r.counted_by,
            RunFile::Checkpoint(c) => &c.counted_by,
        }
    }

    /// The shard the file is of, if any.
    pub fn shard(&self) -> Option<Shard> {
        match &self.file {
            RunFile::Shard(r) => Some(r.shard),
            RunFile::Checkpoint(c) => c.shard,
        }
    }
}

/// A drawn task: by its id (a task a sparse file may leave out), or by its place in the
/// file's list of records.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pick {
    Id(u32),
    Place(usize),
}

/// The checks of a file's records against its plan, as they are read.
enum Check {
    Shard(ShardCheck),
    Checkpoint(CheckpointCheck),
}

/// A file read again by the audit: checked against its plan as merge checks it, and the
/// records of the drawn tasks kept.
pub(super) struct Sampling<'a> {
    against: &'a mut PlanCheck,
    name: String,
    check: Option<Check>,
    /// The drawn ids (sorted, with where each goes in the sample).
    ids: Vec<(u32, usize)>,
    /// The drawn places (sorted, with where each goes in the sample).
    places: Vec<(usize, usize)>,
    sample: Vec<(u32, Tally)>,
    at: usize,
}

impl Sampling<'_> {
    /// Reads file `f` again, checks it against `against` and returns the drawn tasks `picks`
    /// with their recorded counts (a task a sparse file leaves out recorded as nothing).
    pub(super) fn read(
        f: &Recorded,
        against: &mut PlanCheck,
        picks: &[Pick],
    ) -> Result<Vec<(u32, Tally)>> {
        let mut s = Sampling {
            against,
            name: f.name.clone(),
            check: None,
            ids: Vec::new(),
            places: Vec::new(),
            sample: vec![(0, Tally::default()); picks.len()],
            at: 0,
        };
        for (i, p) in picks.iter().enumerate() {
            match *p {
                Pick::Id(id) => {
                    s.ids.push((id, i));
                    s.sample[i].0 = id;
                }
                Pick::Place(at) => s.places.push((at, i)),
            }
        }
        s.ids.sort_unstable();
        s.places.sort_unstable();
        let again = RunFile::read_each(&f.path, &mut s)?;
        let same = match (&again, &f.file) {
            (Some(RunFile::Shard(a)), RunFile::Shard(b)) => a == b,
            (Some(RunFile::Checkpoint(a)), RunFile::Checkpoint(b)) => a == b,
            _ => false,
        };
        if !same || s.at != f.listed {
            return Err(Error::Input(format!(
                "{} changed while the audit read it (a checkpoint of a count under way?): \
                 audit it again",
                f.name
            )));
        }
        if let (Some(Check::Shard(c)), Some(RunFile::Shard(r))) = (&s.check, &again) {
            c.finish(r)?;
        }
        Ok(s.sample)
    }
}

impl Records<RunFile> for Sampling<'_> {
    fn head(&mut self, file: &RunFile) -> Result<()> {
        self.check = Some(match file {
            RunFile::Shard(r) => Check::Shard(self.against.shard_head(&self.name, r)?),
            RunFile::Checkpoint(c) => {
                Check::Checkpoint(self.against.checkpoint_head(&self.name, c)?)
            }
        });
        Ok(())
    }

    fn record(&mut self, d: &Done) -> Result<()> {
        match &mut self.check {
            Some(Check::Shard(c)) => c.record(d)?,
            Some(Check::Checkpoint(c)) => c.record(d)?,
            None => {}
        }
        if let Ok(k) = self.ids.binary_search_by_key(&d.id, |&(id, _)| id) {
            self.sample[self.ids[k].1].1 = d.counts;
        }
        let at = self.at;
        let first = self.places.partition_point(|&(p, _)| p < at);
        for &(_, i) in self.places[first..].iter().take_while(|&&(p, _)| p == at) {
            self.sample[i] = (d.id, d.counts);
        }
        self.at += 1;
        Ok(())
    }
}
