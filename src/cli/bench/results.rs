//! What a benchmark measured: the machine, the workload, a row per thread count, the GPU's
//! runs; the whole report, as the JSON export writes it.

use super::compare::Compared;
use super::provenance::BuildInfo;
use nqueens::{Algorithm, Kernel};
use serde::Serialize;

/// The machine the benchmark ran on.
#[derive(Debug, Serialize)]
pub struct Machine {
    pub model: String,
    /// Its family, model, stepping, microcode, clock, caches, and whether it is virtual.
    pub cpu: nqueens_count::arch::cpu::CpuIdentity,
    pub logical_cores: usize,
    pub physical_cores: usize,
    pub features: &'static str,
    pub os: &'static str,
    /// The operating system's kernel release (`6.8.0-49-generic`), where it says.
    pub kernel: Option<String>,
    pub arch: &'static str,
}

impl Machine {
    /// This machine.
    pub fn here() -> Machine {
        Machine {
            model: super::provenance::cpu_model(),
            cpu: nqueens_count::arch::cpu::identity(),
            logical_cores: num_cpus::get(),
            physical_cores: num_cpus::get_physical(),
            features: nqueens_count::arch::Build::richest().describe(),
            os: std::env::consts::OS,
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .ok()
                .map(|k| k.trim().to_string()),
            arch: std::env::consts::ARCH,
        }
    }
}

/// The workload.
#[derive(Debug, Serialize)]
pub struct Workload {
    pub n: u32,
    pub algorithm: Algorithm,
    pub kernel: Kernel,
    pub total: u128,
    pub unique: Option<u128>,
    pub nodes: u128,
    pub runs: usize,
    pub warmup: usize,
}

/// One thread count's results.
#[derive(Debug, Serialize)]
pub struct Row {
    pub threads: usize,
    pub split_depth: u32,
    pub median_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    pub times_s: Vec<f64>,
    /// Against one thread's median; `None` where one thread was not measured (a speedup
    /// against some other thread count reads as perfect scaling where there was none).
    pub speedup: Option<f64>,
    /// The speedup over the threads; `None` as the speedup.
    pub efficiency: Option<f64>,
    pub nodes_per_second: f64,
    pub solutions_per_second: f64,
    /// The other binary's runs (with `--compare`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<Compared>,
}

/// The workload's runs on the GPU (`bench --gpu`), beside the CPU's best thread count.
#[derive(Debug, Serialize)]
pub struct GpuRuns {
    /// The GPU's name and architecture, as its driver gives them.
    pub device: String,
    /// The row of its runs: `threads` are the CPU threads that fed it.
    pub runs: Row,
    /// Its solutions per second over the CPU's best row's (the lowest median).
    pub against_cpu: f64,
}

/// The figure to compare machines by: the workload's solutions per second at the thread
/// count that counted it fastest.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Headline {
    pub solutions_per_second: f64,
    pub threads: usize,
}

/// The whole report (the JSON export).
#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub tool: &'static str,
    pub version: &'static str,
    /// When the benchmark ran (UTC, RFC 3339).
    pub date: String,
    /// The build of nqueens that ran it: its version and commit.
    pub build: BuildInfo,
    /// The vector build its counting code ran in on this CPU.
    pub vector_build: &'static str,
    /// The figure to compare machines by.
    pub headline: Headline,
    pub machine: Machine,
    pub workload: Workload,
    pub results: Vec<Row>,
    /// The binary compared with (`--compare`): its path and `--version`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared_with: Option<[String; 2]>,
    /// The workload's runs on the GPU (`--gpu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<GpuRuns>,
    /// What the machine or the runs make doubtful (empty on a quiet machine).
    pub warnings: Vec<String>,
}
