//! A file that claims more than it holds (a huge scope in a few bytes) is refused within a
//! few MiB, by every reader.

use crate::common;

use common::forge::*;
use std::path::PathBuf;

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("claims", name)
}

/// A header of `n`, `fingerprint` and shard 0/`k` of a plan of `plan_tasks` tasks, claiming
/// `tasks` of them and listing no record: a version 5 shard file (a few hundred bytes) and a
/// shard checkpoint, both resealed.
fn tiny_files(
    dir: &std::path::Path,
    n: u32,
    fp: &str,
    k: u32,
    (plan_tasks, tasks): (u64, u64),
) -> [PathBuf; 2] {
    let head = format!(
        "\"n\":{n},\"algorithm\":\"quadrants\",\"split_depth\":0,\"placed\":[],\
         \"fingerprint\":\"{fp}\",\"shard\":{{\"index\":0,\"count\":{k}}}"
    );
    let shard = format!(
        "{{\"format\":\"nqueens-shard\",\"version\":5,{head},\"tasks\":{tasks},\
         \"plan_tasks\":{plan_tasks},\"counts\":{{\"total\":0,\"classes\":[0,0,0,0,0],\"nodes\":0}},\
         \"kernel\":null,\"threads\":1,\"seconds\":1.0,\"done\":[],\"counted_by\":[],\
         \"checksum\":\"\"}}"
    );
    let ckpt = format!(
        "{{\"format\":\"nqueens-checkpoint\",\"version\":3,{head},\"tasks\":{tasks},\
         \"done\":[],\"counted_by\":[],\"checksum\":\"\"}}"
    );
    let (s, c) = (
        dir.join(format!("s{k}.json")),
        dir.join(format!("s{k}.ckpt")),
    );
    std::fs::write(&s, reseal(&shard)).unwrap();
    std::fs::write(&c, reseal(&ckpt)).unwrap();
    [s, c]
}

/// A 351-byte shard file (or a 240-byte checkpoint) claiming shard 0/1 of the
/// N = 28 plan before the record plan (521,515,801 tasks) made merge hold 2 GB and say
/// "total 0", and audit abort allocating 75 GB. A scope count would not write in one file is
/// refused from the header by every reader, within 600 MB of address space, and so is one
/// of the record plan too large for one file; a scope that fits is checked by arithmetic.
#[test]
fn a_tiny_file_claiming_a_huge_scope_is_refused_within_a_few_mib() {
    let dir = tmpdir("tiny-huge");
    let capped = |cmd: &str, file: &std::path::Path| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"ulimit -v 614400 && exec "$0" $1 "$2""#)
            .arg(env!("CARGO_BIN_EXE_nqueens"))
            .arg(cmd)
            .arg(file)
            .output()
            .unwrap()
    };
    // The previous N = 28 plan (still read for its old files), and the record plan.
    let previous = tiny_files(&dir, 28, "fe48bb7d6f21c626", 1, (521_515_801, 521_515_801));
    let q = nqueens_count::quadrants::Quadrants::unfilled(28, &Default::default()).unwrap();
    let (fp, tasks) = (
        q.id().fingerprint.clone(),
        nqueens_count::engine::Counter::tasks(&q) as u64,
    );
    let fp = fp.as_str();
    let too_many = tiny_files(&dir, 28, fp, 2, (tasks, tasks.div_ceil(2)));
    for file in previous.iter().chain(&too_many) {
        // merge takes results only: a checkpoint it refuses by kind, before reading it.
        let shard = file.extension().is_some_and(|e| e == "json");
        let cmds: &[&str] = if shard {
            &["merge", "status", "audit"]
        } else {
            &["status", "audit"]
        };
        for &cmd in cmds {
            let out = capped(cmd, file);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {file:?}: {out:?}");
            assert!(
                err.contains("which count never writes"),
                "{cmd} {file:?}: {err}"
            );
            assert!(err.contains("at least"), "{cmd} {file:?}: {err}");
        }
    }
    // Shard 0/3 of the record plan fits a file: its header passes, and merge wants the rest.
    let fits = tiny_files(&dir, 28, fp, 3, (tasks, 0));
    let out = capped("merge", &fits[0]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(err.contains("it counted 0 tasks, but shard 0/3"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
