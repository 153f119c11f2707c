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
    let mut previous = String::new();
    for (i, line) in text.lines().enumerate() {
        let here = line.to_lowercase();
        // A comment wrapped between "row" or "issue" and its number: the line before's last
        // word, then this line without its comment marker.
        let words = here
            .trim_start()
            .trim_start_matches(['/', '!', '*', '#'])
            .trim_start();
        let last = previous
            .split_whitespace()
            .last()
            .unwrap_or("")
            .trim_start_matches(|c: char| !c.is_alphanumeric());
        let wrapped = |word: &str| {
            last == word && words.starts_with(|c: char| c.is_ascii_digit() || c == '#')
        };
        let names_log = |l: &str| {
            l.contains("performance") || l.split(|c: char| !c.is_alphanumeric()).any(|w| w == "log")
        };
        let what = if number_after(&here, "issue ")
            || number_after(&here, "issue #")
            || wrapped("issue")
        {
            "an issue"
        } else if (number_after(&here, "row ") && names_log(&here))
            || (wrapped("row") && names_log(&previous))
        {
            "a row of the performance log"
        } else {
            previous = here;
            continue;
        };
        previous = here;
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
                    // the log keeps it\n\
                    // as the performance log says in its row\n\
                    // 65, and (log row 64: so), as in (issue\n\
                    // 56)\n";
        let found = check_text("crates/count/src/gpu/leaves.cu", text);
        let lines: Vec<&str> = found.iter().map(|p| p.place.as_str()).collect();
        assert_eq!(
            lines,
            [
                "crates/count/src/gpu/leaves.cu:1",
                "crates/count/src/gpu/leaves.cu:2",
                "crates/count/src/gpu/leaves.cu:4",
                "crates/count/src/gpu/leaves.cu:7",
                "crates/count/src/gpu/leaves.cu:8"
            ]
        );
    }
}
