//! The files the checks read: every Rust source of the repository's own crates, parsed once,
//! and every file git tracks (for the checks that read text of any kind).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One Rust source file.
pub struct SourceFile {
    /// The path from the repository's root, with `/` between folders.
    pub path: String,
    pub text: String,
    /// The parsed file; `None` where syn cannot parse it (a check that needs it says so).
    pub syntax: Option<syn::File>,
}

impl SourceFile {
    /// Whether the file is a crate's source: under `src/` or a layer's `crates/NAME/src/`.
    pub fn is_source(&self) -> bool {
        let inner = match self.path.strip_prefix("crates/") {
            Some(layer) => layer.split_once('/').map_or("", |(_, rest)| rest),
            None => &self.path,
        };
        inner.starts_with("src/")
    }

    /// Whether the file holds tests only: `tests/`, or a `tests.rs` beside the code it tests.
    pub fn is_test(&self) -> bool {
        self.path.starts_with("tests/")
            || self.path.ends_with("/tests.rs")
            || self.path.contains("/tests/")
    }
}

/// What the checks read.
pub struct Tree {
    pub root: PathBuf,
    /// The Rust sources of the crates: `src/`, `tests/`, `benches/`, `examples/`, `build.rs`,
    /// the same of each layer under `crates/`, and this checker's own.
    pub files: Vec<SourceFile>,
    /// Every file git tracks, by its path from the root (empty outside a git checkout).
    pub tracked: Vec<String>,
    /// Every file under `src/` and each layer's `crates/NAME/src/` in the working tree, of any
    /// kind (sources, kernels in C and CUDA), by its path from the root.
    pub sources: Vec<String>,
    /// Each package's `Cargo.toml`: its path from the root, and its text.
    pub manifests: Vec<(String, String)>,
}

/// The folders of a package whose Rust files are the project's own.
const SOURCE_DIRS: [&str; 4] = ["src", "tests", "benches", "examples"];

/// The folder of each package of the workspace: the root, then each layer under `crates/`.
fn packages(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = vec![root.to_path_buf()];
    let crates = root.join("crates");
    if crates.is_dir() {
        let mut layers = Vec::new();
        for entry in std::fs::read_dir(crates)? {
            let path = entry?.path();
            if path.join("Cargo.toml").is_file() {
                layers.push(path);
            }
        }
        layers.sort();
        found.extend(layers);
    }
    Ok(found)
}

impl Tree {
    /// Reads the repository at `root`.
    pub fn read(root: &Path) -> std::io::Result<Tree> {
        let mut paths = Vec::new();
        let mut sources = Vec::new();
        let mut manifests = Vec::new();
        for base in packages(root)? {
            let manifest = base.join("Cargo.toml");
            if manifest.is_file() {
                let text = std::fs::read_to_string(&manifest)?;
                manifests.push((relative(root, &manifest), text));
            }
            for dir in SOURCE_DIRS {
                walk(&base.join(dir), &mut paths)?;
            }
            if base.join("build.rs").is_file() {
                paths.push(base.join("build.rs"));
            }
            walk_all(&base.join("src"), &mut sources)?;
        }
        walk(&root.join(".ci/tidy/src"), &mut paths)?;
        paths.sort();
        let mut files = Vec::new();
        for p in paths {
            let text = std::fs::read_to_string(&p)?;
            let syntax = syn::parse_file(&text).ok();
            let path = relative(root, &p);
            files.push(SourceFile { path, text, syntax });
        }
        sources.sort();
        Ok(Tree {
            root: root.to_path_buf(),
            files,
            tracked: tracked(root),
            sources: sources.iter().map(|p| relative(root, p)).collect(),
            manifests,
        })
    }

    /// A tree of the given files, for the checks' tests.
    #[cfg(test)]
    pub fn of(files: &[(&str, &str)]) -> Tree {
        Tree {
            root: PathBuf::from("."),
            files: files
                .iter()
                .map(|(path, text)| SourceFile {
                    path: path.to_string(),
                    text: text.to_string(),
                    syntax: syn::parse_file(text).ok(),
                })
                .collect(),
            tracked: files.iter().map(|(p, _)| p.to_string()).collect(),
            sources: files.iter().map(|(p, _)| p.to_string()).collect(),
            manifests: Vec::new(),
        }
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// Every file under `dir`, of any kind.
fn walk_all(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk_all(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn relative(root: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(root).unwrap_or(p);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The files git tracks under `root` (none where git or the checkout is missing).
fn tracked(root: &Path) -> Vec<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .split('\0')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}
