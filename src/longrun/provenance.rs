//! Who counted a run's tasks, and what identifies its result.
//!
//! Checkpoint and shard files record, for each run that counted some of their tasks, the
//! build its vector code ran in, the CPU's model and the host's name ([`CountedBy`]): a
//! merged result says which builds, CPUs and hosts counted how many tasks, so a fault of one
//! build or machine can be looked for where it counted. The merged task records are
//! identified by a SHA-256 digest of their canonical text ([`digest`]), the same whatever
//! order the files are given in: anyone can merge the published files again and compare.

use super::record::Done;
use crate::count::arch::{cpu, Build, BUILD_NAMES};
use crate::count::plan_id::PlanId;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The longest CPU model or host name a file may record.
pub const MAX_NAME: usize = 256;

/// One run's share of a file's tasks: where and how it counted them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountedBy {
    /// The build its vector code ran in ([`Build::name`]).
    pub build: String,
    /// The CPU's model name, as the operating system gives it (`unknown` where it does not).
    pub cpu: String,
    /// The host's name (`unknown` where the system does not say).
    pub host: String,
    /// How many of the file's tasks it counted.
    pub tasks: usize,
}

impl CountedBy {
    /// This process on this machine, running in `build`, having counted no task yet.
    pub fn here(build: Build) -> CountedBy {
        CountedBy {
            build: build.name().to_string(),
            cpu: cpu::model().unwrap_or_else(|| "unknown".into()),
            host: host().unwrap_or_else(|| "unknown".into()),
            tasks: 0,
        }
    }

    /// Whether `o` is the same build on the same CPU and host.
    fn same_place(&self, o: &CountedBy) -> bool {
        (&self.build, &self.cpu, &self.host) == (&o.build, &o.cpu, &o.host)
    }

    /// Why this entry cannot be one a run wrote, if it cannot.
    pub fn invalid(&self) -> Option<String> {
        if !BUILD_NAMES.contains(&self.build.as_str()) {
            return Some(format!(
                "build {:?} is not one of {}",
                self.build,
                BUILD_NAMES.join(", ")
            ));
        }
        for (what, v) in [("CPU", &self.cpu), ("host", &self.host)] {
            if v.is_empty() || v.len() > MAX_NAME || v.chars().any(char::is_control) {
                return Some(format!(
                    "its {what} name is empty, longer than {MAX_NAME} bytes or not printable"
                ));
            }
        }
        None
    }
}

/// `list` with `run`'s tasks added: to the entry of the same build, CPU and host, or as a new
/// entry (a run that counted nothing adds none).
pub fn with(mut list: Vec<CountedBy>, run: &CountedBy) -> Vec<CountedBy> {
    if run.tasks == 0 {
        return list;
    }
    match list.iter_mut().find(|c| c.same_place(run)) {
        Some(c) => c.tasks += run.tasks,
        None => list.push(run.clone()),
    }
    list
}

/// This host's name (Linux: the kernel's; elsewhere the `HOSTNAME` environment variable).
fn host() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().chars().take(MAX_NAME).collect::<String>())
        .filter(|h| !h.is_empty() && !h.chars().any(char::is_control))
}

/// The first line of the canonical text [`digest`] hashes.
pub const DIGEST_HEADER: &str = "nqueens-run-digest v1";

/// The canonical text of a run's task records: [`DIGEST_HEADER`], the plan (`n`, algorithm,
/// split depth, placed queens and fingerprint), then one line per task in id order: its id,
/// total, classes (`c1,c8,quarters,sym90,sym180`, or `-`) and nodes, separated by spaces.
/// `records` must be in id order.
pub fn canonical<'a>(plan: &PlanId, records: impl IntoIterator<Item = &'a Done>) -> String {
    let placed: Vec<String> = plan
        .placed
        .iter()
        .map(|[r, c]| format!("{r}:{c}"))
        .collect();
    let mut text = format!(
        "{DIGEST_HEADER}\nplan {} {} {} [{}] {}\n",
        plan.n,
        plan.algorithm,
        plan.split_depth,
        placed.join(","),
        plan.fingerprint
    );
    for d in records {
        let classes = d.counts.classes.map_or("-".to_string(), |c| {
            let [c1, c8, q, s90, s180]: [u128; 5] = c.into();
            format!("{c1},{c8},{q},{s90},{s180}")
        });
        let _ = writeln!(
            text,
            "{} {} {classes} {}",
            d.id, d.counts.total, d.counts.nodes
        );
    }
    text
}

/// The SHA-256 digest, in hex, of [`canonical`]: what identifies a merged run's records.
pub fn digest<'a>(plan: &PlanId, records: impl IntoIterator<Item = &'a Done>) -> String {
    let hash = Sha256::digest(canonical(plan, records).as_bytes());
    hash.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::tally::Tally;
    use crate::Algorithm;

    /// The digest of a known text (what `sha256sum` gives for it), and of the canonical form
    /// of two records; an entry that names no real build, or an unprintable host, is invalid.
    #[test]
    fn digests_are_sha256_of_the_canonical_text() {
        let plan = PlanId {
            n: 8,
            algorithm: Algorithm::Symmetric,
            split_depth: 1,
            placed: vec![],
            fingerprint: "0123456789abcdef".into(),
        };
        let done = [
            Done {
                id: 0,
                counts: Tally {
                    total: 8,
                    classes: None,
                    nodes: 3,
                },
            },
            Done {
                id: 2,
                counts: Tally::default(),
            },
        ];
        assert_eq!(
            canonical(&plan, &done),
            "nqueens-run-digest v1\nplan 8 symmetric 1 [] 0123456789abcdef\n0 8 - 3\n2 0 - 0\n"
        );
        let empty = Sha256::digest(b"");
        assert_eq!(
            format!("{empty:x}"),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(digest(&plan, &done).len(), 64);
        let mut c = CountedBy::here(Build::Portable);
        assert_eq!(c.invalid(), None);
        c.build = "avx9000".into();
        assert!(c.invalid().is_some());
        c.build = "portable".into();
        c.host = "a\nb".into();
        assert!(c.invalid().is_some());
    }
}
