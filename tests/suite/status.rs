//! `nqueens status`: finished, partial, missing and foreign shards, damaged files, and that it
//! changes nothing.

use crate::common;

use common::{assert_refused, nqueens};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmpdir(name: &str) -> PathBuf {
    let d = common::tmpdir("status", name);
    std::fs::create_dir_all(d.join("results")).unwrap();
    std::fs::create_dir_all(d.join("checkpoints")).unwrap();
    d
}

fn run(args: &[&str], out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{args:?}: {o:?}");
    std::fs::write(out, o.stdout).unwrap();
}

/// Every file under `dir` with its contents, to check that status changed nothing.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["results", "checkpoints"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let p = e.unwrap().path();
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
    out.sort();
    out
}

fn status(dir: &Path) -> (Option<i32>, Value) {
    let out = nqueens()
        .args(["status", "--json", dir.to_str().unwrap()])
        .output()
        .unwrap();
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

#[test]
fn finished_partial_missing_and_foreign_shards() {
    let dir = tmpdir("states");
    let r = dir.join("results");
    run(&["count", "13", "--shard", "0/4"], &r.join("s0.json"));
    run(&["count", "13", "--shard", "1/4"], &r.join("s1.json"));
    // Shard 2: a checkpoint of a finished run stands for one under way (its result not yet
    // written); shard 3: nothing.
    let ck = dir.join("checkpoints/s2.ckpt");
    run(
        &[
            "count",
            "13",
            "--shard",
            "2/4",
            "--checkpoint",
            ck.to_str().unwrap(),
        ],
        &dir.join("ignored.out"),
    );
    let c: Value = serde_json::from_str(&std::fs::read_to_string(&ck).unwrap()).unwrap();
    let c2: u64 = c["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["counts"]["total"].as_u64().unwrap())
        .sum();
    run(&["count", "12", "--shard", "0/2"], &r.join("foreign.json"));
    let before = snapshot(&dir);
    let (code, v) = status(&dir);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["shards"], 4);
    assert_eq!(
        (
            v["finished"].as_u64(),
            v["partial"].as_u64(),
            v["missing"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    let states: Vec<&str> = v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["finished", "finished", "partial", "missing"]);
    assert_eq!(v["states"][2]["work"], 1.0);
    let s0: Value =
        serde_json::from_str(&std::fs::read_to_string(r.join("s0.json")).unwrap()).unwrap();
    let s1: Value =
        serde_json::from_str(&std::fs::read_to_string(r.join("s1.json")).unwrap()).unwrap();
    let so_far =
        s0["counts"]["total"].as_u64().unwrap() + s1["counts"]["total"].as_u64().unwrap() + c2;
    assert_eq!(v["solutions_so_far"].as_u64(), Some(so_far));
    assert_eq!(
        v["foreign"][0].as_str().unwrap(),
        r.join("foreign.json").to_str().unwrap()
    );
    assert_eq!(v["complete"], false);
    // Text: each shard on a line.
    let out = nqueens()
        .args(["status", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("shard   3  missing    nothing yet"), "{text}");
    assert!(text.contains("foreign"), "{text}");
    // Every shard finished beside a foreign file: status says what merge of the
    // directory says, a refusal (exit 2), not "complete".
    run(&["count", "13", "--shard", "2/4"], &r.join("s2.json"));
    run(&["count", "13", "--shard", "3/4"], &r.join("s3.json"));
    let out = nqueens()
        .args(["status", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("merge refuses a directory that mixes counts"),
        "{text}"
    );
    assert!(!text.contains("complete"), "{text}");
    let merged = nqueens()
        .args(["merge", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(2), "{merged:?}");
    // Finished: exit 0 once the foreign file is gone.
    std::fs::remove_file(r.join("foreign.json")).unwrap();
    let (code, v) = status(&dir);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["total"], "73712");
    assert_eq!(v["complete"], true);
    // It never changed a file.
    let mut after = snapshot(&dir);
    after.retain(|(p, _)| before.iter().any(|(q, _)| q == p));
    assert_eq!(
        after,
        before
            .into_iter()
            .filter(|(p, _)| !p.ends_with("foreign.json"))
            .collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged (truncated) file is named, with exit 2, and the other shards are
/// still reported: in a run of a million files one bad file must not hide the rest.
#[test]
fn a_damaged_file_is_named_with_exit_2() {
    let dir = tmpdir("damaged");
    let r = dir.join("results");
    run(&["count", "12", "--shard", "0/3"], &r.join("s0.json"));
    run(&["count", "12", "--shard", "2/3"], &r.join("s2.json"));
    let text = std::fs::read_to_string(r.join("s0.json")).unwrap();
    std::fs::write(r.join("s1.json"), &text[..text.len() / 2]).unwrap();
    let report = |what: &str| {
        let out = nqueens()
            .args(["status", dir.to_str().unwrap()])
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        );
        assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
        assert!(stderr.contains(what), "{stderr}");
        let damaged = stdout
            .lines()
            .find(|l| l.starts_with("damaged"))
            .unwrap_or("");
        assert!(
            damaged.contains(what) && damaged.contains("truncated"),
            "{stdout}"
        );
        stdout
    };
    let stdout = report("s1.json");
    assert!(stdout.contains("shard   0  finished"), "{stdout}");
    assert!(stdout.contains("shard   2  finished"), "{stdout}");
    assert!(!stdout.contains("complete"), "{stdout}");
    let (code, v) = status(&dir);
    assert_eq!(code, Some(2));
    assert_eq!(
        (v["finished"].clone(), v["damaged"].as_array().map(Vec::len)),
        (2.into(), Some(1))
    );
    std::fs::write(dir.join("checkpoints/c.ckpt"), "{").unwrap();
    std::fs::remove_file(r.join("s1.json")).unwrap();
    report("c.ckpt");
    let empty = tmpdir("empty");
    assert_refused(
        nqueens().args(["status", empty.to_str().unwrap()]),
        "no shard results",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

/// A shard given twice makes a run that does not merge: status says so and exits as merge
/// does, 2.
#[test]
fn a_duplicate_shard_exits_as_merge_does_with_the_reason() {
    let dir = tmpdir("dup");
    for i in 0..2 {
        let out = dir.join(format!("results/s{i}.json"));
        run(&["count", "9", "--shard", &format!("{i}/2")], &out);
    }
    std::fs::copy(dir.join("results/s0.json"), dir.join("results/again.json")).unwrap();
    let out = nqueens()
        .args(["status", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("given twice"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An ordinary directory holds other files: notes that mention our formats and an
/// audit's report are skipped; a link back up the tree (a loop) is not followed (it counted
/// shards twice); and a file that cannot be read exits 2, not 1 ("not yet"), so that a script
/// waiting for 0 does not wait for ever.
#[test]
fn status_skips_what_is_not_a_run_file_follows_no_link_and_exits_2_on_an_unreadable_one() {
    let dir = tmpdir("ordinary");
    let r = dir.join("results");
    for i in 0..2 {
        run(
            &["count", "12", "--shard", &format!("{i}/2")],
            &r.join(format!("s{i}.json")),
        );
    }
    std::fs::write(
        r.join("notes.json"),
        "{\"todo\": \"merge the nqueens-shard files, keep the nqueens-checkpoint ones\"}\n",
    )
    .unwrap();
    let audit = nqueens()
        .args(["audit", "--json", "--seed", "1"])
        .arg(r.join("s0.json"))
        .output()
        .unwrap();
    assert!(audit.status.success(), "{audit:?}");
    std::fs::write(r.join("audit.json"), &audit.stdout).unwrap();
    std::os::unix::fs::symlink("..", r.join("loop")).unwrap();
    let (code, v) = status(&dir);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["finished"], 2, "{v}");
    let unreadable = r.join("s1.json");
    std::fs::set_permissions(
        &unreadable,
        std::os::unix::fs::PermissionsExt::from_mode(0o000),
    )
    .unwrap();
    if std::fs::read(&unreadable).is_err() {
        // (Root reads any file: then there is nothing to check.)
        let out = nqueens()
            .args(["status", dir.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("s1.json"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `status` of a whole count's checkpoint (no shards) says how far it is, what it
/// found, and what is left; exit 1 before every task is counted, 0 after.
#[test]
fn a_single_run_has_a_status() {
    let dir = tmpdir("whole");
    let ck = dir.join("c.ckpt");
    let out = nqueens()
        .args(["count", "12", "-q", "--checkpoint"])
        .arg(&ck)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let done = nqueens().arg("status").arg(&ck).output().unwrap();
    assert_eq!(done.status.code(), Some(0), "{done:?}");
    let text = String::from_utf8_lossy(&done.stdout);
    assert!(text.contains("14200 solutions so far"), "{text}");
    assert!(text.contains("every task is counted"), "{text}");
    let partial = nqueens()
        .args(["status", "--json", "docs/examples/one-run/n15.ckpt"])
        .output()
        .unwrap();
    assert_eq!(partial.status.code(), Some(1), "{partial:?}");
    let v: Value = serde_json::from_slice(&partial.stdout).unwrap();
    assert_eq!(v["done"], 5188);
    assert_eq!(v["tasks"], 12972);
    assert!(v["core_seconds_left"].as_f64().unwrap() > 0.0, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file the walk found that is gone when it is read (a shard finishing while
/// status reads: its checkpoint removed) is reported as vanished, not as an error; a file
/// named on the command line that does not exist is still refused.
#[test]
fn a_file_gone_while_status_reads_is_in_flux_not_an_error() {
    use nqueens::longrun::distributed::status::{files, status};
    let dir = tmpdir("vanished");
    for i in 0..3 {
        run(
            &["count", "12", "--shard", &format!("{i}/3")],
            &dir.join(format!("s{i}.json")),
        );
    }
    let found = files(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(found.len(), 3);
    std::fs::remove_file(dir.join("s1.json")).unwrap();
    let s = status(&found, &nqueens::Options::default())
        .unwrap()
        .expect("a shard run");
    assert_eq!((s.finished, s.missing), (2, 1));
    assert_eq!(s.vanished, vec![dir.join("s1.json").display().to_string()]);
    assert!(s.damaged.is_empty() && !s.complete());
    assert_refused(
        nqueens().args(["status", dir.join("s1.json").to_str().unwrap()]),
        "no such file",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finished result linked into the run directory (`ln -s ../scratch/s2.json
/// run/`) is read as the result, by status and merge alike, not skipped in silence.
#[test]
fn a_result_linked_into_the_run_is_read() {
    let dir = tmpdir("linked");
    let (run_dir, scratch) = (dir.join("run"), dir.join("scratch"));
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::create_dir_all(&scratch).unwrap();
    for i in 0..2 {
        run(
            &["count", "12", "--shard", &format!("{i}/3")],
            &run_dir.join(format!("s{i}.json")),
        );
    }
    run(&["count", "12", "--shard", "2/3"], &scratch.join("s2.json"));
    std::os::unix::fs::symlink("../scratch/s2.json", run_dir.join("s2.json")).unwrap();
    let (code, v) = status(&run_dir);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (v["finished"].clone(), v["total"].clone()),
        (3.into(), "14200".into())
    );
    let merged = common::json(&["merge", "--json", run_dir.to_str().unwrap()]);
    assert_eq!(merged["total"], 14200);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shard run that fails merge's checks (a forged, resealed shard) beside a
/// whole count's finished checkpoint: the shard run's error is reported (exit 2), with the
/// whole count's line beside it, not the checkpoint alone with exit 0.
#[test]
fn a_failing_shard_run_is_reported_beside_a_whole_count() {
    let dir = tmpdir("forged-beside-whole");
    let r = dir.join("results");
    for i in 0..2 {
        run(
            &["count", "12", "--shard", &format!("{i}/2")],
            &r.join(format!("s{i}.json")),
        );
    }
    let text = std::fs::read_to_string(r.join("s1.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let tasks = v["tasks"].as_u64().unwrap();
    let forged = text.replacen(
        &format!("\"tasks\":{tasks},"),
        &format!("\"tasks\":{},", tasks + 1),
        1,
    );
    assert_ne!(forged, text);
    std::fs::write(r.join("s1.json"), common::forge::reseal(&forged)).unwrap();
    let ckpt = dir.join("checkpoints/whole.ckpt");
    run(
        &["count", "12", "--checkpoint", ckpt.to_str().unwrap()],
        &dir.join("whole.out"),
    );
    assert!(ckpt.exists());
    let out = nqueens()
        .args(["status", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("s1.json"), "{stderr}");
    assert!(stdout.contains("whole.ckpt"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run of many shards is summarised (the missing ones as ranges, no line a
/// shard), `--all` gives every line, the JSON keeps every shard, and `--list FILE` reads the
/// run's files from a list as merge and audit do.
#[test]
fn a_large_run_is_summarised_and_read_from_a_list() {
    let dir = tmpdir("summary");
    let r = dir.join("results");
    for i in [0, 5] {
        run(
            &["count", "12", "--shard", &format!("{i}/40")],
            &r.join(format!("s{i}.json")),
        );
    }
    let text = |args: &[&str]| {
        let out = nqueens().arg("status").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let d = dir.to_str().unwrap();
    let short = text(&[d]);
    assert!(short.contains("missing    shards 1-4, 6-39\n"), "{short}");
    assert!(!short.contains("shard  39"), "{short}");
    assert!(short.lines().count() < 8, "{short}");
    let all = text(&[d, "--all"]);
    assert!(all.contains("shard  39  missing    nothing yet"), "{all}");
    assert!(all.contains("shard   5  finished"), "{all}");
    let (_, v) = status(&dir);
    assert_eq!(v["states"].as_array().map(Vec::len), Some(40));
    let list = dir.join("files.txt");
    std::fs::write(
        &list,
        format!(
            "# the run\n{}\n{}\n",
            r.join("s0.json").display(),
            r.join("s5.json").display()
        ),
    )
    .unwrap();
    assert_eq!(text(&["--list", list.to_str().unwrap()]), short);
    // A list that gives a file twice is refused at the second time, so an endless one that
    // repeats itself ends there.
    let mut endless = crate::common::bin()
        .args(["status", "--list", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = endless.stdin.take().unwrap();
    let line = format!("{}\n", r.join("s0.json").display());
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        // Writes until status stops reading (a broken pipe), or a bound far past its need.
        for _ in 0..1_000_000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let out = endless.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("is given twice in the list"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `status --help` says how deep a directory is searched as the code does.
#[test]
fn the_help_says_how_deep_directories_are_searched() {
    let help = common::stdout_of(&["status", "--help"]);
    let depth = nqueens::longrun::distributed::status::DIRECTORY_DEPTH;
    let said = format!("searched {depth} levels deep");
    assert!(
        help.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(&said),
        "{help}"
    );
}
