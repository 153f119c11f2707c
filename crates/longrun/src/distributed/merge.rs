//! Merging shards: the results of `count --shard I/K` runs, checked and summed into the whole
//! count, with the digest that identifies it and who counted it ([`Merged`]).

use crate::files::check::{PlanCheck, ShardCheck};
use crate::files::provenance::{self, CountedBy, RunDigest};
use crate::files::record::Done;
pub use crate::files::result::{
    parse, read, ShardResult, OLDEST_SHARD_VERSION, SHARD_FORMAT, SHARD_VERSION,
};
use nqueens_board::error::{Error, Result};
use nqueens_count::tally::Tally;
use nqueens_count::Backend;
use nqueens_count::{Options, Totals};
use std::collections::HashMap;
use std::time::Duration;

/// A merged run: its totals (not yet cross-checked: see [`Totals::cross_check`]; `threads` and
/// `elapsed` are the shards' sums, `kernel` the first shard's), the digest of its task records
/// ([`provenance::RunDigest`], or v1's [`provenance::digest`] where asked), and who counted
/// them.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The whole count.
    pub totals: Totals,
    /// The run's digest, in hex: v2 ([`provenance::RunDigest`]) unless v1 was asked for.
    pub digest: String,
    /// Which digest: 1 or 2.
    pub digest_version: u32,
    /// Which builds, CPUs and hosts counted how many tasks, as the files say.
    pub counted_by: Vec<CountedBy>,
    /// Tasks no file says who counted (files of version 3, or runs resumed from checkpoints
    /// of version 2).
    pub unrecorded: usize,
}

/// A merge under way: the shard files of one run given one at a time ([`Merger::add`]), each
/// checked against the plan (built once) and then dropped; what is kept does not grow with
/// the records: the sums, the digest's lanes, the name of the file that gave each shard and
/// who counted. Only a v1 digest ([`Merger::with_v1_digest`]) holds every record.
#[derive(Debug)]
pub struct Merger {
    against: PlanCheck,
    first_name: String,
    first: ShardResult,
    /// Which shards were given: the file that gave each, by shard (a few dozen bytes a
    /// shard, whatever its records).
    seen: Vec<Option<Box<str>>>,
    tally: Tally,
    threads: usize,
    seconds: f64,
    /// Tasks the shards took from checkpoints.
    resumed_tasks: usize,
    tasks: usize,
    digest: RunDigest,
    v1: Option<Vec<Done>>,
    /// Each place's tasks, by the place (its `tasks` left at 0), in the order first seen.
    counted_by: HashMap<CountedBy, usize>,
    counted_order: Vec<CountedBy>,
}

impl Merger {
    /// A merge of the run shard `first` (file `first_name`) belongs to: its plan rebuilt (as
    /// `opts` make it: their quadrant settings). `first` is not added: give it to
    /// [`Merger::add`] too.
    pub fn new(first_name: &str, first: &ShardResult, opts: &Options) -> Result<Merger> {
        let against = PlanCheck::new(&first.plan, opts, first_name)?;
        Merger::with(against, first_name, first)
    }

    /// A merge of the run shard `first` belongs to, checked against `against`, the plan
    /// already rebuilt (by a reader that checked other files of the run before).
    pub fn with(against: PlanCheck, first_name: &str, first: &ShardResult) -> Result<Merger> {
        first
            .shard
            .check()
            .map_err(|e| Error::Input(format!("{first_name}: {e}")))?;
        Ok(Merger {
            against,
            first_name: first_name.to_string(),
            first: ShardResult {
                done: Vec::new(),
                counted_by: Vec::new(),
                ..first.clone()
            },
            seen: vec![None; first.shard.count as usize],
            tally: Tally::default(),
            threads: 0,
            seconds: 0.0,
            resumed_tasks: 0,
            tasks: 0,
            digest: RunDigest::default(),
            v1: None,
            counted_by: HashMap::new(),
            counted_order: Vec::new(),
        })
    }

