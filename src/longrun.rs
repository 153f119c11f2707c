//! Long counts: tasks streamed from the workers as they finish, so a count can show
//! progress, save checkpoints, stop cleanly on a signal and resume, and count one shard.
//!
//! [`run`] counts the tasks in scope (the plan's, or a shard's) that a checkpoint does not
//! already hold. Workers send each finished task to the calling thread, which keeps the
//! tally, saves the checkpoint every `every` seconds, reports progress, and watches `signal`:
//! when a signal number appears there it saves the checkpoint and returns at once (the tasks
//! in flight are not waited for; they will be counted again on resume).

use crate::checkpoint::{Checkpoint, Done};
use crate::error::{Error, Result};
use crate::kernel::{Kernel, Tally};
use crate::plan::{Plan, Task};
use crate::shard::{estimates, task_ids_by, Shard};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How a long count is run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Worker threads.
    pub threads: usize,
    /// The kernel.
    pub kernel: Kernel,
    /// Where finished tasks are saved (and resumed from).
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint is saved.
    pub every: Duration,
    /// Count only this shard's tasks.
    pub shard: Option<Shard>,
    /// Whether progress reports need each task's expected work (the share of the work done
    /// and the ETA). Estimating costs a short search per task, so runs nobody watches skip
    /// it and count progress by tasks; shards always estimate, to balance.
    pub weigh: bool,
}

/// Where a count stands, for progress reports.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Tasks finished (resumed ones included).
    pub done: usize,
    /// Tasks in scope.
    pub total: usize,
    /// Tasks taken from the checkpoint.
    pub resumed: usize,
    /// Solutions so far.
    pub solutions: u128,
    /// Share of the expected work done (resumed tasks included), 0 to 1, by the same
    /// estimate that balances shards ([`crate::shard::estimates`]); by task count when
    /// [`Options::weigh`] is off and no shard is counted.
    pub work: f64,
    /// Share of the expected work taken from the checkpoint.
    pub resumed_work: f64,
    /// Time since this run started.
    pub elapsed: Duration,
}

impl Progress {
    /// Estimated time left, from this run's pace over the expected work (`None` until some
    /// work is done).
    pub fn eta(&self) -> Option<Duration> {
        let done = self.work - self.resumed_work;
        (done > 0.0).then(|| self.elapsed.mul_f64((1.0 - self.work).max(0.0) / done))
    }
}

/// How a long count ended.
#[derive(Debug, Clone)]
pub enum End {
    /// Every task in scope is counted.
    Finished {
        /// The tally of the tasks in scope (planner nodes included when the whole plan, or
        /// shard 0, is counted).
        tally: Tally,
        /// Tasks in scope.
        tasks: usize,
        /// Tasks taken from the checkpoint.
        resumed: usize,
        /// Nodes of the tasks taken from the checkpoint (not visited by this run).
        resumed_nodes: u128,
        /// Wall time of this run.
        elapsed: Duration,
    },
    /// A signal arrived; the checkpoint (if any) holds the finished tasks.
    Interrupted {
        /// The signal number.
        signal: usize,
        /// Where things stood.
        progress: Progress,
        /// Whether a checkpoint was saved.
        saved: bool,
    },
}

