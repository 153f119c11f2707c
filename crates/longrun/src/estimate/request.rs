//! What an estimate is asked ([`EstimateRequest`]).

/// What an estimate is asked.
#[derive(Debug, Clone, Copy)]
pub struct EstimateRequest {
    /// The time budget for counting sampled tasks (wall seconds): no task starts after it;
    /// at least [`MIN_SAMPLED`](super::MIN_SAMPLED) are counted whatever it says.
    pub seconds: f64,
    /// Count exactly this many draws instead, whatever the time (the same seed then gives the
    /// same estimate of the solutions).
    pub tasks: Option<usize>,
    /// The wanted length of one shard, in minutes on one thread.
    pub shard_minutes: f64,
    /// The seed of the sample.
    pub seed: u64,
    /// Told, before any task is counted, when the plan's tasks are so large that the fewest
    /// draws are expected to take far longer than asked (over an hour, and over ten times the
    /// budget): what one costs, roughly.
    pub warn: Option<fn(&str)>,
    /// Go on even when the fewest draws cannot finish in a lifetime (by default they are
    /// refused, before anything is built).
    pub force: bool,
}
