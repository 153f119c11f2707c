//! Progress of a count, measured in expected work, for whoever shows it.

use super::engine::{Observer, Work};
use super::tally::Tally;
use nqueens_board::error::Result;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a count stands.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// Tasks finished (resumed ones included).
    pub done: usize,
    /// Tasks in scope.
    pub total: usize,
    /// Tasks taken from a checkpoint.
    pub resumed: usize,
    /// Solutions so far.
    pub solutions: u128,
    /// Share of the expected work done (resumed tasks included), 0 to 1, by the method's
    /// estimate of each task's work (the one that balances shards).
    pub work: f64,
    /// Share of the expected work taken from a checkpoint.
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

/// A progress callback: called about ten times a second, and once at the end.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// The observer that keeps a [`Progress`] and reports it.
pub struct Tracker {
    est: Work,
    scope_work: f64,
    done_work: f64,
    state: Progress,
    start: Instant,
    last: Instant,
    report: ProgressFn,
}

/// How often progress is reported.
const EVERY: Duration = Duration::from_millis(100);

impl Tracker {
    /// Tracks a run over the tasks `scope` whose expected work `est` says, of which `resumed`
    /// (with their tallies summed in `resumed_tally`) are already done.
    pub fn new(
        est: Work,
        scope: &[u32],
        resumed: &[u32],
        resumed_tally: &Tally,
        report: ProgressFn,
    ) -> Tracker {
        // A fold from +0.0: an empty sum of f64 is -0.0, shown as "-0.0%".
        let work = |ids: &[u32]| ids.iter().fold(0.0, |a, &i| a + est.at(i) as f64);
        let scope_work = work(scope).max(1.0);
        let done_work = work(resumed);
        let now = Instant::now();
        Tracker {
            scope_work,
            done_work,
            state: Progress {
                done: resumed.len(),
                total: scope.len(),
                resumed: resumed.len(),
                solutions: resumed_tally.total,
                work: done_work / scope_work,
                resumed_work: done_work / scope_work,
                elapsed: Duration::ZERO,
            },
            est,
            start: now,
            last: now,
            report,
        }
    }

    /// Where the count stands now.
    pub fn state(&self) -> Progress {
        Progress {
            elapsed: self.start.elapsed(),
            ..self.state
        }
    }

    /// Reports the final state.
    pub fn finish(&mut self) {
        (self.report)(&self.state());
    }
}

impl Observer for Tracker {
    fn finished(&mut self, id: u32, tally: &Tally) -> Result<()> {
        self.done_work += self.est.at(id) as f64;
        self.state.done += 1;
        self.state.solutions += tally.total;
        self.state.work = self.done_work / self.scope_work;
        Ok(())
    }

    fn tick(&mut self) -> Result<()> {
        if self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            (self.report)(&self.state());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count that has done nothing shows 0.0%, not "-0.0%" (an empty f64 sum is -0.0).
    #[test]
    fn nothing_done_is_positive_zero() {
        let t = Tracker::new(
            Work::Estimated(vec![5, 7]),
            &[0, 1],
            &[],
            &Tally::default(),
            Arc::new(|_| {}),
        );
        let w = t.state().work;
        assert!(w == 0.0 && w.is_sign_positive(), "{w}");
        assert_eq!(format!("{:.1}%", 100.0 * w), "0.0%");
    }
}
