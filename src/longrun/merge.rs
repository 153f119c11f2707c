//! Merging shards: the results of `count --shard I/K` runs, checked and summed into the whole
//! count.

use super::checkpoint::Done;
use super::files;
use super::shard::{Assignment, Shard, MAX_SHARDS};
use crate::count::engine::Work;
use crate::count::kernel::Kernel;
use crate::count::plan_id::PlanId;
use crate::count::tally::Tally;
use crate::count::{Job, Options, Totals};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::time::Duration;

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
    /// The kernel used.
    pub kernel: String,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of this shard's search, in seconds.
    pub seconds: f64,
    /// Every task of the shard with its counts, by id: what `audit` recounts and `merge`
    /// adds up.
    pub done: Vec<Done>,
    /// The seal: [`files::digest`] of this object with `checksum` empty.
    pub checksum: String,
}

impl ShardResult {
    /// This result with its tasks in id order and its checksum set (after the last change).
    pub fn sealed(mut self) -> ShardResult {
        self.done.sort_by_key(|d| d.id);
        self.checksum = self.digest();
        self
    }

    fn digest(&self) -> String {
        let mut copy = self.clone();
        copy.checksum.clear();
        files::digest(&copy)
    }
}

/// The current shard file format.
pub const SHARD_FORMAT: &str = "nqueens-shard";

/// The shard file format's version (2: classes as `[c1, c8, quarters, sym90, sym180]`; 3:
/// the counts of every task and a checksum).
pub const SHARD_VERSION: u32 = 3;

/// Reads a shard result, naming the file when it cannot, and checks what one file can show:
/// its format, its seal, its shard index, and that every task's counts and the sums agree
/// with their class counts and with each other's ids.
pub fn read(path: &std::path::Path) -> Result<ShardResult> {
    let name = path.display().to_string();
    let text = files::read_text(path, "shard", files::MAX_FILE_BYTES)?
        .ok_or_else(|| Error::Input(format!("cannot read shard {name}: no such file")))?;
    parse(&text, &name)
}

