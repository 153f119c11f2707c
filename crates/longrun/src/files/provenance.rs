//! Who counted a run's tasks, and what identifies its result.
//!
//! Checkpoint and shard files record, for each run that counted some of their tasks, the
//! build its vector code ran in, the CPU's model and the host's name ([`CountedBy`]): a
//! merged result says which builds, CPUs and hosts counted how many tasks, so a fault of one
//! build or machine can be looked for where it counted. The merged task records are
//! identified by a SHA-256 digest of their canonical text ([`digest`]), the same whatever
//! order the files are given in: anyone can merge the published files again and compare.

use crate::files::record::Done;
use nqueens_count::arch::{cpu, Build, BUILD_NAMES};
use nqueens_count::plan_id::PlanId;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The build `counted_by` names for tasks counted on a device other than this CPU (a GPU:
/// its `cpu` then names the device).
pub const DEVICE_BUILD: &str = "cuda";

/// The longest CPU model or host name a file may record.
pub const MAX_NAME: usize = 256;

/// One run's share of a file's tasks: where and how it counted them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

    /// This host counting on `device` (a GPU's name and architecture, as the job says): build
    /// [`DEVICE_BUILD`], the device where the CPU is named.
    pub fn on_device(device: &str) -> CountedBy {
        CountedBy {
            build: DEVICE_BUILD.to_string(),
            cpu: device.to_string(),
            ..CountedBy::here(Build::Portable)
        }
    }

    /// Whether `o` is the same build on the same CPU and host.
    fn same_place(&self, o: &CountedBy) -> bool {
        (&self.build, &self.cpu, &self.host) == (&o.build, &o.cpu, &o.host)
    }

    /// Why this entry cannot be one a run wrote, if it cannot.
    pub fn invalid(&self) -> Option<String> {
        if !BUILD_NAMES.contains(&self.build.as_str()) && self.build != DEVICE_BUILD {
            return Some(format!(
                "build {:?} is not one of {}, {DEVICE_BUILD}",
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

/// The first line of the text [`RunDigest::finish`] hashes.
pub const DIGEST_V2_HEADER: &str = "nqueens-run-digest v2";

/// The lanes of the v2 digest's sum: 1024 lanes of 16 bits (LtHash16, the parameters of
/// Lewi et al., "Securing Update Propagation with Homomorphic Hashing", 2019).
const LANES: usize = 1024;

/// The run digest v2, made without holding the records: each task record that found
/// something (any count not zero) is expanded, by BLAKE3's extendable output over the
/// context `nqueens-run-digest v2 record` and its canonical line (as in v1: `ID TOTAL CLASSES
/// NODES`), into 1024 numbers of 16 bits, and these are added lane by lane, modulo 2^16. The
/// sum is the same in any order (so any order of files, any K), a record whose counts are all
/// zero adds nothing (so files that list such tasks and files that leave them out give the
/// same digest), and finding another set of records with the same sum is a lattice problem
/// (short vectors), not a birthday search. [`RunDigest::finish`] hashes the plan, the number
/// of records summed and the lanes with SHA-256.
#[derive(Clone, PartialEq, Eq)]
pub struct RunDigest {
    lanes: Box<[u16; LANES]>,
    records: u64,
    line: String,
}

impl std::fmt::Debug for RunDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RunDigest({} records)", self.records)
    }
}

impl Default for RunDigest {
    fn default() -> RunDigest {
        RunDigest {
            lanes: Box::new([0; LANES]),
            records: 0,
            line: String::new(),
        }
    }
}

impl RunDigest {
    /// Adds task record `d` (one that found nothing adds nothing).
    pub fn add(&mut self, d: &Done) {
        if d.counts.is_zero() {
            return;
        }
        self.line.clear();
        record_line(&mut self.line, d);
        let mut h = blake3::Hasher::new();
        h.update(b"nqueens-run-digest v2 record\n");
        h.update(self.line.as_bytes());
        let mut bytes = [0u8; 2 * LANES];
        h.finalize_xof().fill(&mut bytes);
        for (lane, b) in self.lanes.iter_mut().zip(bytes.chunks_exact(2)) {
            *lane = lane.wrapping_add(u16::from_le_bytes([b[0], b[1]]));
        }
        self.records += 1;
    }

    /// Adds every record `other` holds (the digest of records given in two parts is the
    /// digest of all of them).
    pub fn merge(&mut self, other: &RunDigest) {
        for (lane, o) in self.lanes.iter_mut().zip(other.lanes.iter()) {
            *lane = lane.wrapping_add(*o);
        }
        self.records += other.records;
    }

    /// How many records that found something were added.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The digest, in hex: SHA-256 of [`DIGEST_V2_HEADER`], the plan's line (as in v1), a
    /// line `records R`, and the 1024 lanes as 2048 bytes, little-endian.
    pub fn finish(&self, plan: &PlanId) -> String {
        let mut h = Sha256::new();
        h.update(format!(
            "{DIGEST_V2_HEADER}\n{}records {}\n",
            plan_line(plan),
            self.records
        ));
        for lane in self.lanes.iter() {
            h.update(lane.to_le_bytes());
        }
        hex(&h.finalize())
    }
}

/// The line of the digests' text that names the plan: `plan N ALGORITHM SPLIT_DEPTH [PLACED]
/// FINGERPRINT`.
fn plan_line(plan: &PlanId) -> String {
    let placed: Vec<String> = plan
        .placed
        .iter()
        .map(|[r, c]| format!("{r}:{c}"))
        .collect();
    format!(
        "plan {} {} {} [{}] {}\n",
        plan.n,
        plan.algorithm,
        plan.split_depth,
        placed.join(","),
        plan.fingerprint
    )
}

/// Appends `d`'s canonical line, `ID TOTAL CLASSES NODES` and a newline, to `text`.
fn record_line(text: &mut String, d: &Done) {
    let _ = write!(text, "{} {} ", d.id, d.counts.total);
    match d.counts.classes {
        Some(c) => {
            let [c1, c8, q, s90, s180]: [u128; 5] = c.into();
            let _ = write!(text, "{c1},{c8},{q},{s90},{s180}");
        }
        None => text.push('-'),
    }
    let _ = writeln!(text, " {}", d.counts.nodes);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The canonical text of a run's task records: [`DIGEST_HEADER`], the plan (`n`, algorithm,
/// split depth, placed queens and fingerprint), then one line per task in id order: its id,
/// total, classes (`c1,c8,quarters,sym90,sym180`, or `-`) and nodes, separated by spaces.
/// `records` must be in id order.
pub fn canonical<'a>(plan: &PlanId, records: impl IntoIterator<Item = &'a Done>) -> String {
    let mut text = format!("{DIGEST_HEADER}\n{}", plan_line(plan));
    for d in records {
        record_line(&mut text, d);
    }
    text
}

/// The SHA-256 digest, in hex, of [`canonical`]: what identified a merged run's records
/// before [`RunDigest`] (v2); `merge --digest v1` still gives it.
pub fn digest<'a>(plan: &PlanId, records: impl IntoIterator<Item = &'a Done>) -> String {
    hex(&Sha256::digest(canonical(plan, records).as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nqueens_count::tally::Tally;
    use nqueens_count::Algorithm;

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
        // v2: the same in any order; a record of zeros adds nothing; any change of a record
        // that found something changes it.
        let found = |id, total| Done {
            id,
            counts: Tally {
                total,
                classes: None,
                nodes: 1,
            },
        };
        let sum = |rs: &[Done]| {
            let mut d = RunDigest::default();
            rs.iter().for_each(|r| d.add(r));
            d.finish(&plan)
        };
        let a = sum(&[found(1, 4), found(5, 6), done[1]]);
        assert_eq!(a, sum(&[found(5, 6), found(1, 4)]));
        assert_ne!(a, sum(&[found(5, 6), found(1, 5)]));
        assert_ne!(a, sum(&[found(5, 6), found(2, 4)]));
        assert_ne!(a, sum(&[found(5, 6)]));
        assert_eq!(a.len(), 64);
        let mut c = CountedBy::here(Build::Portable);
        assert_eq!(c.invalid(), None);
        // A GPU's count names the build `cuda` and the GPU.
        let g = CountedBy::on_device("NVIDIA H100 80GB HBM3, sm_90");
        assert_eq!((g.invalid(), g.build.as_str()), (None, DEVICE_BUILD));
        c.build = "avx9000".into();
        assert!(c.invalid().is_some());
        c.build = "portable".into();
        c.host = "a\nb".into();
        assert!(c.invalid().is_some());
    }
}
