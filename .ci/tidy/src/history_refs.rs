//! History lives in the performance log and in git, not in the source: no source file (Rust,
//! CUDA or C, under a package's `src/`, `tests/`, `benches/` or `examples/`) cites an issue by
//! number ("issue 58", "#58") or a row of the performance log ("row 48 of the log",
//! "PERFORMANCE.md row 48"). Say what was found instead, or name the log without a row.

use crate::{Problem, Tree};

/// The kinds of file read.
const EXTENSIONS: [&str; 4] = [".rs", ".cu", ".c", ".h"];

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    for file in tree.files.iter().filter(|f| !f.path.starts_with(".ci/")) {
        found.extend(check_text(&file.path, &file.text));
    }
    for path in &tree.sources {
        if path.ends_with(".rs") || !EXTENSIONS.iter().any(|e| path.ends_with(e)) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(tree.root.join(path)) {
            found.extend(check_text(path, &text));
        }
    }
    found
}

fn check_text(path: &str, text: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let what = if number_after(&lower, "issue ") || number_after(&lower, "issue #") {
            "an issue"
        } else if number_after(&lower, "row ")
            && (lower.contains(" log") || lower.contains("performance"))
        {
            "a row of the performance log"
        } else {
            continue;
        };
        found.push(Problem {
            check: "history-refs",
            place: format!("{path}:{}", i + 1),
            message: format!(
                "cites {what} by number: say what was found (the log and git keep the history)"
            ),
        });
    }
    found
}

/// Whether `word` appears in `line` followed at once by a digit.
fn number_after(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        line[at + word.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_and_log_row_numbers_are_named() {
        let text = "// the fix of issue 58\n\
                    /* see docs/PERFORMANCE.md row 48 */\n\
                    // blocked row 5: no free square\n\
                    // Issue #7 says so\n\
                    // the log keeps it\n";
        let found = check_text("crates/count/src/gpu/leaves.cu", text);
        let lines: Vec<&str> = found.iter().map(|p| p.place.as_str()).collect();
        assert_eq!(
            lines,
            [
                "crates/count/src/gpu/leaves.cu:1",
                "crates/count/src/gpu/leaves.cu:2",
                "crates/count/src/gpu/leaves.cu:4"
            ]
        );
    }
}
