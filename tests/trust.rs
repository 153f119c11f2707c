//! Nothing lost, nothing forged, nothing hangs: each numbered finding of the adversarial test
//! (issue 13) as it was reported, now refused or handled.

mod common;

use common::{assert_refused, json, nqueens};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("trust", name)
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nqueens"))
}

/// FNV-1a 64, as a forger would write it in ten lines.
fn fnv(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Re-seals a checkpoint or shard file after an edit of its text, as a forger would.
fn reseal(text: &str) -> String {
    let text = text.trim();
    let at = text.find("\"checksum\":\"").unwrap() + "\"checksum\":\"".len();
    let end = at + text[at..].find('"').unwrap();
    let blank = format!("{}{}", &text[..at], &text[end..]);
    let sum = fnv(blank.as_bytes());
    format!("{}{sum}{}\n", &text[..at], &text[end..])
}

/// Shards `0..k` of `args` (`count ... --shard I/K`), written to `dir`.
fn shards(dir: &Path, args: &[&str], k: u32) -> Vec<PathBuf> {
    (0..k)
        .map(|i| {
            let out = bin()
                .args(args)
                .args(["--shard", &format!("{i}/{k}")])
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
            let f = dir.join(format!("s{i}.json"));
            std::fs::write(&f, &out.stdout).unwrap();
            f
        })
        .collect()
}

/// A tally as the files write it (field order included, which the seal depends on).
fn tally_text(c: &Value) -> String {
    format!(
        "{{\"total\":{},\"classes\":{},\"nodes\":{}}}",
        c["total"], c["classes"], c["nodes"]
    )
}

/// `(old, new)` text of tally `c` with `by` more solutions, its class counts kept consistent
/// (`c8` up by `by / 8` when it has classes).
fn bump(c: &Value, by: u64) -> (String, String) {
    let mut new = c.clone();
    new["total"] = (c["total"].as_u64().unwrap() + by).into();
    if let Some(cl) = new["classes"].as_array_mut() {
        cl[1] = (cl[1].as_u64().unwrap() + by / 8).into();
    }
    (tally_text(c), tally_text(&new))
}

/// Adds `by` solutions to the first task of a shard file and to its sums, consistently, and
/// re-seals it: a forgery only a recount can find.
fn forge_task(path: &Path, by: u64) {
    let text = std::fs::read_to_string(path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let (old_task, new_task) = bump(&v["done"][0]["counts"], by);
    let (old_sum, new_sum) = bump(&v["counts"], by);
    // Text edits keep the file's field order, which the seal depends on.
    let edited = text
        .replacen(&old_sum, &new_sum, 1)
        .replacen(&old_task, &new_task, 1);
    assert_eq!(
        edited.len(),
        text.len() + 2 * (new_sum.len() - old_sum.len())
    );
    std::fs::write(path, reseal(&edited)).unwrap();
}

fn strs(files: &[PathBuf]) -> Vec<&str> {
    files.iter().map(|f| f.to_str().unwrap()).collect()
}

// 1. Wrong results that pass silently: edited shards.
#[test]
fn merge_refuses_edited_shards_and_audit_names_a_forged_task() {
    let dir = tmpdir("forge");
    let files = shards(&dir, &["count", "13", "--place", "1:2"], 4);
    let mut merge = vec!["merge"];
    merge.extend(strs(&files));
    let honest = nqueens().args(&merge).output().unwrap();
    assert!(honest.status.success(), "{honest:?}");
    assert!(String::from_utf8_lossy(&honest.stdout).contains("total      3799"));
    let good = std::fs::read_to_string(&files[1]).unwrap();
    // An edit without the seal.
    std::fs::write(&files[1], good.replacen("\"total\":", "\"total\":8", 1)).unwrap();
    assert_refused(nqueens().args(&merge), "fails its checksum");
    // Re-sealed, but the tasks no longer add up to the sums.
    let v: Value = serde_json::from_str(&good).unwrap();
    let t = v["counts"]["total"].as_u64().unwrap();
    let sum_edit = good.replacen(
        &format!("\"counts\":{{\"total\":{t},"),
        &format!("\"counts\":{{\"total\":{},", t + 8),
        1,
    );
    assert_ne!(sum_edit, good);
    std::fs::write(&files[1], reseal(&sum_edit)).unwrap();
    assert_refused(nqueens().args(&merge), "its tasks' counts add up to");
    // Re-sealed and consistent: merge cannot tell; the audit recounts and names the task.
    std::fs::write(&files[1], &good).unwrap();
    forge_task(&files[1], 8);
    let forged = nqueens().args(&merge).output().unwrap();
    assert!(forged.status.success());
    assert!(String::from_utf8_lossy(&forged.stdout).contains("total      3807"));
    let mut audit = vec!["audit", "--sample", "1"];
    audit.extend(strs(&files));
    let out = nqueens().args(&audit).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let first = v["done"][0]["id"].as_u64().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("DIFFERS  {} task {first}:", files[1].display())),
        "{text}"
    );
    // The honest set passes the whole audit.
    std::fs::write(&files[1], &good).unwrap();
    let out = nqueens().args(&audit).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("83 of 83 recorded tasks"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_total_that_disagrees_with_its_classes_is_refused() {
    let dir = tmpdir("classes");
    let files = shards(&dir, &["count", "12", "-a", "symmetric"], 2);
    let good = std::fs::read_to_string(&files[0]).unwrap();
    let v: Value = serde_json::from_str(&good).unwrap();
    let t = v["done"][0]["counts"]["total"].as_u64().unwrap();
    let edit = good.replacen(
        &format!("\"counts\":{{\"total\":{t},"),
        &format!("\"counts\":{{\"total\":{},", t + 8),
        2,
    );
    std::fs::write(&files[0], reseal(&edit)).unwrap();
    let mut merge = vec!["merge"];
    merge.extend(strs(&files));
    assert_refused(
        nqueens().args(&merge),
        "does not agree with its class counts",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// A count mismatch (exit 3) end to end: forged shards of a board with a known count.
#[test]
fn forged_consistent_shards_of_a_known_board_exit_3_in_merge() {
    let dir = tmpdir("mismatch");
    let files = shards(&dir, &["count", "12", "-a", "symmetric"], 3);
    forge_task(&files[2], 8);
    let mut merge = vec!["merge"];
    merge.extend(strs(&files));
    let out = nqueens().args(&merge).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("A000170(12) computed as 14208"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// 2. A checkpoint edited and re-sealed: the audit catches it.
#[test]
fn audit_catches_a_resealed_checkpoint() {
    let dir = tmpdir("ckpt-forge");
    let c = dir.join("c.ckpt");
    let cs = c.to_str().unwrap();
    json(&[
        "count",
        "12",
        "-a",
        "symmetric",
        "--json",
        "--checkpoint",
        cs,
    ]);
    let out = nqueens()
        .args(["audit", "--sample", "1", cs])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&c).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let (old, new) = bump(&v["done"][3]["counts"], 8);
    let pos = text
        .find(&format!("{{\"id\":{},", v["done"][3]["id"]))
        .unwrap();
    let edited = format!("{}{}", &text[..pos], text[pos..].replacen(&old, &new, 1));
    assert_ne!(edited, text);
    std::fs::write(&c, reseal(&edited)).unwrap();
    let out = nqueens()
        .args(["audit", "--sample", "1", "--json", cs])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["differences"][0]["task"], v["done"][3]["id"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

// 3. Junk between pairs.
#[test]
fn verify_refuses_junk_between_pairs() {
    for junk in ["7", "junk", "\u{0}"] {
        let board = format!("(1,2) {junk} (2,4) (3,1) (4,3)\n");
        assert_refused(nqueens().arg("verify").write_stdin(board), "is not a pair");
    }
    nqueens()
        .arg("verify")
        .write_stdin("(1,2), (2,4), (3,1), (4,3)\n")
        .assert()
        .success();
}

// 4, 7. Temporary files, symlinks and read-only checkpoints.
#[cfg(unix)]
#[test]
fn checkpoints_never_follow_planted_links_and_respect_their_files() {
    let dir = tmpdir("links");
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let c = dir.join("f.ckpt");
    std::os::unix::fs::symlink(&victim, dir.join("f.ckpt.tmp")).unwrap();
    json(&["count", "12", "--json", "--checkpoint", c.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // A checkpoint that is a symlink: written through, the link kept.
    let real = dir.join("real.ckpt");
    let link = dir.join("link.ckpt");
    std::fs::copy(&c, &real).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let before = std::fs::read_to_string(&real).unwrap();
    json(&[
        "count",
        "12",
        "--json",
        "--checkpoint",
        link.to_str().unwrap(),
    ]);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), before);
    // Read-only: refused and left as it was (mode included).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = nqueens()
        .args(["count", "12", "--checkpoint", real.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("is read-only"));
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444);
    std::fs::remove_dir_all(&dir).unwrap();
}

// 5. Two runs on one checkpoint.
#[test]
fn a_second_run_on_a_held_checkpoint_is_refused_and_the_first_finishes() {
    let dir = tmpdir("lock");
    let c = dir.join("c.ckpt");
    let cs = c.to_str().unwrap();
    let first = bin()
        .args([
            "count",
            "16",
            "-a",
            "symmetric",
            "--kernel",
            "fast",
            "--threads",
            "1",
        ])
        .args(["--json", "--checkpoint", cs])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..500 {
        if c.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = bin()
        .args(["count", "16", "--checkpoint", cs])
        .output()
        .unwrap();
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 14_772_512);
    assert_eq!(second.status.code(), Some(1), "{second:?}");
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        err.contains("another nqueens run is using checkpoint"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// 6. Results that cannot be written fail; streams stop quietly.
#[cfg(unix)]
#[test]
fn a_result_that_cannot_be_written_is_a_failure() {
    let sh = |cmd: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(cmd.replace("NQ", env!("CARGO_BIN_EXE_nqueens")))
            .output()
            .unwrap()
    };
    for cmd in [
        "NQ count 10 --shard 0/2 >&-; echo $?",
        "NQ count 10 >&-; echo $?",
        "NQ solve 8 >/dev/full; echo $?",
        "NQ table 1..4 >&-; echo $?",
    ] {
        let out = sh(cmd);
        let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(code, "1", "{cmd}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("stdout"),
            "{cmd}: {out:?}"
        );
    }
    // A reader that is gone before the result is written: the result is lost, so it fails.
    let out = sh("(sleep 0.3; NQ count 12 --json; echo $? >&2) | true");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Broken pipe"),
        "{out:?}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).trim().ends_with('1'),
        "{out:?}"
    );
    // A stream whose reader has what it wanted stops quietly.
    let out = sh("NQ list 10 | head -1 >/dev/null; echo ${PIPESTATUS:-0}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let out = sh("NQ list 10 >/dev/full; echo $?");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
    // stderr that cannot be written does not cost the result.
    let out = sh("NQ solve 8 2>/dev/full");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1 5 8 6 3 7 2 4\n");
}

// 8. Inputs that never end, or are huge.
#[test]
fn devices_and_oversized_inputs_are_refused_quickly() {
    for dev in ["/dev/zero", "/dev/full"] {
        assert_refused(
            nqueens().args(["count", "8", "--checkpoint", dev]),
            "is not a regular file",
        );
    }
    assert_refused(
        nqueens().args(["merge", "/dev/zero"]),
        "larger than 256 MiB",
    );
    assert_refused(
        nqueens().args(["verify", "/dev/zero"]),
        "larger than 64 MiB",
    );
    let dir = tmpdir("utf8");
    let c = dir.join("bad.ckpt");
    std::fs::write(&c, [b'{', 0xff, 0xfe]).unwrap();
    assert_refused(
        nqueens().args(["count", "8", "--checkpoint", c.to_str().unwrap()]),
        "not text (invalid UTF-8)",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// 9, 10, 12. Values that panicked or ran away.
#[test]
fn extreme_values_are_refused_with_a_message() {
    for args in [
        &["count", "8", "--checkpoint-every", "1e20"][..],
        &["count", "8", "--checkpoint-every", "1e300"],
        &["count", "8", "--checkpoint-every", "1e-9"],
        &["count", "8", "--progress-every", "1e300"],
        &["count", "8", "--shard", "0/4000000000"],
        &["count", "8", "--threads", "100000"],
        &["list", "8", "--limit", "99999999999999999999999"],
        &["trace", "8", "--max-steps", "99999999999999999999999"],
        &["bench", "--warmup", "99999999999999999999999"],
        &["count", " 8"],
        &["count", "+8"],
        &["count", "8", "--place", "1 : 1"],
        &["count", "8", "--quiet", "--progress"],
    ] {
        let out = nqueens().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("too large to fit"), "{args:?}: {err}");
    }
}

#[test]
fn shard_files_with_absurd_fields_are_refused_not_panicked_on() {
    let dir = tmpdir("absurd");
    let files = shards(&dir, &["count", "10"], 2);
    let good = std::fs::read_to_string(&files[0]).unwrap();
    let v: Value = serde_json::from_str(&good).unwrap();
    let secs = v["seconds"].to_string();
    for (from, to, msg) in [
        (
            format!("\"seconds\":{secs}"),
            "\"seconds\":-1.0".to_string(),
            "seconds",
        ),
        (
            format!("\"seconds\":{secs}"),
            "\"seconds\":1e300".to_string(),
            "seconds",
        ),
        (
            "\"count\":2}".to_string(),
            "\"count\":4000000000}".to_string(),
            "out of range",
        ),
    ] {
        let edit = good.replacen(&from, &to, 1);
        assert_ne!(edit, good);
        std::fs::write(&files[0], reseal(&edit)).unwrap();
        assert_refused(
            nqueens().args([
                "merge",
                files[0].to_str().unwrap(),
                files[1].to_str().unwrap(),
            ]),
            msg,
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// 11. Long work says so.
#[test]
fn long_searches_say_they_may_be_long() {
    let mut child = bin()
        .args(["list", "40", "--limit", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let mut first = [0u8; 64];
    let k = std::io::Read::read(&mut err, &mut first).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(String::from_utf8_lossy(&first[..k]).starts_with("note: searching"));
}

// Messages that pointed the wrong way.
#[test]
fn messages_point_the_right_way() {
    let err = |args: &[&str]| {
        let out = nqueens().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    assert!(!err(&["count", "8", "--place", "0:1"]).contains("--zero-based"));
    assert!(err(&["solve", "8", "--place", "0:1"]).contains("--zero-based"));
    assert!(err(&["trace", "3"]).contains("the 3×3 board has no solution"));
    assert!(err(&["trace", "2"]).contains("no solution"));
    let out = nqueens()
        .arg("verify")
        .write_stdin("1 5 8 6 3 7 2\n")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a row missing?"));
    let out = nqueens()
        .arg("verify")
        .write_stdin("(1,1) (2,5) (3,8) (4,6) (5,3) (6,7) (7,2)\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("row 8 has no queen"));
}

// The parsers on random and mutated input: no panic, a message.
#[test]
fn parsers_survive_random_and_mutated_input() {
    use nqueens::board::parse::parse_stream;
    use nqueens::longrun::{checkpoint::Checkpoint, merge};
    let seeds = [
        "1 5 8 6 3 7 2 4\n",
        "(1,1) (2,5) (3,8) (4,6) (5,3) (6,7) (7,2) (8,4)\n",
        "Q . .\n. . Q\n",
        "{\"n\":4,\"solution\":[2,4,1,3]}\n",
        "| Q |   |\n+---+---+\n",
        r#"{"format":"nqueens-shard","version":3,"n":8,"algorithm":"plain","split_depth":1,"placed":[],"fingerprint":"0","shard":{"index":0,"count":1},"tasks":1,"plan_tasks":1,"counts":{"total":1,"classes":null,"nodes":1},"kernel":"wide","threads":1,"seconds":0.1,"done":[{"id":0,"counts":{"total":1,"classes":null,"nodes":1}}],"checksum":""}"#,
        r#"{"format":"nqueens-checkpoint","version":2,"n":8,"algorithm":"plain","split_depth":1,"placed":[],"fingerprint":"0","shard":null,"tasks":1,"done":[],"checksum":""}"#,
    ];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let alphabet = b"0123456789 ,()[]{}:\"Q.|+-\n\x00\xff#ab";
    for i in 0..3000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + next() % 6 {
            let at = (next() as usize) % (bytes.len() + 1);
            let c = alphabet[(next() as usize) % alphabet.len()];
            match next() % 3 {
                0 => bytes.insert(at, c),
                1 if at < bytes.len() => bytes[at] = c,
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        for (_, b) in parse_stream(&text, i % 2 == 0) {
            if let Err(e) = b {
                assert_eq!(e.exit_code(), 2, "{text:?}: {e}");
            }
        }
        if let Err(e) = merge::parse(&text, "f") {
            assert_eq!(e.exit_code(), 2, "{text:?}: {e}");
        }
        if let Err(e) = Checkpoint::parse(&text, "f") {
            assert_eq!(e.exit_code(), 2, "{text:?}: {e}");
        }
    }
}
