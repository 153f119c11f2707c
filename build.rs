//! Names the commit the binary is built from (`NQUEENS_COMMIT`, for `--version` and a
//! benchmark's report), or `unknown` outside a git checkout.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rustc-env=NQUEENS_COMMIT={}", commit());
}

/// The commit `HEAD` names, abbreviated, or `unknown`. Rebuilt when `HEAD` moves (a checkout,
/// or a commit on the branch it names).
fn commit() -> String {
    for watched in [".git/HEAD", ".git/packed-refs"] {
        if Path::new(watched).exists() {
            println!("cargo:rerun-if-changed={watched}");
        }
    }
    if let Ok(head) = std::fs::read_to_string(".git/HEAD") {
        if let Some(branch) = head.trim().strip_prefix("ref: ") {
            let file = Path::new(".git").join(branch);
            if file.exists() {
                println!("cargo:rerun-if-changed={}", file.display());
            }
        }
    }
    Command::new("git")
        .args(["rev-parse", "--short=7", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "unknown".into())
}
