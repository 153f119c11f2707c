//! Finding solutions: the first in backtracking order, all of them as a stream, an explicit
//! construction for any size, the completion of placed queens, and the search made visible
//! (trace and tree). A plain textbook backtracker ([`reference`](mod@reference)) checks the fast code.

pub mod complete;
pub mod construct;
pub mod enumerate;
pub mod reference;
pub mod trace;
