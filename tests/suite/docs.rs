//! Every console example of the README and the guide, run against the real binary: a doc
//! that drifts from what the program does fails here. And every link between the docs leads
//! somewhere.

use std::path::{Path, PathBuf};

#[test]
fn console_examples_in_the_docs() {
    trycmd::TestCases::new()
        .case("README.md")
        .case("docs/guide/*.md");
}

/// The Markdown files a reader moves between.
fn doc_files() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md")];
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out
}

/// The anchors of a Markdown file's headings, as GitHub makes them.
fn anchors(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// The relative links `[text](target)` of a Markdown text.
fn links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(link, _)| link.to_string()))
        .filter(|l| !l.starts_with("http") && !l.contains(' '))
        .collect()
}

#[test]
fn every_link_between_the_docs_leads_somewhere() {
    let mut broken = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for link in links(&text) {
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap_or(Path::new("")).join(path)
            };
            if !target.exists() {
                broken.push(format!("{}: {link} (no such file)", file.display()));
            } else if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let there = std::fs::read_to_string(&target).unwrap();
                if !anchors(&there).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {link} (no such heading)", file.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// docs/ARCHITECTURE.md's table of files names files that exist, and in each row the
/// snake_case items it names (functions, constants' modules) are in that file or folder (it
/// named `orbit_size` after it was gone, and `src/count/plan.rs` after the backtracking
/// method moved into its own folder).
#[test]
fn the_architecture_names_files_and_items_that_exist() {
    let text = std::fs::read_to_string("docs/ARCHITECTURE.md").unwrap();
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| l.starts_with("| `src/") || l.starts_with("| `crates/"))
    {
        let path = line[3..].split('`').next().unwrap();
        let p = Path::new(path);
        assert!(
            p.exists(),
            "ARCHITECTURE names {path}, which does not exist"
        );
        let source = if p.is_dir() {
            let mut all = String::new();
            let mut dirs = vec![p.to_path_buf()];
            while let Some(d) = dirs.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let e = e.unwrap().path();
                    if e.is_dir() {
                        dirs.push(e);
                    } else {
                        all += &std::fs::read_to_string(&e).unwrap_or_default();
                    }
                }
            }
            all
        } else {
            std::fs::read_to_string(p).unwrap()
        };
        // Code spans in double backticks quote text (an option's name), not an item.
        let cells: String = line
            .split(" | ")
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
            .split("``")
            .step_by(2)
            .collect();
        for item in cells.split('`').skip(1).step_by(2) {
            let snake = item.len() > 3
                && item.contains('_')
                && item
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
            if snake {
                assert!(
                    source.contains(item),
                    "ARCHITECTURE says {path} has `{item}`, which it does not"
                );
            }
        }
        rows += 1;
    }
    assert!(rows > 20, "{rows} rows read");
    for moved in [
        "plan.rs",
        "task.rs",
        "kernel",
        "backtrack.rs",
        "rotational.rs",
    ] {
        assert!(
            Path::new("crates/count/src/backtracking")
                .join(moved)
                .exists(),
            "{moved}"
        );
        assert!(
            !Path::new("crates/count/src").join(moved).exists(),
            "{moved}"
        );
    }
}
