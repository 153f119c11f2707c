//! The GPU kernels' compile check, without a GPU: every kernel compiled by the project's own
//! NVRTC path for each architecture asked (default sm_80 and sm_90, the A100 and the H100 or
//! H200), then assembled by `ptxas -v`, which reports each function's registers, stack frame
//! and spills. Exit 1 on a compile error or a spill; 2 where NVRTC or ptxas cannot be found.
//!
//!   scripts/measure/kernels-compile.sh            # installs NVRTC and ptxas from PyPI first
//!   cargo run --profile quick --features gpu --example kernels_compile -- [sm_80 sm_90 ...]
//!
//! Needs `libnvrtc` on the library path and `ptxas` on the PATH (or `PTXAS=/path/to/ptxas`).

use std::process::Command;

/// What `ptxas -v` reports of one function.
#[derive(Debug, Default)]
struct Report {
    function: String,
    registers: u32,
    stack: u32,
    spill_stores: u32,
    spill_loads: u32,
}

/// The number before `what` in `line` (`40 registers`), if any.
fn number_before(line: &str, what: &str) -> Option<u32> {
    let at = line.find(what)?;
    line[..at].split_whitespace().last()?.parse().ok()
}

/// Each function's registers, stack frame and spills, from `ptxas -v`'s report.
fn parse(report: &str) -> Vec<Report> {
    let mut out: Vec<Report> = Vec::new();
    for line in report.lines() {
        if let Some(at) = line.find("Compiling entry function '") {
            let rest = &line[at + "Compiling entry function '".len()..];
            let function = rest.split('\'').next().unwrap_or_default().to_string();
            out.push(Report {
                function,
                ..Report::default()
            });
        } else if let Some(r) = out.last_mut() {
            if line.contains("bytes stack frame") {
                r.stack = number_before(line, "bytes stack frame").unwrap_or(0);
                r.spill_stores = number_before(line, "bytes spill stores").unwrap_or(0);
                r.spill_loads = number_before(line, "bytes spill loads").unwrap_or(0);
            }
            if let Some(k) = number_before(line, "registers") {
                r.registers = k;
            }
        }
    }
    out
}

fn main() {
    let mut archs: Vec<String> = std::env::args().skip(1).collect();
    if archs.is_empty() {
        archs = vec!["sm_80".into(), "sm_90".into()];
    }
    let ptxas = std::env::var("PTXAS").unwrap_or_else(|_| "ptxas".into());
    let dir = std::env::temp_dir().join(format!("nqueens-kernels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut failed = false;
    println!(
        "arch   file       function               registers  stack  spill stores  spill loads"
    );
    for arch in &archs {
        let compiled = match nqueens_count::gpu::compile_for(arch) {
            Ok(c) => c,
            Err(e) => {
                // A compile error is the compiler's log, not a GPU's failure.
                match &e {
                    nqueens::Error::Device(said) => eprintln!("kernels_compile: {said}"),
                    other => eprintln!("kernels_compile: {other}"),
                }
                let code = if matches!(e, nqueens::Error::Usage(_)) {
                    2
                } else {
                    1
                };
                std::process::exit(code);
            }
        };
        for (file, ptx) in compiled {
            let path = dir.join(format!("{file}.{arch}.ptx"));
            std::fs::write(&path, ptx).expect("the PTX written");
            let out = Command::new(&ptxas)
                .args(["-v", &format!("--gpu-name={arch}"), "-o", "/dev/null"])
                .arg(&path)
                .output()
                .unwrap_or_else(|e| {
                    eprintln!("kernels_compile: cannot run {ptxas} ({e}): put ptxas on the PATH or set PTXAS");
                    std::process::exit(2);
                });
            if !out.status.success() {
                eprintln!(
                    "{file} for {arch}: ptxas failed:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                failed = true;
                continue;
            }
            // ptxas writes its report on stderr.
            for r in parse(&String::from_utf8_lossy(&out.stderr)) {
                let spills = r.spill_stores + r.spill_loads > 0;
                failed |= spills;
                println!(
                    "{arch:<6} {file:<10} {:<22} {:>9}  {:>5}  {:>12}  {:>11}{}",
                    r.function,
                    r.registers,
                    r.stack,
                    r.spill_stores,
                    r.spill_loads,
                    if spills { "  SPILLS" } else { "" }
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if failed {
        eprintln!("kernels_compile: a kernel failed to compile or spills registers");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptxas_reports_are_read() {
        let report = "ptxas info    : 0 bytes gmem\n\
            ptxas info    : Compiling entry function 'nq_count' for 'sm_90'\n\
            ptxas info    : Function properties for nq_count\n\
            \x20   2048 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
            ptxas info    : Used 40 registers, used 0 barriers, 2048 bytes cumulative stack size\n";
        let r = parse(report);
        assert_eq!(r.len(), 1);
        assert_eq!(
            (r[0].function.as_str(), r[0].registers, r[0].stack),
            ("nq_count", 40, 2048)
        );
        assert_eq!((r[0].spill_stores, r[0].spill_loads), (0, 0));
    }
}
