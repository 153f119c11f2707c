//! Merging shards: the results of `count --shard I/K` runs, checked and summed into the whole
//! count, with the digest that identifies it and who counted it ([`Merged`]).

use super::check::Against;
use super::provenance::{self, CountedBy};
use super::record::Done;
pub use super::result::{
    parse, read, ShardResult, OLDEST_SHARD_VERSION, SHARD_FORMAT, SHARD_VERSION,
};
use crate::count::kernel::Kernel;
use crate::count::tally::Tally;
use crate::count::{Options, Totals};
use crate::error::{Error, Result};
use std::time::Duration;

/// A merged run: its totals (not yet cross-checked: see [`Totals::cross_check`]; `threads` and
/// `elapsed` are the shards' sums, `kernel` the first shard's), the digest of its task records
/// ([`provenance::digest`]), and who counted them.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The whole count.
    pub totals: Totals,
    /// The SHA-256 digest of the canonical list of every task's record, in id order: the same
    /// for the same records whatever order the files are given in.
    pub digest: String,
    /// Which builds, CPUs and hosts counted how many tasks, as the files say.
    pub counted_by: Vec<CountedBy>,
    /// Tasks no file says who counted (files of version 3, or runs resumed from checkpoints
    /// of version 2).
    pub unrecorded: usize,
}

/// Checks that `parts` (with their file names) are all `K` shards of one plan, each exactly
/// once; rebuilds that plan (as `opts` make it: their quadrant settings) and checks each shard
/// against it ([`Against::shard`]: every field of the plan, its tasks, its sums) and the sums
/// together against Burnside's lemma; returns the merged run.
pub fn merge(parts: &[(String, ShardResult)], opts: &Options) -> Result<Merged> {
    let (first_name, first) = check_set(parts)?;
    let mut against = Against::new(&first.plan, opts, first_name)?;
    let mut tally = Tally::default();
    for (name, p) in parts {
        against.shard(name, p)?;
        tally += p.counts;
    }
    if !tally.whole_consistent() {
        return Err(Error::Input(format!(
            "the shards' counts together break Burnside's lemma (total {}, classes {:?}): a \
             shard was forged or damaged; audit them to find which",
            tally.total,
            tally.classes.map(<[u128; 5]>::from)
        )));
    }
    let kernel: Kernel = match &first.kernel {
        Some(k) => k
            .parse()
            .map_err(|e: Error| Error::Input(format!("{first_name}: {e}")))?,
        None => Kernel::default(),
    };
    let threads = parts
        .iter()
        .fold(0usize, |a, p| a.saturating_add(p.1.threads));
    let seconds: f64 = parts.iter().map(|p| p.1.seconds).sum();
    let elapsed = Duration::try_from_secs_f64(seconds).map_err(|_| {
        Error::Input(format!(
            "the shards' \"seconds\" add up to {seconds}: expected a time of at least 0"
        ))
    })?;
    let identity = against.identity();
    let mut records: Vec<&Done> = parts.iter().flat_map(|p| &p.1.done).collect();
    records.sort_by_key(|d| d.id);
    let counted_by = parts
        .iter()
        .flat_map(|p| &p.1.counted_by)
        .fold(Vec::new(), provenance::with);
    let recorded: usize = counted_by.iter().map(|c| c.tasks).sum();
    let mut totals = Totals::of(
        &identity.id,
        identity.tasks,
        kernel,
        threads,
        tally,
        elapsed,
    );
    // The peak of this process, which only read files, says nothing of the count's.
    totals.peak_memory = None;
    Ok(Merged {
        digest: provenance::digest(&identity.id, records.iter().copied()),
        unrecorded: records.len().saturating_sub(recorded),
        counted_by,
        totals,
    })
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
