//! A finished task's record: its id and what it counted. Checkpoints and shard files hold one
//! for every finished task; merge adds them up and the digest of a run is made of them.

use crate::count::tally::Tally;
use serde::{Deserialize, Serialize};

/// One finished task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Done {
    /// The task's id in the plan.
    pub id: u32,
    /// What it counted.
    pub counts: Tally,
}
