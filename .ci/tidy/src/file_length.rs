//! A source file keeps to [`MAX_LINES`] lines: past it, split it by concern.

use crate::{Problem, Tree};

/// The most lines a Rust source file may have.
pub const MAX_LINES: usize = 500;

pub fn check(tree: &Tree) -> Vec<Problem> {
    tree.files
        .iter()
        .filter_map(|f| {
            let lines = f.text.lines().count();
            (lines > MAX_LINES).then(|| Problem {
                check: "file-length",
                place: format!("{}:{}", f.path, MAX_LINES + 1),
                message: format!("{lines} lines: a file keeps to {MAX_LINES}; split it by concern"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_file_is_named_with_the_line_past_the_limit() {
        let long = "fn f() {}\n".repeat(MAX_LINES + 1);
        let short = "fn f() {}\n".repeat(MAX_LINES);
        let tree = Tree::of(&[("src/long.rs", &long), ("src/short.rs", &short)]);
        let found = check(&tree);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "src/long.rs:501");
    }
}
