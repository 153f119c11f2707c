//! Faults put into the method on purpose, in test builds only: what the tests use to show
//! which checks catch a wrong method ([`super::slice`]) and which do not (a recount by the same
//! method). A fault is set for the thread that counts, so tests running beside it are not
//! touched.

use std::cell::Cell;

/// A fault of the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// None: the method as it is.
    None,
    /// The join drops the first half-board of every side it builds.
    DropHalfBoard,
    /// The matcher counts one pair too many in the first block of every count with queries.
    MiscountBlock,
}

thread_local! {
    static FAULT: Cell<Fault> = const { Cell::new(Fault::None) };
}

/// Puts `fault` into the method, for this thread.
pub fn set(fault: Fault) {
    FAULT.with(|f| f.set(fault));
}

/// Whether this thread's method has `fault`.
pub fn is(fault: Fault) -> bool {
    FAULT.with(|f| f.get() == fault)
}
