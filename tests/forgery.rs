//! A result that was edited, forged or damaged never passes as a result: merge refuses what
//! its numbers contradict, audit names what only a recount finds, and a count that disagrees
//! with a known value exits 3.

mod common;

use common::forge::*;
use common::{assert_refused, json, nqueens};
use serde_json::Value;
use std::path::PathBuf;

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("forgery", name)
}

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
