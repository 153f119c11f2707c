//! Where each module of the crate and its binary lives, and which file a path in the code
//! leads to. A path is resolved as the compiler would for the module part: `crate::`,
//! `super::`, `self::`, the library's name from the binary, or a child module's name; the
//! longest prefix that is a module names the file.

use crate::tree::SourceFile;
use std::collections::HashMap;

/// The library (`src/lib.rs`) or the binary (`src/main.rs` and `src/cli/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Crate {
    Lib,
    Bin,
}

/// A module: its crate and its path from the crate's root.
pub type Module = (Crate, Vec<String>);

/// The library's name, as the binary writes it.
const LIB_NAME: &str = "nqueens";

/// The module of each file under `src/`, and the file of each module.
pub struct Modules {
    of_file: Vec<Option<Module>>,
    file_of: HashMap<Module, usize>,
}

impl Modules {
    pub fn new(files: &[SourceFile]) -> Modules {
        let of_file: Vec<Option<Module>> = files.iter().map(|f| module_of(&f.path)).collect();
        let file_of = of_file
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.clone().map(|m| (m, i)))
            .collect();
        Modules { of_file, file_of }
    }

    /// The module file `i` holds, if it is under `src/`.
    pub fn of(&self, i: usize) -> Option<&Module> {
        self.of_file[i].as_ref()
    }

    /// The file that the path `segments`, written in file `from`, leads to (`None` for a path
    /// outside the crate: std, another crate, a local item).
    pub fn resolve(&self, from: usize, segments: &[String]) -> Option<usize> {
        let (krate, here) = self.of(from)?;
        let (first, rest) = segments.split_first()?;
        let mut path = match first.as_str() {
            "crate" => vec![],
            "self" => here.clone(),
            "super" => here[..here.len().checked_sub(1)?].to_vec(),
            name if name == LIB_NAME && *krate == Crate::Bin => {
                return self.longest((Crate::Lib, vec![]), rest);
            }
            name => {
                let mut child = here.clone();
                child.push(name.to_string());
                if !self.file_of.contains_key(&(*krate, child)) {
                    return None;
                }
                here.clone()
            }
        };
        let mut rest = if matches!(first.as_str(), "crate" | "self" | "super") {
            rest
        } else {
            segments
        };
        // Further `super`s climb on.
        while rest.first().is_some_and(|s| s == "super") {
            path.pop()?;
            rest = &rest[1..];
        }
        self.longest((*krate, path), rest)
    }

    /// The file of the deepest module among `start` followed by a prefix of `rest`.
    fn longest(&self, start: Module, rest: &[String]) -> Option<usize> {
        let (krate, mut path) = start;
        let mut best = self.file_of.get(&(krate, path.clone())).copied();
        for s in rest {
            path.push(s.clone());
            match self.file_of.get(&(krate, path.clone())) {
                Some(&f) => best = Some(f),
                None => break,
            }
        }
        best
    }
}

/// The module a file under `src/` holds.
fn module_of(path: &str) -> Option<Module> {
    let rel = path.strip_prefix("src/")?.strip_suffix(".rs")?;
    match rel {
        "lib" => return Some((Crate::Lib, vec![])),
        "main" => return Some((Crate::Bin, vec![])),
        _ => {}
    }
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    let krate = if parts.first().is_some_and(|p| p == "cli") {
        Crate::Bin
    } else {
        Crate::Lib
    };
    Some((krate, parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tree;

    fn segs(p: &str) -> Vec<String> {
        p.split("::").map(str::to_string).collect()
    }

    #[test]
    fn paths_lead_to_the_files_of_their_modules() {
        let tree = Tree::of(&[
            ("src/lib.rs", ""),
            ("src/main.rs", ""),
            ("src/count/mod.rs", ""),
            ("src/count/engine.rs", ""),
            ("src/count/quadrants/mod.rs", ""),
            ("src/count/quadrants/plan.rs", ""),
            ("src/cli/mod.rs", ""),
        ]);
        let m = Modules::new(&tree.files);
        let file = |p: &str| tree.files.iter().position(|f| f.path == p).unwrap();
        let plan = file("src/count/quadrants/plan.rs");
        assert_eq!(
            m.resolve(plan, &segs("crate::count::engine::Counter")),
            Some(file("src/count/engine.rs"))
        );
        assert_eq!(
            m.resolve(plan, &segs("super::super::engine::run")),
            Some(file("src/count/engine.rs"))
        );
        assert_eq!(
            m.resolve(plan, &segs("super::Quadrants")),
            Some(file("src/count/quadrants/mod.rs"))
        );
        assert_eq!(m.resolve(plan, &segs("std::io::Read")), None);
        let count = file("src/count/mod.rs");
        assert_eq!(
            m.resolve(count, &segs("quadrants::plan::Layout")),
            Some(plan)
        );
        let cli = file("src/cli/mod.rs");
        assert_eq!(
            m.resolve(cli, &segs("nqueens::count::Options")),
            Some(count)
        );
        // The binary has no `count` module: the path stops at its root.
        let main = Some(file("src/main.rs"));
        assert_eq!(m.resolve(cli, &segs("crate::count::Options")), main);
    }
}
