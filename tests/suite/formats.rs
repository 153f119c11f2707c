//! Every shard file version this nqueens reads (3, 4 and 5), alone and mixed in one run, by
//! merge, status and audit, to the same total and the same digest.

use crate::common;

use common::forge::reseal;
use common::nqueens;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The committed N = 12 run (version 4), made again as version 3 (no `counted_by`).
fn as_v3(from: &Path, to: &Path) {
    let text = std::fs::read_to_string(from).unwrap();
    assert!(text.contains("\"version\":4,"));
    let at = text.find(",\"counted_by\":[").unwrap();
    let end = at + text[at..].find(']').unwrap() + 1;
    let v3 =
        format!("{}{}", &text[..at], &text[end..]).replacen("\"version\":4,", "\"version\":3,", 1);
    std::fs::write(to, reseal(&v3)).unwrap();
}

fn run(args: &[&str], files: &[PathBuf]) -> (Option<i32>, Value) {
    let out = nqueens().args(args).args(files).output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), v)
}

#[test]
fn versions_3_4_and_5_are_read_alone_and_mixed_to_one_digest() {
    let dir = common::tmpdir("formats", "mixed");
    let v4: Vec<PathBuf> = (0..3)
        .map(|i| PathBuf::from(format!("docs/examples/n12/s{i}.json")))
        .collect();
    let v3: Vec<PathBuf> = (0..3)
        .map(|i| {
            let f = dir.join(format!("v3-{i}.json"));
            as_v3(&v4[i], &f);
            f
        })
        .collect();
    let v5: Vec<PathBuf> = (0..3)
        .map(|i| {
            let out = nqueens()
                .args(["count", "12", "--shard", &format!("{i}/3")])
                .output()
                .unwrap();
            assert!(out.status.success());
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.contains("\"version\":5,"), "{text}");
            let f = dir.join(format!("v5-{i}.json"));
            std::fs::write(&f, text).unwrap();
            f
        })
        .collect();
    let mixed = vec![v3[0].clone(), v4[1].clone(), v5[2].clone()];
    let mut digests = Vec::new();
    for files in [&v3, &v4, &v5, &mixed] {
        let (code, m) = run(&["merge", "--json"], files);
        assert_eq!(code, Some(0), "{files:?}: {m}");
        assert_eq!(m["total"], 14200);
        digests.push(m["run_digest"].clone());
        let (code, _) = run(&["audit", "--tasks", "3", "--seed", "1"], files);
        assert_eq!(code, Some(0), "{files:?}");
    }
    assert!(digests.windows(2).all(|w| w[0] == w[1]), "{digests:?}");
    let (code, s) = run(&["status", "--json"], &mixed);
    assert_eq!(code, Some(0), "{s}");
    assert_eq!(s["run_digest"], digests[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}
