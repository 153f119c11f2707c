//! The repository stands alone: no tracked file names the folder beside it that the project's
//! developers share (a user's clone has nothing beside it).

use crate::{Problem, Tree};

/// What no tracked file may contain: a path into the developers' shared folder.
fn outside() -> String {
    ["..", "shared"].join("/")
}

pub fn check(tree: &Tree) -> Vec<Problem> {
    let needle = outside();
    let mut found = Vec::new();
    for path in &tree.tracked {
        let Ok(text) = std::fs::read(tree.root.join(path)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text);
        for (i, line) in text.lines().enumerate() {
            if line.contains(&needle) {
                found.push(Problem {
                    check: "standalone",
                    place: format!("{path}:{}", i + 1),
                    message: format!(
                        "names {needle}, which a clone of the repository does not have"
                    ),
                });
            }
        }
    }
    found
}
