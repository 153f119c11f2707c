//! Recounting tasks on this machine: which kernel checks a backtracking file, and the engine
//! run that recounts a list of tasks.

use nqueens_board::error::Result;
use nqueens_count::engine::{self, Counter, Observer};
use nqueens_count::tally::Tally;
use nqueens_count::Options;
use nqueens_count::{Backend, Kernel};
use std::sync::Arc;

/// The kernel that checks tasks counted by `used`.
pub fn other_kernel(used: Option<Backend>) -> Backend {
    match used {
        Some(Backend::Cpu(Kernel::Wide)) | None => Backend::Cpu(Kernel::Fast),
        Some(_) => Backend::Cpu(Kernel::Wide),
    }
}

/// The tasks `ids` counted by `counter` on the engine with the options' threads, by id.
pub(super) fn recount(
    counter: Arc<dyn Counter>,
    ids: &[u32],
    opts: &Options,
) -> Result<Vec<(u32, Tally)>> {
    let mut got = Recounted(Vec::with_capacity(ids.len()));
    let cancel = opts.cancel.clone().unwrap_or_default();
    let ran = engine::run(
        counter,
        ids.to_vec(),
        opts.resolved_threads(),
        &cancel,
        &mut got,
    )?;
    if ran.cancelled {
        return Err(ran.stopped(ran.done, ids.len(), None));
    }
    got.0.sort_by_key(|&(id, _)| id);
    Ok(got.0)
}

/// Collects the recounted tasks.
struct Recounted(Vec<(u32, Tally)>);

impl Observer for Recounted {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        self.0.push((id, *tally));
        Ok(())
    }
}