/// Parses and checks the text of shard file `name` (see [`read`]).
pub fn parse(text: &str, name: &str) -> Result<ShardResult> {
    let r: ShardResult = serde_json::from_str(text.trim()).map_err(|e| {
        let old = serde_json::from_str::<serde_json::Value>(text.trim())
            .ok()
            .and_then(|v| v.get("version").and_then(|v| v.as_u64()))
            .filter(|&v| v != SHARD_VERSION as u64);
        match old {
            Some(v) => Error::Input(format!(
                "{name} is a shard result of format version {v}; this nqueens reads version \
                 {SHARD_VERSION}: count that shard again with this nqueens"
            )),
            None => Error::Input(format!(
                "{name} is not a shard result (the JSON a sharded count writes): {e}"
            )),
        }
    })?;
    if r.format != SHARD_FORMAT || r.version != SHARD_VERSION {
        return Err(Error::Input(format!(
            "{name} has format {:?} version {}; this nqueens reads {SHARD_FORMAT:?} version \
             {SHARD_VERSION}",
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
    if files::text_digest(text).as_ref() != Some(&r.checksum) {
        return Err(Error::Input(format!(
            "shard {name} fails its checksum: it was edited or damaged; count that shard again"
        )));
    }
    let forged = |what: String| {
        Error::Input(format!(
            "shard {name}: {what}: the file was forged or damaged; count that shard again"
        ))
    };
    if let Some(d) = r.done.iter().find(|d| !d.counts.consistent()) {
        return Err(forged(format!(
            "task {}'s total {} does not agree with its class counts",
            d.id, d.counts.total
        )));
    }
    if !r.counts.consistent() {
        return Err(forged(format!(
            "the total {} does not agree with the class counts",
            r.counts.total
        )));
    }
    if r.done.len() != r.tasks || r.done.windows(2).any(|w| w[0].id >= w[1].id) {
        return Err(forged(format!(
            "it lists {} task results for {} tasks, or a task twice",
            r.done.len(),
            r.tasks
        )));
    }
    Ok(r)
}

/// Checks that `parts` (with their file names) are all `K` shards of one plan, each exactly
/// once, rebuilds that plan (as `opts` make it: their quadrant settings) and checks its fingerprint and each shard's task count; returns
/// the totals of the whole count (`threads` and `elapsed` are the shards' sums; the kernel is
/// the first shard's). Not cross-checked: see [`Totals::cross_check`].
pub fn merge(parts: &[(String, ShardResult)], opts: &Options) -> Result<Totals> {
    let (first_name, first) = check_set(parts)?;
    let job =
        Job::from_id(&first.plan, opts).map_err(|e| Error::Input(format!("{first_name}: {e}")))?;
    let tally = check_tasks(&job, parts)?;
    if !tally.whole_consistent() {
        return Err(Error::Input(format!(
            "the shards' counts together break Burnside's lemma (total {}, classes {:?}): a \
             shard was forged or damaged; audit them to find which",
            tally.total,
            tally.classes.map(<[u128; 5]>::from)
        )));
    }
    let kernel: Kernel = first
        .kernel
        .parse()
        .map_err(|e: Error| Error::Input(format!("{first_name}: {e}")))?;
    let threads = parts
        .iter()
        .fold(0usize, |a, p| a.saturating_add(p.1.threads));
    let seconds: f64 = parts.iter().map(|p| p.1.seconds).sum();
    let elapsed = Duration::try_from_secs_f64(seconds).map_err(|_| {
        Error::Input(format!(
            "the shards' \"seconds\" add up to {seconds}: expected a time of at least 0"
        ))
    })?;
    Ok(Totals::of(
        job.id(),
        job.tasks(),
        kernel,
        threads,
        tally,
        elapsed,
    ))
}

/// The most missing shards an error names one by one (a set claiming a million shards would
/// otherwise print megabytes).
const NAMED_MISSING: usize = 10;

/// Checks that `parts` are all `K` shards of one count, each exactly once; returns the first.
fn check_set(parts: &[(String, ShardResult)]) -> Result<(&str, &ShardResult)> {
    let Some((first_name, first)) = parts.first() else {
        return Err(Error::Usage("merge needs at least one shard file".into()));
    };
    let k = first.shard.count;
    first
        .shard
        .check()
        .map_err(|e| Error::Input(format!("{first_name}: {e}")))?;
    let mut seen: Vec<Option<&str>> = vec![None; k as usize];
    for (name, p) in parts {
        check_same(first_name, first, name, p)?;
        let slot = &mut seen[p.shard.index as usize];
        if let Some(other) = slot {
            return Err(Error::Input(format!(
                "shard {} is given twice: {other} and {name}",
                p.shard
            )));
        }
        *slot = Some(name);
    }
    let missing: Vec<u32> = (0..k).filter(|&i| seen[i as usize].is_none()).collect();
    if !missing.is_empty() {
        let mut named: Vec<String> = missing
            .iter()
            .take(NAMED_MISSING)
            .map(|i| format!("{i}/{k}"))
            .collect();
        if missing.len() > NAMED_MISSING {
            named.push(format!("and {} more", missing.len() - NAMED_MISSING));
        }
        return Err(Error::Input(format!(
            "missing shard{} {} of {k}: each of the shards 0/{k}, 1/{k}, ... {}/{k} must be \
             given once",
            if missing.len() == 1 { "" } else { "s" },
            named.join(", "),
            k - 1
        )));
    }
    Ok((first_name, first))
}

/// Checks each shard's tasks against the plan's assignment and its per-task counts against
/// its sums; returns the sum of the shards.
fn check_tasks(job: &Job, parts: &[(String, ShardResult)]) -> Result<Tally> {
    let k = parts[0].1.shard.count;
    let assignment = Assignment::new(&Work::of(job.counter().as_ref()), k);
    let planned = job.counter().planned();
    let mut tally = Tally::default();
    for (name, p) in parts {
        let want = assignment.ids(p.shard.index);
        if p.tasks != want.len() {
            return Err(Error::Input(format!(
                "{name} counted {} tasks, but shard {} of this plan has {}",
                p.tasks,
                p.shard,
                want.len()
            )));
        }
        if !p.done.iter().map(|d| d.id).eq(want.iter().copied()) {
            return Err(Error::Input(format!(
                "{name} lists tasks that are not those of shard {} of this plan: it was forged \
                 or damaged; count that shard again",
                p.shard
            )));
        }
        let mut sum: Tally = p.done.iter().map(|d| d.counts).sum();
        if p.shard.index == 0 {
            sum += planned;
        }
        if sum != p.counts {
            return Err(Error::Input(format!(
                "{name}: its tasks' counts add up to {} solutions, but it says {}: it was \
                 forged or damaged; count that shard again",
                sum.total, p.counts.total
            )));
        }
        tally += p.counts;
    }
    Ok(tally)
}

/// Checks that shard `p` (file `name`) belongs to the same count as the first one, and that
/// its index is in range.
fn check_same(first_name: &str, first: &ShardResult, name: &str, p: &ShardResult) -> Result<()> {
    if p.plan != first.plan || p.shard.count != first.shard.count {
        return Err(Error::Input(format!(
            "{name} is shard {} of N={} (plan {}), but {first_name} is shard {} of N={} \
             (plan {}): all shards must come from the same count",
            p.shard,
            p.plan.n,
            p.plan.fingerprint,
            first.shard,
            first.plan.n,
            first.plan.fingerprint
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::longrun::{run, LongRun, Outcome};

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
