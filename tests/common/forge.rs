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

/// Adds `by` solutions to the first task of a shard file and to its sums, consistently, and
/// re-seals it: a forgery only a recount can find.
pub fn forge_task(path: &Path, by: u64) {
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
    let task = &v["done"][index];
    let (old_task, new_task) = shift(&task["counts"]);
    let (old_sum, new_sum) = shift(&v["counts"]);
    let pos = text.find(&format!("{{\"id\":{},", task["id"])).unwrap();
    let (head, tail) = text.split_at(pos);
    let edited =
        format!("{head}{}", tail.replacen(&old_task, &new_task, 1)).replacen(&old_sum, &new_sum, 1);
    assert_ne!(edited, text);
    std::fs::write(path, reseal(&edited)).unwrap();
    task["id"].as_u64().unwrap()
}
