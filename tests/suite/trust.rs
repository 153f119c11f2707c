//! A count anyone can believe: every reader (merge, status, audit) checks every sum and field
//! a file carries against its plan, the audit's slices catch what a recount by the method
//! cannot, and a merged run carries the digest of its records and who counted them.

use crate::common;

use common::forge::*;
use common::nqueens;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("trust", name)
}

/// The exit code of `nqueens ARGS FILES...`, and its stdout and stderr.
fn run(args: &[&str], files: &[PathBuf]) -> (Option<i32>, String, String) {
    let out = nqueens().args(args).args(files).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Replaces the first `old` of file `f` by `new` and reseals it, as a forger would.
fn edit(f: &Path, old: &str, new: &str) {
    let text = std::fs::read_to_string(f).unwrap();
    assert!(text.contains(old), "{old} not in {text}");
    std::fs::write(f, reseal(&text.replacen(old, new, 1))).unwrap();
}

/// A whole run with a task raised by 8 (its classes by 1) and resealed merges to a
/// total A000170 refutes: merge exits 3, and status says the same and exits 3, never
/// "complete".
#[test]
fn status_exits_as_merge_does_on_a_forged_whole_run() {
    let dir = tmpdir("status-forged");
    let files = shards(&dir, &["count", "12"], 3);
    forge_task(&files[0], 8);
    let (code, _, err) = run(&["merge"], &files);
    assert_eq!(code, Some(3), "{err}");
    let (code, out, err) = run(&["status"], std::slice::from_ref(&dir));
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(!out.contains("complete"), "{out}");
    assert!(err.contains("A000170(12) computed as 14208"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Audit and status check what merge checks. A shard whose sums do not add up to its
/// tasks, or that holds another shard's tasks, and a checkpoint relabelled as another shard's,
/// are refused (exit 2) by each, even when the recount of their tasks would agree.
#[test]
fn audit_and_status_check_every_sum_and_every_assignment() {
    let dir = tmpdir("sums");
    let files = shards(&dir, &["count", "12"], 3);
    let good: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    // The sums raised by 8 (a class of 8), consistent in themselves: only their tasks say no.
    let v: Value = serde_json::from_str(&good[0]).unwrap();
    let (old, new) = bump(&v["counts"], 8);
    edit(&files[0], &old, &new);
    for cmd in [&["audit", "--sample", "1"][..], &["status"], &["merge"]] {
        let (code, _, err) = run(cmd, &files);
        assert_eq!(code, Some(2), "{cmd:?}: {err}");
        assert!(err.contains("add up to"), "{cmd:?}: {err}");
    }
    // Shard 0's file with shard 1's tasks and sums: every number its own, but not its shard's.
    std::fs::write(&files[0], &good[0]).unwrap();
    let one: Value = serde_json::from_str(&good[1]).unwrap();
    let stolen = good[1].replacen("\"index\":1,", "\"index\":0,", 1);
    assert_ne!(stolen, good[1]);
    std::fs::write(&files[0], reseal(&stolen)).unwrap();
    std::fs::remove_file(&files[1]).unwrap();
    for cmd in [&["audit", "--sample", "1"][..], &["status"]] {
        let (code, _, err) = run(cmd, &files[..1]);
        assert_eq!(code, Some(2), "{cmd:?}: {err} ({} tasks)", one["tasks"]);
        assert!(err.contains("shard 0/3 of this plan"), "{cmd:?}: {err}");
    }
    // A checkpoint of shard 1/2 relabelled as shard 0/2.
    let ckpt = dir.join("c.ckpt");
    let c = ckpt.to_str().unwrap();
    let out = nqueens()
        .args(["count", "12", "--shard", "1/2", "--checkpoint", c])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    edit(&ckpt, "\"index\":1,\"count\":2", "\"index\":0,\"count\":2");
    for cmd in [&["audit"][..], &["status"]] {
        let (code, _, err) = run(cmd, std::slice::from_ref(&ckpt));
        assert_eq!(code, Some(2), "{cmd:?}: {err}");
        assert!(err.contains("shard 0/2"), "{cmd:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Fields no plan or run can have are refused by every reader (merge, status and
/// audit), resealed or not: placed queens or a split depth on a quadrant shard (which the
/// fingerprint does not spell out), absurd thread counts, a kernel that is not one, a
/// quadrant shard naming a kernel, a `counted_by` naming no build or more tasks than it holds.
#[test]
fn fields_a_plan_or_a_run_cannot_have_are_refused_by_every_reader() {
    let dir = tmpdir("fields");
    let q = shards(&dir, &["count", "12", "-a", "quadrants"], 1).remove(0);
    let good = std::fs::read_to_string(&q).unwrap();
    let b = dir.join("b.json");
    let out = nqueens()
        .args(["count", "9", "-a", "symmetric", "--shard", "0/1"])
        .output()
        .unwrap();
    std::fs::write(&b, &out.stdout).unwrap();
    let good_b = std::fs::read_to_string(&b).unwrap();
    let cases: [(&Path, &str, &str, &str); 7] = [
        (
            &q,
            "\"split_depth\":0",
            "\"split_depth\":2",
            "describes its plan",
        ),
        (
            &q,
            "\"placed\":[]",
            "\"placed\":[[1,2]]",
            "describes its plan",
        ),
        (
            &q,
            "\"kernel\":null",
            "\"kernel\":\"wide\"",
            "names a kernel",
        ),
        (&b, "\"kernel\":\"wide\"", "\"kernel\":\"bogus\"", "not one"),
        (
            &b,
            "\"threads\":",
            "\"threads\":18446744073709551615,\"x\":",
            "threads",
        ),
        (&q, "\"build\":\"", "\"build\":\"avx9000", "build"),
        (&q, "\"tasks\":", "\"tasks\":99999,\"y\":", "counted_by"),
    ];
    for (f, old, new, says) in cases {
        std::fs::write(&q, &good).unwrap();
        std::fs::write(&b, &good_b).unwrap();
        if old == "\"tasks\":" {
            // More tasks counted than the file holds.
            let v: Value = serde_json::from_str(&good).unwrap();
            let n = v["counted_by"][0]["tasks"].as_u64().unwrap();
            edit(
                f,
                &format!("\"tasks\":{n}}}"),
                &format!("\"tasks\":{}}}", n + 1),
            );
        } else {
            edit(f, old, new);
        }
        for cmd in [&["merge"][..], &["status"], &["audit"]] {
            let (code, _, err) = run(cmd, &[f.to_path_buf()]);
            assert_eq!(code, Some(2), "{cmd:?} {new}: {err}");
            assert!(err.contains(says), "{cmd:?} {new}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every task record of `files`, as objects ([`record`]), in id order.
fn all_records(files: &[PathBuf]) -> (Value, Vec<Value>) {
    let runs: Vec<Value> = files
        .iter()
        .map(|f| serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap())
        .collect();
    let mut done: Vec<Value> = runs.iter().flat_map(records).collect();
    done.sort_by_key(|d| d["id"].as_u64());
    (runs[0].clone(), done)
}

/// The plan line and a record's line of the digests' texts, by hand.
fn plan_line(p: &Value) -> String {
    format!(
        "plan {} {} {} [] {}\n",
        p["n"],
        p["algorithm"].as_str().unwrap(),
        p["split_depth"],
        p["fingerprint"].as_str().unwrap()
    )
}

fn record_line(d: &Value) -> String {
    let c = &d["counts"];
    let classes = match c["classes"].as_array() {
        Some(a) => a
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(","),
        None => "-".into(),
    };
    format!("{} {} {classes} {}\n", d["id"], c["total"], c["nodes"])
}

/// The canonical text of a run's records (digest v1), as docs/guide/trust.md describes it,
/// rebuilt from the files' JSON by hand: what anyone can recompute without nqueens. Every
/// task of the plan has its line: one a version 5 file leaves out found nothing (class counts
/// of 0 where the algorithm counts classes).
fn canonical(files: &[PathBuf]) -> String {
    let (p, done) = all_records(files);
    let classes = matches!(p["algorithm"].as_str(), Some("symmetric" | "quadrants"));
    let mut text = format!("nqueens-run-digest v1\n{}", plan_line(&p));
    let mut listed = done.iter().peekable();
    for id in 0..p["plan_tasks"].as_u64().unwrap() {
        match listed.next_if(|d| d["id"].as_u64() == Some(id)) {
            Some(d) => text += &record_line(d),
            None if classes => text += &format!("{id} 0 0,0,0,0,0 0\n"),
            None => text += &format!("{id} 0 - 0\n"),
        }
    }
    assert!(listed.next().is_none(), "a record past the plan");
    text
}

/// The digest v2 of a run, by hand from docs/guide/trust.md: each record that found
/// something expanded by BLAKE3 into 1,024 16-bit lanes, summed modulo 2^16, then SHA-256 of
/// the header, the plan, the number of records and the lanes.
fn digest_v2(files: &[PathBuf]) -> String {
    let (p, done) = all_records(files);
    let mut lanes = vec![0u16; 1024];
    let mut summed = 0;
    for d in &done {
        let c = &d["counts"];
        let zero = |v: &Value| v.as_u64() == Some(0);
        let classes_zero = c["classes"].as_array().is_none_or(|a| a.iter().all(zero));
        if zero(&c["total"]) && zero(&c["nodes"]) && classes_zero {
            continue;
        }
        let mut h = blake3::Hasher::new();
        h.update(b"nqueens-run-digest v2 record\n");
        h.update(record_line(d).as_bytes());
        let mut out = [0u8; 2048];
        h.finalize_xof().fill(&mut out);
        for (l, b) in lanes.iter_mut().zip(out.chunks_exact(2)) {
            *l = l.wrapping_add(u16::from_le_bytes([b[0], b[1]]));
        }
        summed += 1;
    }
    let mut h = Sha256::new();
    h.update(format!(
        "nqueens-run-digest v2\n{}records {summed}\n",
        plan_line(&p)
    ));
    for l in lanes {
        h.update(l.to_le_bytes());
    }
    format!("{:x}", h.finalize())
}

/// Merge prints the SHA-256 digest of the run's records in their canonical text
/// (the same in any order of the files, and what anyone recomputes from the files), and which
/// builds, CPUs and hosts counted how many tasks; status of the whole run shows the digest.
#[test]
fn merge_gives_the_digest_of_the_records_in_any_order_and_who_counted_them() {
    let dir = tmpdir("digest");
    let mut files = shards(&dir, &["count", "16", "-t", "1"], 3);
    let (code, out, err) = run(&["merge", "--json"], &files);
    assert_eq!(code, Some(0), "{err}");
    let m: Value = serde_json::from_str(&out).unwrap();
    let digest = m["run_digest"].as_str().unwrap().to_string();
    assert_eq!(m["digest_version"], 2);
    assert_eq!(digest, digest_v2(&files));
    // v1, for the runs merged before v2: SHA-256 of the canonical text.
    let (code, out, err) = run(&["merge", "--json", "--digest", "v1"], &files);
    assert_eq!(code, Some(0), "{err}");
    let v1: Value = serde_json::from_str(&out).unwrap();
    let by_hand = format!("{:x}", Sha256::digest(canonical(&files).as_bytes()));
    assert_eq!(v1["run_digest"], by_hand.as_str());
    assert_eq!(v1["digest_version"], 1);
    // The same run in another K gives the same v2 digest.
    let dir5 = dir.join("k5");
    std::fs::create_dir_all(&dir5).unwrap();
    let five = shards(&dir5, &["count", "16", "-t", "1"], 5);
    let (_, out, _) = run(&["merge", "--json"], &five);
    let m5: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(m5["run_digest"], digest.as_str());
    std::fs::remove_dir_all(&dir5).unwrap();
    let counted: u64 = m["counted_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tasks"].as_u64().unwrap())
        .sum();
    let tasks: u64 = files
        .iter()
        .map(|f| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            v["tasks"].as_u64().unwrap()
        })
        .sum();
    assert_eq!(counted, tasks, "{m}");
    assert_eq!(m["counted_by_unrecorded"], 0);
    files.reverse();
    let (_, text, _) = run(&["merge"], &files);
    assert!(
        text.contains(&format!("digest     sha256 {digest}")),
        "{text}"
    );
    assert!(text.contains("counted by"), "{text}");
    assert!(text.contains("(the 3 shards' sum)"), "{text}");
    let (code, status, _) = run(&["status"], std::slice::from_ref(&dir));
    assert_eq!(code, Some(0));
    assert!(status.contains(&digest), "{status}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The default audit of a quadrant method's file recounts one task by the method in
/// another build than the file records and counts slices of it both ways, and says so;
/// `--same-method` recounts in the file's own build without slices; `--backtracking`
/// recounts whole tasks and says their nodes are not compared.
#[test]
fn a_quadrant_file_is_audited_in_another_build_and_by_slices() {
    let dir = tmpdir("audit-how");
    let f = shards(&dir, &["count", "16", "-a", "quadrants"], 4).remove(0);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    let built_in = v["counted_by"][0]["build"].as_str().unwrap().to_string();
    let audit = |extra: &[&str]| {
        let (code, out, err) = run(
            &[&["audit", "--json", "--seed", "7"], extra].concat(),
            std::slice::from_ref(&f),
        );
        assert_eq!(code, Some(0), "{extra:?}: {err}");
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let r = audit(&[]);
    let how = r["audits"][0]["recounted_by"].as_str().unwrap();
    assert_eq!(r["recounted"], 1, "{r}");
    assert_eq!(r["slices"].as_array().unwrap().len(), 4, "{r}");
    assert!(r["slices"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["agrees"] == true));
    let others = nqueens_count::quadrants::builds().len() > 1;
    assert_eq!(
        how.starts_with(&format!("quadrants, {built_in} build")),
        !others,
        "{how} (counted in {built_in})"
    );
    let timeless = |mut r: Value| {
        for s in r["slices"].as_array_mut().unwrap() {
            s["method_seconds"] = Value::Null;
            s["backtracking_seconds"] = Value::Null;
        }
        r
    };
    assert_eq!(
        timeless(r),
        timeless(audit(&[])),
        "the same seed, the same audit"
    );
    let r = audit(&["--same-method"]);
    assert_eq!(
        r["audits"][0]["recounted_by"],
        format!("quadrants, {built_in} build")
    );
    assert_eq!(r["slices"], serde_json::json!([]));
    let r = audit(&["--backtracking", "--slices", "0"]);
    assert_eq!(r["audits"][0]["recounted_by"], "backtracking by row set");
    assert_eq!(r["audits"][0]["nodes_compared"], false);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A slice drawn twice would check the same solutions twice: the slices of one task, of a
/// file or of a plan, are distinct (at N = 14 a task has few, and a draw repeats often).
#[test]
fn an_audit_never_counts_the_same_slice_twice() {
    let distinct = |args: &[&str]| {
        let (code, out, err) = run(args, &[]);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        let r: Value = serde_json::from_str(&out).unwrap();
        let slices: Vec<String> = r["slices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["slice"].to_string())
            .collect();
        let mut unique = slices.clone();
        unique.sort();
        unique.dedup();
        assert!(slices.len() >= 8, "{args:?}: {r}");
        assert_eq!(unique.len(), slices.len(), "{args:?}: {slices:?}");
    };
    for seed in ["1", "7"] {
        distinct(&[
            "audit",
            "docs/examples/q14/s0.json",
            "--json",
            "--slices",
            "12",
            "--seed",
            seed,
        ]);
        distinct(&[
            "audit", "--plan", "12", "--tasks", "2", "--slices", "8", "--json", "--seed", seed,
        ]);
    }
}

/// Digest v1 is over every task's line, so the same records give the same v1
/// digest from version 4 files (which list every task), from a recount in version 5 files
/// (which leave out the tasks that found nothing) and from a mix of both: trust.md's
/// published value for docs/examples/n12 (it gave three).
#[test]
fn digest_v1_is_the_same_from_files_of_any_version() {
    let dir = tmpdir("v1-any-version");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/n12");
    let old: Vec<PathBuf> = (0..3)
        .map(|i| examples.join(format!("s{i}.json")))
        .collect();
    let new = shards(&dir, &["count", "12", "-a", "symmetric", "-t", "1"], 3);
    let text = std::fs::read_to_string(&new[0]).unwrap();
    assert!(text.contains("\"version\":5"), "{text}");
    let v1 = |files: &[PathBuf]| {
        let out = nqueens()
            .args(["merge", "--digest", "v1", "--json"])
            .args(files)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["run_digest"].as_str().unwrap().to_string()
    };
    let published = "97c2b65757e4f8f7ec2898c18d537dde375842adb5dc5b06409dba43d55573a7";
    assert_eq!(v1(&old), published);
    assert_eq!(v1(&new), published);
    assert_eq!(
        v1(&[old[0].clone(), new[1].clone(), new[2].clone()]),
        published
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
