//! Names the commit the binary is built from (`NQUEENS_COMMIT`, for `--version` and a
//! benchmark's report), or `unknown` outside a git checkout.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rustc-env=NQUEENS_COMMIT={}", commit());
    println!("cargo:rustc-env=NQUEENS_MODIFIED={}", modified());
    println!("cargo:rustc-env=NQUEENS_RUSTC={}", rustc());
}

/// `modified` where a file git tracks differs from the commit (the figures of such a build are
/// not the commit's), `clean` where none does, `unknown` outside a git checkout. Rerun when a
/// source or manifest changes, so the mark follows the tree.
fn modified() -> &'static str {
    for watched in ["src", "crates", "Cargo.toml", "Cargo.lock", ".git/index"] {
        if Path::new(watched).exists() {
            println!("cargo:rerun-if-changed={watched}");
        }
    }
    match Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
    {
        Ok(o) if o.status.success() && o.stdout.is_empty() => "clean",
        Ok(o) if o.status.success() => "modified",
        _ => "unknown",
    }
}

/// The compiler's version (`rustc 1.91.0 (f8297e351 2025-10-28)`), or `unknown`.
fn rustc() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
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
