//! The quadrant method's plan: which row sets each task counts. A task is a range of ranks of
//! the combinations of one middle configuration's free rows, found by unranking
//! (`combinations.rs`), never stored; how large the tasks are, and from which N the plan is
//! striped or the record plan, is `tasksize.rs`'s.

mod combinations;
mod layout;
pub(in crate::quadrants) mod tasksize;

pub use self::layout::{applies, MAX_N, MIN_N};
pub(in crate::quadrants) use self::layout::{Layout, Part, QTask, RowSet};
