//! The rehearsal of a record run at its real size: a TEST-ONLY generator of made-up shard
//! results of the N = 28 plan (never reachable from the command line), so that merge, status
//! and audit are measured on a run of a million files before a core-year is spent on one.
//! `scripts/measure/rehearsal.sh` runs it and times the readers; the performance log (docs/performance/log.md) has the figures.
//!
//! The counts are made up (each task with an even id "found" 8 × (id mod 1000 + 1)
//! solutions in classes of 8, the others nothing): the files are sealed and pass every check
//! a reader makes of one run's files, but their total means nothing.

use nqueens::longrun::distributed::merge::{ShardResult, SHARD_FORMAT, SHARD_VERSION};
use nqueens::longrun::distributed::shard::{Assignment, Shard};
use nqueens::longrun::files::provenance::CountedBy;
use nqueens::longrun::files::record::Done;
use nqueens_count::quadrants::Quadrants;
use nqueens_count::quadrants::Settings;
use nqueens_count::tally::{Classes, Tally};
use std::path::Path;

/// The made-up counts of task `id` (`every`: every task found something).
fn made_up(id: u32, every: bool) -> Tally {
    if id % 2 == 1 && !every {
        return Tally::default();
    }
    let c8 = u128::from(id % 1000 + 1);
    Tally {
        total: 8 * c8,
        classes: Some(Classes::from([0, c8, 0, 0, 0])),
        nodes: 1000 + u128::from(id),
    }
}

/// Writes the made-up results of shards `from..to` of `k` of the N = 28 plan under `dir`,
/// laid out as `scripts/slurm-array.sh` lays them out (directories of 1,000 shards); returns
/// their total.
fn write_run(dir: &Path, k: u32, (from, to): (u32, u32), every: bool) -> u128 {
    write_run_of(28, dir, k, (from, to), every)
}

/// [`write_run`] of the quadrant method's plan of an `n` board (striped from N = 26, by
/// expected work below).
fn write_run_of(n: u32, dir: &Path, k: u32, (from, to): (u32, u32), every: bool) -> u128 {
    let mut total = 0;
    let q = Quadrants::unfilled(n, &Settings::default()).unwrap();
    let plan = q.id();
    let tasks = nqueens_count::engine::Counter::tasks(&q);
    let assignment = Assignment::new(&nqueens_count::engine::Work::of(&q), k);
    let mut who = CountedBy::here(nqueens_count::arch::Build::Portable);
    for index in from..to {
        let ids = assignment.ids(index);
        let done: Vec<Done> = ids
            .iter()
            .map(|&id| Done {
                id,
                counts: made_up(id, every),
            })
            .collect();
        who.tasks = done.len();
        let counts: Tally = done.iter().map(|d| d.counts).sum();
        total += counts.total;
        let r = ShardResult {
            format: SHARD_FORMAT.into(),
            version: SHARD_VERSION,
            plan: plan.clone(),
            shard: Shard { index, count: k },
            tasks: done.len(),
            plan_tasks: tasks,
            counts,
            kernel: None,
            threads: 16,
            resumed_tasks: 0,
            seconds: 3600.0,
            done,
            counted_by: if who.tasks > 0 {
                vec![who.clone()]
            } else {
                vec![]
            },
            checksum: String::new(),
        }
        .sealed();
        let sub = dir.join(format!("n{n}-k{k}/{:03}", index / 1000));
        std::fs::create_dir_all(&sub).unwrap();
        let text = serde_json::to_string(&r).unwrap() + "\n";
        std::fs::write(sub.join(format!("n{n}-k{k}-shard-{index}.json")), text).unwrap();
    }
    total
}

