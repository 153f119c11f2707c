//! A source folder holds at most [`MAX_FILES`] files directly: past it, group them in folders
//! by concern.

use crate::{Problem, Tree};
use std::collections::BTreeMap;

/// Whether `folder` is under a package's `src/` (the root's, or a layer's in `crates/`).
pub fn is_source_folder(folder: &str) -> bool {
    let inner = match folder.strip_prefix("crates/") {
        Some(layer) => layer.split_once('/').map_or("", |(_, rest)| rest),
        None => folder,
    };
    inner == "src" || inner.starts_with("src/")
}

/// The most files a folder under `src/` may hold directly.
pub const MAX_FILES: usize = 15;

pub fn check(tree: &Tree) -> Vec<Problem> {
    let mut by_folder: BTreeMap<&str, usize> = BTreeMap::new();
    for path in &tree.sources {
        if let Some((folder, _)) = path.rsplit_once('/') {
            if is_source_folder(folder) {
                *by_folder.entry(folder).or_default() += 1;
            }
        }
    }
    by_folder
        .into_iter()
        .filter(|&(_, n)| n > MAX_FILES)
        .map(|(folder, n)| Problem {
            check: "folder-size",
            place: format!("{folder}/"),
            message: format!(
                "{n} files: a folder holds at most {MAX_FILES} directly; group them by concern"
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crowded_folder_is_named() {
        let names: Vec<String> = (0..=MAX_FILES).map(|i| format!("src/a/f{i}.rs")).collect();
        let mut files: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "")).collect();
        files.push(("src/b/one.rs", ""));
        let found = check(&Tree::of(&files));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "src/a/");
    }
}
