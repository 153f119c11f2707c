//! The scripts a cluster or a shell runs take their arguments as data: a value that bash
//! arithmetic would evaluate, or read as another number, is refused before it can.

use crate::common;

use std::process::Command;

/// `N` or `K` written as bash arithmetic with a command inside (`I[$(touch
/// PWNED)]+5`) runs nothing, and a `K` that is not a number (`k8`) is refused (it made every
/// array task say "nothing to do" and exit 0).
#[test]
fn scripts_refuse_arguments_that_are_not_plain_numbers() {
    let dir = common::tmpdir("scripts", "args");
    let root = env!("CARGO_MANIFEST_DIR");
    let cases: [(&str, &[&str]); 9] = [
        ("slurm-array.sh", &["17", "I[$(touch PWNED)]+5"]),
        (
            "slurm-array.sh",
            &["--offset", "I[$(touch PWNED)]", "17", "8"],
        ),
        ("slurm-array.sh", &["--step", "0x10", "17", "8"]),
        ("slurm-array.sh", &["N[$(touch PWNED)]+1", "8"]),
        ("slurm-array.sh", &["17", "k8"]),
        ("parallel-shards.sh", &["N[$(touch PWNED)]+2", "4", "1"]),
        (
            "measure/side-by-side.sh",
            &["true", "true", "N[$(touch PWNED)]", "1/4"],
        ),
        (
            "measure/side-by-side.sh",
            &["true", "true", "12", "1/4", "0x2"],
        ),
        (
            "measure/crowded.sh",
            &["true", "true", "12", "1/4", "1", "N[$(touch PWNED)]"],
        ),
    ];
    for (script, args) in cases {
        let out = Command::new("bash")
            .arg(format!("{root}/scripts/{script}"))
            .args(args)
            .current_dir(&dir)
            .env("SLURM_ARRAY_TASK_ID", "0")
            .env("NQUEENS", env!("CARGO_BIN_EXE_nqueens"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{script} {args:?}: {out:?}");
        assert!(
            !dir.join("PWNED").exists(),
            "{script} {args:?} ran the command"
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("number"), "{script} {args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An array's offset, step and shards per task reach `slurm-array.sh` as
/// arguments (they came only from the environment, which `--export=NONE` withholds), and an
/// argument wins over a variable left in the environment.
#[test]
fn the_array_script_takes_its_shards_from_its_arguments() {
    let dir = common::tmpdir("scripts", "array-args");
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/slurm-array.sh"))
        .args(["--offset", "2", "--step", "3", "--per-task", "2"])
        .args(["--nqueens", env!("CARGO_BIN_EXE_nqueens"), "--run-dir"])
        .arg(&dir)
        .args(["8", "10"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("NQUEENS_SHARD_OFFSET", "0")
        .env("NQUEENS_SHARD_STEP", "1")
        .env_remove("NQUEENS")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let results = dir.join("results/n8-k10/000");
    let mut found: Vec<String> = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    // Array task 1 at offset 2, step 3, 2 per task: shards 2 + 1 = 3 and 3 + 3 = 6.
    assert_eq!(found, ["n8-k10-shard-3.json", "n8-k10-shard-6.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `scripts/NAME.sh` at small N (`SMALL=1`, with `envs`) on this build into a fresh
/// directory, checks that it succeeded, and returns the directory and its log `NAME.txt`.
fn run_small(name: &str, envs: &[(&str, &str)]) -> (std::path::PathBuf, String) {
    let dir = common::tmpdir("scripts", name);
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/measure/{name}.sh"))
        .arg(&dir)
        .env("SMALL", "1")
        .envs(envs.iter().copied())
        .env("BIN", env!("CARGO_BIN_EXE_nqueens"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let log = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
    (dir, log)
}

/// `scripts/measure/many-cores.sh` (what the performance log's many-core rows come from) runs its steps at
/// small N (`SMALL=1`) and writes a line for each count with its solutions.
#[test]
fn the_many_core_script_writes_every_step() {
    let (dir, log) = run_small("many-cores", &[("THREADS", "2 1")]);
    assert!(!log.contains("WRONG"), "{log}");
    for line in [
        "1 default 12 2 - ",
        "1 default 12 1 - ",
        "2 default 13 2 - ",
        "3 avx2 12 1 0/4 ",
    ] {
        assert!(log.contains(line), "{line} not in {log}");
    }
    assert!(log.contains(" 14200 "), "{log}");
    assert!(log.contains("# done"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/measure/many-cores-why.sh` (the performance log) runs its steps at small N (`SMALL=1`):
/// the P shards run at once add up to a(14), for both builds, and every kind of line is there.
#[test]
fn the_many_core_why_script_writes_every_step() {
    let (dir, log) = run_small("many-cores-why", &[("PROCS", "2"), ("THREADS", "1")]);
    for line in [
        "1 alone default 12 1 - ",
        "1 copies-at-once-sum default 12 2 - ",
        "2 alone default 11 1 - ",
        "3 shards-at-once default 14 1 1/2 ",
        "3 whole default 14 2 - ",
        "3 shard-alone default 14 1 1/2 ",
        "4 whole avx2 14 2 - ",
        "5 whole default 14 1 - ",
    ] {
        assert!(log.contains(line), "{line} not in {log}");
    }
    for build in ["default", "avx2"] {
        let sum = log
            .lines()
            .find(|l| l.contains(&format!("shards-at-once-sum {build} 14 2 ")))
            .unwrap_or_else(|| panic!("no {build} sum in {log}"));
        assert_eq!(sum.split(' ').nth(9), Some("365596"), "{sum}");
    }
    assert!(log.contains("# done"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/measure/many-cores-same-work.sh` (the performance log) counts each shard at P threads
/// and at 1 thread (`SMALL=1`: N = 14 and 13): every count of a shard finds the same
/// solutions, and each pair and build gets its summary.
#[test]
fn the_many_core_same_work_script_counts_each_shard_both_ways() {
    let (dir, log) = run_small("many-cores-same-work", &[("PROCS", "2"), ("REPS", "2")]);
    for (pair, solutions, counts) in [
        ("14 0/4 default", "90172", 5),
        ("13 1/2 default", "37038", 5),
        ("14 0/4 avx2", "90172", 5),
    ] {
        let lines: Vec<&str> = log
            .lines()
            .filter(|l| l.starts_with(&format!("{pair} ")))
            .collect();
        assert_eq!(lines.len(), counts, "{pair} in {log}");
        assert!(
            lines.iter().all(|l| l.split(' ').nth(7) == Some(solutions)),
            "{pair}: {log}"
        );
        assert!(
            lines.iter().any(|l| l.split(' ').nth(3) == Some("1")),
            "{pair}: {log}"
        );
        assert!(
            log.contains(&format!("summary {pair} 1-thread ")),
            "{pair}: {log}"
        );
    }
    assert!(log.contains("# done"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/measure/one-task-threads.sh` (the performance log) counts one drawn task at each thread
/// count in turn (`SMALL=1`: N = 16): every count is the same task with the same solutions,
/// each round begins at the first thread count, and the arguments are plain numbers.
#[test]
fn the_one_task_script_counts_the_same_task_at_each_thread_count() {
    let dir = common::tmpdir("scripts", "one-task-threads");
    let root = env!("CARGO_MANIFEST_DIR");
    let log = dir.join("log.txt");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(format!("{root}/scripts/measure/one-task-threads.sh"))
            .args(args)
            .env("SMALL", "1")
            .env("ROUNDS", "2")
            .env("OUT", &log)
            .env("BIN", env!("CARGO_BIN_EXE_nqueens"))
            .output()
            .unwrap()
    };
    let out = run(&["16", "3", "1", "2"]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&log).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("round"))
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    let threads: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    assert_eq!(threads, ["1", "2", "1", "2"], "{text}");
    assert!(
        rows.iter()
            .all(|r| r[2] == rows[0][2] && r[6] == rows[0][6]),
        "{text}"
    );
    assert!(rows[0][6].parse::<u64>().unwrap() > 0, "{text}");
    assert!(rows.iter().step_by(2).all(|r| r[8] == "1.000"), "{text}");
    for bad in [&["16", "3", "x"][..], &["1+1", "3"][..]] {
        assert_eq!(run(bad).status.code(), Some(2), "{bad:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The user scripts find nqueens from any folder (`NQUEENS`, then the PATH, then the
/// checkout's release build), and where there is none say how to get one, exit 2 and make
/// nothing (it left an empty shard folder behind, exit 123).
#[test]
fn the_shard_scripts_find_nqueens_or_say_how_to_get_one() {
    let dir = common::tmpdir("scripts", "find");
    let root = env!("CARGO_MANIFEST_DIR");
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_nqueens"))
        .parent()
        .unwrap();
    // From another folder, nqueens on the PATH.
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/parallel-shards.sh"))
        .args(["8", "2", "1"])
        .current_dir(&dir)
        .env("PATH", &path)
        .env_remove("NQUEENS")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("92  (matches A000170(8))"));
    // A copy of the scripts outside a checkout, with no nqueens on the PATH.
    let alone = dir.join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    for script in ["parallel-shards.sh", "shard-balance.sh"] {
        std::fs::copy(format!("{root}/scripts/{script}"), alone.join(script)).unwrap();
        let out = Command::new("bash")
            .arg(alone.join(script))
            .args(["8", "2", "1"])
            .current_dir(&alone)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("NQUEENS")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{script}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no nqueens found"), "{script}: {err}");
        assert!(err.contains("NQUEENS=/path/to/nqueens"), "{script}: {err}");
    }
    let made: Vec<_> = std::fs::read_dir(&alone).unwrap().collect();
    assert_eq!(made.len(), 2, "only the two scripts: {made:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Slurm scripts explain themselves (`--help`, exit 0), say their usage plainly when
/// called without arguments (exit 2), print what they would submit or count with
/// `--dry-run` (no Slurm needed), and say why when no controller answers.
#[test]
fn the_slurm_scripts_say_how_they_are_used_and_what_they_would_do() {
    let dir = common::tmpdir("scripts", "slurm");
    let root = env!("CARGO_MANIFEST_DIR");
    let run = |script: &str, args: &[&str], envs: &[(&str, &str)]| {
        Command::new("bash")
            .arg(format!("{root}/scripts/{script}"))
            .args(args)
            .current_dir(&dir)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("SLURM_ARRAY_TASK_ID")
            .envs(envs.iter().copied())
            .output()
            .unwrap()
    };
    for script in ["slurm-array.sh", "slurm-submit.sh"] {
        let help = run(script, &["--help"], &[]);
        assert_eq!(help.status.code(), Some(0), "{script}: {help:?}");
        assert!(String::from_utf8_lossy(&help.stdout).contains("--dry-run"));
        let bare = run(script, &[], &[]);
        assert_eq!(bare.status.code(), Some(2), "{script}: {bare:?}");
        let err = String::from_utf8_lossy(&bare.stderr);
        assert!(
            err.contains("usage:") && !err.contains("line "),
            "{script}: {err}"
        );
    }
    // Outside an array job, the array script says what it needs.
    let outside = run("slurm-array.sh", &["8", "4"], &[]);
    assert_eq!(outside.status.code(), Some(2), "{outside:?}");
    assert!(String::from_utf8_lossy(&outside.stderr).contains("SLURM_ARRAY_TASK_ID"));
    // A dry run of task 1 names its shard and counts nothing.
    let dry = run(
        "slurm-array.sh",
        &["--dry-run", "8", "4"],
        &[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ],
    );
    assert!(dry.status.success(), "{dry:?}");
    let said = String::from_utf8_lossy(&dry.stdout);
    assert!(said.contains("--shard 1/4"), "{said}");
    assert!(!dir.join("results").exists());
    // No scontrol here: the submit script says so instead of dying silently, and its dry
    // run takes --max-array (or Slurm's default) and prints the sbatch line.
    let blind = run("slurm-submit.sh", &["14", "4"], &[]);
    assert_eq!(blind.status.code(), Some(1), "{blind:?}");
    assert!(String::from_utf8_lossy(&blind.stderr).contains("cannot read MaxArraySize"));
    let dry = run(
        "slurm-submit.sh",
        &["14", "4", "--max-array", "2", "--dry-run"],
        &[],
    );
    assert!(dry.status.success(), "{dry:?}");
    let said = String::from_utf8_lossy(&dry.stdout);
    assert_eq!(said.matches("would run: sbatch").count(), 2, "{said}");
    assert!(!dir.join("logs").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