/// A small rehearsal, run with the tests: 3 of 1,000,000 shards, each read back whole and
/// checked, one of them against the plan.
#[test]
fn the_rehearsal_generator_writes_files_every_reader_accepts() {
    let dir = std::env::temp_dir().join(format!("nqueens-rehearsal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_run(&dir, 1_000_000, (0, 3), false);
    // K is even: shard 1 holds odd ids only (tasks that found nothing), shard 2 even ones.
    let f = |i| dir.join(format!("n28-k1000000/000/n28-k1000000-shard-{i}.json"));
    let (odd, even) = (f(1), f(2));
    let r = nqueens::longrun::distributed::merge::read(&odd).unwrap();
    assert!(
        r.tasks >= 4 && r.done.is_empty(),
        "{} of {}",
        r.done.len(),
        r.tasks
    );
    let r = nqueens::longrun::distributed::merge::read(&even).unwrap();
    assert!(
        r.tasks >= 4 && r.done.len() == r.tasks,
        "{} of {}",
        r.done.len(),
        r.tasks
    );
    // Compact: a task that found nothing costs nothing, one that found something a few
    // dozen bytes.
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(size(&even) < 1000, "{} bytes", size(&even));
    assert!(
        size(&even) - size(&odd) < 60 * r.tasks as u64 + 20,
        "{} {}",
        size(&even),
        size(&odd)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The whole rehearsal: `NQUEENS_REHEARSAL_DIR=DIR NQUEENS_REHEARSAL_K=K cargo test --release
/// --test suite -- --ignored --exact rehearsal::rehearsal_writes_a_made_up_n28_run` (what
/// scripts/measure/rehearsal.sh and scripts/measure/bookkeeping.sh do); `NQUEENS_REHEARSAL_N=25` writes a run
/// of that board's plan instead of N = 28's.
#[test]
#[ignore = "writes a million files: scripts/measure/rehearsal.sh runs it"]
fn rehearsal_writes_a_made_up_n28_run() {
    let dir = std::env::var("NQUEENS_REHEARSAL_DIR").expect("NQUEENS_REHEARSAL_DIR");
    let k: u32 = std::env::var("NQUEENS_REHEARSAL_K")
        .map(|k| k.parse().unwrap())
        .unwrap_or(1_000_000);
    // NQUEENS_REHEARSAL_EVERY=1: every task found something (a file lists every task).
    let every = std::env::var("NQUEENS_REHEARSAL_EVERY").is_ok_and(|v| v == "1");
    // NQUEENS_REHEARSAL_N=25: a plan assigned by expected work, not striped.
    let n: u32 = std::env::var("NQUEENS_REHEARSAL_N")
        .map(|n| n.parse().unwrap())
        .unwrap_or(28);
    let threads = 2u32;
    std::thread::scope(|s| {
        for t in 0..threads {
            let dir = Path::new(&dir);
            s.spawn(move || {
                let per = k.div_ceil(threads);
                write_run_of(n, dir, k, (t * per, ((t + 1) * per).min(k)), every);
            });
        }
    });
}

/// The memory bound: every task of the N = 28 plan (4,457,401 records, each of which found
/// something) in 100 files of about 45,000 records, merged within 512 MiB of address space
/// (it held about 200 bytes per record before: 900 MB), to the total the files were written
/// with; and the same run through a list file.
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn four_and_a_half_million_records_merge_in_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("nqueens-bounded-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let total = write_run(&dir, 100, (0, 100), true);
    let merge = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                r#"ulimit -v 524288 && exec "$0" merge --json {args}"#
            ))
            .arg(env!("CARGO_BIN_EXE_nqueens"))
            .output()
            .unwrap()
    };
    let out = merge(&dir.display().to_string());
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"].as_u64().map(u128::from), Some(total), "{v}");
    assert_eq!(v["shards"], 100);
    let list = dir.join("files.txt");
    let mut names = String::new();
    for i in 0..100 {
        names += &format!("{}/n28-k100/000/n28-k100-shard-{i}.json\n", dir.display());
    }
    std::fs::write(&list, names).unwrap();
    let by_list = merge(&format!("--list {}", list.display()));
    assert!(by_list.status.success(), "{by_list:?}");
    let w: serde_json::Value = serde_json::from_slice(&by_list.stdout).unwrap();
    assert_eq!(w["run_digest"], v["run_digest"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One file of a third of the N = 28 plan (1,485,801 records, each of which found
/// something: the largest files count writes hold up to 2,097,152) is read one record at a
/// time by merge, status and audit, as the files of a run are: each stays within 160 MiB of
/// address space (the file alone took about 290 bytes per record, 413 MiB, before), and still
/// checks the whole file (merge names the missing shards, status the finished one, audit
/// finds the drawn task's made-up count).
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn one_large_file_is_read_a_record_at_a_time() {
    let dir = std::env::temp_dir().join(format!("nqueens-one-large-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let total = write_run(&dir, 3, (0, 1), true);
    let file = dir.join("n28-k3/000/n28-k3-shard-0.json");
    assert!(std::fs::metadata(&file).unwrap().len() > 40 << 20);
    let run = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(r#"ulimit -v 163840 && exec "$0" {args}"#))
            .arg(env!("CARGO_BIN_EXE_nqueens"))
            .output()
            .unwrap()
    };
    let out = run(&format!("merge {}", file.display()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(err.contains("missing shards 1/3, 2/3"), "{err}");
    let out = run(&format!("status --json {}", file.display()));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["finished"], 1, "{v}");
    assert_eq!(v["solutions_so_far"].as_u64().map(u128::from), Some(total));
    // The drawn task (seed 1) is one whose row sets hold no solution: its recount by
    // backtracking is quick, and differs from the made-up record.
    let out = run(&format!(
        "audit --backtracking --tasks 1 --seed 1 -t 1 {}",
        file.display()
    ));
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(
        said.contains("1 of 1485801 recorded tasks recounted"),
        "{said}"
    );
    assert!(said.contains("DIFFERS"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}
