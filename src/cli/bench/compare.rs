//! `bench --compare OTHER`: another `nqueens` binary's count of the same workload, run in
//! turn with this one's (this run, then the other's, then this one's again), so that the
//! machine's noise falls on both alike. The other is timed as this one is: by the `seconds`
//! its `count --json` reports (the count alone, not the process's start), and its every run
//! is checked against OEIS in this process: its `n` and `total` against A000170, not its own
//! `matches_known`.

use nqueens::board::shown::Show;
use nqueens::{Algorithm, Error, Kernel};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The other binary.
#[derive(Debug, Clone)]
pub struct Other {
    path: PathBuf,
    /// What its `--version` says.
    pub version: String,
}

impl Other {
    /// The binary at `path`, refused unless it runs and says it is nqueens.
    pub fn new(path: &Path) -> Result<Other, Error> {
        let bad = |why: String| {
            Error::Usage(format!(
                "--compare {}: {why}; give the path of another nqueens binary",
                path.shown()
            ))
        };
        let out = Command::new(path)
            .arg("--version")
            .output()
            .map_err(|e| bad(format!("cannot run it ({e})")))?;
        let said = String::from_utf8_lossy(&out.stdout);
        let version: String = said
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .chars()
            .take(60)
            .collect();
        if !out.status.success() || !version.starts_with("nqueens") {
            return Err(bad(format!(
                "it does not answer --version as nqueens does (it said '{version}')"
            )));
        }
        Ok(Other {
            path: path.to_path_buf(),
            version,
        })
    }

    /// This binary, run as another would be (so that both pay a process's start).
    pub fn this() -> Result<Other, Error> {
        let path = std::env::current_exe()
            .map_err(|e| Error::io("cannot find this binary to run it".to_string(), e))?;
        Ok(Other {
            path,
            version: format!("nqueens {}", env!("CARGO_PKG_VERSION")),
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// One count of `n` on `threads` threads with `algorithm` and `kernel`: its seconds.
    pub fn count(
        &self,
        n: u32,
        threads: usize,
        algorithm: Algorithm,
        kernel: Kernel,
    ) -> Result<f64, Error> {
        let (n, t) = (n.to_string(), threads.to_string());
        let args = [
            "count",
            &n,
            "-t",
            &t,
            "-a",
            algorithm.name(),
            "-k",
            kernel.name(),
            "--json",
            "--quiet",
        ];
        let failed = |why: String| {
            Error::Input(format!(
                "--compare {}: `{}` {why}",
                self.path.shown(),
                args.join(" ")
            ))
        };
        let out = Command::new(&self.path)
            .args(args)
            .output()
            .map_err(|e| failed(format!("could not run ({e})")))?;
        if !out.status.success() {
            return Err(failed(format!(
                "failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| failed(format!("wrote no JSON report ({e})")))?;
        // Checked here, against this program's table, not taken on the other's word.
        let board = n.parse::<u32>().expect("a board number");
        let said_n = v["n"].as_u64();
        let total = v["total"]
            .as_u64()
            .map(u128::from)
            .or_else(|| v["total"].as_str().and_then(|t| t.parse().ok()));
        let known = nqueens::oeis::Sequence::A000170.known(board);
        if said_n != Some(u64::from(board)) || total.is_none() || total != known {
            return Err(Error::Differs(format!(
                "--compare {}: its count of {n} is {} (for n = {}), not A000170({n}) = {}: a \
                 fast wrong answer is not a result",
                self.path.shown(),
                v["total"],
                v["n"],
                known.map_or("unknown".into(), |k| k.to_string())
            )));
        }
        v["seconds"]
            .as_f64()
            .ok_or_else(|| failed("gave no seconds".into()))
    }
}

/// The other binary's runs at one thread count, beside this one's.
#[derive(Debug, Clone, Serialize)]
pub struct Compared {
    pub median_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    pub times_s: Vec<f64>,
    /// Its median over this binary's: above 1, this binary is faster.
    pub ratio: f64,
}
