//! Sharded runs: shards merge to the whole count (backtracking, quadrants, striped plans in
//! parts) and merge refuses incomplete, mixed or absurd sets; shards are balanced by work and
//! their plan never depends on the machine.

use crate::common;

use common::{assert_refused, json, nqueens};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("long", name)
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nqueens"))
}

fn shard_files(dir: &Path, n: u32, k: u32) -> Vec<String> {
    (0..k)
        .map(|i| {
            let out = bin()
                .args(["count", &n.to_string(), "--shard", &format!("{i}/{k}")])
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
            let f = dir.join(format!("n{n}-{i}of{k}.json"));
            std::fs::write(&f, &out.stdout).unwrap();
            f.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn shards_of_14_merge_to_the_plain_count() {
    let dir = tmpdir("shards");
    let plain = json(&["count", "14", "-a", "plain", "--json"])["total"].clone();
    for k in [1, 3, 7] {
        let files = shard_files(&dir, 14, k);
        let mut args = vec!["merge", "--json"];
        args.extend(files.iter().map(|s| s.as_str()));
        let v = json(&args);
        assert_eq!(v["total"], plain, "k={k}");
        assert_eq!(v["unique"], 45_752, "k={k}");
        assert_eq!(v["matches_known"], true);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_missing_duplicated_and_foreign_shards() {
    let dir = tmpdir("merge");
    let f = shard_files(&dir, 12, 3);
    let g = shard_files(&dir, 11, 3);
    let mixed = dir.join("other-plan.json");
    let other = bin()
        .args(["count", "12", "-a", "mirror", "--shard", "2/3"])
        .output()
        .unwrap();
    std::fs::write(&mixed, other.stdout).unwrap();
    let bad_index = dir.join("bad-index.json");
    let text = std::fs::read_to_string(&f[2]).unwrap();
    std::fs::write(&bad_index, text.replace("\"index\":2", "\"index\":5")).unwrap();
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{\"n\": 12").unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec![&f[0], &f[1]], "missing shard 2/3".into()),
        (
            vec![&f[0], &f[1], &f[1], &f[2]],
            format!("shard 1/3 is given twice: {} and {}", f[1], f[1]),
        ),
        (vec![&f[0], &f[1], &g[2]], "(N 11, not 12,".into()),
        (
            vec![&f[0], &f[1], mixed.to_str().unwrap()],
            "all shards must come from the same count".into(),
        ),
        (
            vec![&f[0], garbage.to_str().unwrap()],
            "is not a shard result".into(),
        ),
        (
            vec![&f[0], &f[1], bad_index.to_str().unwrap()],
            "claims shard 5/3, which is out of range".into(),
        ),
    ];
    for (files, msg) in cases {
        assert_refused(nqueens().arg("merge").args(&files), &msg);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_are_balanced_by_work_not_task_count() {
    // Nodes are deterministic, so this is a property of the assignment, not of timing.
    let k = 8;
    let nodes: Vec<f64> = (0..k)
        .map(|i| {
            let v = json(&["count", "15", "--shard", &format!("{i}/{k}")]);
            v["counts"]["nodes"].as_u64().unwrap() as f64
        })
        .collect();
    let mean = nodes.iter().sum::<f64>() / k as f64;
    let max = nodes.iter().cloned().fold(0.0, f64::max);
    assert!(
        max <= 1.5 * mean,
        "slowest shard {max} vs mean {mean}: {nodes:?}"
    );
}

/// The quadrant method's tasks go through shards and merge like the backtracker's.
#[test]
fn quadrant_shards_merge_to_the_whole_count() {
    let dir = tmpdir("qshards");
    let mut files = Vec::new();
    for i in 0..3 {
        let out = bin()
            .args(["count", "14", "-a", "quadrants", "-t", "2", "--shard"])
            .arg(format!("{i}/3"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let f = dir.join(format!("q{i}.json"));
        std::fs::write(&f, &out.stdout).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let v = json(&args);
    assert_eq!(v["total"], 365_596);
    assert_eq!(v["unique"], 45_752);
    assert_eq!(v["method"], "quadrants");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A striped plan in parts (the plan of N = 28, forced on N = 12 with
/// `NQUEENS_QUARTER_PARTS`): its shards take whole stripes, merge to the known totals, show
/// as finished in `status`, pass the audit by backtracking, and are refused by a merge of the
/// plain plan's shards (another fingerprint).
#[test]
fn striped_shards_in_parts_merge_status_and_audit() {
    let dir = tmpdir("striped");
    let shard = |i: u32, parts: &str| {
        let mut c = bin();
        c.args([
            "count",
            "12",
            "-a",
            "quadrants",
            "-t",
            "2",
            "--json",
            "--shard",
        ])
        .arg(format!("{i}/4"));
        if !parts.is_empty() {
            c.env("NQUEENS_QUARTER_PARTS", parts);
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let f = dir.join(format!("s{i}-{parts}.json"));
        std::fs::write(&f, &out.stdout).unwrap();
        f.to_str().unwrap().to_string()
    };
    let files: Vec<String> = (0..4).map(|i| shard(i, "3")).collect();
    // The plan is rebuilt from the files under the same setting.
    let run = |args: &[&str], files: &[String]| {
        let out = bin()
            .args(args)
            .args(files)
            .env("NQUEENS_QUARTER_PARTS", "3")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let v = run(&["merge", "--json"], &files);
    assert_eq!(
        (v["total"].as_u64(), v["unique"].as_u64()),
        (Some(14_200), Some(1_787))
    );
    let s = run(&["status", "--json"], &files);
    assert_eq!(
        (s["finished"].as_u64(), s["complete"].as_bool()),
        (Some(4), Some(true))
    );
    let a = run(
        &["audit", "--json", "--sample", "1", "--slices", "1"],
        &files,
    );
    assert_eq!(a["differences"], serde_json::json!([]), "{a}");
    assert_eq!(a["recounted"], a["recorded"], "{a}");
    assert!(a["audits"][0]["recounted_by"]
        .as_str()
        .unwrap()
        .starts_with("quadrants, "));
    assert!(a["slices"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["agrees"] == true));
    let a = run(
        &["audit", "--json", "--tasks", "20", "--backtracking"],
        &files,
    );
    assert_eq!(a["differences"], serde_json::json!([]), "{a}");
    // Shard 0 of 4 holds whole stripes of 3 (a combination's parts): stripes 0, 4, 8, ...
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    // (A version 5 file lists the tasks that found something, each `[ID, ...]`.)
    let ids: Vec<u64> = f["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[0].as_u64().unwrap())
        .collect();
    assert!(
        !ids.is_empty() && ids.iter().all(|i| i / 3 % 4 == 0),
        "{ids:?}"
    );
    // ... and the last stripe (924 = 0 mod 4), the rotational task alone.
    assert_eq!(f["tasks"].as_u64().unwrap() % 3, 1);
    assert_eq!(ids.last(), Some(&2772));
    // A shard of the plain plan does not pass for one of the striped plan.
    let mut mixed = files.clone();
    mixed[0] = shard(0, "");
    let out = bin()
        .arg("merge")
        .args(&mixed)
        .env("NQUEENS_QUARTER_PARTS", "3")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
    // Out-of-range part counts are refused, not clamped.
    let out = bin()
        .args(["count", "12", "-a", "quadrants"])
        .env("NQUEENS_QUARTER_PARTS", "65")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("from 1 to 64"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The plan of a sharded run depends only on what was asked: `auto` does not fall
/// back to backtracking on a machine with less memory (shards of one run would then disagree
/// and fail to merge after the work); it refuses before counting.
#[test]
fn a_sharded_auto_count_never_picks_its_method_by_memory() {
    let plan = |extra: &[&str]| {
        let mut args = vec!["count", "16", "--shard", "0/4", "-t", "1"];
        args.extend(extra);
        nqueens().args(&args).output().unwrap()
    };
    let roomy = plan(&[]);
    assert!(roomy.status.success(), "{roomy:?}");
    let v: Value = serde_json::from_slice(&roomy.stdout).unwrap();
    assert_eq!(v["algorithm"], "quadrants");
    let tight = plan(&["--max-memory", "3M"]);
    assert_eq!(tight.status.code(), Some(2), "{tight:?}");
    assert!(tight.stdout.is_empty());
    assert!(String::from_utf8_lossy(&tight.stderr).contains("--algorithm symmetric"));
    // Without shards or a checkpoint, auto may still back off to backtracking.
    let whole = json(&["count", "16", "-t", "1", "--max-memory", "3M", "--json"]);
    assert_eq!(whole["algorithm"], "symmetric");
}

/// Shards that ran for seconds (whose `seconds` once broke the seal of about one
/// file in four) merge to the known total.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_real_multi_second_shard_set_merges() {
    let dir = tmpdir("seconds");
    let files: Vec<String> = (0..2)
        .map(|i| {
            let out = bin()
                .args([
                    "count", "16", "-a", "plain", "--kernel", "simple", "-t", "1",
                ])
                .args(["--shard", &format!("{i}/2")])
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                v["seconds"].as_f64().unwrap() >= 1.0,
                "a shard this fast proves little"
            );
            let f = dir.join(format!("s{i}.json"));
            std::fs::write(&f, &out.stdout).unwrap();
            f.to_str().unwrap().to_string()
        })
        .collect();
    let merged = json(
        &[
            &["merge", "--json"][..],
            &files.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    assert_eq!(merged["total"], 14_772_512);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A set that claims a million shards is refused with a short message (it
/// printed 16 MB naming every missing shard).
#[test]
fn a_set_claiming_a_million_shards_gets_a_short_refusal() {
    let dir = tmpdir("million");
    let out = bin()
        .args(["count", "9", "--shard", "5/1000000"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let f = dir.join("s.json");
    std::fs::write(&f, &out.stdout).unwrap();
    let out = nqueens()
        .args(["merge", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 1000, "{} bytes", err.len());
    assert!(err.contains("and 999989 more"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint of a plan made with other parts (`NQUEENS_QUARTER_PARTS`) is
/// refused saying what differs (it printed two identical descriptions of the plans).
#[test]
fn a_checkpoint_of_another_plan_says_what_differs() {
    let dir = tmpdir("differs");
    let ckpt = dir.join("c.ckpt");
    let c = ckpt.to_str().unwrap();
    let out = bin()
        .args(["count", "12", "-a", "quadrants", "--checkpoint", c])
        .env("NQUEENS_QUARTER_PARTS", "3")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let out = bin()
        .args(["count", "12", "-a", "quadrants", "--checkpoint", c])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("it has fingerprint "), "{err}");
    assert!(err.contains("NQUEENS_QUARTER_PARTS"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `count -o FILE` writes the result atomically to FILE (nothing on stdout), and
/// with `--checkpoint` removes the checkpoint and its lock file once the result is written; a
/// result that cannot be written is refused before the count.
#[test]
fn a_result_goes_to_a_file_and_its_checkpoint_goes() {
    let dir = common::tmpdir("shards", "output");
    let (out, ckpt) = (dir.join("s0.json"), dir.join("s0.ckpt"));
    let run = nqueens()
        .args(["count", "11", "--shard", "0/2", "-o"])
        .arg(&out)
        .arg("--checkpoint")
        .arg(&ckpt)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert!(run.stdout.is_empty());
    let r = nqueens::longrun::distributed::merge::read(&out).unwrap();
    assert_eq!(r.shard.to_string(), "0/2");
    assert!(!ckpt.exists(), "the checkpoint is left");
    assert!(!dir.join("s0.ckpt.lock").exists(), "its lock is left");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // (An N = 28 shard: refused at once, or this test would count for hours.)
    let refused = nqueens()
        .args(["count", "28", "--shard", "0/1000", "-q", "-o"])
        .arg(dir.join("none/s.json"))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("cannot write result"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every core on one task: a quadrant shard counted on two threads (its tasks' row sets and
/// sieves shared by both) writes the records one thread writes, so that shards counted
/// either way merge into the whole count with one digest.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn shards_counted_on_one_or_two_threads_merge_with_one_digest() {
    let dir = tmpdir("spread");
    let shard = |i: u32, threads: &str| {
        let f = dir.join(format!("s{i}-t{threads}.json"));
        let out = bin()
            .args(["count", "18", "-a", "quadrants", "--shard"])
            .args([&format!("{i}/2"), "-t", threads, "-o"])
            .arg(&f)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        f.to_str().unwrap().to_string()
    };
    let (a0, a1, b1) = (shard(0, "1"), shard(1, "1"), shard(1, "2"));
    let merged = |files: [&str; 2]| {
        let mut args = vec!["merge", "--json"];
        args.extend(files);
        json(&args)
    };
    let (alone, spread) = (merged([&a0, &a1]), merged([&a0, &b1]));
    assert_eq!(alone["total"], 666_090_624);
    assert_eq!(spread["total"], alone["total"]);
    assert_eq!(spread["nodes"], alone["nodes"]);
    assert_eq!(spread["run_digest"], alone["run_digest"]);
    assert!(alone["run_digest"].as_str().is_some_and(|d| d.len() == 64));
    std::fs::remove_dir_all(&dir).unwrap();
}
