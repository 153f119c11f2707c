//! The layers depend one way. Each layer is a crate of the workspace, and the compiler refuses
//! a path into a crate that is not a dependency; this check keeps the dependencies themselves
//! pointing down: a package's `Cargo.toml` names only the layers below it ([`LAYERS`]), and a
//! dev-dependency (for tests) may also name a layer beside it, never one above.
//!
//! Within the count layer, the methods' own modules are its inside: the long runs reach a
//! method only through `Job`, its `Counter` and its `Slices` ([`METHOD_ROOMS`]), so that a
//! method may change without the long runs noticing. Their tests may reach further.

use crate::{Problem, Tree};

/// Each package of the workspace and its floor, from the bottom: a package may depend on a
/// package of a lower floor only.
pub const LAYERS: &[(&str, u32)] = &[
    ("nqueens-board", 0),
    ("nqueens-gpu-port", 0),
    ("nqueens-solve", 1),
    ("nqueens-count", 1),
    ("nqueens-longrun", 2),
    ("nqueens", 3),
];

fn floor(package: &str) -> Option<u32> {
    LAYERS.iter().find(|(p, _)| *p == package).map(|&(_, f)| f)
}

/// The count layer's modules that hold its methods, which the long runs do not name.
pub const METHOD_ROOMS: [&str; 3] = [
    "nqueens_count::quadrants",
    "nqueens_count::backtracking",
    "nqueens_count::gpu",
];

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    for (path, text) in &tree.manifests {
        found.extend(check_manifest(path, text));
    }
    for file in &tree.files {
        if file.path.starts_with("crates/longrun/src/") {
            found.extend(check_doors(&file.path, &file.text));
        }
    }
    found
}

/// The lines of a long-run source, before its tests, that name a method's own module.
fn check_doors(path: &str, text: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let Some(room) = METHOD_ROOMS.iter().find(|r| code.contains(*r)) else {
            continue;
        };
        found.push(Problem {
            check: "layers",
            place: format!("{path}:{}", i + 1),
            message: format!(
                "a long run names `{room}`: reach a method through `Job`, its `Counter` or its \
                 `Slices` (CONTRIBUTING.md, \"Rooms\")"
            ),
        });
    }
    found
}

/// The problems of one `Cargo.toml`: every layer it names that is not below it.
fn check_manifest(path: &str, text: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    let mut package = None;
    let mut section = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_end_matches(".workspace").trim();
        if section == "package" && key == "name" {
            package = Some(value.trim().trim_matches('"').to_string());
            continue;
        }
        let dev = section.ends_with("dev-dependencies");
        if !section.ends_with("dependencies") {
            continue;
        }
        let (Some(own), Some(theirs)) = (package.as_deref().and_then(floor), floor(key)) else {
            continue;
        };
        if theirs < own || (dev && theirs == own) {
            continue;
        }
        found.push(Problem {
            check: "layers",
            place: format!("{path}:{}", i + 1),
            message: format!(
                "{} depends on {key}, which is not below it: the layers, from the bottom, \
                 are board; solve and count; longrun; nqueens (CONTRIBUTING.md)",
                package.as_deref().unwrap_or("this package"),
            ),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_that_depends_upward_is_named() {
        let solve = "[package]\nname = \"nqueens-solve\"\n\n[dependencies]\n\
                     nqueens-board.workspace = true\nnqueens-count.workspace = true\n";
        let found = check_manifest("crates/solve/Cargo.toml", solve);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "crates/solve/Cargo.toml:6");
        assert!(found[0].message.contains("nqueens-count"));
    }

    #[test]
    fn tests_may_use_a_layer_beside_but_not_above() {
        let count = "[package]\nname = \"nqueens-count\"\n\n[dev-dependencies]\n\
                     nqueens-solve.workspace = true\nnqueens-longrun = { path = \"../longrun\" }\n";
        let found = check_manifest("crates/count/Cargo.toml", count);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "crates/count/Cargo.toml:6");
    }

    #[test]
    fn a_long_run_that_reaches_into_a_method_is_named() {
        let text = "use nqueens_count::quadrants::Quadrants;\n\
                    use nqueens_count::{Job, Options};\n\
                    // not nqueens_count::backtracking, a comment\n\
                    #[cfg(test)]\n\
                    mod tests { use nqueens_count::backtracking::plan::Plan; }\n";
        let found = check_doors("crates/longrun/src/audit/quadrant.rs", text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "crates/longrun/src/audit/quadrant.rs:1");
        assert!(found[0].message.contains("nqueens_count::quadrants"));
    }
}
