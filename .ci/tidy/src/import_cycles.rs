//! No files import each other in a circle. An import is any path in a file's code (a `use`, or
//! a path in an expression or a type) that leads to another file's module; a `mod` line is not
//! one, and tests (`#[cfg(test)]` modules and test files) are left out. A `mod.rs` that
//! re-exports a file's items imports that file, so a file that imports its own `mod.rs` and is
//! re-exported by it closes a circle.

use crate::fn_length::is_test;
use crate::modules::Modules;
use crate::{Problem, Tree};
use std::collections::BTreeMap;
use syn::visit::Visit;

pub fn check(tree: &Tree) -> Vec<Problem> {
    let modules = Modules::new(&tree.files);
    // For each file, the files it imports and the first line where it does.
    let mut edges: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new(); tree.files.len()];
    for (i, file) in tree.files.iter().enumerate() {
        let (Some(syntax), Some(_)) = (&file.syntax, modules.of(i)) else {
            continue;
        };
        if file.is_test() {
            continue;
        }
        let mut paths = Paths::default();
        paths.visit_file(syntax);
        for (segments, line) in paths.found {
            if let Some(to) = modules.resolve(i, &segments) {
                if to != i {
                    edges[i].entry(to).or_insert(line);
                }
            }
        }
    }
    circles(&edges)
        .into_iter()
        .map(|circle| {
            let names: Vec<String> = circle
                .iter()
                .enumerate()
                .map(|(k, &f)| {
                    let next = circle[(k + 1) % circle.len()];
                    format!(
                        "{}:{} imports {}",
                        tree.files[f].path, edges[f][&next], tree.files[next].path
                    )
                })
                .collect();
            Problem {
                check: "import-cycles",
                place: tree.files[circle[0]].path.clone(),
                message: format!("files import each other in a circle: {}", names.join("; ")),
            }
        })
        .collect()
}

/// Every path of a file outside its tests, with its line.
#[derive(Default)]
struct Paths {
    found: Vec<(Vec<String>, usize)>,
}

impl Paths {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, line: usize) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, line);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.push(prefix, Some(&n.ident), line),
            syn::UseTree::Rename(r) => self.push(prefix, Some(&r.ident), line),
            syn::UseTree::Glob(_) => self.push(prefix, None, line),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t, line);
                }
            }
        }
    }

    fn push(&mut self, prefix: &[String], last: Option<&syn::Ident>, line: usize) {
        let mut path = prefix.to_vec();
        if let Some(id) = last.filter(|id| *id != "self") {
            path.push(id.to_string());
        }
        if !path.is_empty() {
            self.found.push((path, line));
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_test(&u.attrs) {
            return;
        }
        let line = u.use_token.span.start().line;
        self.use_tree(&mut Vec::new(), &u.tree, line);
    }

    /// `pub(super)` and `pub(crate)` name who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(first) = p.segments.first() {
            self.found.push((segments, first.ident.span().start().line));
        }
        syn::visit::visit_path(self, p);
    }
}

/// The circles of a graph: each strongly connected part of more than one node (Tarjan's
/// algorithm), its nodes in an order that follows edges where one is found.
fn circles(edges: &[BTreeMap<usize, usize>]) -> Vec<Vec<usize>> {
    let parts = strongly_connected(edges);
    parts
        .into_iter()
        .filter(|p| p.len() > 1)
        .map(|part| walk_around(edges, &part))
        .collect()
}

/// A circle through the first node of `part`, found by a breadth-first search inside it.
fn walk_around(edges: &[BTreeMap<usize, usize>], part: &[usize]) -> Vec<usize> {
    let start = *part.iter().min().expect("a part has nodes");
    let inside = |n: &usize| part.contains(n);
    let mut from: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for &m in edges[n].keys().filter(|m| inside(m)) {
            if m == start {
                let mut circle = vec![n];
                while let Some(&p) = from.get(circle.last().unwrap()) {
                    circle.push(p);
                }
                circle.reverse();
                return circle;
            }
            if let std::collections::btree_map::Entry::Vacant(e) = from.entry(m) {
                e.insert(n);
                queue.push_back(m);
            }
        }
    }
    part.to_vec()
}

fn strongly_connected(edges: &[BTreeMap<usize, usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeMap<usize, usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        parts: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        let targets: Vec<usize> = s.edges[v].keys().copied().collect();
        for w in targets {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut part = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                part.push(w);
                if w == v {
                    break;
                }
            }
            s.parts.push(part);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        parts: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_circle_is_named_with_each_import() {
        let tree = Tree::of(&[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
            ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
            (
                "src/b.rs",
                "pub struct B;\n\nfn f() {\n    crate::c::g();\n}\n",
            ),
            ("src/c.rs", "use super::a::A;\npub fn g() {}\n"),
        ]);
        let found = check(&tree);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].message,
            "files import each other in a circle: src/a.rs:1 imports src/b.rs; src/b.rs:4 \
             imports src/c.rs; src/c.rs:1 imports src/a.rs"
        );
    }

    #[test]
    fn imports_one_way_and_tests_make_no_circle() {
        let tree = Tree::of(&[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\npub use c::c;\n"),
            ("src/a.rs", "use crate::b::B;\n"),
            (
                "src/b.rs",
                "pub(crate) struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
            ),
            ("src/c.rs", "pub(super) fn c() {}\n"),
        ]);
        assert!(check(&tree).is_empty());
    }
}
