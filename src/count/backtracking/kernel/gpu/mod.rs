//! Counting on a GPU: the backtracking method's tasks as many subtrees, one a GPU thread.
//!
//! A task's board ([`Spec`](crate::board::spec::Spec)) is expanded on the host to a few more rows ([`Launch::of`]):
//! each placement of its first free rows is a subtree ([`Start`]), counted by one thread of
//! the kernel (`kernel.cu`) exactly as the CPU's `fast` kernel counts it, and the task's
//! solutions and nodes are the host's part plus its subtrees' ([`Launch::finish`]): the same
//! records, to the node, as any CPU kernel's. The kernel's source is compiled for the GPU at
//! run time (the `gpu` feature) and for this CPU by `build.rs` ([`cpu`]), which the tests run.

pub mod backend;
pub mod cpu;
#[cfg(feature = "gpu")]
pub mod device;
pub mod launch;

pub use self::backend::{available, HOST_ROWS};
pub use self::launch::{Board, Launch, Start, MAX_ROWS, THREADS};