    /// Makes the digest v1's ([`provenance::digest`]): every record is then held until
    /// [`Merger::finish`] (what the runs merged before v2 published).
    pub fn with_v1_digest(mut self) -> Merger {
        self.v1 = Some(Vec::new());
        self
    }

    /// The rebuilt plan.
    pub fn against(&mut self) -> &mut PlanCheck {
        &mut self.against
    }

    /// Adds shard `p` (file `name`), its records held: it must be of the same count as the
    /// first, a shard not given yet, and pass its checks against the plan
    /// ([`PlanCheck::shard`]). A reader of large files gives them one record at a time
    /// ([`Merger::begin`]).
    pub fn add(&mut self, name: &str, p: &ShardResult) -> Result<()> {
        let mut adding = self.begin(name, p)?;
        for d in &p.done {
            adding.record(d)?;
        }
        self.commit(p, adding)
    }

    /// Begins adding shard `p` (file `name`, its fields; its records are given to the
    /// [`Adding`] as they are read, then it is committed, [`Merger::commit`]): it must be of
    /// the same count as the first, a shard not given yet, and pass the checks of its fields
    /// against the plan ([`PlanCheck::shard_head`]).
    pub fn begin(&mut self, name: &str, p: &ShardResult) -> Result<Adding> {
        let mut adding = self.begin_checked(name, p)?;
        adding.check = Some(self.against.shard_head(name, p)?);
        Ok(adding)
    }

    /// [`Merger::begin`] for a shard whose checks against the plan are made by the reader
    /// (with [`Merger::against`]): of the same count as the first, a shard not given yet.
    pub fn begin_checked(&mut self, name: &str, p: &ShardResult) -> Result<Adding> {
        check_same(&self.first_name, &self.first, name, p)?;
        if let Some(other) = &self.seen[p.shard.index as usize] {
            return Err(given_twice(p, other, name));
        }
        Ok(Adding {
            name: name.to_string(),
            check: None,
            digest: RunDigest::default(),
            v1: self.v1.is_some().then(Vec::new),
        })
    }

    /// Adds shard `p` (its fields), whose records `adding` has had: the checks that need all
    /// of them ([`ShardCheck::finish`]), then its sums, digest and counters are the merge's.
    pub fn commit(&mut self, p: &ShardResult, adding: Adding) -> Result<()> {
        let name = adding.name.as_str();
        if let Some(check) = &adding.check {
            check.finish(p)?;
        }
        let slot = &mut self.seen[p.shard.index as usize];
        if let Some(other) = slot {
            return Err(given_twice(p, other, name));
        }
        let tally = self.tally.checked_add(&p.counts).ok_or_else(|| {
            Error::Input(format!(
                "{name}: the shards' counts, with this one's, add up past 2^128: a shard was \
                 forged or damaged; audit them to find which"
            ))
        })?;
        *slot = Some(name.into());
        self.tally = tally;
        self.threads = self.threads.saturating_add(p.threads);
        self.seconds += p.seconds;
        self.tasks += p.tasks;
        self.resumed_tasks += p.resumed_tasks;
        self.digest.merge(&adding.digest);
        if let (Some(v1), Some(records)) = (&mut self.v1, adding.v1) {
            // The records the files list (every task's, in files before version 5).
            v1.extend(records);
        }
        for c in &p.counted_by {
            let key = CountedBy {
                tasks: 0,
                ..c.clone()
            };
            match self.counted_by.get_mut(&key) {
                Some(t) => *t = t.saturating_add(c.tasks),
                None => {
                    self.counted_by.insert(key.clone(), c.tasks);
                    self.counted_order.push(key);
                }
            }
        }
        Ok(())
    }

