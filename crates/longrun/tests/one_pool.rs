//! A command that counts many small runs starts its threads once: an audit of many one-task
//! shard files recounts them all on one pool sized by its thread count, however many files
//! and tasks it reads, and wakes that pool once per batch of tasks, not once per file. (Its own
//! test binary: the counts of threads started and of pools asked for are the process's.)

use nqueens_count::engine::{pools_asked, threads_started};
use nqueens_count::{Algorithm, Options};
use nqueens_longrun::audit::{Auditor, QuadrantRecount, Recorded, Recount, Sample};
use nqueens_longrun::distributed::shard::Shard;
use nqueens_longrun::{run, LongRun, Outcome};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Shards `0..count` of N = 10 (backtracking) and of N = 16 (the quadrant method), one task
/// or so each, written to `dir`.
fn shards(dir: &Path, count: u32, opts: &Options) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (n, algorithm) in [(10, Algorithm::Symmetric), (16, Algorithm::Quadrants)] {
        let opts = opts.clone().with_algorithm(algorithm);
        for index in 0..count {
            let shard = Shard { index, count };
            let long = LongRun::new(None, Duration::from_secs(60), Some(shard));
            let Outcome::Shard(r) = run(n, &opts, &long).expect("a shard") else {
                panic!("a shard's result");
            };
            let path = dir.join(format!("n{n}-{index}.json"));
            std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
            files.push(path);
        }
    }
    files
}

/// Every task of each file recounted (the quadrant method's by another build, with a slice
/// each), on `opts`' threads.
fn audit(files: &[PathBuf], opts: &Options) -> usize {
    let how = Recount {
        kernel: None,
        quadrants: QuadrantRecount::OtherBuild,
        slices: 1,
    };
    let mut auditor = Auditor::new(Sample::Share(1.0), 7, how, opts);
    for f in files {
        auditor.add(&Recorded::read(f).unwrap()).unwrap();
    }
    let report = auditor.finish().unwrap();
    assert!(report.agrees());
    report.recounted
}

#[test]
fn an_audit_of_many_files_starts_its_threads_once() {
    let dir = std::env::temp_dir().join(format!("nqueens-one-pool-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let opts = Options::default().with_threads(3);
    let files = shards(&dir, 40, &opts);
    let after_counts = threads_started();
    // Forty counts on three threads started the pool's three threads once.
    assert_eq!(after_counts, 3, "threads started by 80 shard counts");
    let few = audit(&files[..4], &opts);
    let after_few = threads_started();
    let asked = pools_asked();
    let many = audit(&files, &opts);
    let after_many = threads_started();
    // Eighty files, each with its tasks and a slice: the pool is woken for each batch of up
    // to 1,024 tasks (one run per counter, N = 10's kernel and N = 16's build, and one use for
    // the slices), not for each file.
    let uses = pools_asked() - asked;
    let batches = many.div_ceil(1024);
    assert!(
        uses <= 3 * batches && uses < 40,
        "the pool was asked for {uses} times by an audit of 80 files, {many} tasks"
    );
    assert!(many > 10 * few / 2, "{many} tasks recounted against {few}");
    // However many files and tasks, the audit starts no thread of its own.
    assert_eq!(
        (after_few, after_many),
        (3, 3),
        "threads started by the audits"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
