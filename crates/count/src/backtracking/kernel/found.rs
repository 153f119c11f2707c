//! What a kernel found below a task's fixed queens: every kernel's output, the GPU's too.

/// What a kernel found below a task's fixed queens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Found {
    /// Completions (unweighted).
    pub solutions: u64,
    /// Queens placed by the search.
    pub nodes: u64,
}