    /// Checks that every shard was given, and the sums together against Burnside's lemma;
    /// returns the merged run.
    pub fn finish(self) -> Result<Merged> {
        let k = self.first.shard.count;
        let missing: Vec<u32> = (0..k)
            .filter(|&i| self.seen[i as usize].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(missing_shards(&missing, k));
        }
        let tally = self.tally;
        if !tally.whole_consistent() {
            return Err(Error::Input(format!(
                "the shards' counts together break Burnside's lemma (total {}, classes {:?}): a \
                 shard was forged or damaged; audit them to find which",
                tally.total,
                tally.classes.map(<[u128; 5]>::from)
            )));
        }
        let kernel: Backend = match &self.first.kernel {
            Some(k) => k
                .parse()
                .map_err(|e: Error| Error::Input(format!("{}: {e}", self.first_name)))?,
            None => Backend::default(),
        };
        let seconds = self.seconds;
        let elapsed = Duration::try_from_secs_f64(seconds).map_err(|_| {
            Error::Input(format!(
                "the shards' \"seconds\" add up to {seconds}: expected a time of at least 0"
            ))
        })?;
        let identity = self.against.identity();
        let (digest, digest_version) = match self.v1 {
            Some(mut records) => {
                records.sort_unstable_by_key(|d| d.id);
                let every = every_task_line(&records, identity.tasks, identity.id.algorithm);
                (provenance::digest(&identity.id, &every), 1)
            }
            None => (self.digest.finish(&identity.id), 2),
        };
        let mut counted_by = Vec::with_capacity(self.counted_order.len());
        for key in self.counted_order {
            let tasks = self.counted_by[&key];
            counted_by.push(CountedBy { tasks, ..key });
        }
        let recorded: usize = counted_by.iter().map(|c| c.tasks).sum();
        let mut totals = Totals::of(
            &identity.id,
            identity.tasks,
            kernel,
            self.threads,
            tally,
            elapsed,
        );
        // The peak of this process, which only read files, says nothing of the count's.
        totals.peak_memory = None;
        totals.resumed_tasks = self.resumed_tasks;
        Ok(Merged {
            digest,
            digest_version,
            unrecorded: self.tasks.saturating_sub(recorded),
            counted_by,
            totals,
        })
    }
}

/// A shard file being added to a merge ([`Merger::begin`]): its records' checks against the
/// plan, and their digest, kept apart until the whole file has passed its checks
/// ([`Merger::commit`]): a file that fails adds nothing.
#[derive(Debug)]
pub struct Adding {
    name: String,
    check: Option<ShardCheck>,
    digest: RunDigest,
    v1: Option<Vec<Done>>,
}

impl Adding {
    /// Adds record `d`, the next of the file.
    pub fn record(&mut self, d: &Done) -> Result<()> {
        if let Some(check) = &mut self.check {
            check.record(d)?;
        }
        self.digest.add(d);
        if let Some(v1) = &mut self.v1 {
            v1.push(*d);
        }
        Ok(())
    }
}

/// The error of shard `p` given by file `name` and before by file `other`.
fn given_twice(p: &ShardResult, other: &str, name: &str) -> Error {
    Error::Input(format!(
        "shard {} is given twice: {other} and {name}",
        p.shard
    ))
}

/// Checks that `parts` (with their file names) are all `K` shards of one plan, each exactly
/// once; rebuilds that plan (as `opts` make it: their quadrant settings) and checks each shard
/// against it ([`PlanCheck::shard`]: every field of the plan, its tasks, its sums) and the sums
/// together against Burnside's lemma; returns the merged run (digest v2). [`Merger`] does the
/// same one file at a time.
pub fn merge(parts: &[(String, ShardResult)], opts: &Options) -> Result<Merged> {
    let Some((first_name, first)) = parts.first() else {
        return Err(Error::Usage("merge needs at least one shard file".into()));
    };
    let mut m = Merger::new(first_name, first, opts)?;
    for (name, p) in parts {
        m.add(name, p)?;
    }
    m.finish()
}

/// The most missing shards an error names one by one (a set claiming a million shards would
/// otherwise print megabytes).
const NAMED_MISSING: usize = 10;