/// Counts `plan` as `opts` say, calling `progress` about ten times a second; stops early when
/// `signal` becomes non-zero (see the module docs).
pub fn run(
    plan: &Plan,
    opts: &Options,
    signal: &AtomicUsize,
    mut progress: impl FnMut(&Progress),
) -> Result<End> {
    let start = Instant::now();
    // Expected work per task: the shard assignment and the progress both use it.
    let est = if opts.weigh || opts.shard.is_some() {
        estimates(plan)
    } else {
        vec![1; plan.tasks.len()]
    };
    let scope: Vec<u32> = match opts.shard {
        Some(s) => task_ids_by(&est, s),
        None => (0..plan.tasks.len() as u32).collect(),
    };
    let mut ckpt = Checkpoint::new(plan, opts.shard, scope.len());
    if let Some(path) = &opts.checkpoint {
        if let Some(old) = Checkpoint::load(path, &ckpt)? {
            ckpt = old;
        }
    }
    let mut tally = Tally::default();
    let mut finished = vec![false; plan.tasks.len()];
    for d in &ckpt.done {
        if d.id as usize >= finished.len() {
            return Err(Error::Input(format!(
                "the checkpoint lists task {}, but this plan has {} tasks",
                d.id,
                finished.len()
            )));
        }
        finished[d.id as usize] = true;
        tally += Tally::from(d.counts);
    }
    let resumed = ckpt.done.len();
    let resumed_nodes = tally.nodes;
    let scope_work: f64 = scope
        .iter()
        .map(|&i| est[i as usize] as f64)
        .sum::<f64>()
        .max(1.0);
    let mut done_work: f64 = ckpt.done.iter().map(|d| est[d.id as usize] as f64).sum();
    let resumed_work = done_work / scope_work;
    if scope.iter().filter(|&&i| finished[i as usize]).count() != resumed {
        return Err(Error::Input(
            "the checkpoint lists tasks outside this count's scope".into(),
        ));
    }
    let todo: Vec<Task> = scope
        .iter()
        .filter(|&&i| !finished[i as usize])
        .map(|&i| plan.tasks[i as usize])
        .collect();
    if let Some(path) = &opts.checkpoint {
        // Save at once: an unwritable path fails now, not after the first interval.
        ckpt.save(path)?;
    }
    let pool = crate::engine::pool(opts.threads)?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Done>();
    let batch = crate::engine::batch_size(plan, opts.threads);
    let worker_plan = Arc::new(plan.clone());
    let kernel = opts.kernel;
    let worker_stop = Arc::clone(&stop);
    // Detached: on a signal the caller exits without waiting for the tasks in flight.
    std::thread::spawn(move || {
        pool.install(|| {
            todo.par_chunks(batch).with_max_len(1).for_each(|chunk| {
                if worker_stop.load(Ordering::Relaxed) {
                    return;
                }
                let tallies = worker_plan.count_tasks(chunk, kernel);
                for (t, tally) in chunk.iter().zip(tallies) {
                    let _ = tx.send(Done {
                        id: t.id,
                        counts: tally.into(),
                    });
                }
            })
        });
    });
    let mut last_save = Instant::now();
    let mut last_progress = Instant::now();
    let state = |ckpt: &Checkpoint, tally: &Tally, done_work: f64| Progress {
        done: ckpt.done.len(),
        total: scope.len(),
        resumed,
        solutions: tally.total,
        work: done_work / scope_work,
        resumed_work,
        elapsed: start.elapsed(),
    };
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(d) => {
                tally += Tally::from(d.counts);
                done_work += est[d.id as usize] as f64;
                ckpt.done.push(d);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let sig = signal.load(Ordering::SeqCst);
        if sig != 0 {
            stop.store(true, Ordering::SeqCst);
            // Take what has already arrived, then save.
            while let Ok(d) = rx.try_recv() {
                tally += Tally::from(d.counts);
                done_work += est[d.id as usize] as f64;
                ckpt.done.push(d);
            }
            let saved = match &opts.checkpoint {
                Some(path) => ckpt.save(path).map(|_| true)?,
                None => false,
            };
            return Ok(End::Interrupted {
                signal: sig,
                progress: state(&ckpt, &tally, done_work),
                saved,
            });
        }
        if let Some(path) = &opts.checkpoint {
            if last_save.elapsed() >= opts.every {
                ckpt.save(path)?;
                last_save = Instant::now();
            }
        }
        if last_progress.elapsed() >= Duration::from_millis(100) {
            progress(&state(&ckpt, &tally, done_work));
            last_progress = Instant::now();
        }
    }
    if ckpt.done.len() != scope.len() {
        return Err(Error::Pool(format!(
            "the workers stopped after {} of {} tasks",
            ckpt.done.len(),
            scope.len()
        )));
    }
    if let Some(path) = &opts.checkpoint {
        ckpt.save(path)?;
    }
    progress(&state(&ckpt, &tally, done_work));
    if opts.shard.is_none_or(|s| s.index == 0) {
        tally.nodes += plan.prefix_nodes as u128;
    }
    Ok(End::Finished {
        tally,
        tasks: scope.len(),
        resumed,
        resumed_nodes,
        elapsed: start.elapsed(),
    })
}
