//! How a count is run: the library's [`Options`].

use super::algorithm::Algorithm;
use super::backend::Backend;
use super::backtracking::kernel::Kernel;
use super::engine;
use super::progress::{self, ProgressFn};
use super::quadrants;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How a count is run. `Options::default()` counts every solution with the faster method for
/// the board (`auto`), the default kernel on this CPU and one worker per logical CPU.
///
/// ```
/// use nqueens_count::{Algorithm, Options};
/// let opts = Options::default().with_threads(2).with_algorithm(Algorithm::Mirror);
/// assert_eq!(nqueens_count::count(8, &opts)?.total, 92);
/// # Ok::<(), nqueens_board::Error>(())
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// The counting method; `None` is `auto`: the quadrant method where it is faster,
    /// `symmetric` backtracking elsewhere, `plain` when queens are placed (the only algorithm
    /// that takes them).
    pub algorithm: Option<Algorithm>,
    /// Worker threads (1 to [`engine::MAX_THREADS`]); `None` or `Some(0)`: every logical CPU,
    /// as rayon's `num_threads(0)`.
    pub threads: Option<usize>,
    /// What counts a backtracking plan's tasks: a kernel on this CPU (the default `wide`), or
    /// the GPU (a build with the `gpu` feature, on a machine with an NVIDIA GPU).
    pub backend: Backend,
    /// Queens placed before the search, `(row, col)` 0-based: then the count is of their
    /// completions.
    pub placed: Vec<(usize, usize)>,
    /// Rows expanded into tasks (1..=3); `None`: the smallest depth giving at least 8 tasks
    /// per thread.
    pub split_depth: Option<u32>,
    /// The most memory the count may use, in bytes (the quadrant method's tables and
    /// half-boards; backtracking needs almost none); `None`: half of the available memory.
    pub max_memory: Option<u64>,
    /// Raise it to stop the count: `count` then returns [`Cancelled`](nqueens_board::Error::Cancelled).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called about ten times a second with where the count stands, and once at the end.
    pub progress: Option<ProgressFn>,
    /// The quadrant method's choices (a forced striped plan, quarter slices, a cap on the
    /// vector build); the defaults suit every count.
    pub quadrants: quadrants::Settings,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("algorithm", &self.algorithm)
            .field("threads", &self.threads)
            .field("backend", &self.backend)
            .field("placed", &self.placed)
            .field("split_depth", &self.split_depth)
            .field("max_memory", &self.max_memory)
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.as_ref().map(|_| "callback"))
            .field("quadrants", &self.quadrants)
            .finish()
    }
}

impl Options {
    /// With `algorithm`.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Options {
        self.algorithm = Some(algorithm);
        self
    }

    /// With `threads` workers; 0 means every logical CPU, as rayon's
    /// `ThreadPoolBuilder::num_threads(0)` does (more than [`engine::MAX_THREADS`] is an
    /// error when the count starts).
    pub fn with_threads(mut self, threads: usize) -> Options {
        self.threads = Some(threads);
        self
    }

    /// With `kernel` counting on this CPU.
    pub fn with_kernel(mut self, kernel: Kernel) -> Options {
        self.backend = Backend::Cpu(kernel);
        self
    }

    /// With `backend` counting (a CPU kernel, or the GPU).
    pub fn with_backend(mut self, backend: Backend) -> Options {
        self.backend = backend;
        self
    }

    /// With these queens placed (`(row, col)`, 0-based).
    pub fn with_placed(mut self, placed: &[(usize, usize)]) -> Options {
        self.placed = placed.to_vec();
        self
    }

    /// With this split depth (1..=3).
    pub fn with_split_depth(mut self, depth: u32) -> Options {
        self.split_depth = Some(depth);
        self
    }

    /// Using at most `bytes` of memory.
    pub fn with_max_memory(mut self, bytes: u64) -> Options {
        self.max_memory = Some(bytes);
        self
    }

    /// With the quadrant method's `settings`.
    pub fn with_quadrants(mut self, settings: quadrants::Settings) -> Options {
        self.quadrants = settings;
        self
    }

    /// Stopped when `flag` is raised.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Options {
        self.cancel = Some(flag);
        self
    }

    /// Reporting progress to `report`.
    pub fn with_progress(
        mut self,
        report: impl Fn(&progress::Progress) + Send + Sync + 'static,
    ) -> Options {
        self.progress = Some(Arc::new(report));
        self
    }

    /// The thread count used: the one asked for, or every logical CPU.
    pub fn resolved_threads(&self) -> usize {
        match self.threads {
            None | Some(0) => engine::default_threads(),
            Some(t) => t,
        }
    }
}