/// The error for the shards `missing` of `k`.
fn missing_shards(missing: &[u32], k: u32) -> Error {
    let mut named: Vec<String> = missing
        .iter()
        .take(NAMED_MISSING)
        .map(|i| format!("{i}/{k}"))
        .collect();
    if missing.len() > NAMED_MISSING {
        named.push(format!("and {} more", missing.len() - NAMED_MISSING));
    }
    let every = match k {
        1 => "the shard 0/1 must be given".to_string(),
        2 => "each of the shards 0/2 and 1/2 must be given once".to_string(),
        _ => format!(
            "each of the shards 0/{k} to {}/{k} must be given once",
            k - 1
        ),
    };
    Error::Input(format!(
        "missing shard{} {} of {k}: {every}",
        if missing.len() == 1 { "" } else { "s" },
        named.join(", "),
    ))
}

/// Checks that shard `p` (file `name`) belongs to the same count as the first one, and that
/// its index is in range.
fn check_same(first_name: &str, first: &ShardResult, name: &str, p: &ShardResult) -> Result<()> {
    if p.plan != first.plan || p.shard.count != first.shard.count {
        let mut differ = p.plan.differences(&first.plan);
        if p.shard.count != first.shard.count {
            let k = format!("K {}, not {}", p.shard.count, first.shard.count);
            differ = [differ, k]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(", ");
        }
        return Err(Error::Input(format!(
            "{name} is shard {} of another count than {first_name} ({differ}): all shards \
             must come from the same count",
            p.shard
        )));
    }
    if p.shard.index >= p.shard.count {
        return Err(Error::Input(format!(
            "{name} claims shard {}, which is out of range (0 <= I < K)",
            p.shard
        )));
    }
    Ok(())
}

/// Every task's record of a run of `tasks` tasks, in id order, from the `listed` ones (in id
/// order): a task a version 5 file leaves out found nothing, and gets the line a file before
/// version 5 listed for it (counts of 0, with class counts of 0 where `algorithm` counts
/// classes). Digest v1 is over every task's line, so it comes out the same from files of
/// any version.
fn every_task_line(
    listed: &[Done],
    tasks: usize,
    algorithm: nqueens_count::Algorithm,
) -> Vec<Done> {
    let classes = algorithm
        .counts_classes()
        .then(nqueens_count::tally::Classes::default);
    let mut listed = listed.iter().peekable();
    (0..tasks as u32)
        .map(|id| match listed.next_if(|d| d.id == id) {
            Some(d) => *d,
            None => Done {
                id,
                counts: Tally {
                    classes,
                    ..Tally::default()
                },
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, LongRun, Outcome};

    /// A genuine shard result of a small board.
    fn genuine() -> ShardResult {
        let long = LongRun::new(None, Duration::from_secs(60), Some("0/2".parse().unwrap()));
        match run(10, &Options::default().with_threads(1), &long).unwrap() {
            Outcome::Shard(r) => r,
            Outcome::Whole(_) => unreachable!("a shard was asked for"),
        }
    }

    /// Whatever a run's `seconds` is, the file it writes passes its own seal and reads back to
    /// the same values (a float that did not survive the round trip used to break the seal of
    /// about one genuine file in four past one second).
    #[test]
    fn every_genuine_shard_file_reads_back_sealed_and_exact() {
        let base = genuine();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut values = vec![0.0, 1.0, 0.1, 1.0000000000000002, 2.5e-7, 86_400.000_000_1];
        // Random mantissas at every scale from microseconds to a year.
        values.extend((0..20_000).map(|_| {
            let unit = f64::from_bits(0x3FF0_0000_0000_0000 | (next() >> 12)) - 1.0;
            unit * 10f64.powi((next() % 14) as i32 - 6)
        }));
        for seconds in values {
            let r = ShardResult {
                seconds,
                ..base.clone()
            }
            .sealed();
            let text = serde_json::to_string(&r).unwrap() + "\n";
            let back = parse(&text, "s.json").unwrap_or_else(|e| panic!("{seconds:e}: {e}"));
            assert_eq!(back, r, "{seconds:e}");
        }
    }
}
