//! A shard's result and its checkpoint: a result never written over the checkpoint it
//! resumes from, and a resumed shard's result recording every run of it.

use crate::common;
use crate::longrun::{bin, tmpdir, wait_for_saved_tasks, SLOW_KERNEL};

use common::{assert_refused, json, nqueens};
use serde_json::Value;
use std::process::Stdio;

/// A shard's result written over its own checkpoint (or the checkpoint's lock
/// file), however spelled, is refused before counting: it would replace the checkpoint and
/// then be removed with it, leaving nothing. The checkpoint already there is left alone; a
/// result beside it is written, and the finished shard's checkpoint removed.
#[test]
fn a_result_over_its_own_checkpoint_or_lock_is_refused_before_counting() {
    let dir = tmpdir("out-is-ckpt");
    let count = |ckpt: &str, out: &str| {
        let mut c = nqueens();
        c.current_dir(&dir)
            .args(["count", "12", "--shard", "0/3", "-t", "1"])
            .args(["--checkpoint", ckpt, "-o", out]);
        c
    };
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for (ckpt, out) in [
        ("s0.json", "s0.json"),
        ("./s1.json", "s1.json"),
        ("s1.json", "sub/../s1.json"),
        ("s2.json", "s2.json.lock"),
        ("sub/s3.json", "./sub/s3.json.lock"),
    ] {
        assert_refused(&mut count(ckpt, out), "is the checkpoint");
        assert!(!dir.join(out).exists(), "{out} written");
    }
    // One sentence, with no gap in it.
    assert_refused(
        &mut count("s0.json", "s0.json"),
        "would replace it and be removed with it when the shard finishes; write the result",
    );
    // A symlinked checkpoint: the result over the file it points to.
    std::fs::write(dir.join("real.json"), b"").unwrap();
    std::os::unix::fs::symlink("real.json", dir.join("link.json")).unwrap();
    assert_refused(&mut count("link.json", "real.json"), "is the checkpoint");
    assert_eq!(std::fs::read(dir.join("real.json")).unwrap(), b"");
    // The way it is meant to be used.
    count("s4.ckpt", "s4.json").assert().success();
    let v: Value = serde_json::from_slice(&std::fs::read(dir.join("s4.json")).unwrap()).unwrap();
    assert_eq!(v["format"], "nqueens-shard");
    assert_eq!(v["shard"]["index"], 0);
    assert!(
        !dir.join("s4.ckpt").exists(),
        "finished shard's checkpoint removed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shard resumed from its checkpoint records the time of every run of it, not only its
/// last (it said 0.0 s when resumed whole from its checkpoint, and `status`'s time left and
/// `merge`'s sum of seconds went wrong with it), and the tasks it took from the checkpoint,
/// which `merge` adds up into `resumed_tasks`.
#[test]
fn a_resumed_shard_records_every_runs_time_and_its_resumed_tasks() {
    let dir = tmpdir("resumed-seconds");
    let ckpt = dir.join("s1.ckpt");
    let shard_args = [
        "count",
        "16",
        "--shard",
        "1/3",
        "-t",
        "1",
        "--kernel",
        SLOW_KERNEL,
        "-a",
        "symmetric",
    ];
    let child = bin()
        .args(shard_args)
        .args(["--checkpoint-every", "0.05", "--checkpoint"])
        .arg(&ckpt)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_saved_tasks(&ckpt);
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&ckpt).unwrap()).unwrap();
    let (earlier, done) = (
        saved["seconds"]
            .as_f64()
            .expect("the checkpoint keeps its seconds"),
        saved["done"].as_array().unwrap().len(),
    );
    assert!(earlier > 0.0 && done > 0, "{saved}");
    let result = dir.join("s1.json");
    let out = bin()
        .args(shard_args)
        .arg("--checkpoint")
        .arg(&ckpt)
        .arg("-o")
        .arg(&result)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    assert!(
        r["seconds"].as_f64().unwrap() >= earlier,
        "{r} after {earlier}"
    );
    assert_eq!(r["resumed_tasks"].as_u64().unwrap() as usize, done, "{r}");
    for i in [0, 2] {
        let s = format!("{i}/3");
        let out = bin()
            .args([
                "count",
                "16",
                "--shard",
                &s,
                "-t",
                "1",
                "-a",
                "symmetric",
                "-o",
            ])
            .arg(dir.join(format!("s{i}.json")))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    let merged = json(&["merge", "--json", dir.to_str().unwrap()]);
    assert_eq!(
        merged["resumed_tasks"].as_u64().unwrap() as usize,
        done,
        "{merged}"
    );
    assert_eq!(merged["total"], 14_772_512);
    std::fs::remove_dir_all(&dir).unwrap();
}
