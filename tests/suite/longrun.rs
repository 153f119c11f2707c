//! Checkpointed runs: checkpoints survive kill -9, SIGINT and SIGTERM, bad or unwritable
//! checkpoints are refused, progress reaches the whole work, a stopped count resumes exactly.

use crate::common;

use common::{assert_refused, json, nqueens};
use nqueens::{Algorithm, Kernel, Options};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

pub(crate) fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("long", name)
}

pub(crate) fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nqueens"))
}

/// Waits (up to 30 s) until the checkpoint `path` holds a finished task.
pub(crate) fn wait_for_saved_tasks(path: &Path) {
    for _ in 0..3000 {
        if done_tasks(path).is_some_and(|(d, _)| d > 0) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn done_tasks(path: &Path) -> Option<(usize, usize)> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    Some((v["done"].as_array()?.len(), v["tasks"].as_u64()? as usize))
}

/// A kernel slow enough that `count 16` on 2 threads lasts about a second on any machine
/// (the default `wide` kernel takes a tenth of that with AVX-512), so that signals and kills
/// land mid-run. The resumed runs use the default kernel: the checkpoint names the plan, not
/// the kernel, and every kernel gives the same counts and nodes.
pub(crate) const SLOW_KERNEL: &str = "fast";

#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn kill_9_at_random_moments_then_resume_gives_the_uninterrupted_total() {
    let dir = tmpdir("kill9");
    let ckpt = dir.join("n16.json");
    let args = |c: &mut Command| {
        c.args([
            "count",
            "16",
            "--threads",
            "2",
            "--json",
            "--checkpoint-every",
            "0.05",
            "--kernel",
            SLOW_KERNEL,
            "--algorithm",
            "symmetric",
        ])
        .arg("--checkpoint")
        .arg(&ckpt);
    };
    let mut seed = 7u64;
    let mut partial = 0;
    for _ in 0..4 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let wait = 100 + (seed >> 33) % 500;
        let mut c = bin();
        args(&mut c);
        let mut child = c
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        let _ = child.kill(); // SIGKILL: no chance to save anything
        child.wait().unwrap();
        if let Some((done, total)) = done_tasks(&ckpt) {
            if done > 0 && done < total {
                partial += 1;
            }
        }
        assert!(nqueens::longrun::files::disk::leftovers(&ckpt).is_empty() || ckpt.exists());
    }
    assert!(
        partial > 0,
        "no kill landed mid-run: the test proved nothing"
    );
    let mut c = bin();
    args(&mut c);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 14_772_512);
    assert_eq!(v["unique"], 1_846_955);
    assert!(v["resumed_tasks"].as_u64().unwrap() > 0);
    // The finished run removed what the killed ones left half-written.
    assert_eq!(
        nqueens::longrun::files::disk::leftovers(&ckpt),
        Vec::<PathBuf>::new()
    );
    let opts = Options::default()
        .with_algorithm(Algorithm::Symmetric)
        .with_split_depth(2)
        .with_threads(2)
        .with_kernel(Kernel::Fast);
    let whole = nqueens::count(16, &opts).unwrap();
    assert_eq!(v["nodes"].as_u64().unwrap() as u128, whole.nodes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigint_saves_the_checkpoint_and_says_how_to_resume() {
    let dir = tmpdir("sigint");
    let ckpt = dir.join("n16.json");
    let child = bin()
        .args([
            "count",
            "16",
            "--threads",
            "2",
            "--kernel",
            SLOW_KERNEL,
            "--algorithm",
            "symmetric",
            "--checkpoint-every",
            "0.05",
            "--checkpoint",
        ])
        .arg(&ckpt)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Signal once the first tasks are saved (the run takes about a second on 2 cores).
    wait_for_saved_tasks(&ckpt);
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    assert!(out.stdout.is_empty(), "no partial result on stdout");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted by SIGINT: checkpoint"), "{err}");
    assert!(
        err.contains("run the same command again to resume"),
        "{err}"
    );
    let (done, total) = done_tasks(&ckpt).expect("checkpoint saved");
    assert!(done > 0 && done < total, "{done}/{total}");
    let v = json(&[
        "count",
        "16",
        "--json",
        "--algorithm",
        "symmetric",
        "--checkpoint",
        ckpt.to_str().unwrap(),
    ]);
    assert_eq!(v["total"], 14_772_512);
    assert_eq!(v["resumed_tasks"].as_u64().unwrap() as usize, done);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every core on one task: SIGTERM during a quadrant count whose tasks are spread over both
/// threads (a striped plan, one row set's part a task) stops it, saves every finished task,
/// and the run resumes to the exact total.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn sigterm_during_tasks_spread_over_the_threads_saves_and_resumes() {
    let dir = tmpdir("spread-term");
    let ckpt = dir.join("q18.json");
    let count = || {
        let mut c = bin();
        c.env("NQUEENS_QUARTER_PARTS", "2")
            .args(["count", "18", "-a", "quadrants", "-t", "2"])
            .args(["--checkpoint-every", "0.05", "--checkpoint"])
            .arg(&ckpt);
        c
    };
    let child = count()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Signal once the first tasks are saved (the run takes a few seconds on 2 cores).
    wait_for_saved_tasks(&ckpt);
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert!(out.stdout.is_empty(), "no partial result on stdout");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted by SIGTERM: checkpoint"), "{err}");
    let (done, total) = done_tasks(&ckpt).expect("checkpoint saved");
    assert!(done > 0 && done < total, "{done}/{total}");
    let out = count().arg("--json").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 666_090_624);
    assert_eq!(v["resumed_tasks"].as_u64().unwrap() as usize, done);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigterm_without_checkpoint_says_what_is_lost() {
    let child = bin()
        .args(["count", "16", "--threads", "2", "--kernel", SLOW_KERNEL])
        .args(["--algorithm", "symmetric"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("are lost; give a --checkpoint file"), "{err}");
}

#[test]
fn bad_checkpoints_are_refused_and_left_alone() {
    let dir = tmpdir("badckpt");
    let ckpt = dir.join("n13.json");
    let c = ckpt.to_str().unwrap();
    json(&["count", "13", "--json", "--checkpoint", c]);
    let good = std::fs::read_to_string(&ckpt).unwrap();
    let refused = |text: &str, args: &[&str], msg: &str| {
        std::fs::write(&ckpt, text).unwrap();
        assert_refused(nqueens().args(args), msg);
        assert_eq!(
            std::fs::read_to_string(&ckpt).unwrap(),
            text,
            "file must be left as it was"
        );
    };
    let n14 = ["count", "14", "--checkpoint", c];
    let n13 = ["count", "13", "--checkpoint", c];
    refused(&good, &n14, "belongs to another count (N=13");
    refused(
        &good,
        &["count", "13", "-a", "mirror", "--checkpoint", c],
        "algorithm symmetric",
    );
    refused(&good[..good.len() / 2], &n13, "corrupt or truncated");
    refused(
        &good.replacen("\"total\":", "\"total\":1", 1),
        &n13,
        "fails its checksum",
    );
    refused("", &n13, "corrupt or truncated");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_checkpoint_fails_at_once() {
    let out = bin()
        .args(["count", "12", "--checkpoint", "/nonexistent-dir/n12.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write checkpoint /nonexistent-dir/n12.json"),
        "{err}"
    );
}

#[test]
fn progress_lines_reach_the_whole_work() {
    let out = bin()
        .args(["count", "13", "--progress", "--progress-every", "0.01"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().rfind(|l| l.starts_with("progress: ")).unwrap();
    assert!(
        last.contains("100.0% of the expected work, 73712 solutions"),
        "{last}"
    );
    // Not on a pipe without --progress.
    let quiet = bin().args(["count", "13"]).output().unwrap();
    assert!(quiet.stderr.is_empty(), "{quiet:?}");
}

/// A checkpointed quadrant count stopped part way (its cancel flag raised from the progress
/// report) and run again resumes from the checkpoint and gives the exact total.
#[test]
fn a_stopped_quadrant_count_resumes_exactly() {
    use nqueens::longrun::{self, LongRun, Outcome};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = tmpdir("qresume");
    let ckpt = dir.join("q17.json");
    let long = LongRun::new(Some(ckpt.clone()), Duration::from_millis(20), None);
    let flag = Arc::new(AtomicBool::new(false));
    let raise = Arc::clone(&flag);
    let opts = Options::default()
        .with_algorithm(Algorithm::Quadrants)
        .with_threads(2)
        .with_cancel(flag)
        .with_progress(move |p| {
            if p.done > 1000 {
                raise.store(true, Ordering::SeqCst);
            }
        });
    let e = longrun::run(17, &opts, &long).unwrap_err();
    assert!(matches!(e, nqueens::Error::Cancelled { .. }), "{e}");
    let (done, total) = done_tasks(&ckpt).expect("checkpoint saved");
    assert!(done > 0 && done < total, "{done}/{total}");
    let again = Options::default()
        .with_algorithm(Algorithm::Quadrants)
        .with_threads(2);
    let Outcome::Whole(t) = longrun::run(17, &again, &long).unwrap() else {
        panic!("a whole count")
    };
    assert_eq!(t.resumed_tasks, done);
    assert_eq!(t.total, 95_815_104);
    assert_eq!(t.unique, Some(11_977_939));
    t.cross_check().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Waits (up to 10 s) until the process `pid` no longer has `sig` pending: its handler has
/// been entered, so a signal sent after this one arrives second.
fn wait_until_taken(pid: u32, sig: i32) {
    let bit = 1u64 << (sig - 1);
    for _ in 0..10_000 {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            return; // gone: nothing is pending any more
        };
        let pending = status
            .lines()
            .filter_map(|l| l.strip_prefix("ShdPnd:").or(l.strip_prefix("SigPnd:")))
            .map(|v| u64::from_str_radix(v.trim(), 16).unwrap())
            .fold(0, |a, b| a | b);
        if pending & bit == 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("signal {sig} still pending for process {pid} after 10 s");
}

/// Two SIGINTs 1 ms apart (as `timeout`, a scheduler's cancel or an impatient
/// Ctrl-C send) stop the count, save its finished tasks and say so, every time; SIGHUP (a
/// closed terminal or ssh session) is taken as SIGTERM: saved, said, exit 129.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn a_second_signal_does_not_cut_the_save_short_and_sighup_saves_too() {
    let dir = tmpdir("signals");
    for (signals, code, name) in [
        (&[libc::SIGINT, libc::SIGINT][..], 130, "SIGINT"),
        (&[libc::SIGHUP][..], 129, "SIGHUP"),
        (&[libc::SIGTERM, libc::SIGINT][..], 143, "SIGTERM"),
    ] {
        let ckpt = dir.join(format!("{name}.ckpt"));
        let child = bin()
            .args(["count", "17", "-a", "plain", "--kernel", "simple"])
            .args(["--shard", "0/4", "-t", "1", "--checkpoint-every", "0.05"])
            .arg("--checkpoint")
            .arg(&ckpt)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Signalled once some tasks are saved, mid-run.
        for _ in 0..6000 {
            if done_tasks(&ckpt).is_some_and(|(d, _)| d > 0) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        for &sig in signals {
            // SAFETY: kill(2) on our own child's pid.
            assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
            // Linux hands pending signals over lowest number first: SIGTERM and SIGINT
            // both pending (a busy machine that has not run the child for a millisecond)
            // arrive as SIGINT, then SIGTERM. The next is sent once this one is taken.
            wait_until_taken(child.id(), sig);
            std::thread::sleep(Duration::from_millis(1));
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{name}: {err}");
        assert!(
            err.contains(&format!("interrupted by {name}: checkpoint")),
            "{err}"
        );
        let (done, total) = done_tasks(&ckpt).expect("checkpoint saved");
        assert!(
            done > 0 && done < total,
            "{name}: {done}/{total} saved; {err}"
        );
        assert!(
            err.contains(&format!("{done} of {total} tasks")),
            "{name}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
