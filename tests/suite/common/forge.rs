//! Forging and damaging run files as an attacker would, and running the shards to forge.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// FNV-1a 64, as a forger would write it in ten lines.
pub fn fnv(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Re-seals a checkpoint or shard file after an edit of its text, as a forger would.
pub fn reseal(text: &str) -> String {
    let text = text.trim();
    let at = text.find("\"checksum\":\"").unwrap() + "\"checksum\":\"".len();
    let end = at + text[at..].find('"').unwrap();
    let blank = format!("{}{}", &text[..at], &text[end..]);
    let sum = fnv(blank.as_bytes());
    format!("{}{sum}{}\n", &text[..at], &text[end..])
}

/// Shards `0..k` of `args` (`count ... --shard I/K`), written to `dir`.
pub fn shards(dir: &Path, args: &[&str], k: u32) -> Vec<PathBuf> {
    (0..k)
        .map(|i| {
            let out = super::bin()
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
pub fn tally_text(c: &Value) -> String {
    format!(
        "{{\"total\":{},\"classes\":{},\"nodes\":{}}}",
        c["total"], c["classes"], c["nodes"]
    )
}

/// `(old, new)` text of tally `c` with `by` more solutions, its class counts kept consistent
/// (`c8` up by `by / 8` when it has classes).
pub fn bump(c: &Value, by: u64) -> (String, String) {
    let mut new = c.clone();
    new["total"] = (c["total"].as_u64().unwrap() + by).into();
    if let Some(cl) = new["classes"].as_array_mut() {
        cl[1] = (cl[1].as_u64().unwrap() + by / 8).into();
    }
    (tally_text(c), tally_text(&new))
}

/// Task record `i` of a shard file as an object, `{"id", "counts": {"total", "classes",
/// "nodes"}}`, whichever form the file writes it in (version 5: `[ID, TOTAL, NODES, C1, C8,
/// QUARTERS, SYM90, SYM180]`).
pub fn record(v: &Value, i: usize) -> Value {
    let d = &v["done"][i];
    if d.is_object() {
        return d.clone();
    }
    let a = d.as_array().unwrap();
    let classes = if a.len() == 8 {
        Value::from(a[3..].to_vec())
    } else {
        Value::Null
    };
    serde_json::json!({"id": a[0], "counts": {"total": a[1], "classes": classes, "nodes": a[2]}})
}

/// Every task record of a shard file, as objects ([`record`]).
pub fn records(v: &Value) -> Vec<Value> {
    (0..v["done"].as_array().unwrap().len())
        .map(|i| record(v, i))
        .collect()
}

/// The text of record `d` (an object, [`record`]) in a version 5 file.
pub fn record_text(d: &Value) -> String {
    let c = &d["counts"];
    let mut parts = vec![
        d["id"].to_string(),
        c["total"].to_string(),
        c["nodes"].to_string(),
    ];
    if let Some(cl) = c["classes"].as_array() {
        parts.extend(cl.iter().map(|x| x.to_string()));
    }
    format!("[{}]", parts.join(","))
}

/// `(old, new)` text of record `d` (an object) with its counts changed by `edit`.
pub fn edit_record(d: &Value, edit: impl Fn(&mut Value)) -> (String, String) {
    let mut new = d.clone();
    edit(&mut new["counts"]);
    (record_text(d), record_text(&new))
}

/// Replaces the first `old` after the file's `"done"` key with `new`.
pub fn replace_record(text: &str, old: &str, new: &str) -> String {
    let at = text.find("\"done\":").unwrap();
    let (head, tail) = text.split_at(at);
    assert!(tail.contains(old), "{old} not in the file's records");
    format!("{head}{}", tail.replacen(old, new, 1))
}

/// Adds `by` solutions to the first task of a shard file and to its sums, consistently, and
/// re-seals it: a forgery only a recount can find.
pub fn forge_task(path: &Path, by: u64) {
    let text = std::fs::read_to_string(path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let (old_task, new_task) = edit_record(&record(&v, 0), |c| {
        let (_, new) = bump(c, by);
        *c = serde_json::from_str(&new).unwrap();
    });
    let (old_sum, new_sum) = bump(&v["counts"], by);
    // Text edits keep the file's field order, which the seal depends on.
    let edited = replace_record(&text.replacen(&old_sum, &new_sum, 1), &old_task, &new_task);
    assert_ne!(edited, text);
    std::fs::write(path, reseal(&edited)).unwrap();
}

/// The files' paths as the command line takes them.
pub fn strs(files: &[PathBuf]) -> Vec<&str> {
    files.iter().map(|f| f.to_str().unwrap()).collect()
}

/// Moves task `index` of a quadrant method's shard file, and the file's sums, by `delta`
/// solutions (its quarter-class count by `delta / 2`, consistent when `delta` is even), and
/// re-seals it. Returns the task's id.
pub fn shift_quadrant_task(path: &Path, index: usize, delta: i64) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let shift = |c: &Value| {
        let mut new = c.clone();
        new["total"] = (c["total"].as_i64().unwrap() + delta).into();
        let cl = new["classes"].as_array_mut().unwrap();
        cl[2] = (cl[2].as_i64().unwrap() + delta / 2).into();
        (tally_text(c), tally_text(&new))
    };
    let task = record(&v, index);
    let (old_task, new_task) = edit_record(&task, |c| {
        let (_, new) = shift(c);
        *c = serde_json::from_str(&new).unwrap();
    });
    let (old_sum, new_sum) = shift(&v["counts"]);
    let edited = replace_record(&text, &old_task, &new_task).replacen(&old_sum, &new_sum, 1);
    assert_ne!(edited, text);
    std::fs::write(path, reseal(&edited)).unwrap();
    task["id"].as_u64().unwrap()
}
