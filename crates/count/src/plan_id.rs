//! What identifies a plan in checkpoint and shard files: enough to rebuild it and to check
//! that the rebuilt plan is the same ([`PlanId::check_fingerprint`]).

use super::algorithm::Algorithm;
use nqueens_board::error::{Error, Result};

/// A plan as written in checkpoint and shard files: enough to rebuild it and to check that
/// it is the same plan: a plan's fingerprint hashes its whole task list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlanId {
    /// Board size.
    pub n: u32,
    /// The algorithm (its name in the files).
    pub algorithm: Algorithm,
    /// The split depth.
    pub split_depth: u32,
    /// Placed queens, 1-based `[row, col]`.
    pub placed: Vec<[usize; 2]>,
    /// The plan's fingerprint.
    pub fingerprint: String,
}

impl PlanId {
    /// Refuses an id whose fingerprint is not `rebuilt`, the fingerprint of the plan this
    /// nqueens makes from the same description.
    pub fn check_fingerprint(&self, rebuilt: &str) -> Result<()> {
        if rebuilt != self.fingerprint {
            let parts = if self.algorithm == Algorithm::Quadrants {
                " or with other `quadrants.parts` (a striped plan in parts has a fingerprint of \
                 its own)"
            } else {
                ""
            };
            return Err(Error::Input(format!(
                "plan fingerprint {} is not this nqueens' plan {rebuilt} for {}: made by a \
                 different version{parts}",
                self.fingerprint,
                self.describe()
            )));
        }
        Ok(())
    }

    /// What differs between this id and `other`, field by field (`split depth 2, not 0`), or
    /// nothing when they are the same.
    pub fn differences(&self, other: &PlanId) -> String {
        let mut v = Vec::new();
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                v.push(format!("{what} {a}, not {b}"));
            }
        };
        differ("N", self.n.to_string(), other.n.to_string());
        differ(
            "algorithm",
            self.algorithm.to_string(),
            other.algorithm.to_string(),
        );
        differ(
            "split depth",
            self.split_depth.to_string(),
            other.split_depth.to_string(),
        );
        differ(
            "placed queens",
            format!("{:?}", self.placed),
            format!("{:?}", other.placed),
        );
        differ(
            "fingerprint",
            self.fingerprint.clone(),
            other.fingerprint.clone(),
        );
        v.join(", ")
    }

    /// `N=17, algorithm symmetric, split depth 2[, placed 1:2 ...]`.
    pub fn describe(&self) -> String {
        let placed = if self.placed.is_empty() {
            String::new()
        } else {
            format!(", placed {}", nqueens_board::format::squares(&self.placed))
        };
        format!(
            "N={}, algorithm {}, split depth {}{placed}",
            self.n, self.algorithm, self.split_depth
        )
    }
}
