//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

pub mod forge;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The built `nqueens` binary.
pub fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
}

/// Runs a command that must succeed and parses its stdout as one JSON value.
pub fn json(args: &[&str]) -> Value {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The `"solution"` of a `solve --json` answer (1-based columns) as 0-based columns.
pub fn solution_of(v: &Value) -> Vec<usize> {
    v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize - 1)
        .collect()
}

/// The command must exit 2 with an empty stdout and a stderr containing `msg`.
pub fn assert_refused(cmd: &mut Command, msg: &str) {
    cmd.assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(msg));
}

/// Each command must exit 2 with an empty stdout and a stderr containing the message.
pub fn assert_bad_input(cases: &[(&[&str], &str)]) {
    for (args, msg) in cases {
        assert_refused(nqueens().args(*args), msg);
    }
}

/// Runs a command that must succeed and returns its stdout.
pub fn stdout_of(args: &[&str]) -> String {
    let out = nqueens().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh empty directory for one test: `nqueens-{group}-{name}-{pid}-{call}` under the system's
/// temporary directory (removed first if a killed run left it).
pub fn tmpdir(group: &str, name: &str) -> std::path::PathBuf {
    // Every call its own directory: the modules run in one process, so the pid alone would
    // let two tests of one group and name share one.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!(
        "nqueens-{group}-{name}-{}-{call}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The built `nqueens` binary as a plain process (for pipes, signals and redirections).
pub fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
}
