//! `tidy` checks the conventions of CONTRIBUTING.md that a program can check, and fails naming
//! the file and line that break one. `.ci/conventions` runs it; so does its own test
//! (`cargo test -p tidy`), on this repository.
//!
//! Each check is a module with one `check` function that reads the [`Tree`] and returns the
//! [`Problem`]s it finds. Some places may break a rule for a stated reason: they are listed in
//! [`allow`], and an entry that no longer matches anything is itself a problem, so the list
//! cannot outlive its reasons.

mod allow;
mod commit_subjects;
mod file_length;
mod fn_length;
mod folder_size;
mod gpu_room;
mod history_refs;
mod import_cycles;
mod layers;
mod modules;
mod nested_tuples;
mod standalone;
mod tree;
mod tuple_types;
mod type_names;

use std::path::PathBuf;
use std::process::ExitCode;
pub use tree::Tree;

/// One broken rule: which check found it, where (a path, with a line where there is one), and
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub check: &'static str,
    pub place: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} [{}]", self.place, self.message, self.check)
    }
}

/// Every check over `tree`, with the allowed places taken out; stale allowances are problems.
pub fn check_all(tree: &Tree) -> Vec<Problem> {
    let mut found = Vec::new();
    found.extend(file_length::check(tree));
    found.extend(fn_length::check(tree));
    found.extend(folder_size::check(tree));
    found.extend(import_cycles::check(tree));
    found.extend(gpu_room::check(tree));
    found.extend(layers::check(tree));
    found.extend(standalone::check(tree));
    found.extend(tuple_types::check(tree));
    found.extend(nested_tuples::check(tree));
    found.extend(type_names::check(tree));
    found.extend(history_refs::check(tree));
    allow::apply(found)
}

const USAGE: &str = "usage: tidy [ROOT] [--commits BASE]
  ROOT            the repository to check (default: the current folder)
  --commits BASE  also check the subjects of the commits BASE..HEAD (at most 72 characters)";

fn main() -> ExitCode {
    let mut root = PathBuf::from(".");
    let mut base = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--commits" => match args.next() {
                Some(b) => base = Some(b),
                None => return usage("--commits needs a revision"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            a if a.starts_with('-') => return usage(&format!("unknown option {a}")),
            a => root = PathBuf::from(a),
        }
    }
    let tree = match Tree::read(&root) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tidy: cannot read {}: {e}", root.display());
            return ExitCode::from(2);
        }
    };
    let mut problems = check_all(&tree);
    if let Some(base) = base {
        problems.extend(commit_subjects::check(&root, &base));
    }
    for p in &problems {
        println!("{p}");
    }
    if problems.is_empty() {
        println!(
            "tidy: {} files keep the conventions (CONTRIBUTING.md)",
            tree.files.len()
        );
        ExitCode::SUCCESS
    } else {
        println!(
            "tidy: {} problems (CONTRIBUTING.md says what each rule asks)",
            problems.len()
        );
        ExitCode::from(1)
    }
}

fn usage(what: &str) -> ExitCode {
    eprintln!("tidy: {what}\n{USAGE}");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    /// The repository this crate lives in keeps its own conventions.
    #[test]
    fn the_repository_keeps_its_conventions() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let tree = super::Tree::read(&root).unwrap();
        let problems = super::check_all(&tree);
        let listed: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert!(problems.is_empty(), "{}", listed.join("\n"));
    }
}
