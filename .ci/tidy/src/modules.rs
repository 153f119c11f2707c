//! Where each module of the workspace's crates lives, and which file a path in the code leads
//! to. A path is resolved as the compiler would for the module part: `crate::`, `super::`,
//! `self::`, another crate of the workspace by its name (`nqueens_count::`, or `nqueens::` from
//! the binary), or a child module's name; the longest prefix that is a module names the file.

use crate::tree::SourceFile;
use std::collections::HashMap;

/// A crate of the workspace, by the name its users write (`nqueens`, `nqueens_count`), or
/// [`BIN`] for the binary (`src/main.rs` and `src/cli/`).
pub type Crate = String;

/// The binary's crate name here (not one a path can name).
pub const BIN: &str = "nqueens (the binary)";

/// A module: its crate and its path from the crate's root.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Module {
    pub krate: Crate,
    pub path: Vec<String>,
}

impl Module {
    fn new(krate: &str, path: Vec<String>) -> Module {
        Module {
            krate: krate.to_string(),
            path,
        }
    }
}

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

    /// The module file `i` holds, if it is a crate's source.
    pub fn of(&self, i: usize) -> Option<&Module> {
        self.of_file[i].as_ref()
    }

    /// The file that the path `segments`, written in file `from`, leads to (`None` for a path
    /// outside the crate: std, another crate, a local item).
    pub fn resolve(&self, from: usize, segments: &[String]) -> Option<usize> {
        let Module { krate, path: here } = self.of(from)?;
        let (first, rest) = segments.split_first()?;
        let mut path = match first.as_str() {
            "crate" => vec![],
            "self" => here.clone(),
            "super" => here[..here.len().checked_sub(1)?].to_vec(),
            name => {
                let mut child = here.clone();
                child.push(name.to_string());
                if !self.file_of.contains_key(&Module::new(krate, child)) {
                    let other = Module::new(name, vec![]);
                    if name != krate && self.file_of.contains_key(&other) {
                        return self.longest(other, rest);
                    }
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
        self.longest(Module::new(krate, path), rest)
    }

    /// The file of the deepest module among `start` followed by a prefix of `rest`.
    fn longest(&self, start: Module, rest: &[String]) -> Option<usize> {
        let Module { krate, mut path } = start;
        let mut best = self
            .file_of
            .get(&Module::new(&krate, path.clone()))
            .copied();
        for s in rest {
            path.push(s.clone());
            match self.file_of.get(&Module::new(&krate, path.clone())) {
                Some(&f) => best = Some(f),
                None => break,
            }
        }
        best
    }
}

/// The module a crate's source file holds: `src/` is the `nqueens` package (its library, and
/// its binary in `main.rs` and `cli/`), `crates/NAME/src/` the layer `nqueens_NAME`.
fn module_of(path: &str) -> Option<Module> {
    let (krate, rel) = match path.strip_prefix("crates/") {
        Some(layer) => {
            let (dir, inner) = layer.split_once('/')?;
            (format!("nqueens_{}", dir.replace('-', "_")), inner)
        }
        None => ("nqueens".to_string(), path),
    };
    let rel = rel.strip_prefix("src/")?.strip_suffix(".rs")?;
    let bin = krate == "nqueens" && (rel == "main" || rel.starts_with("cli/"));
    let krate = if bin { BIN.to_string() } else { krate };
    if rel == "lib" || rel == "main" {
        return Some(Module::new(&krate, vec![]));
    }
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(Module { krate, path: parts })
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

    #[test]
    fn paths_lead_into_the_layers_under_crates() {
        let tree = Tree::of(&[
            ("src/lib.rs", ""),
            ("src/main.rs", ""),
            ("src/cli/mod.rs", ""),
            ("crates/board/src/lib.rs", ""),
            ("crates/board/src/spec.rs", ""),
            ("crates/count/src/lib.rs", ""),
            ("crates/count/src/engine.rs", ""),
            ("crates/count/src/quadrants/mod.rs", ""),
        ]);
        let m = Modules::new(&tree.files);
        let file = |p: &str| tree.files.iter().position(|f| f.path == p).unwrap();
        let quadrants = file("crates/count/src/quadrants/mod.rs");
        assert_eq!(
            m.resolve(quadrants, &segs("crate::engine::Counter")),
            Some(file("crates/count/src/engine.rs"))
        );
        assert_eq!(
            m.resolve(quadrants, &segs("nqueens_board::spec::Spec")),
            Some(file("crates/board/src/spec.rs"))
        );
        let cli = file("src/cli/mod.rs");
        assert_eq!(
            m.resolve(cli, &segs("nqueens_count::engine::run")),
            Some(file("crates/count/src/engine.rs"))
        );
        assert_eq!(m.resolve(cli, &segs("nqueens_gpu::Gpu")), None);
    }
}
