//! `bench --compare OTHER`: another `nqueens` binary's count of the same workload, run in
//! turn with this one's (this run, then the other's, then this one's again), so that the
//! machine's noise falls on both alike. The other is timed as this one is: by the `seconds`
//! its `count --json` reports (the count alone, not the process's start), and its every run
//! is checked against OEIS in this process: its `n` and `total` against A000170, not its own
//! `matches_known`.

use nqueens::board::shown::Show;
use nqueens::{Algorithm, Error, Kernel};
use serde::Serialize;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The most bytes of the other binary's output read (its `--version`, a count's JSON report:
/// under a KiB each); past it the other is stopped and refused.
const MOST_OUTPUT_BYTES: u64 = 1 << 20;

/// Why a run of the other binary gave nothing: it could not start, or what it did.
enum RunFailed {
    Start(std::io::Error),
    Run(String),
}

/// What a run of the other binary gave: its exit status, stdout and stderr (each bounded).
struct Ran {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs `path` with `args` in a process group of its own, reading at most
/// [`MOST_OUTPUT_BYTES`] of each of its outputs: one that writes more is stopped (SIGKILL to
/// its group) and refused; where `stop` is raised (this process got SIGINT or SIGTERM), its
/// group gets SIGTERM, so that it ends as this one does, and the run is refused.
fn run_bounded(path: &Path, args: &[&str], stop: &AtomicBool) -> Result<Ran, RunFailed> {
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(RunFailed::Start)?;
    let group = -(child.id() as i32);
    let signal = |sig| {
        // SAFETY: kill(2) of the child's own process group, which this process made.
        unsafe { libc::kill(group, sig) };
    };
    let flooded = Arc::new(AtomicBool::new(false));
    let out = bounded_reader(child.stdout.take(), &flooded);
    let err = bounded_reader(child.stderr.take(), &flooded);
    let status = loop {
        let waited = child.try_wait();
        if let Some(status) = waited.map_err(|e| RunFailed::Run(format!("could not wait ({e})")))? {
            break status;
        }
        if stop.load(Ordering::Relaxed) {
            signal(libc::SIGTERM);
            let _ = child.wait();
            return Err(RunFailed::Run("was stopped, as this benchmark was".into()));
        }
        if flooded.load(Ordering::Relaxed) {
            signal(libc::SIGKILL);
            let _ = child.wait();
            return Err(RunFailed::Run(format!(
                "wrote more than {MOST_OUTPUT_BYTES} bytes"
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    if flooded.load(Ordering::Relaxed) {
        return Err(RunFailed::Run(format!(
            "wrote more than {MOST_OUTPUT_BYTES} bytes"
        )));
    }
    Ok(Ran {
        status,
        stdout,
        stderr,
    })
}

/// Reads `pipe` to its end on a thread of its own, at most [`MOST_OUTPUT_BYTES`]: past that it
/// stops reading and raises `flooded`.
fn bounded_reader(
    pipe: Option<impl Read + Send + 'static>,
    flooded: &Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<u8>> {
    let flooded = Arc::clone(flooded);
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = pipe {
            let _ = p.take(MOST_OUTPUT_BYTES + 1).read_to_end(&mut buf);
        }
        if buf.len() as u64 > MOST_OUTPUT_BYTES {
            flooded.store(true, Ordering::Relaxed);
        }
        buf
    })
}

/// The other binary.
#[derive(Debug, Clone)]
pub struct Other {
    path: PathBuf,
    /// What its `--version` says.
    pub version: String,
}

impl Other {
    /// The binary at `path`, refused unless it runs and says it is nqueens.
    pub fn new(path: &Path, stop: &AtomicBool) -> Result<Other, Error> {
        let bad = |why: String| {
            Error::Usage(format!(
                "--compare {}: {why}; give the path of another nqueens binary",
                path.shown()
            ))
        };
        let out = run_bounded(path, &["--version"], stop).map_err(|f| match f {
            RunFailed::Start(e) => bad(format!("cannot run it ({e})")),
            RunFailed::Run(why) => bad(format!("it {why}")),
        })?;
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
        stop: &AtomicBool,
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
        let out = run_bounded(&self.path, &args, stop).map_err(|f| match f {
            RunFailed::Start(e) => failed(format!("could not run ({e})")),
            RunFailed::Run(why) => failed(why),
        })?;
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
